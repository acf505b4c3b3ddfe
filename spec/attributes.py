"""Types and attributes of the subset, as small frozen dataclasses.

Types are kept as their canonical MLIR text (`memref<4xf32>`,
`!gpu.async.token`): the pass and the verifier only ask a few questions of a
type (is it a token? a memref? what is its shape?), which the helpers below
answer, and keeping the text makes the printer exact for every layout and
dialect type mlir-opt accepts. Attributes are structured where the tools look
inside them (integers, symbols, arrays, dense arrays, strings) and opaque text
otherwise (`dense<...>`, `affine_map<...>`, `#arith.fastmath<none>`).
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass

_WS = re.compile(r"\s+")
_TIGHT = re.compile(r"\s*([<>\[\]()])\s*")


def canonical_type_text(text: str) -> str:
    """Normalise the spelling of a type as mlir-opt would print it."""
    text = _WS.sub(" ", text.strip())
    if "<" not in text:
        return text
    # mlir-opt prints `memref<4xf32, strided<[1], offset: ?>>`: no blanks
    # inside brackets, one after each comma and colon.
    out = _TIGHT.sub(r"\1", text).replace("->", " -> ")
    out = re.sub(r"\s*,\s*", ", ", out)
    out = re.sub(r"\s*:\s*", ": ", out)
    out = re.sub(r"(\d|\?)\s*x\s*", r"\1x", out)
    return re.sub(r" +", " ", out)


@dataclass(frozen=True, slots=True)
class Type:
    """A type, by its canonical text."""

    text: str

    def __str__(self) -> str:
        return self.text

    @property
    def is_gpu_token(self) -> bool:
        return self.text == "!gpu.async.token"

    @property
    def is_async_token(self) -> bool:
        return self.text == "!async.token"

    @property
    def is_async_value(self) -> bool:
        return self.text.startswith("!async.value<")

    @property
    def async_value_inner(self) -> Type:
        """`T` of `!async.value<T>`."""
        return Type(self.text[len("!async.value<") : -1])

    @property
    def is_memref(self) -> bool:
        return self.text.startswith("memref<")

    @property
    def is_index(self) -> bool:
        return self.text == "index"

    @property
    def int_width(self) -> int | None:
        m = re.fullmatch(r"[su]?i(\d+)", self.text)
        return int(m.group(1)) if m else None

    @property
    def is_float(self) -> bool:
        return self.text in FLOAT_BITS

    def memref_shape(self) -> tuple[int | None, ...]:
        """Static shape of a ranked memref (`None` for `?`)."""
        m = re.match(r"memref<((?:(?:\d+|\?)x)*)", self.text)
        if not m:
            return ()
        dims = [d for d in m.group(1).split("x") if d]
        return tuple(None if d == "?" else int(d) for d in dims)


INDEX = Type("index")
I1 = Type("i1")
I32 = Type("i32")
I64 = Type("i64")
F32 = Type("f32")
GPU_TOKEN = Type("!gpu.async.token")
ASYNC_TOKEN = Type("!async.token")
ASYNC_GROUP = Type("!async.group")
FLOAT_BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64, "f80": 80, "f128": 128}


def async_value_of(inner: Type) -> Type:
    return Type(f"!async.value<{inner.text}>")


@dataclass(frozen=True, slots=True)
class FunctionType:
    """`(inputs) -> results`, as a type or a `function_type` attribute."""

    inputs: tuple[Type, ...]
    results: tuple[Type, ...]

    def __str__(self) -> str:
        ins = ", ".join(map(str, self.inputs))
        if len(self.results) == 1 and not self.results[0].text.startswith("("):
            outs = str(self.results[0])
        else:
            outs = "(" + ", ".join(map(str, self.results)) + ")"
        return f"({ins}) -> {outs}"


class Attr:
    """Base of attribute values; `str()` is mlir-opt's spelling."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class IntegerAttr(Attr):
    value: int
    type: Type = I64

    def __str__(self) -> str:
        if self.type.text == "i1":
            return "true" if self.value else "false"
        return f"{self.value} : {self.type}"


@dataclass(frozen=True, slots=True, eq=False)
class FloatAttr(Attr):
    value: float
    type: Type = Type("f64")
    hex_bits: int | None = None
    """Set when the source spelled the value in hex (NaN payloads)."""

    def _key(self) -> tuple:
        # By bit pattern, so NaN equals itself and -0.0 differs from 0.0.
        bits = self.hex_bits if self.hex_bits is not None else float_bits(self.value, self.type)
        return (bits, self.type)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FloatAttr) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        return f"{format_float(self.value, self.type, self.hex_bits)} : {self.type}"


@dataclass(frozen=True, slots=True)
class StringAttr(Attr):
    value: str

    def __str__(self) -> str:
        return quote_string(self.value)


@dataclass(frozen=True, slots=True)
class UnitAttr(Attr):
    def __str__(self) -> str:
        return "unit"


@dataclass(frozen=True, slots=True)
class TypeAttr(Attr):
    type: Type | FunctionType

    def __str__(self) -> str:
        return str(self.type)


@dataclass(frozen=True, slots=True)
class SymbolRefAttr(Attr):
    root: str
    nested: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "::".join(quote_symbol(s) for s in (self.root, *self.nested))


@dataclass(frozen=True, slots=True)
class ArrayAttr(Attr):
    elements: tuple[Attr, ...]

    def __str__(self) -> str:
        return "[" + ", ".join(map(str, self.elements)) + "]"


@dataclass(frozen=True, slots=True)
class DenseArrayAttr(Attr):
    """`array<i32: 1, 2>` (also used for `operandSegmentSizes`)."""

    element: Type
    values: tuple[int, ...]

    def __str__(self) -> str:
        if not self.values:
            return f"array<{self.element}>"
        return f"array<{self.element}: " + ", ".join(map(str, self.values)) + ">"


@dataclass(frozen=True, slots=True)
class DictAttr(Attr):
    entries: tuple[tuple[str, Attr], ...]

    def __str__(self) -> str:
        return "{" + format_attr_entries(dict(self.entries)) + "}"


@dataclass(frozen=True, slots=True)
class OpaqueAttr(Attr):
    """Any other attribute, by its canonical text (`dense<...> : T`,
    `affine_map<...>`, `#gpu<dim x>`)."""

    text: str

    def __str__(self) -> str:
        return self.text


_BARE_KEY = re.compile(r"[A-Za-z_][\w$.]*")


def format_attr_entries(entries: dict[str, Attr]) -> str:
    """`a = 1 : i64, b, c = "x"` sorted by name, as a DictionaryAttr prints."""
    parts = []
    for key in sorted(entries):
        value = entries[key]
        name = key if _BARE_KEY.fullmatch(key) else quote_string(key)
        parts.append(name if isinstance(value, UnitAttr) else f"{name} = {value}")
    return ", ".join(parts)


def quote_string(s: str) -> str:
    out = []
    # llvm::printEscapedString: backslash doubled, other printable ASCII but
    # `"` as is, everything else (quote, controls, UTF-8 bytes) as `\XX`.
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif 32 <= ord(ch) < 127 and ch != '"':
            out.append(ch)
        else:
            out.extend(f"\\{b:02X}" for b in ch.encode())
    return '"' + "".join(out) + '"'


def quote_symbol(name: str) -> str:
    if re.fullmatch(r"[A-Za-z_][\w$.]*", name):
        return "@" + name
    return "@" + quote_string(name)


def _round_to(value: float, type: Type) -> float:
    if type.text == "f32":
        return struct.unpack("<f", struct.pack("<f", value))[0]
    if type.text == "f16":
        return struct.unpack("<e", struct.pack("<e", value))[0]
    return value


def float_bits(value: float, type: Type) -> int:
    code = {"f16": "<e", "f32": "<f"}.get(type.text, "<d")
    if math.isinf(value) and code == "<e":
        return 0x7C00 if value > 0 else 0xFC00
    raw = struct.pack(code, value)
    return int.from_bytes(raw, "little")


def format_float(value: float, type: Type, hex_bits: int | None = None) -> str:
    """mlir-opt's float spelling: `%.6e` when it round-trips in `type`, else
    the shortest decimal with a point, else the bit pattern in hex."""
    if hex_bits is not None:
        return f"0x{hex_bits:0{FLOAT_BITS.get(type.text, 64) // 4}X}"
    if math.isfinite(value):
        # APFloat::toString(precision 6, no truncation): six significant
        # digits, then zero-padded to six decimals.
        mant, exp = f"{value:.5e}".split("e")
        short = f"{mant}0e{exp}"
        if _round_to(float(short), type) == value and math.copysign(1, float(short)) == math.copysign(1, value):
            return short
        # Otherwise APFloat's shortest form, used only if it has a point.
        text = repr(value)
        if value != int(value) and "e" not in text and _round_to(float(text), type) == value:
            return text
    if type.text in ("f16", "f32", "f64"):
        return f"0x{float_bits(value, type):0{FLOAT_BITS[type.text] // 4}X}"
    return repr(value)
