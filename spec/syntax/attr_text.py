"""Reading the text of a dialect attribute kept as one token.

The grammar reads any `#dialect.name<...>` attribute as one opaque token
(`HASH_ATTR`, quoted strings inside skipped). The few whose text mlir-opt-19
rebuilds (`spec.syntax.gpu_targets`, `spec.syntax.spirv_attrs`) are read
again here: their parameter lists split at top-level commas, each value
checked and canonicalised (`_struct`, `_param_value`), a nested attribute
parsed by the attribute grammar itself (`parse_attr_value`), and any error
reported as mlir-opt-19 does, at an offset into the token (`AttrTextError`).
`_unbalanced` is mlir-opt-19's check that a dialect attribute's body nests
its brackets (the token only balances `<>`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from spec.attributes import ArrayAttr, Attr, DictAttr, quote_string
from spec.diagnostics import DiagnosticError
from spec.syntax.build_base import _unescape


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



_INT = re.compile(r"-?(?:0x[0-9a-fA-F]+|[0-9]+)")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_KEY = re.compile(r"[A-Za-z_][\w$.]*")
_OPEN, _CLOSE = "<[{(", ">]})"



_STRAY = frozenset("\\$'`~&;")
"""Characters that start no MLIR token."""
_KEYWORD = re.compile(r"[A-Za-z_][\w$.]*")
_QUOTED = r'"(?:[^"\\\n]|\\.)*"'
_HASH = re.compile(
    r"#[A-Za-z_][\w$.]*(?:<"
    + functools.reduce(lambda inner, _: rf'(?:->|{_QUOTED}|[^<>\n"]|<{inner}>)*', range(3), rf'(?:->|{_QUOTED}|[^<>\n"])*')
    + r">)?"
)
"""The grammar's `HASH_ATTR`: where a nested dialect attribute ends."""




_CLOSES = {">": "<", "]": "[", ")": "(", "}": "{"}


def _unbalanced(text: str) -> AttrTextError | None:
    """mlir-opt-19's error for a dialect attribute (any dialect) whose body
    does not nest its `<>`, `[]`, `()` and `{}`: the grammar's token only
    balances `<>`. Strings are skipped, `->` is no bracket; the error is at
    the last string read, else at the opening `<` (where its reader was)."""
    where = text.find("<")
    if where < 0:
        return None
    stack: list[str] = []
    i = where
    while i < len(text):
        ch = text[i]
        if ch == '"':
            m = _STRING.match(text, i)
            where, i = i, (m.end() if m else len(text))
            continue
        if text.startswith("->", i):
            i += 2
            continue
        if ch in "<[({":
            stack.append(ch)
        elif ch in _CLOSES:
            if not stack or stack[-1] != _CLOSES[ch]:
                top = stack[-1] if stack else "<"
                return AttrTextError(where, f"unbalanced '{top}' character in pretty dialect name")
            stack.pop()
        i += 1
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


def _struct(name: str, text: str, declared: tuple[_Param, ...], bare: bool) -> str:
    """`#nvvm.target<...>`, `#rocdl.target<...>`, `#spirv.resource_limits<...>`:
    a struct of named parameters in any order, printed in declaration order
    without defaults; a target may leave out its `<...>` (`bare`) and
    prints none when empty, the resource limits need and keep it."""
    params = {p.name: p for p in declared}
    values: dict[str, str] = {}
    body = _body(name, text)
    if body is None and not bare:
        raise AttrTextError(len(name), "expected '<'")
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
    shown = [f"{p.name} = {values[p.name]}" for p in declared if p.name in values and values[p.name] != p.default]
    return f"{name}<{', '.join(shown)}>" if shown or not bare else name


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



_VALUE_HEAD = '"builtin.v"() {v = '


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
