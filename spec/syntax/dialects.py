"""The custom syntax of every dialect of the subset, gathered for the parser.

Each dialect's syntax module (`spec.dialects.<dialect>.syntax`, beside its
ops' facts) holds the builder rules the parser mixes into its transformer
(a `BuilderBase` mixin named after the dialect, one method per grammar
rule) and the custom-form printers it registers with
`custom_registry.custom_printer`. `KEYWORD_FIRST`, `NAME_FIRST` and
`KEYWORDS` tell `spec.syntax.parser` how each rule's children start. What
is shared by several dialects is in `build_base` (parsing) and
`custom_registry` (printing).
"""

from __future__ import annotations

from types import ModuleType

from spec.dialects.affine import syntax as affine
from spec.dialects.arith import syntax as arith
from spec.dialects.async_ import syntax as async_
from spec.dialects.builtin import syntax as builtin
from spec.dialects.cf import syntax as cf
from spec.dialects.func import syntax as func
from spec.dialects.gpu import device_syntax as gpu_device
from spec.dialects.gpu import syntax as gpu
from spec.dialects.index import syntax as index
from spec.dialects.llvm import syntax as llvm
from spec.dialects.math import syntax as math
from spec.dialects.memref import syntax as memref
from spec.dialects.scf import syntax as scf
from spec.dialects.vector import syntax as vector

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
"""Every dialect's syntax module: importing this module registers all the printers."""
