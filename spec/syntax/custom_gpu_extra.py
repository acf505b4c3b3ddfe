"""Custom-form printers of the ops `rules_gpu_extra` reads (mlir-opt-19's
text, its blanks included: `gpu.binary @name  [...]` with two when the
default offloading handler is left out, as its custom directive prints a
blank either way; `gpu.subgroup_mma_elementwise  addf`, whose enum is
printed after a blank by a directive that starts with one)."""

from __future__ import annotations

from spec.attributes import ArrayAttr, StringAttr, quote_symbol
from spec.ir import Operation
from spec.syntax.custom_registry import custom_printer, shown_attrs
from spec.syntax.printer import Printer
from spec.syntax.rules_gpu_extra import DEFAULT_HANDLER


@custom_printer("gpu.binary")
def _binary(p: Printer, op: Operation) -> str:
    props = op.properties
    objects = props.get("objects")
    if not isinstance(objects, ArrayAttr):
        raise ValueError("no objects: printed generically")
    sym = props.get("sym_name")
    if not isinstance(sym, StringAttr):
        raise ValueError("no name: printed generically")
    handler = props.get("offloadingHandler")
    text = f"gpu.binary {quote_symbol(sym.value)} "
    if handler is not None and str(handler) != DEFAULT_HANDLER:
        text += f"<{handler}>"
    text += p.attr_dict(shown_attrs(op, "sym_name", "offloadingHandler", "objects"))
    return text + " [" + ", ".join(map(str, objects.elements)) + "]"


@custom_printer("gpu.dynamic_shared_memory")
def _dynamic_shared_memory(p: Printer, op: Operation) -> str:
    return f"gpu.dynamic_shared_memory{p.attr_dict(shown_attrs(op))} : {op.results[0].type}"


@custom_printer("gpu.set_default_device")
def _set_default_device(p: Printer, op: Operation) -> str:
    return f"gpu.set_default_device{p.attr_dict(shown_attrs(op))} {p.value(op.operands[0])}"


@custom_printer("gpu.subgroup_mma_load_matrix")
def _mma_load(p: Printer, op: Operation) -> str:
    src, *idx = op.operands
    return f"{op.name} {p.value(src)}[{p.values(idx)}]{p.attr_dict(shown_attrs(op))} : {src.type} -> {op.results[0].type}"


@custom_printer("gpu.subgroup_mma_store_matrix")
def _mma_store(p: Printer, op: Operation) -> str:
    val, dst, *idx = op.operands
    return f"{op.name} {p.value(val)}, {p.value(dst)}[{p.values(idx)}]{p.attr_dict(shown_attrs(op))} : {val.type}, {dst.type}"


@custom_printer("gpu.subgroup_mma_compute")
def _mma_compute(p: Printer, op: Operation) -> str:
    a, b, c = op.operands
    return f"{op.name} {p.values(op.operands)}{p.attr_dict(shown_attrs(op))} : {a.type}, {b.type} -> {c.type}"


@custom_printer("gpu.subgroup_mma_constant_matrix")
def _mma_constant(p: Printer, op: Operation) -> str:
    return f"{op.name} {p.value(op.operands[0])}{p.attr_dict(shown_attrs(op))} : {op.results[0].type}"


@custom_printer("gpu.subgroup_mma_elementwise")
def _mma_elementwise(p: Printer, op: Operation) -> str:
    kind = str(op.properties["opType"]).removeprefix("#gpu<mma_element_wise ").rstrip(">")
    fn = f"({p.types(op.operands)}) -> {op.results[0].type}"
    return f"{op.name}  {kind} {p.values(op.operands)}{p.attr_dict(shown_attrs(op, 'opType'))} : {fn}"
