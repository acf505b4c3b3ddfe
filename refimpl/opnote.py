"""`emitOpError` as mlir-opt renders it: the error at the op's location and
the note `see current operation: ` with the op in generic form.

MLIR prints that op with local scope: values are numbered from the nearest
isolated-from-above ancestor (the `func.func`), in the IR's state at the
moment of the error, so the numbers reflect whatever the pass had already
rewritten. An op that prints on several lines starts on a new line.
"""

from __future__ import annotations

from spec.diagnostics import Diagnostic, error
from spec.ir import Operation
from spec.syntax.structure import current_op_note


def op_error(op: Operation, message: str) -> Diagnostic:
    """`'NAME' op MESSAGE` plus the `see current operation` note (the op in
    generic form, numbered from its isolated-from-above scope: the parser's
    `spec.syntax.structure.current_op_note`, the same text its verifier
    errors carry)."""
    return error(op.loc, f"'{op.name}' op {message}", current_op_note(op))
