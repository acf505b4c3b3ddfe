"""`emitOpError` as mlir-opt renders it: the error at the op's location and
the note `see current operation: ` with the op in generic form.

MLIR prints that op with local scope: values are numbered from the nearest
isolated-from-above ancestor (the `func.func`), in the IR's state at the
moment of the error, so the numbers reflect whatever the pass had already
rewritten. An op that prints on several lines starts on a new line.
"""

from __future__ import annotations

from spec.diagnostics import Diagnostic, error, note
from spec.ir import Operation
from spec.syntax.printer import Printer

ISOLATED = frozenset({"func.func", "builtin.module", "gpu.module", "gpu.func"})
"""Ops with MLIR's `IsolatedFromAbove` trait (the scope for numbering)."""


def generic_text(op: Operation) -> str:
    """`op` in generic form, numbered from its isolated-from-above scope."""
    scope = op
    while scope.name not in ISOLATED and scope.parent_op is not None:
        scope = scope.parent_op
    printer = Printer(generic=True)
    printer.number(scope)
    return printer.op(op)


def op_error(op: Operation, message: str) -> Diagnostic:
    """`'NAME' op MESSAGE` plus the `see current operation` note."""
    text = generic_text(op)
    sep = "\n" if "\n" in text else ""
    return error(op.loc, f"'{op.name}' op {message}", note(op.loc, f"see current operation: {sep}{text}"))
