"""lark's parse errors as MLIR diagnostics: where mlir-opt would point and
how it would word it."""

from __future__ import annotations

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from spec.diagnostics import DiagnosticError, error
from spec.ir import Location

MLIR_OPT_DIALECTS = frozenset(
    "acc affine amdgpu amx arith arm_neon arm_sme arm_sve async bufferization builtin cf complex dlti emitc func gpu "
    "index irdl linalg llvm math memref mesh ml_program mpi nvgpu nvvm omp pdl pdl_interp polynomial ptr quant rocdl "
    "scf shape sparse_tensor spirv tensor test test_dyn tosa transform ub vector x86vector xegpu".split()
)
"""Dialects mlir-opt-19 registers: a custom op of any other dialect is
reported as a missing dialect rather than an unknown op."""

_TERMINAL_WORDS = {
    "VALUE_ID": "SSA value",
    "SYMBOL": "symbol",
    "BLOCK_ID": "block label",
    "BARE_ID": "identifier",
    "STRING": "string",
    "INT": "integer",
    "FLOAT": "float",
    "SHAPED_TYPE": "type",
    "SIMPLE_TYPE": "type",
    "DIALECT_TYPE": "type",
    "LOC": "location",
    "DENSE_ARRAY": "attribute",
    "BRACKETED_ATTR": "attribute",
    "HASH_ATTR": "attribute",
    "$END": "end of file",
}


def _expected_words(names: set[str], terminals: list) -> list[str]:
    """Expected terminals as a reader knows them: `':'` for literals, `type`,
    `SSA value`... for token classes."""
    literal = {t.name: t.pattern.value for t in terminals if t.pattern.type == "str"}
    words: list[str] = []
    for name in sorted(names):
        word = f"'{literal[name]}'" if name in literal else _TERMINAL_WORDS.get(name, name.lower())
        if word not in words:
            words.append(word)
    return words


def _wrong_token_position(text: str, pos: int) -> tuple[int, int]:
    """Where mlir-opt reports a wrong token (`Parser::emitWrongTokenError`):
    just past the previous token, skipping back over blanks, line breaks and
    `//` comments. (1-based line and column within `text`.)"""
    head = text[:pos]
    while True:
        head = head.rstrip(" \t")
        if not head or head[-1] not in "\r\n":
            break
        head = head[:-1]
        start = max(head.rfind("\n"), head.rfind("\r")) + 1
        comment = head.find("//", start)
        if comment != -1:
            head = head[:comment]
    line = head.count("\n") + 1
    return line, len(head) - (head.rfind("\n") + 1) + 1


def _syntax_error(exc: UnexpectedInput, file: str, line_offset: int, text: str = "", terminals: list | None = None) -> DiagnosticError:
    line = (getattr(exc, "line", 0) or 0) + line_offset
    col = getattr(exc, "column", 0) or 0
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        pos = len(text) if tok.type == "$END" else tok.start_pos
        unknown_op = tok.type == "BARE_ID" and "." in str(tok)
        if text and pos is not None and not unknown_op:
            line, col = _wrong_token_position(text, pos)
            line += line_offset
        if tok.type == "$END":
            return DiagnosticError(error(Location(file, max(line, 1), max(col, 1)), "unexpected end of file"))
        text = str(tok)
        dialect = text.split(".", 1)[0]
        if tok.type == "BARE_ID" and "." in text and dialect not in MLIR_OPT_DIALECTS:
            msg = f"Dialect `{dialect}' not found for custom op '{text}' "
        elif tok.type == "BARE_ID" and "." in text:
            msg = f"custom op '{text}' is unknown"
        else:
            words = _expected_words({e for e in exc.expected if not e.startswith("__")}, terminals or [])
            if len(words) == 1:
                msg = f"expected {words[0]}"
            elif words:
                msg = f"unexpected '{text}', expected one of: {', '.join(words[:8])}{', ...' if len(words) > 8 else ''}"
            else:
                msg = f"unexpected '{text}'"
        return DiagnosticError(error(Location(file, line, col), msg))
    if isinstance(exc, UnexpectedCharacters):
        ch = exc.char if hasattr(exc, "char") else "?"
        if text:
            line, col = _wrong_token_position(text, exc.pos_in_stream)
            line += line_offset
        return DiagnosticError(error(Location(file, line, col), f"unexpected character '{ch}'"))
    if isinstance(exc, UnexpectedEOF):
        return DiagnosticError(error(Location(file, max(line, 1), max(col, 1)), "unexpected end of file"))
    return DiagnosticError(error(Location(file, line, col), str(exc).splitlines()[0]))
