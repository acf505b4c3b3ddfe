"""The custom syntax of each dialect of the subset: one module per dialect.

Each module holds, for its dialect's ops, the builder rules the parser mixes
into its transformer (a `BuilderBase` mixin named after the dialect, one
method per grammar rule) and the custom-form printers it registers with
`custom_registry.custom_printer`. `KEYWORD_FIRST`, `NAME_FIRST` and
`KEYWORDS` tell `spec.syntax.parser` how each rule's children start.
The ops' facts (operands, results, properties, effects) are in
`spec.registry`; what is shared by several dialects is in `build_base`
(parsing) and `custom_registry` (printing).
"""

from __future__ import annotations

from types import ModuleType

from spec.syntax.dialects import (
    affine,
    arith,
    async_,
    builtin,
    cf,
    func,
    gpu,
    gpu_device,
    index,
    llvm,
    math,
    memref,
    scf,
    vector,
)

DIALECTS: tuple[ModuleType, ...] = (
    builtin,
    func,
    gpu,
    gpu_device,
    arith,
    math,
    index,
    memref,
    vector,
    scf,
    cf,
    async_,
    llvm,
    affine,
)
"""Every dialect module: importing this package registers all the printers."""
