"""What the parser answers to hostile bytes, held to the CLI's contract:
only a `DiagnosticError` escapes, every error it carries has a line and a
column, and a module that parses prints to text that parses back to
itself. Shared by the hostile-input tests and `bench/fuzz.py`'s long runs."""

from __future__ import annotations

import re

from spec.diagnostics import DiagnosticError, render
from spec.syntax.parser import parse_module
from spec.syntax.printing import print_op
from spec.tool import chunk_split, decode_source, parse_chunks


def answer(data: bytes) -> str:
    """`accepted` (every `// -----` chunk parses), or `rejected: ...` (the
    first error's message up to its first quoted or parenthesised part:
    one class per kind of error, not per misspelt name). A breach of the
    contract raises `AssertionError`; anything else the parser raises
    escapes as it is."""
    try:
        src = decode_source(data, "fuzz.mlir")
    except DiagnosticError as exc:
        _located(exc)
        return "rejected: encoding"
    first = ""
    for chunk, offset in parse_chunks(src, split=True):
        try:
            module = parse_module(chunk, src.name, offset)
        except DiagnosticError as exc:
            _located(exc)
            # Rendered as the CLI renders them (`spec.tool.run_per_module`).
            for d in exc.diagnostics:
                render(d, {src.name: src.text}, chunk_split(src, True, offset))
            first = first or exc.diagnostics[0].message
            continue
        printed = print_op(module)
        if print_op(parse_module(printed)) != printed:
            raise AssertionError(f"the output of a chunk is not a fixed point:\n{printed}")
    if first:
        return "rejected: " + re.split(r"[(`'\"]", first, maxsplit=1)[0].strip()[:40]
    return "accepted"


def _located(exc: DiagnosticError) -> None:
    for d in exc.diagnostics:
        if d.loc.line < 1 or d.loc.col < 1:
            raise AssertionError(f"unlocated diagnostic: {d.message}") from exc
