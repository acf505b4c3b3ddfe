"""Custom-form printers of the ops `rules_more` reads, as mlir-opt-19
prints them (its quirks included: two blanks after `gpu.all_reduce`, a
blank before `vector.insert`'s position, `cf.switch` case values printed
unsigned, one case a line).
"""

from __future__ import annotations

import re

from spec import registry
from spec.attributes import Attr, DenseArrayAttr, FunctionType, OpaqueAttr, StringAttr, UnitAttr, quote_symbol
from spec.invariant import InternalError
from spec.ir import Operation, Value
from spec.syntax.build_base import K_DYNAMIC
from spec.syntax.custom_registry import custom_printer, return_like, segments
from spec.syntax.printer import Printer


def _left(op: Operation, *known: str) -> dict[str, Attr]:
    """Properties the custom form does not show in its own syntax, defaults
    left out, then the discardable attributes."""
    defaults = registry.lookup(op.name).default_properties
    rest = {k: v for k, v in op.properties.items() if k not in known and defaults.get(k) != v}
    return {**registry.without_defaults(op.name, rest), **op.attributes}


def _mixed(p: Printer, statics: Attr, dyn: list[Value]) -> str:
    if not isinstance(statics, DenseArrayAttr):
        raise InternalError("spec.syntax.custom_more: expected isinstance(statics, DenseArrayAttr)")
    it = iter(dyn)
    return "[" + ", ".join(p.value(next(it)) if s == K_DYNAMIC else str(s) for s in statics.values) + "]"


# -- cf.switch -------------------------------------------------------------------


def switch_case_values(attr: Attr | None) -> list[int]:
    """The case values of `case_values` (`dense<[1, 2]> : vector<2xi32>`)."""
    if attr is None:
        return []
    m = re.fullmatch(r"dense<(\[?)([^\]>]*)\]?> : vector<(\d+)x[a-z0-9]+>", str(attr))
    if m is None:
        raise ValueError("case_values not a dense integer vector")
    values = [int(v.strip()) for v in m.group(2).split(",") if v.strip()]
    if not m.group(1):
        values = values * int(m.group(3))
    return values


@custom_printer("cf.switch")
def _switch(p: Printer, op: Operation) -> str:
    (flag,), default, case_ops = segments(op)
    width = flag.type.int_width
    if width is None:
        raise InternalError("spec.syntax.custom_more: expected width is not None")
    values = switch_case_values(op.properties.get("case_values"))
    sizes = op.properties.get("case_operand_segments")
    counts = list(sizes.ints) if isinstance(sizes, DenseArrayAttr) else []
    if len(values) != len(counts) or len(op.successors) != len(values) + 1:
        raise ValueError("cases do not match")
    pad = " " * (p.indent + 2)

    def succ(i: int, operands: list[Value]) -> str:
        text = p.block_name(op.successors[i])
        return text + (f"({p.values(operands)} : {p.types(operands)})" if operands else "")

    lines = [f"{pad}default: {succ(0, default)}"]
    at = 0
    for k, (v, n) in enumerate(zip(values, counts)):
        lines.append(f"{pad}{v & ((1 << width) - 1)}: {succ(k + 1, case_ops[at : at + n])}")
        at += n
    body = ",\n".join(lines)
    rest = _left(op, "case_values", "case_operand_segments", "operandSegmentSizes")
    return f"cf.switch {p.value(flag)} : {flag.type}, [\n{body}\n{' ' * p.indent}]{p.attr_dict(rest)}"


# -- memref --------------------------------------------------------------------------


@custom_printer("memref.global")
def _global(p: Printer, op: Operation) -> str:
    text = "memref.global "
    vis = op.properties.get("sym_visibility")
    if isinstance(vis, StringAttr):
        text += f"{vis} "
    if isinstance(op.properties.get("constant"), UnitAttr):
        text += "constant "
    name = op.properties["sym_name"]
    if not isinstance(name, StringAttr):
        raise InternalError("spec.syntax.custom_more: expected isinstance(name, StringAttr)")

    text += f"{quote_symbol(name.value)} : {op.properties['type']}"
    init = op.properties.get("initial_value")
    if isinstance(init, UnitAttr):
        text += " = uninitialized"
    elif init is not None:
        value = str(init)
        if isinstance(init, OpaqueAttr) and value.startswith(("dense<", "dense_resource<", "sparse<")):
            value = value.rsplit(" : ", 1)[0]
        text += f" = {value}"
    return text + p.attr_dict(_left(op, "sym_visibility", "constant", "sym_name", "type", "initial_value"))


@custom_printer("memref.collapse_shape", "memref.expand_shape")
def _reshape(p: Printer, op: Operation) -> str:
    src, *dyn = op.operands
    text = f"{op.name} {p.value(src)} {op.properties['reassociation']}"
    if op.name == "memref.expand_shape":
        text += f" output_shape {_mixed(p, op.properties['static_output_shape'], dyn)}"
    elif dyn:
        raise ValueError("collapse_shape takes one operand")
    rest = _left(op, "reassociation", "static_output_shape")
    return text + f"{p.attr_dict(rest)} : {src.type} into {op.results[0].type}"


@custom_printer("memref.reinterpret_cast")
def _reinterpret(p: Printer, op: Operation) -> str:
    (src,), offs, sizes, strides = segments(op)
    text = f"memref.reinterpret_cast {p.value(src)} to offset: {_mixed(p, op.properties['static_offsets'], offs)}"
    text += f", sizes: {_mixed(p, op.properties['static_sizes'], sizes)}, strides: {_mixed(p, op.properties['static_strides'], strides)}"
    rest = _left(op, "operandSegmentSizes", "static_offsets", "static_sizes", "static_strides")
    return text + f"{p.attr_dict(rest)} : {src.type} to {op.results[0].type}"


@custom_printer("memref.view")
def _view(p: Printer, op: Operation) -> str:
    src, shift, *sizes = op.operands
    return f"memref.view {p.value(src)}[{p.value(shift)}][{p.values(sizes)}]{p.attr_dict(_left(op))} : {src.type} to {op.results[0].type}"


# -- gpu -------------------------------------------------------------------------------


@custom_printer("gpu.all_reduce")
def _all_reduce(p: Printer, op: Operation) -> str:
    text = "gpu.all_reduce  "
    kind = op.properties.get("op")
    if kind is not None:
        text += str(kind).removeprefix("#gpu<all_reduce_op ").rstrip(">") + " "
    (v,) = op.operands
    text += p.value(v)
    if isinstance(op.properties.get("uniform"), UnitAttr):
        text += " uniform"
    text += " " + p.region(op.regions[0], True, True)
    return text + f"{p.attr_dict(_left(op, 'op', 'uniform'))} : ({v.type}) -> {op.results[0].type}"


@custom_printer("gpu.yield")
def _gpu_yield(p: Printer, op: Operation) -> str:
    return return_like(p, op, "gpu.yield")


# -- vector ------------------------------------------------------------------------------


@custom_printer("vector.extract")
def _vextract(p: Printer, op: Operation) -> str:
    src, *dyn = op.operands
    pos = _mixed(p, op.properties["static_position"], dyn)
    return f"vector.extract {p.value(src)}{pos}{p.attr_dict(_left(op, 'static_position'))} : {op.results[0].type} from {src.type}"


@custom_printer("vector.insert")
def _vinsert(p: Printer, op: Operation) -> str:
    val, dst, *dyn = op.operands
    pos = _mixed(p, op.properties["static_position"], dyn)
    return f"vector.insert {p.value(val)}, {p.value(dst)} {pos}{p.attr_dict(_left(op, 'static_position'))} : {val.type} into {dst.type}"


def _transfer_left(op: Operation) -> dict[str, Attr]:
    """`in_bounds` all false and a minor identity `permutation_map` are left out."""
    from spec.syntax.rules_more import minor_identity, shape_dims

    mem_t = op.operands[0].type if op.name == "vector.transfer_read" else op.operands[1].type
    vec_t = op.results[0].type if op.name == "vector.transfer_read" else op.operands[0].type
    rest = _left(op, "operandSegmentSizes")
    if str(rest.get("permutation_map")) == minor_identity(len(shape_dims(mem_t.text)), len(shape_dims(vec_t.text))):
        del rest["permutation_map"]
    ib = rest.get("in_bounds")
    if ib is not None and str(ib).strip("[]").replace(", ", ",").split(",") == ["false"] * len(shape_dims(vec_t.text)):
        del rest["in_bounds"]
    return rest


@custom_printer("vector.transfer_read")
def _tread(p: Printer, op: Operation) -> str:
    (mem,), idx, (pad,), mask = segments(op)
    m = f", {p.value(mask[0])}" if mask else ""
    return f"vector.transfer_read {p.value(mem)}[{p.values(idx)}], {p.value(pad)}{m}{p.attr_dict(_transfer_left(op))} : {mem.type}, {op.results[0].type}"


@custom_printer("vector.transfer_write")
def _twrite(p: Printer, op: Operation) -> str:
    (val,), (mem,), idx, mask = segments(op)
    m = f", {p.value(mask[0])}" if mask else ""
    return f"vector.transfer_write {p.value(val)}, {p.value(mem)}[{p.values(idx)}]{m}{p.attr_dict(_transfer_left(op))} : {val.type}, {mem.type}"


# -- llvm --------------------------------------------------------------------------------------


@custom_printer("llvm.mlir.addressof")
def _addressof(p: Printer, op: Operation) -> str:
    return f"llvm.mlir.addressof {op.properties['global_name']}{p.attr_dict(_left(op, 'global_name'))} : {op.results[0].type}"


@custom_printer("llvm.call")
def _llvm_call(p: Printer, op: Operation) -> str:
    callee = op.properties["callee"]
    text = f"llvm.call {callee}({p.values(op.operands)})"
    var = op.properties.get("var_callee_type")
    if var is not None:
        text += f" vararg({var})"
    fn = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
    return text + f"{p.attr_dict(_left(op, 'callee', 'var_callee_type'))} : {fn}"


def _linkage(op: Operation) -> str:
    return str(op.properties.get("linkage", "#llvm.linkage<external>")).removeprefix("#llvm.linkage<").rstrip(">")


@custom_printer("llvm.func")
def _llvm_func(p: Printer, op: Operation) -> str:
    from spec.syntax.rules_more import parse_llvm_func_type

    if op.regions and op.regions[0].blocks:
        raise ValueError("llvm.func with a body: printed generically")
    params, vararg, result = parse_llvm_func_type(str(op.properties["function_type"]))
    text = "llvm.func "
    linkage = _linkage(op)
    if linkage != "external":
        text += f"{linkage} "
    name = op.properties["sym_name"]
    if not isinstance(name, StringAttr):
        raise InternalError("spec.syntax.custom_more: expected isinstance(name, StringAttr)")
    text += f"{quote_symbol(name.value)}(" + ", ".join([*params, *(["..."] if vararg else [])]) + ")"
    if result is not None:
        text += f" -> {result}"
    rest = _left(op, "function_type", "linkage", "sym_name")
    return text + p.attr_dict(dict(sorted(rest.items())), keyword=True)


@custom_printer("llvm.mlir.global")
def _llvm_global(p: Printer, op: Operation) -> str:

    if op.regions and op.regions[0].blocks:
        raise ValueError("llvm.mlir.global with an initializer region: printed generically")
    text = f"llvm.mlir.global {_linkage(op)} "
    if isinstance(op.properties.get("constant"), UnitAttr):
        text += "constant "
    name = op.properties["sym_name"]
    if not isinstance(name, StringAttr):
        raise InternalError("spec.syntax.custom_more: expected isinstance(name, StringAttr)")
    value = op.properties.get("value")
    text += f"{quote_symbol(name.value)}({'' if value is None else value})"
    rest = _left(op, "linkage", "constant", "sym_name", "value", "global_type")
    text += p.attr_dict(dict(sorted(rest.items())))
    if not isinstance(value, StringAttr):
        text += f" : {op.properties['global_type']}"
    return text
