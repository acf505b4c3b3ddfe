"""GPU target attributes (`#nvvm.target<...>`, `#rocdl.target<...>`) and the
offloading handler `#gpu.select_object<...>`, spelled as mlir-opt-19 prints
them, wherever they are written.

The grammar reads any `#dialect.name<...>` attribute as one opaque token
(`HASH_ATTR`) kept by its text. These three are the ones a `gpu.module`
carries (its `targets` and `offloadingHandler`), and mlir-opt-19 does not
print them as written: a target's parameters come back in declaration order
with those equal to their defaults left out (`#nvvm.target<chip = "sm_50">`
prints `#nvvm.target`), and an untyped object index gets `: i64`
(`#gpu.select_object<1>` prints `#gpu.select_object<1 : i64>`). So their
text is parsed here and rebuilt canonically; malformed ones get mlir-opt-19's
message at its column (an offset into the token).

Not modelled: `#spirv.target_env<...>` keeps its text, blanks aside
(mlir-opt-19 leaves out the resource limits equal to their defaults: write
it as it prints it); other attributes of these dialects (an unknown
`#nvvm.x` is an error in mlir-opt-19, opaque here); and
mlir-opt-22's defaults (its `#rocdl.target` `abi` default is "600", 19's
"500").
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from spec.attributes import ArrayAttr, Attr, DictAttr, IntegerAttr, OpaqueAttr, canonical_type_text, quote_string
from spec.diagnostics import DiagnosticError
from spec.syntax.build_base import TokenError, _unescape


class AttrTextError(Exception):
    """A malformed attribute: mlir-opt-19's `message`, `offset` characters
    into the attribute's text."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset, self.message = offset, message


@dataclass(frozen=True)
class _Param:
    """A parameter of a target attribute: its kind (`int`, `str`, `dict`,
    `array`) and its default as printed (`None`: absent unless written)."""

    name: str
    kind: str
    default: str | None


TARGET_PARAMS: dict[str, tuple[_Param, ...]] = {
    "#nvvm.target": (
        _Param("O", "int", "2"),
        _Param("triple", "str", '"nvptx64-nvidia-cuda"'),
        _Param("chip", "str", '"sm_50"'),
        _Param("features", "str", '"+ptx60"'),
        _Param("flags", "dict", None),
        _Param("link", "array", None),
    ),
    "#rocdl.target": (
        _Param("O", "int", "2"),
        _Param("triple", "str", '"amdgcn-amd-amdhsa"'),
        _Param("chip", "str", '"gfx900"'),
        _Param("features", "str", '""'),
        _Param("abi", "str", '"500"'),
        _Param("flags", "dict", None),
        _Param("link", "array", None),
    ),
}
"""mlir-opt-19's target attributes with their parameters in printing order
(checked against it): `O` an i32, the strings, `flags` a dictionary and
`link` an array."""

HANDLER = "#gpu.select_object"
SPIRV_TARGET = "#spirv.target_env"

_TARGET = re.compile(r"#(?:nvvm\.target|rocdl\.target)(?:<.*>)?|#spirv\.target_env<.*>", re.S)
_HANDLER = re.compile(r"#gpu\.select_object(?:<.*>)?", re.S)
_INT = re.compile(r"-?(?:0x[0-9a-fA-F]+|[0-9]+)")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_KEY = re.compile(r"[A-Za-z_][\w$.]*")
_OPEN, _CLOSE = "<[{(", ">]})"


def is_gpu_target(attr: Attr) -> bool:
    """An attribute mlir-opt-19 takes as a GPU target (`targets` of a
    `gpu.module`, the object a `#gpu.select_object` picks)."""
    return isinstance(attr, OpaqueAttr) and _TARGET.fullmatch(attr.text) is not None


def is_offloading_handler(attr: Attr) -> bool:
    """An attribute with mlir-opt-19's `OffloadingTranslationAttrTrait`: of
    its dialects, only `#gpu.select_object`."""
    return isinstance(attr, OpaqueAttr) and _HANDLER.fullmatch(attr.text) is not None


_PREFIXES = (*TARGET_PARAMS, HANDLER, SPIRV_TARGET)


def gpu_attr_token_text(tok: Any) -> str | None:
    """The canonical text of a `HASH_ATTR` token that is a target or handler
    attribute, else `None`; a malformed one raises `TokenError` (located
    in the token). The hook of the attribute builder (`opaque_attr`)."""
    text = str(tok)
    if not text.startswith(_PREFIXES):
        return None
    try:
        return canonical_gpu_attr(text)
    except AttrTextError as exc:
        raise TokenError(tok, exc.offset, exc.message) from None


def canonical_gpu_attr(text: str) -> str | None:
    """The canonical text of a target or handler attribute written `text`
    (one `HASH_ATTR` token), or `None` for any other attribute. Raises
    `AttrTextError` for a malformed one."""
    name, _, _ = text.partition("<")
    if name in TARGET_PARAMS:
        return _target(name, text)
    if name == HANDLER:
        return _handler(text)
    if name == SPIRV_TARGET:
        # Kept as written but for blanks: `key = value` as MLIR prints it
        # (the type spelling rules would glue `= [`).
        return re.sub(r"\s*=\s*", " = ", canonical_type_text(text))
    return None


def _body(name: str, text: str) -> tuple[str, int] | None:
    """The text between the attribute's outer `<` and `>` and its offset,
    or `None` when it has no parameter list."""
    if len(text) == len(name):
        return None
    return text[len(name) + 1 : -1], len(name) + 1


def _skip_blanks(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t":
        i += 1
    return i


def _split_top(body: str) -> list[tuple[int, int]]:
    """The (start, end) spans of `body` between top-level commas (outside
    strings and brackets)."""
    spans: list[tuple[int, int]] = []
    depth, start, i = 0, 0, 0
    while i < len(body):
        ch = body[i]
        if ch == '"':
            m = _STRING.match(body, i)
            i = m.end() if m else len(body)
            continue
        if ch == "-" and body.startswith("->", i):
            i += 2
            continue
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
        elif ch == "," and depth == 0:
            spans.append((start, i))
            start = i + 1
        i += 1
    spans.append((start, len(body)))
    return spans


def _target(name: str, text: str) -> str:
    """`#nvvm.target<...>` / `#rocdl.target<...>`: a struct of named
    parameters in any order, printed in declaration order without defaults."""
    params = {p.name: p for p in TARGET_PARAMS[name]}
    values: dict[str, str] = {}
    body = _body(name, text)
    if body is not None and body[0].strip():
        inner, base = body
        spans = _split_top(inner)
        for start, end in spans:
            i = _skip_blanks(inner, start)
            key = _KEY.match(inner, i)
            if key is None and start == 0:
                # No parameter list after all: `>` wanted just past `<`.
                raise AttrTextError(base, "expected '>'")
            if key is None:
                # An empty entry (`<O = 1,>`): the token after the comma.
                raise AttrTextError(base + i, "expected valid keyword")
            j = _skip_blanks(inner, key.end())
            if j >= end or inner[j] != "=":
                raise AttrTextError(base + key.end(), "expected '='")
            v = _skip_blanks(inner, j + 1)
            param = params.get(key.group())
            if param is None or param.name in values:
                raise AttrTextError(base + v, f"duplicate or unknown struct parameter name: {key.group()}")
            values[param.name] = _param_value(param, inner[v:end], base + v)
    shown = [f"{p.name} = {values[p.name]}" for p in TARGET_PARAMS[name] if p.name in values and values[p.name] != p.default]
    return f"{name}<{', '.join(shown)}>" if shown else name


def _after(value: str, used: int, offset: int) -> None:
    """Anything after a parameter's value is where mlir-opt-19 wanted the
    closing `>`: reported just past the value."""
    if value[used:].strip():
        raise AttrTextError(offset + used, "expected '>'")


def _param_value(param: _Param, value: str, offset: int) -> str:
    """One parameter's value, canonical; `offset` is where it starts."""
    if param.kind == "int":
        word = value.strip()
        if word in ("true", "false"):
            # An i1 sign-extended, as mlir-opt-19 reads it.
            return "-1" if word == "true" else "0"
        m = _INT.match(value)
        if m is None:
            raise AttrTextError(offset, "expected integer value")
        _after(value, m.end(), offset)
        number = _int(m.group())
        if not -(2**31) <= number < 2**31:
            raise AttrTextError(offset, "integer value too large")
        return str(number)
    if param.kind == "str":
        m = _STRING.match(value)
        if m is None:
            raise AttrTextError(offset, "unexpected character" if value[:1] == "'" else "expected string")
        _after(value, m.end(), offset)
        return quote_string(_unescape(m.group()))
    attr = parse_attr_value(value.rstrip(), offset)
    if not isinstance(attr, DictAttr if param.kind == "dict" else ArrayAttr):
        raise AttrTextError(offset, "invalid kind of attribute specified")
    return str(attr)


def _int(text: str) -> int:
    """An MLIR integer literal: decimal (leading zeros allowed) or hex."""
    negative = text.startswith("-")
    digits = text.lstrip("-")
    number = int(digits, 16) if digits.startswith("0x") else int(digits, 10)
    return -number if negative else number


def _handler(text: str) -> str:
    """`#gpu.select_object<...>`: an object index (an integer, `i64` unless
    typed, not negative) or a GPU target attribute; or nothing."""
    body = _body(HANDLER, text)
    if body is None:
        return HANDLER
    inner, base = body
    open_at = base - 1
    i = _skip_blanks(inner, 0)
    if i == len(inner):
        raise AttrTextError(base + i, "expected attribute value")
    m = _INT.match(inner, i)
    if m is not None:
        rest = inner[m.end() :].strip()
        if rest and not rest.startswith(":"):
            raise AttrTextError(base + m.end(), "expected '>'")
        if not rest:
            if _int(m.group()) < 0:
                raise AttrTextError(open_at, "the object index must be positive")
            return f"{HANDLER}<{_int(m.group())} : i64>"
    value = inner[i:].rstrip()
    inner_attr = parse_attr_value(value, base + i)
    if isinstance(inner_attr, IntegerAttr):
        # A typed index (`<1 : i32>`), its type checked by the parse; its
        # bits read as signed (`true`, `255 : ui8` are negative).
        if _signed(inner_attr) < 0:
            raise AttrTextError(open_at, "the object index must be positive")
        return f"{HANDLER}<{inner_attr}>"
    if not is_gpu_target(inner_attr):
        raise AttrTextError(open_at, "the target attribute must be a GPU Target attribute")
    return f"{HANDLER}<{inner_attr}>"


def _signed(attr: IntegerAttr) -> int:
    """The integer's bits as a signed number of its width (`index`: 64)."""
    m = re.fullmatch(r"[su]?i([0-9]+)", attr.type.text)
    width = int(m.group(1)) if m else 64
    bits = attr.value % (1 << width)
    return bits - (1 << width) if bits >> (width - 1) else bits


_VALUE_HEAD = '"v.v"() {v = '


@functools.lru_cache(maxsize=1)
def _value_parser() -> object:
    """A parser of its own (the main one may be mid-parse when this runs),
    made on first use: only a target with `flags` or `link`, or a handler
    naming a target, needs it."""
    from spec.syntax.parser import _make_lark

    return _make_lark(fast=True)[0]


def parse_attr_value(value: str, offset: int) -> Attr:
    """`value`, the text of one attribute inside a bigger one, as the
    attribute grammar reads it; an error is reported `offset` characters
    further into the enclosing token."""
    from lark.exceptions import UnexpectedInput

    from spec.syntax.syntax_errors import _syntax_error

    if "\n" in value:
        raise AttrTextError(offset, "expected attribute value")
    parser = _value_parser()
    source = f"{_VALUE_HEAD}{value}}} : () -> ()"
    try:
        ops = parser.parse(source)  # type: ignore[attr-defined]
    except UnexpectedInput as exc:
        diag = _syntax_error(exc, "<attr>", 0, source, parser.terminals).diagnostics[0]  # type: ignore[attr-defined]
        raise AttrTextError(offset + max(diag.loc.col - 1 - len(_VALUE_HEAD), 0), diag.message) from None
    except DiagnosticError as exc:
        diag = exc.diagnostics[0]
        raise AttrTextError(offset + max(diag.loc.col - 1 - len(_VALUE_HEAD), 0), diag.message) from None
    if len(ops) != 1 or set(ops[0].attributes) != {"v"}:
        # The text closed the wrapper early (`[1]} ...`): not one attribute.
        raise AttrTextError(offset, "expected attribute value")
    return ops[0].attributes["v"]
