"""What MLIR's op verifiers check of a known op that the parser must check
too, because the custom printer relies on it: operand and result counts,
required attributes, property shapes and operand segments.

The custom forms cannot express a wrong count or a malformed property, so
these checks matter for ops written in the generic form.
"""

from __future__ import annotations

import re

from spec import registry
from spec.attributes import (
    Attr,
    DenseArrayAttr,
    IntegerAttr,
    format_attr_entries,
)
from spec.diagnostics import DiagnosticError, error
from spec.ir import Location
from spec.syntax.build_base import CMPF_PREDICATES, CMPI_PREDICATES

_REQUIRED_ATTRIBUTES = {
    "func.func": ("sym_name", "function_type"),
    "func.call": ("callee",),
    "gpu.module": ("sym_name",),
    "gpu.func": ("function_type",),
    "gpu.launch_func": ("kernel",),
    "arith.constant": ("value",),
    "arith.cmpi": ("predicate",),
    "arith.cmpf": ("predicate",),
    "cf.assert": ("msg",),
    "memref.subview": ("static_offsets", "static_sizes", "static_strides"),
    **{f"gpu.{d}": ("dimension",) for d in ("thread_id", "block_id", "block_dim", "grid_dim", "cluster_id", "cluster_dim")},
}
"""Inherent attributes an op's verifier requires (the custom forms print them)."""


_ZERO_RESULTS = frozenset(
    "builtin.module func.func func.return gpu.module gpu.module_end gpu.func gpu.return gpu.terminator gpu.barrier "
    "scf.yield scf.condition scf.reduce scf.reduce.return cf.br cf.cond_br cf.assert memref.store memref.dealloc "
    "memref.copy async.yield async.await_all".split()
)
_ONE_RESULT_PREFIXES = ("arith.", "gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim", "gpu.cluster_")
_ONE_RESULT = frozenset(
    "memref.alloc memref.alloca memref.load memref.dim memref.cast memref.subview async.create_group async.add_to_group".split()
)


def _check_result_count(name: str, n: int, loc: Location) -> None:
    """The `ZeroResults` / `OneResult` traits of the known ops, whose custom
    forms could not show another count."""
    if name in _ZERO_RESULTS and n:
        raise DiagnosticError(error(loc, f"'{name}' op requires zero results"))
    if (name in _ONE_RESULT or name.startswith(_ONE_RESULT_PREFIXES)) and n != 1:
        raise DiagnosticError(error(loc, f"'{name}' op requires one result"))


_PROPERTY_SHAPES = {
    "dimension": r"#gpu<dim [xyz]>",
    "overflowFlags": r"#arith\.overflow<[\w ,]*>",
    "fastmath": r"#arith\.fastmath<[\w,]*>",
    "predicate": r"\d+ : i64",
}
"""Properties the custom forms read: their printed shape, as the op's
property conversion accepts it."""
_FREE_SHAPED: set[tuple[str, str]] = set()


def _check_generic_properties(name: str, props: dict[str, Attr], attrs: dict[str, Attr], n: int, loc: Location) -> None:
    """What MLIR's verifier checks of a known op written generically, as far
    as its custom form depends on it: required attributes and operand
    segments consistent with the operands."""
    for key in _REQUIRED_ATTRIBUTES.get(name, ()):
        if key not in props and not (name == "gpu.func" and key in attrs):
            raise DiagnosticError(error(loc, f"'{name}' op requires attribute '{key}'"))
    if name == "gpu.func" and "sym_name" not in attrs:
        raise DiagnosticError(error(loc, f"'{name}' op requires attribute 'sym_name'"))
    for key, pattern in _PROPERTY_SHAPES.items():
        value = props.get(key)
        in_range = key != "predicate" or not isinstance(value, IntegerAttr) or value.value < len(CMPI_PREDICATES if name == "arith.cmpi" else CMPF_PREDICATES)
        if value is not None and (name, key) not in _FREE_SHAPED and (not re.fullmatch(pattern, str(value)) or not in_range):
            entries = format_attr_entries(props)
            raise DiagnosticError(
                error(loc, f"invalid properties {{{entries}}} for op {name}: Invalid attribute `{key}` in property conversion: {value}")
            )
    segments = registry.lookup(name).segments
    if not segments:
        return
    sizes = props.get("operandSegmentSizes")
    values = sizes.values if isinstance(sizes, DenseArrayAttr) else ()
    if sizes is not None and len(values) != len(segments):
        raise DiagnosticError(
            error(loc, f"'{name}' op 'operandSegmentSizes' attribute for specifying operand segments must have {len(segments)} elements, but got {len(values)}")
        )
    if sum(values) != n or any(v < 0 for v in values):
        raise DiagnosticError(
            error(loc, f"'{name}' op operand count ({n}) does not match with the total size ({sum(values)}) specified in attribute 'operandSegmentSizes'")
        )


def _operand_count_message(lo: int, hi: int | None, n: int) -> str:
    """The verifier's wording for a wrong operand count (op traits
    `ZeroOperands`, `OneOperand`, `NOperands<N>`, `AtLeastNOperands<N>`)."""
    if lo == hi == 0:
        return "requires zero operands"
    if lo == hi == 1:
        return "requires a single operand"
    if lo == hi or (hi is not None and n > hi):
        return f"expected {hi} operands, but found {n}"
    return f"expected {lo} or more operands, but found {n}"

