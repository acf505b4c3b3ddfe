"""Custom-form printers of the ops `rules_wide` reads (mlir-opt-19's text,
its spacing quirks included: two blanks after `gpu.shuffle`,
`gpu.subgroup_reduce` and `gpu.global_id`, whose enum is printed by a
custom directive that starts with a blank)."""

from __future__ import annotations

from spec import registry
from spec.attributes import IntegerAttr, StringAttr, UnitAttr
from spec.ir import Operation
from spec.syntax.custom_registry import custom_printer, shown_attrs
from spec.syntax.printer import Printer
from spec.syntax.rules_wide import ATOMIC_RMW_KINDS

_MATH1 = [f"math.{n}" for n in "absf atan cbrt ceil cos erf exp exp2 expm1 floor log log10 log1p log2 round roundeven rsqrt sin sqrt tan tanh trunc acos acosh asin asinh atanh cosh sinh".split()]
_MATH2 = [f"math.{n}" for n in "atan2 copysign powf".split()]
_INDEX2 = [f"index.{n}" for n in "add sub mul divs divu rems remu maxs mins maxu minu and or xor shl shrs shru ceildivs ceildivu floordivs".split()]


_left = shown_attrs


def _upper_bound(op: Operation) -> str:
    ub = op.properties.get("upper_bound")
    return f" upper_bound {ub.value}" if isinstance(ub, IntegerAttr) else ""


@custom_printer("gpu.host_register", "gpu.host_unregister")
def _register(p: Printer, op: Operation) -> str:
    (v,) = op.operands
    return f"{op.name} {p.value(v)}{p.attr_dict(_left(op))} : {v.type}"


@custom_printer("vector.splat")
def _splat(p: Printer, op: Operation) -> str:
    return f"vector.splat {p.value(op.operands[0])}{p.attr_dict(_left(op))} : {op.results[0].type}"


@custom_printer("gpu.global_id")
def _global_id(p: Printer, op: Operation) -> str:
    dim = str(op.properties["dimension"]).removeprefix("#gpu<dim ").rstrip(">")
    return f"gpu.global_id  {dim}{_upper_bound(op)}{p.attr_dict(_left(op, 'dimension', 'upper_bound'))}"


@custom_printer("gpu.lane_id")
def _lane_id(p: Printer, op: Operation) -> str:
    return f"gpu.lane_id{_upper_bound(op)}{p.attr_dict(_left(op, 'upper_bound'))}"


@custom_printer("gpu.subgroup_id", "gpu.num_subgroups", "gpu.subgroup_size")
def _sized(p: Printer, op: Operation) -> str:
    return f"{op.name}{_upper_bound(op)}{p.attr_dict(_left(op, 'upper_bound'))} : {op.results[0].type}"


@custom_printer(*_INDEX2)
def _index2(p: Printer, op: Operation) -> str:
    a, b = op.operands
    return f"{op.name} {p.value(a)}, {p.value(b)}{p.attr_dict(_left(op))}"


def _fastmath(op: Operation) -> str:
    v = op.properties.get("fastmath")
    if v is None or v == registry.lookup(op.name).default_properties.get("fastmath"):
        return ""
    return " " + str(v)[len("#arith.") :]


_MATH_PLAIN = [f"math.{n}" for n in "fma absi ctlz ctpop cttz ipowi".split()]
"""Part 3's math ops of the same form: operands, flags if any, one type."""


@custom_printer(*_MATH1, *_MATH2, *_MATH_PLAIN)
def _math(p: Printer, op: Operation) -> str:
    return f"{op.name} {p.values(op.operands)}{_fastmath(op)}{p.attr_dict(_left(op, 'fastmath'))} : {op.results[0].type}"


@custom_printer("vector.load")
def _vload(p: Printer, op: Operation) -> str:
    base, *idx = op.operands
    return f"vector.load {p.value(base)}[{p.values(idx)}]{p.attr_dict(_left(op))} : {base.type}, {op.results[0].type}"


@custom_printer("vector.store")
def _vstore(p: Printer, op: Operation) -> str:
    val, base, *idx = op.operands
    return f"vector.store {p.value(val)}, {p.value(base)}[{p.values(idx)}]{p.attr_dict(_left(op))} : {base.type}, {val.type}"


@custom_printer("vector.print")
def _vprint(p: Printer, op: Operation) -> str:
    parts = ["vector.print"]
    if op.operands:
        (v,) = op.operands
        parts.append(f"{p.value(v)} : {v.type}")
    text = op.properties.get("stringLiteral")
    if isinstance(text, StringAttr):
        parts.append(f"str {text}")
    default = registry.lookup(op.name).default_properties["punctuation"]
    punct = op.properties.get("punctuation", default)
    if punct != default:
        parts.append("punctuation <" + str(punct).removeprefix("#vector.punctuation<"))
    return " ".join(parts) + p.attr_dict(_left(op, "punctuation", "stringLiteral"))


@custom_printer("vector.broadcast")
def _vbroadcast(p: Printer, op: Operation) -> str:
    (v,) = op.operands
    return f"vector.broadcast {p.value(v)}{p.attr_dict(_left(op))} : {v.type} to {op.results[0].type}"


@custom_printer("gpu.shuffle")
def _shuffle(p: Printer, op: Operation) -> str:
    mode = str(op.properties["mode"]).removeprefix("#gpu<shuffle_mode ").rstrip(">")
    return f"gpu.shuffle  {mode} {p.values(op.operands)}{p.attr_dict(_left(op, 'mode'))} : {op.results[0].type}"


@custom_printer("gpu.subgroup_reduce")
def _subgroup_reduce(p: Printer, op: Operation) -> str:
    kind = str(op.properties["op"]).removeprefix("#gpu<all_reduce_op ").rstrip(">")
    uniform = " uniform" if isinstance(op.properties.get("uniform"), UnitAttr) else ""
    (v,) = op.operands
    return f"gpu.subgroup_reduce  {kind} {p.value(v)}{uniform}{p.attr_dict(_left(op, 'op', 'uniform'))} : ({v.type}) -> {op.results[0].type}"


@custom_printer("memref.atomic_rmw")
def _atomic_rmw(p: Printer, op: Operation) -> str:
    kind = op.properties.get("kind")
    if not (isinstance(kind, IntegerAttr) and 0 <= kind.value < len(ATOMIC_RMW_KINDS)):
        raise ValueError("kind out of range: printed generically")
    v, m, *idx = op.operands
    text = f"memref.atomic_rmw {ATOMIC_RMW_KINDS[kind.value]} {p.value(v)}, {p.value(m)}[{p.values(idx)}]"
    return text + f"{p.attr_dict(_left(op, 'kind'))} : ({v.type}, {m.type}) -> {op.results[0].type}"


@custom_printer("memref.get_global")
def _get_global(p: Printer, op: Operation) -> str:
    return f"memref.get_global {op.properties['name']}{p.attr_dict(_left(op, 'name'))} : {op.results[0].type}"


@custom_printer("gpu.printf")
def _printf(p: Printer, op: Operation) -> str:
    """`gpu.printf "fmt" [attr-dict] [%a, ... : T, ...]`. Printed only: the
    parser does not read this form (after the string, a value could start
    the arguments or the next op: not LALR(1)), so it is taken generic."""
    text = f"gpu.printf {op.properties['format']}{p.attr_dict(_left(op, 'format'))}"
    if op.operands:
        text += f" {p.values(op.operands)} : {p.types(op.operands)}"
    return text
