"""Reading the text of a dialect attribute kept as one token.

The grammar reads any `#dialect.name<...>` attribute as one opaque token
(`HASH_ATTR`, quoted strings inside skipped). The few whose text mlir-opt-19
rebuilds (`spec.syntax.dialect_attrs.gpu_targets`, `spec.syntax.dialect_attrs.spirv`) are read
again here: their parameter lists split at top-level commas, each value
checked and canonicalised (`read_struct`, `_param_value`), a nested attribute
parsed by the attribute grammar itself, and any error reported as
mlir-opt-19 does, at an offset into the token (`AttrTextError`).

The attribute grammar is the parser's (`spec.syntax.parser.parse_attr_value`),
and the parser calls this package: so the readers here are handed the
attribute parser as a `ValueParser` argument instead of importing it.
`unbalanced` is mlir-opt-19's check that a dialect attribute's body nests
its brackets (the token only balances `<>`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from spec.attributes import ArrayAttr, Attr, DictAttr, quote_string
from spec.syntax.string_literals import unescape

ValueParser = Callable[[str, int], Attr]
"""Reads the text of one attribute nested in a dialect attribute's token,
`offset` characters into it; raises `AttrTextError` located in the token."""


class AttrTextError(Exception):
    """A malformed attribute: mlir-opt-19's `message`, `offset` characters
    into the attribute's text."""

    def __init__(self, offset: int, message: str, later: tuple[tuple[int, str], ...] = ()) -> None:
        super().__init__(message)
        self.offset, self.message = offset, message
        self.later = later
        """Further errors, each at its own offset into the token."""


@dataclass(frozen=True)
class Param:
    """A parameter of a target attribute: its kind (`int`, `str`, `dict`,
    `array`) and its default as printed (`None`: absent unless written)."""

    name: str
    kind: str
    default: str | None


INT = re.compile(r"-?(?:0x[0-9a-fA-F]+|[0-9]+)")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_KEY = re.compile(r"[A-Za-z_][\w$.]*")
_OPEN, _CLOSE = "<[{(", ">]})"


STRAY = frozenset("\\$'`~&;")
"""Characters that start no MLIR token."""
KEYWORD = re.compile(r"[A-Za-z_][\w$.]*")
_QUOTED = r'"(?:[^"\\\n]|\\.)*"'
HASH = re.compile(
    r"#[A-Za-z_][\w$.]*(?:<"
    + functools.reduce(lambda inner, _: rf'(?:->|{_QUOTED}|[^<>"]|<{inner}>)*', range(3), rf'(?:->|{_QUOTED}|[^<>"])*')
    + r">)?"
)
"""The grammar's `HASH_ATTR`: where a nested dialect attribute ends."""


_CLOSES = {">": "<", "]": "[", ")": "(", "}": "{"}


def unbalanced(text: str) -> AttrTextError | None:
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


def param_list(name: str, text: str) -> tuple[str, int] | None:
    """The text between the attribute's outer `<` and `>` and its offset,
    or `None` when it has no parameter list."""
    if len(text) == len(name):
        return None
    return text[len(name) + 1 : -1], len(name) + 1


def skip_blanks(text: str, i: int) -> int:
    """Past the blanks at `i`: newlines too (a body may span lines)."""
    while i < len(text) and text[i] in " \t\n\r":
        i += 1
    return i


def split_top(body: str) -> list[tuple[int, int]]:
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


def read_struct(name: str, text: str, declared: tuple[Param, ...], bare: bool, parse_value: ValueParser) -> str:
    """`#nvvm.target<...>`, `#rocdl.target<...>`, `#spirv.resource_limits<...>`:
    a struct of named parameters in any order, printed in declaration order
    without defaults; a target may leave out its `<...>` (`bare`) and
    prints none when empty, the resource limits need and keep it."""
    params = {p.name: p for p in declared}
    values: dict[str, str] = {}
    body = param_list(name, text)
    if body is None and not bare:
        raise AttrTextError(len(name), "expected '<'")
    if body is not None and body[0].strip():
        inner, base = body
        spans = split_top(inner)
        for start, end in spans:
            i = skip_blanks(inner, start)
            key = _KEY.match(inner, i)
            if key is None and start == 0:
                # No parameter list after all: `>` wanted just past `<`.
                raise AttrTextError(base, "expected '>'")
            if key is None:
                # An empty entry (`<O = 1,>`): the token after the comma.
                raise AttrTextError(base + i, "expected valid keyword")
            j = skip_blanks(inner, key.end())
            if j >= end or inner[j] != "=":
                raise AttrTextError(base + key.end(), "expected '='")
            v = skip_blanks(inner, j + 1)
            param = params.get(key.group())
            if param is None or param.name in values:
                raise AttrTextError(base + v, f"duplicate or unknown struct parameter name: {key.group()}")
            if param.kind == "i32_array":
                # Its `expected '['` is just past the `=`: given the blanks.
                values[param.name] = _i32_array(inner[j + 1 : end], base + j + 1)
                continue
            values[param.name] = _param_value(param, inner[v:end], base + v, parse_value)
    shown = [f"{p.name} = {values[p.name]}" for p in declared if p.name in values and values[p.name] != p.default]
    return f"{name}<{', '.join(shown)}>" if shown or not bare else name


def _after(value: str, used: int, offset: int) -> None:
    """Anything after a parameter's value is where mlir-opt-19 wanted the
    closing `>`: reported just past the value."""
    if value[used:].strip():
        raise AttrTextError(offset + used, "expected '>'")


def _param_value(param: Param, value: str, offset: int, parse_value: ValueParser) -> str:
    """One parameter's value, canonical; `offset` is where it starts."""
    if param.kind == "int":
        number, used = _i32(value, 0, offset)
        _after(value, used, offset)
        return number
    if param.kind == "str":
        m = _STRING.match(value)
        if m is None:
            raise AttrTextError(offset, "unexpected character" if value[:1] == "'" else "expected string")
        _after(value, m.end(), offset)
        return quote_string(unescape(m.group()))
    attr = parse_value(value.rstrip(), offset)
    if not isinstance(attr, DictAttr if param.kind == "dict" else ArrayAttr):
        raise AttrTextError(offset, "invalid kind of attribute specified")
    return str(attr)


_WORD = re.compile(r"\s*(true|false)(?![\w$.])")


def _i32(value: str, at: int, offset: int) -> tuple[str, int]:
    """The i32 that starts at `at` (after blanks) of `value`, as printed,
    and where it ends; `offset` is where `value` starts in the token."""
    word = _WORD.match(value, at)
    if word is not None:
        # An i1 sign-extended, as mlir-opt-19 reads it.
        return ("-1" if word.group(1) == "true" else "0"), word.end()
    start = skip_blanks(value, at)
    m = INT.match(value, start)
    if m is None:
        raise AttrTextError(offset + start, "expected integer value")
    number = to_int(m.group())
    if not -(2**31) <= number < 2**31:
        raise AttrTextError(offset + start, "integer value too large")
    return str(number), m.end()


def _i32_array(value: str, offset: int) -> str:
    """A `DenseI32ArrayAttr` parameter, `[1, 2, 3]` (`#spirv.entry_point_abi`'s
    `workgroup_size`): printed `[1, 2, 3]`, one blank after each comma. A
    missing bracket is reported just past the token before it, as
    mlir-opt-19 does; `value` starts with the blanks after the `=`."""
    at = skip_blanks(value, 0)
    if value[at : at + 1] != "[":
        raise AttrTextError(offset, "expected '['")
    items: list[str] = []
    at = skip_blanks(value, at + 1)
    if value[at : at + 1] != "]":
        while True:
            number, at = _i32(value, at, offset)
            items.append(number)
            at = skip_blanks(value, at)
            if value[at : at + 1] == ",":
                at += 1
                continue
            if value[at : at + 1] != "]":
                raise AttrTextError(offset + len(value[:at].rstrip()), "expected ']'")
            break
    _after(value, at + 1, offset)
    return "[" + ", ".join(items) + "]"


def to_int(text: str) -> int:
    """An MLIR integer literal: decimal (leading zeros allowed) or hex."""
    negative = text.startswith("-")
    digits = text.lstrip("-")
    number = int(digits, 16) if digits.startswith("0x") else int(digits, 10)
    return -number if negative else number
