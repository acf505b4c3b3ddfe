"""Custom-form printers of the ops `rules_scf_extra` reads (mlir-opt-19's
text: `scf.index_switch %i -> T ` with a trailing blank before its cases,
each case on a line of its own with its `scf.yield` always shown; the
default region's `scf.yield` shown only when it has operands or
attributes, as MLIR's generated printer shows an implicit terminator)."""

from __future__ import annotations

from spec.attributes import DenseArrayAttr
from spec.ir import Operation, Region
from spec.syntax.custom_registry import custom_printer, shown_attrs
from spec.syntax.printer import Printer


def implicit_terminator_shown(region: Region) -> bool:
    """Whether MLIR's generated printer shows a single-block region's
    implicit terminator: when it has operands, results or attributes."""
    if not region.blocks or not region.blocks[0].ops:
        return True
    term = region.blocks[0].ops[-1]
    return bool(term.operands or term.results or term.attributes or term.properties)


@custom_printer("scf.index_switch")
def _index_switch(p: Printer, op: Operation) -> str:
    cases = op.properties.get("cases")
    if not (isinstance(cases, DenseArrayAttr) and len(cases.values) == len(op.regions) - 1):
        raise ValueError("cases do not match the regions: printed generically")
    text = f"scf.index_switch {p.value(op.operands[0])}{p.attr_dict(shown_attrs(op, 'cases'))} "
    if op.results:
        text += f"-> {', '.join(str(r.type) for r in op.results)} "
    pad = " " * p.indent
    default, *regions = op.regions
    for value, region in zip(cases.values, regions):
        text += f"\n{pad}case {value} " + p.region(region, False, True)
    return text + f"\n{pad}default " + p.region(default, False, implicit_terminator_shown(default))
