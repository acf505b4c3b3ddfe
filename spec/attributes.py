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

import functools
import math
import re
import struct
from dataclasses import dataclass
from typing import cast

from spec.syntax.string_literals import quote

_WS = re.compile(r"\s+")
_TIGHT = re.compile(r"\s*([<>\[\]()])\s*")
_ZERO_OFFSET = re.compile(r"(strided<\[[^\]]*\]), offset: 0+>")


def canonical_type_text(text: str) -> str:
    """Normalise the spelling of a type as mlir-opt would print it."""
    text = _WS.sub(" ", text.strip())
    if "<" not in text:
        return text
    if text.startswith("!llvm."):
        return _llvm_type_text(text)
    # mlir-opt prints `memref<4xf32, strided<[1], offset: ?>>`: no blanks
    # inside brackets, one after each comma and colon.
    out = _TIGHT.sub(r"\1", text).replace("->", " -> ")
    out = re.sub(r"\s*,\s*", ", ", out)
    out = re.sub(r"\s*:\s*", ": ", out)
    out = re.sub(r"(\d|\?|\])\s*x\s*", r"\1x", out)
    if "strided<" in out:
        # A zero offset is the default: mlir-opt-19 prints `strided<[1]>`.
        out = _ZERO_OFFSET.sub(r"\1>", out)
    return re.sub(r" +", " ", out)


def _llvm_type_text(text: str) -> str:
    """An LLVM dialect type as mlir-opt-19 prints it: `!llvm.array<2 x i32>`,
    `!llvm.func<i32 (ptr, ...)>`, `!llvm.struct<(i32, f32)>`."""
    out = re.sub(r"([<(\[])\s+", r"\1", text)
    out = re.sub(r"\s+([>)\]])", r"\1", out)
    out = re.sub(r"\s*,\s*", ", ", out)
    out = re.sub(r"array<(\d+)\s*x\s*", r"array<\1 x ", out)
    return re.sub(r"func<([^()]*?)\s*\(", r"func<\1 (", out)


def _unpickled_type(text: str) -> Type:
    """The shared `Type` of `text` (what unpickling a `Type` makes)."""
    return shared_type(Type(text))


@dataclass(frozen=True, slots=True)
class Type:
    """A type, by its canonical text."""

    text: str

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[object, ...]:
        # Unpickled as parsed: the one shared object of its text
        # (`shared_type`), which name resolution and the passes
        # compare by identity, and without dataclass's generic __setstate__.
        return (_unpickled_type, (self.text,))

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

    @property
    def vector(self) -> VectorShape | None:
        """The shape of a `vector<...>` type (`vector<[4]x8xf32>`,
        `vector<f32>`), None for any other type."""
        return vector_shape(self.text)

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

_SHARED_TYPES: dict[Type, Type] = {t: t for t in (INDEX, I1, I32, I64, GPU_TOKEN)}
_MAX_SHARED_TYPES = 65536


def shared_type(t: Type) -> Type:
    """One object per type: the attribute module's constants (`INDEX`,
    `GPU_TOKEN`, ...) for theirs, else the first made. Types are immutable
    and equal by text; sharing them lets name resolution compare a use's
    type with its definition's by identity (`resolve.resolve_ops`), and
    keeps one object per type in memory rather than one per value."""
    found = _SHARED_TYPES.get(t)
    if found is not None:
        return found
    if len(_SHARED_TYPES) < _MAX_SHARED_TYPES:
        _SHARED_TYPES[t] = t
    return t


ASYNC_TOKEN = Type("!async.token")
ASYNC_GROUP = Type("!async.group")
FLOAT_BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64, "f80": 80, "f128": 128}


@dataclass(frozen=True, slots=True)
class VectorShape:
    """A `vector<...>` type taken apart: its dims (a scalable dim, `[4]`,
    counts its base size and is flagged in `scalable`) and element type. A
    0-d vector (`vector<f32>`) has no dims."""

    sizes: tuple[int, ...]
    scalable: tuple[bool, ...]
    element: Type

    @property
    def rank(self) -> int:
        return len(self.sizes)

    def text(self, sizes: tuple[int, ...] | None = None, scalable: tuple[bool, ...] | None = None) -> str:
        """The type's text, with other dims if given (`vector<[4]x2xf32>`)."""
        sizes = self.sizes if sizes is None else sizes
        flags = self.scalable if scalable is None else scalable
        dims = "".join(f"[{n}]x" if s else f"{n}x" for n, s in zip(sizes, flags, strict=True))
        return f"vector<{dims}{self.element}>"


_VECTOR = re.compile(r"vector<((?:(?:\d+|\[\d+\])x)*)(.+)>")


@functools.lru_cache(maxsize=1024)
def vector_shape(text: str) -> VectorShape | None:
    """`VectorShape` of the canonical type text `text`, or None if it is no vector."""
    m = _VECTOR.fullmatch(text)
    if m is None:
        return None
    dims = [d for d in m.group(1).split("x") if d]
    sizes = tuple(int(d.strip("[]")) for d in dims)
    return VectorShape(sizes, tuple(d.startswith("[") for d in dims), Type(m.group(2)))


def bit_width(t: Type) -> int | None:
    """The size in bits of a scalar type as MLIR's default data layout gives
    it (`index` 64), None for other types."""
    if t.is_index:
        return 64
    return FLOAT_BITS.get(t.text) or t.int_width


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

    def _key(self) -> tuple[int, Type]:
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
        return "[" + ", ".join(map(_elided, self.elements)) + "]"


def _elided(attr: Attr) -> str:
    """An array element: MLIR elides the default types (`i64`, `f64`) of
    integers and floats inside arrays (`AttrTypeElision::May`)."""
    if isinstance(attr, IntegerAttr) and attr.type.text == "i64":
        return str(attr.value)
    if isinstance(attr, FloatAttr) and attr.type.text == "f64":
        return format_float(attr.value, attr.type, attr.hex_bits)
    return str(attr)


@dataclass(frozen=True, slots=True)
class DenseArrayAttr(Attr):
    """`array<i32: 1, 2>` (also used for `operandSegmentSizes`)."""

    element: Type
    values: tuple[int, ...] | tuple[float, ...]
    """Integers (`i1` as 0/1) or, for a float element type, floats."""

    @property
    def ints(self) -> tuple[int, ...]:
        """`values` typed as integers, for an array of an integer element
        type (`operandSegmentSizes`, `case_operand_segments`): the same
        tuple, no conversion."""
        return cast("tuple[int, ...]", self.values)

    def __str__(self) -> str:
        if not self.values:
            return f"array<{self.element}>"
        return f"array<{self.element}: " + ", ".join(format_scalar(v, self.element) for v in self.values) + ">"


def format_scalar(value: int | float, type: Type) -> str:
    """An element of a dense array or dense elements attribute."""
    if type.is_float:
        return format_float(float(value), type)
    if type.text == "i1":
        return "true" if value else "false"
    return str(value)


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
    """`s` as an MLIR string literal (`spec.syntax.string_literals.quote`:
    its bytes, non-UTF-8 ones included, as mlir-opt-19 prints them)."""
    return quote(s)


def quote_symbol(name: str) -> str:
    if re.fullmatch(r"[A-Za-z_][\w$.]*", name):
        return "@" + name
    return "@" + quote_string(name)


_PRECISION = {"f16": 11, "bf16": 8, "f32": 24, "f64": 53, "f80": 64, "f128": 113}
"""Significand bits (with the implicit one) of each float semantics."""


def round_to_type(value: float, type: Type) -> float:
    """`value` rounded to the nearest number of the float type (inf on overflow)."""
    try:
        if type.text == "f32":
            return cast(float, struct.unpack("<f", struct.pack("<f", value))[0])
        if type.text == "f16":
            return cast(float, struct.unpack("<e", struct.pack("<e", value))[0])
    except OverflowError:
        return math.copysign(math.inf, value)
    if type.text == "bf16" and math.isfinite(value):
        # The top half of the f32 pattern, rounded to nearest even.
        bits = struct.unpack("<I", struct.pack("<f", round_to_type(value, Type("f32"))))[0]
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        return cast(float, struct.unpack("<f", struct.pack("<I", bits))[0])
    return value


_round_to = round_to_type


def float_bits(value: float, type: Type) -> int:
    if type.text == "bf16":
        return float_bits(value, Type("f32")) >> 16
    code = {"f16": "<e", "f32": "<f"}.get(type.text, "<d")
    if math.isinf(value) and code == "<e":
        return 0x7C00 if value > 0 else 0xFC00
    raw = struct.pack(code, value)
    return int.from_bytes(raw, "little")


def _same(a: float, b: float) -> bool:
    return a == b and math.copysign(1, a) == math.copysign(1, b)


def _digits(value: float, count: int) -> tuple[str, int]:
    """Decimal digits of `value` (> 0) for `count` significant figures, as
    `APFloat::toString` computes them: the exact expansion is first cut
    (truncated, not rounded) to a few digits more than needed, by a
    conservative bit count, then rounded half-up on the first dropped digit;
    trailing zeros dropped. Returns (digits, exponent of the last digit).
    The truncation is why mlir-opt prints `0.699999988 : f32` rather than
    `7.000000e-01`: the cut can leave exactly `count` digits, unrounded."""
    num, den = value.as_integer_ratio()
    k = den.bit_length() - 1
    digits_int = num * 5**k
    exp = -k
    bits = digits_int.bit_length()
    required = (count * 196 + 58) // 59
    if bits > required:
        removable = (bits - required) * 59 // 196
        if removable:
            digits_int //= 10**removable
            exp += removable
    text = str(digits_int)
    stripped = text.rstrip("0")
    exp += len(text) - len(stripped)
    text = stripped
    n = len(text)
    if n <= count:
        return text, exp
    if text[count] < "5":
        kept = text[:count].rstrip("0")
        return kept, exp + n - len(kept)
    kept = text[:count].rstrip("9")
    if not kept:
        return "1", exp + n
    return kept[:-1] + chr(ord(kept[-1]) + 1), exp + n - len(kept)


def _apfloat_default(value: float, type: Type) -> str:
    """`APFloat::toString(Str)` with its defaults (natural precision, max
    padding 3, trailing zeros dropped)."""
    precision = 2 + _PRECISION.get(type.text, 53) * 59 // 196
    digits, exp = _digits(abs(value), precision)
    sign = "-" if math.copysign(1, value) < 0 else ""
    n = len(digits)
    if exp >= 0:
        scientific = exp > 3 or n + exp > precision
    else:
        msd = exp + n - 1
        scientific = msd < 0 and -msd > 3
    if scientific:
        e = exp + n - 1
        mant = digits[0] + "." + (digits[1:] or "0")
        return f"{sign}{mant}E{'+' if e >= 0 else '-'}{abs(e)}"
    if exp >= 0:
        return sign + digits + "0" * exp
    whole = exp + n
    if whole > 0:
        return sign + digits[:whole] + "." + digits[whole:]
    return sign + "0." + "0" * (-whole) + digits


def format_float(value: float, type: Type, hex_bits: int | None = None) -> str:
    """mlir-opt's float spelling: `%.6e` when it round-trips in `type`, else
    APFloat's default form if it has a point, else the bit pattern in hex."""
    if hex_bits is not None:
        return f"0x{hex_bits:0{FLOAT_BITS.get(type.text, 64) // 4}X}"
    if math.isfinite(value):
        # APFloat::toString(precision 6, no padding, keep zeros): six
        # significant digits, then zero-padded to six decimals.
        if value == 0:
            short = ("-" if math.copysign(1, value) < 0 else "") + "0.000000e+00"
        else:
            digits, exp = _digits(abs(value), 6)
            e = exp + len(digits) - 1
            mant = digits[0] + "." + digits[1:].ljust(6, "0")
            short = f"{'-' if value < 0 else ''}{mant}e{'+' if e >= 0 else '-'}{abs(e):02d}"
        if _same(round_to_type(float(short), type), value):
            return short
        text = _apfloat_default(value, type)
        if "." in text:
            return text
    if type.text in FLOAT_BITS and type.text not in ("f80", "f128"):
        return f"0x{float_bits(value, type):0{FLOAT_BITS[type.text] // 4}X}"
    return repr(value)


_FLAG_ORDER = {
    "overflow": ("nsw", "nuw"),
    "fastmath": ("reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"),
}


def arith_flags_text(kind: str, flags: list[str]) -> str | None:
    """`#arith.overflow<...>` / `#arith.fastmath<...>` as MLIR prints the
    bit enum: flags in declaration order (overflow joined by `, `, fastmath
    by `,`), `fast` for all fastmath flags, `none` for none. `None` if a
    flag is unknown."""
    order = _FLAG_ORDER[kind]
    chosen: set[str] = set()
    for f in flags:
        if kind == "fastmath" and f == "fast":
            chosen.update(order)
        elif f in order:
            chosen.add(f)
        elif f != "none":
            return None
    names = [f for f in order if f in chosen]
    if kind == "fastmath" and len(names) == len(order):
        body = "fast"
    else:
        body = (", " if kind == "overflow" else ",").join(names) or "none"
    return f"#arith.{kind}<{body}>"


_DENSE_TOKEN = re.compile(
    r"\s*(?:([\[\],])|(true|false)|(-?0x[0-9a-fA-F]+)|(-?[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?))"
)


def canonical_dense(body: str, type_text: str) -> str | None:
    """The text mlir-opt prints for `dense<body> : type_text`: elements
    re-spelled for the element type, a splat when all are equal, nested by
    the shape. `None` when the literal is outside what this models (hex
    blobs, complex or string elements, dynamic or scalable shapes); the
    caller then keeps the source text."""
    m = re.fullmatch(r"(?:tensor|vector)<((?:\d+x)*)([a-z][a-z0-9]*)>", type_text)
    if m is None:
        return None
    shape = [int(d) for d in m.group(1).split("x") if d]
    elem = Type(m.group(2))
    if not (elem.is_float or elem.int_width is not None or elem.is_index):
        return None
    flat: list[int | float] = []
    pos = 0
    while pos < len(body):
        tok = _DENSE_TOKEN.match(body, pos)
        if tok is None:
            return None
        pos = tok.end()
        punct, boolean, hexnum, num = tok.groups()
        if punct:
            continue
        if boolean:
            flat.append(1 if boolean == "true" else 0)
        elif hexnum and elem.is_float:
            return None
        elif hexnum:
            flat.append(int(hexnum, 16))
        elif num is not None:
            if elem.is_float:
                flat.append(round_to_type(float(num), elem))
            elif "." in num or "e" in num.lower():
                return None
            else:
                flat.append(int(num))
        elif body[pos:].strip():
            return None
        else:
            break
    count = math.prod(shape)
    if count == 0:
        return "dense<>"
    if not flat:
        return None
    if all(_scalar_same(v, flat[0]) for v in flat):
        return f"dense<{format_scalar(flat[0], elem)}>"
    if len(flat) != count:
        return None

    def nest(values: list[int | float], dims: list[int]) -> str:
        if not dims:
            return format_scalar(values[0], elem)
        step = len(values) // dims[0]
        return "[" + ", ".join(nest(values[i * step : (i + 1) * step], dims[1:]) for i in range(dims[0])) + "]"

    return f"dense<{nest(flat, shape)}>"


def _scalar_same(a: int | float, b: int | float) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return _same(a, b) or (math.isnan(a) and math.isnan(b))
    return a == b
