"""Custom-form printers of the ops `rules_scalar` reads (mlir-opt-19's text;
`func.constant` and `func.call_indirect` without their prefix where `func`
is the default dialect, as `func.call` is printed)."""

from __future__ import annotations

from spec import registry
from spec.attributes import IntegerAttr
from spec.ir import Operation
from spec.syntax.custom_registry import custom_printer, shown_attrs
from spec.syntax.printer import Printer


def fastmath_text(op: Operation) -> str:
    """` fastmath<...>` when not the default, else ``."""
    v = op.properties.get("fastmath")
    if v is None or v == registry.lookup(op.name).default_properties.get("fastmath"):
        return ""
    return " " + str(v).removeprefix("#arith.")


@custom_printer("arith.addui_extended")
def _addui_extended(p: Printer, op: Operation) -> str:
    s, o = op.results
    return f"{op.name} {p.values(op.operands)}{p.attr_dict(shown_attrs(op))} : {s.type}, {o.type}"


@custom_printer("arith.mulsi_extended", "arith.mului_extended")
def _mul_extended(p: Printer, op: Operation) -> str:
    return f"{op.name} {p.values(op.operands)}{p.attr_dict(shown_attrs(op))} : {op.operands[0].type}"


@custom_printer("math.fpowi")
def _fpowi(p: Printer, op: Operation) -> str:
    a, b = op.operands
    return f"math.fpowi {p.values(op.operands)}{fastmath_text(op)}{p.attr_dict(shown_attrs(op, 'fastmath'))} : {a.type}, {b.type}"


@custom_printer("index.bool.constant")
def _bool_constant(p: Printer, op: Operation) -> str:
    v = op.properties.get("value")
    if not (isinstance(v, IntegerAttr) and v.type.text == "i1"):
        raise ValueError("not a bool: printed generically")
    return f"index.bool.constant{p.attr_dict(shown_attrs(op, 'value'))} {'true' if v.value else 'false'}"


@custom_printer("index.constant")
def _index_constant(p: Printer, op: Operation) -> str:
    v = op.properties.get("value")
    if not isinstance(v, IntegerAttr):
        raise ValueError("not an integer: printed generically")
    return f"index.constant{p.attr_dict(shown_attrs(op, 'value'))} {v.value}"


@custom_printer("index.casts", "index.castu")
def _index_cast(p: Printer, op: Operation) -> str:
    (v,) = op.operands
    return f"{op.name} {p.value(v)}{p.attr_dict(shown_attrs(op))} : {v.type} to {op.results[0].type}"


@custom_printer("index.cmp")
def _index_cmp(p: Printer, op: Operation) -> str:
    pred = str(op.properties["pred"]).removeprefix("#index<cmp_predicate ").rstrip(">")
    return f"index.cmp {pred}({p.values(op.operands)}){p.attr_dict(shown_attrs(op, 'pred'))}"


@custom_printer("index.sizeof")
def _sizeof(p: Printer, op: Operation) -> str:
    return f"index.sizeof{p.attr_dict(shown_attrs(op))}"


@custom_printer("func.constant")
def _func_constant(p: Printer, op: Operation) -> str:
    return f"{p.op_name(op)}{p.attr_dict(shown_attrs(op, 'value'))} {op.properties['value']} : {op.results[0].type}"


@custom_printer("func.call_indirect")
def _call_indirect(p: Printer, op: Operation) -> str:
    callee, *args = op.operands
    return f"{p.op_name(op)} {p.value(callee)}({p.values(args)}){p.attr_dict(shown_attrs(op))} : {callee.type}"
