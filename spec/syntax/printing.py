"""Printing as mlir-opt-19 prints: the entry point (`print_op`, `join_outputs`).

`spec.syntax.printer.Printer` knows names, the generic form and regions; the
custom form of each op is a printer function in its dialect's module
(`spec.dialects.<dialect>.syntax`: `builtin`, `func`, `gpu`, `arith`, `math`, `index`,
`memref`, `vector`, `scf`, `cf`, `async_`, `llvm`, `affine`), registered
with `@custom_printer(name, ...)` in `custom_registry.CUSTOM_PRINTERS`.
This module loads those modules and hands
the table to the `Printer` it builds, so the dependency runs one way:
custom printers import the printer's helpers, the printer imports none of
them.

The spacing quirks of the custom forms are deliberate: they are mlir-opt's
(`gpu.launch_func  @k` for a synchronous launch, a trailing blank after
`scf.reduce` and after `gpu.wait` with no operands, two blanks before
`args(...)`).
"""

from __future__ import annotations

from spec.ir import Operation
from spec.syntax import affine, dialects  # noqa: F401 - dialects: importing it registers the printers
from spec.syntax.custom_registry import CUSTOM_PRINTERS
from spec.syntax.printer import Printer

__all__ = ["CUSTOM_PRINTERS", "join_outputs", "print_op"]


def print_op(top: Operation, generic: bool = False) -> str:
    """Print a top-level op (a module) as mlir-opt-19 does, ending in a
    newline; its affine maps and sets aliased (`#map = ...` first)."""
    return affine.with_aliases(Printer(generic, CUSTOM_PRINTERS).print_top(top), top, generic)


def join_outputs(texts: list[str]) -> str:
    """mlir-opt's output for several modules (`--split-input-file`): each
    module followed by a blank line, separated by `// -----` lines; a chunk
    that failed (`""`) prints nothing, its separators stay."""
    return "// -----\n".join(t + "\n" if t else "" for t in texts)
