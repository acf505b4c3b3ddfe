"""Custom assembly of each op in the subset, as mlir-opt-19 prints it.

Each printer returns the op's text after `%results = `. The spacing quirks
are deliberate: they are mlir-opt's (`gpu.launch_func  @k` for a synchronous
launch, a trailing blank after `scf.reduce` and after `gpu.wait` with no
operands, two blanks before `args(...)`).

The printers are grouped by dialect, as the parser's rules are:
`custom_func_gpu` (`builtin`, `func`, `gpu`), `custom_host` (`arith`,
`memref`) and `custom_control` (`scf`, `cf`, `async`); each registers its
printers in `custom_registry.CUSTOM_PRINTERS`. This module loads all of them
and is what the printer imports.
"""

from spec.syntax import custom_control, custom_func_gpu, custom_host, custom_wide  # noqa: F401 - they register their printers
from spec.syntax.custom_registry import CUSTOM_PRINTERS, custom_printer, segments

__all__ = ["CUSTOM_PRINTERS", "custom_printer", "segments"]
