"""MLIR string literals: byte strings, read and checked as mlir-opt-19's lexer does.

An MLIR string attribute holds bytes, not text: `"\\FF\\00"` is two bytes
that are no UTF-8. In this project a string's value is a Python `str` whose
bytes that are not UTF-8 are the lone surrogates U+DC80..U+DCFF of Python's
`surrogateescape` handler, so `value.encode("utf-8", "surrogateescape")` is
exactly the bytes MLIR holds (`BYTES`), through parse, pass and print.
Source files are read the same way (`spec.tool.decode_source`): a raw byte
that is not UTF-8 inside a literal is kept as it is.

mlir-opt-19's lexer (`Lexer::lexString`) takes the escapes `\\n`, `\\t`,
`\\"`, `\\\\` and `\\XX` (two hex digits, any case) and nothing else: any
other is `unknown escape in string literal` at the backslash, a newline or
the end of the input before the closing quote is `expected '"' in string
literal` there. It lexes every `"` outside a `//` comment as a string, inside
a dialect attribute's `<...>` too, so `first_bad_literal` scans the whole
text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BYTES = ("utf-8", "surrogateescape")
"""The codec that turns a string value into MLIR's bytes and back."""

_ESCAPES = {"n": 0x0A, "t": 0x09, '"': 0x22, "\\": 0x5C}
_HEX = frozenset("0123456789abcdefABCDEF")

_SCAN = re.compile(r'//[^\n]*|"(?:[^"\\\n]|\\(?:[nt"\\]|[0-9a-fA-F]{2}))*"|"')
"""A comment, a well-formed literal, or (the last choice) the quote of a bad one."""
_GOOD_PREFIX = re.compile(r'(?:[^"\\\n]|\\(?:[nt"\\]|[0-9a-fA-F]{2}))*')


def unescape(tok: str) -> str:
    """The value of the literal `tok` (quotes included), bytes that are not
    UTF-8 as surrogates (`BYTES`). An unknown escape (which `first_bad_literal`
    reports before this runs on a checked text) stands for the character."""
    body = tok[1:-1]
    if "\\" not in body:
        return body
    out = bytearray()
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch == "\\" and i + 1 < n:
            nxt = body[i + 1]
            if nxt in _HEX and i + 2 < n and body[i + 2] in _HEX:
                out.append(int(body[i + 1 : i + 3], 16))
                i += 3
                continue
            esc = _ESCAPES.get(nxt)
            if esc is not None:
                out.append(esc)
            else:
                out.extend(nxt.encode(*BYTES))
            i += 2
            continue
        out.extend(ch.encode(*BYTES))
        i += 1
    return out.decode(*BYTES)


def quote(value: str) -> str:
    """`value` as a literal, as `llvm::printEscapedString` prints its bytes:
    a backslash doubled, printable ASCII other than `"` as it is, every other
    byte (the quote, controls, DEL, each byte of UTF-8 or not) as `\\XX`."""
    if value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
        return f'"{value}"'
    out = []
    for b in value.encode(*BYTES):
        if b == 0x5C:
            out.append("\\\\")
        elif 0x20 <= b < 0x7F and b != 0x22:
            out.append(chr(b))
        else:
            out.append(f"\\{b:02X}")
    return '"' + "".join(out) + '"'


@dataclass(frozen=True, slots=True)
class BadLiteral:
    """The first string literal of a text that mlir-opt-19's lexer refuses."""

    start: int
    """Offset of its opening quote."""
    pos: int
    """Offset that mlir-opt-19 points at: the bad backslash, or the newline
    (or end of text) before any closing quote."""
    message: str


def first_bad_literal(text: str) -> BadLiteral | None:
    """The first literal of `text` (outside `//` comments) that is not a
    well-formed MLIR string, or None."""
    for m in _SCAN.finditer(text):
        if m.end() - m.start() != 1:
            continue
        start = m.start()
        pos = _GOOD_PREFIX.match(text, start + 1).end()  # type: ignore[union-attr]  # the pattern matches the empty string: never None
        if pos < len(text) and text[pos] == "\\":
            return BadLiteral(start, pos, "unknown escape in string literal")
        return BadLiteral(start, pos, "expected '\"' in string literal")
    return None


def line_col(text: str, pos: int) -> tuple[int, int]:
    """1-based line and column of offset `pos` of `text`."""
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1
