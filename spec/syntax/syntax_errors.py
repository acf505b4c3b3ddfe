"""lark's parse errors as MLIR diagnostics: where mlir-opt would point and
how it would word it."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from spec import registry
from spec.diagnostics import DiagnosticError, error
from spec.ir import Location
from spec.syntax.string_literals import line_col

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


def unknown_op_message(name: str) -> str:
    """mlir-opt-19's words for a custom op name it does not know: an unknown
    op of a registered dialect, or a dialect it does not have."""
    dialect = name.split(".", 1)[0]
    if dialect not in MLIR_OPT_DIALECTS:
        return f"Dialect `{dialect}' not found for custom op '{name}' "
    if name in registry.COMPLETE_DIALECTS.get(dialect, ()) and not registry.lookup(name).known:
        # mlir-opt-19 has the op; this tool's subset does not read it.
        return f"custom op '{name}' is unsupported: mlir-opt-19's {dialect} dialect has it, this tool's subset does not (docs/subset.md)"
    if dialect not in registry.COMPLETE_DIALECTS:
        # Which ops mlir-opt-19's dialect has is not listed here: say what
        # is known, that this tool does not read the op.
        if dialect not in registry.subset_dialects():
            return f"custom op '{name}' is unsupported: the {dialect} dialect is outside this tool's subset (docs/subset.md)"
        return f"custom op '{name}' is unsupported: this tool's subset of the {dialect} dialect does not have it (docs/subset.md)"
    return f"custom op '{name}' is unknown"


def subset_form_message(name: str, text: str) -> str:
    """Where an op this tool reads in one form only (`OpInfo.subset_form`)
    is written in another: the op named unsupported, at `text`."""
    form = registry.lookup(name).subset_form
    return f"custom op '{name}' is unsupported in this form (at '{text}'): this tool reads it only as {form} (docs/subset.md)"


def _subset_form_message(exc: UnexpectedToken, text: str) -> str | None:
    """For a syntax error inside an op this tool reads in one form only
    (`OpInfo.subset_form`: `llvm.func` with a body), a message naming the
    op and the form it takes, or None."""
    stack = getattr(getattr(exc, "state", None), "value_stack", None) or []
    for item in reversed(stack):
        if isinstance(item, Token) and "." in item.value:
            info = registry.lookup(item.value)
            if info.known:
                if not info.subset_form:
                    return None
                return subset_form_message(item.value, text)
    return None


def _current_op(exc: UnexpectedToken) -> str | None:
    """The name of the known op whose custom form the parse is in, if any."""
    stack = getattr(getattr(exc, "state", None), "value_stack", None) or []
    for item in reversed(stack):
        if isinstance(item, Token) and "." in item.value and registry.lookup(item.value).known:
            return str(item.value)
    return None


_KEYWORD = re.compile(r"'[a-z_][a-z_0-9]*'")
"""An expected word that is a keyword literal (`'to'`, `'output_shape'`)."""


_NAME_TERMINALS = frozenset({"BARE_ID", "CUSTOM_OP_NAME"})
"""Terminals of a name that, dotted where an op is wanted, is an op nobody knows."""


_BARE_NAME = re.compile(r"[A-Za-z_][\w$]*")

_FULL_NAMES = {"module": "builtin.module"}
"""Undotted names that begin an op (`module`), to the op they write. The
dialect an undotted op name is tried in, by the op whose region holds it,
is that op's `default_dialect` (MLIR's `OpAsmOpInterface::getDefaultDialect`):
none for most ops, `builtin` at the top level."""


def _bare_op_message(exc: UnexpectedToken, name: str) -> str | None:
    """mlir-opt-19's words for an undotted name where an op begins (`func
    @f()`, the form before `func.func`), or None if no op begins there."""
    if "." in name or not _BARE_NAME.fullmatch(name) or not {"RETURN", "MODULE"} & set(exc.expected):
        return None
    stack = getattr(getattr(exc, "state", None), "value_stack", None) or []
    owner = next(
        (t.value for t in reversed(stack) if isinstance(t, Token) and ("." in t.value or t.value == "module")), None
    )
    dialect = "builtin" if owner is None else registry.lookup(_FULL_NAMES.get(owner, owner)).default_dialect
    if not dialect:
        return f"Dialect `' not found for custom op '{name}'  (tried '.{name}' as well)"
    return f"custom op '{name}' is unknown (tried '{dialect}.{name}' as well)"


def _last_shifted(exc: UnexpectedToken) -> Token | None:
    """The token shifted just before the unexpected one, if lark kept it."""
    stack = getattr(getattr(exc, "state", None), "value_stack", None)
    last = stack[-1] if stack else None
    return last if isinstance(last, Token) else None


def _expected_words(names: set[str], terminals: Collection[Any]) -> list[str]:
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


_NO_TOKEN = frozenset("\\$'`~&;")
"""ASCII characters that start no MLIR token (as `dialect_attrs.text.STRAY`)."""


def _starts_no_token(ch: str) -> bool:
    """A character mlir-opt-19's lexer calls `unexpected character`: one of
    `_NO_TOKEN`, a control character, or anything not ASCII (a byte that is
    not UTF-8 too, read as a surrogate)."""
    return ch in _NO_TOKEN or not ch.isascii() or (not ch.isprintable() and ch not in " \t\n\r")


def syntax_error(
    exc: UnexpectedInput, file: str, line_offset: int, text: str = "", terminals: Collection[Any] | None = None
) -> DiagnosticError:
    line = (getattr(exc, "line", 0) or 0) + line_offset
    col = getattr(exc, "column", 0) or 0
    if isinstance(exc, UnexpectedToken):
        last = _last_shifted(exc)
        if last is not None and last.type == "CUSTOM_OP_NAME":
            # An unknown op name followed by what cannot follow an op: the
            # name is the error (mlir-opt stops at it), not what comes next.
            where = Location(file, (last.line or 0) + line_offset, last.column or 0)
            return DiagnosticError(error(where, unknown_op_message(str(last))))
        tok = exc.token
        bare = _bare_op_message(exc, str(tok)) if tok.type != "$END" else None
        if bare is not None:
            return DiagnosticError(error(Location(file, (tok.line or 0) + line_offset, tok.column or 0), bare))
        pos = len(text) if tok.type == "$END" else tok.start_pos
        unknown_op = tok.type in _NAME_TERMINALS and "." in str(tok)
        if text and pos is not None and not unknown_op:
            line, col = _wrong_token_position(text, pos)
            line += line_offset
        if tok.type == "$END":
            return DiagnosticError(error(Location(file, max(line, 1), max(col, 1)), "unexpected end of file"))
        text = str(tok)
        form = None if unknown_op else _subset_form_message(exc, text)
        if unknown_op:
            msg = unknown_op_message(text)
        elif form is not None:
            msg = form
        else:
            words = _expected_words(
                {e for e in exc.expected if not e.startswith("__") and e != "CUSTOM_OP_NAME"}, terminals or []
            )
            op = _current_op(exc) if len(words) == 1 and _KEYWORD.fullmatch(words[0]) else None
            if op is not None:
                # `parseKeyword` of a custom op's parser: prefixed, at the token itself.
                msg = f"custom op '{op}' expected {words[0]}"
                line, col = (tok.line or 0) + line_offset, tok.column or 0
            elif words == ["':'", "'{'"]:
                # An optional attr-dict, then `parseColon`.
                msg = "expected ':'"
            elif words == [_TERMINAL_WORDS["VALUE_ID"]]:
                # Where only a value can come, it is an operand (`parseOperand`).
                msg = "expected SSA operand"
            elif len(words) == 1:
                msg = f"expected {words[0]}"
            elif words:
                msg = f"unexpected '{text}', expected one of: {', '.join(words[:8])}{', ...' if len(words) > 8 else ''}"
            else:
                msg = f"unexpected '{text}'"
        return DiagnosticError(error(Location(file, line, col), msg))
    if isinstance(exc, UnexpectedCharacters):
        ch = exc.char if hasattr(exc, "char") else "?"
        if _starts_no_token(ch):
            # mlir-opt-19's lexer: at the character itself, not named.
            where = Location(file, line, col)
            if text and exc.pos_in_stream is not None:
                at_line, at_col = line_col(text, exc.pos_in_stream)
                where = Location(file, at_line + line_offset, at_col)
            return DiagnosticError(error(where, "unexpected character"))
        if text:
            line, col = _wrong_token_position(text, exc.pos_in_stream)  # type: ignore[arg-type]  # lark types it Optional; a character error always has one
            line += line_offset
        return DiagnosticError(error(Location(file, line, col), f"unexpected character '{ch}'"))
    if isinstance(exc, UnexpectedEOF):
        return DiagnosticError(error(Location(file, max(line, 1), max(col, 1)), "unexpected end of file"))
    return DiagnosticError(error(Location(file, line, col), str(exc).splitlines()[0]))
