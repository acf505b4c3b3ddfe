"""Custom-form printers of the `arith` and `memref` ops (mlir-opt-19's text)."""

from __future__ import annotations

from spec import registry
from spec.attributes import Attr, IntegerAttr
from spec.ir import Operation
from spec.syntax.build_base import CMPF_PREDICATES, CMPI_PREDICATES, K_DYNAMIC
from spec.syntax.custom_registry import custom_printer, segments
from spec.syntax.printer import Printer


# -- arith ------------------------------------------------------------------------
def _flags(op: Operation) -> str:
    defaults = registry.lookup(op.name).default_properties
    text = ""
    for key in ("overflowFlags", "fastmath"):
        v = op.properties.get(key)
        if v is not None and v != defaults.get(key):
            s = str(v)
            text += " " + s[len("#arith.") :]
    return text


def _props_left(op: Operation, *known: str) -> dict[str, Attr]:
    return {k: v for k, v in op.properties.items() if k not in known and k not in ("overflowFlags", "fastmath")}


def _nontemporal_left(op: Operation) -> dict[str, Attr]:
    """`nontemporal` has a default (false), which the custom form elides."""
    return registry.without_defaults(op.name, _props_left(op))


@custom_printer("arith.constant")
def _constant(p: Printer, op: Operation) -> str:
    return f"arith.constant{p.attr_dict(op.attributes)} {op.properties['value']}"


_BINARY = (
    "addi subi muli shli divsi divui remsi remui andi ori xori maxsi minsi maxui minui shrsi shrui ceildivsi ceildivui "
    "floordivsi addf subf mulf divf remf maximumf minimumf maxnumf minnumf"
).split()


@custom_printer(*(f"arith.{n}" for n in _BINARY))
def _binary(p: Printer, op: Operation) -> str:
    a, b = op.operands
    return f"{op.name} {p.value(a)}, {p.value(b)}{_flags(op)}{p.attr_dict({**_props_left(op), **op.attributes})} : {op.results[0].type}"


@custom_printer("arith.negf")
def _negf(p: Printer, op: Operation) -> str:
    return f"arith.negf {p.value(op.operands[0])}{_flags(op)}{p.attr_dict(op.attributes)} : {op.results[0].type}"


_CASTS = "index_cast index_castui sitofp uitofp fptosi fptoui extsi extui trunci extf truncf bitcast".split()


@custom_printer(*(f"arith.{n}" for n in _CASTS))
def _cast(p: Printer, op: Operation) -> str:
    (a,) = op.operands
    return f"{op.name} {p.value(a)}{p.attr_dict(op.attributes)} : {a.type} to {op.results[0].type}"


@custom_printer("arith.cmpi", "arith.cmpf")
def _cmp(p: Printer, op: Operation) -> str:
    table = CMPI_PREDICATES if op.name == "arith.cmpi" else CMPF_PREDICATES
    pred = op.properties["predicate"]
    a, b = op.operands
    if not (isinstance(pred, IntegerAttr) and 0 <= pred.value < len(table)):
        raise ValueError("predicate out of range: printed generically")
    name = table[pred.value]
    return f"{op.name} {name}, {p.value(a)}, {p.value(b)}{_flags(op)}{p.attr_dict(op.attributes)} : {a.type}"


@custom_printer("arith.select")
def _select(p: Printer, op: Operation) -> str:
    c, a, b = op.operands
    cond = f"{c.type}, " if c.type.text != "i1" else ""
    return f"arith.select {p.values(op.operands)}{p.attr_dict(op.attributes)} : {cond}{op.results[0].type}"


# -- memref -----------------------------------------------------------------------
@custom_printer("memref.alloc", "memref.alloca")
def _alloc(p: Printer, op: Operation) -> str:
    dyn, syms = segments(op)
    text = f"{op.name}({p.values(dyn)})"
    if syms:
        text += f"[{p.values(syms)}]"
    return text + p.attr_dict({**_props_left(op, "operandSegmentSizes"), **op.attributes}) + f" : {op.results[0].type}"


@custom_printer("memref.dealloc")
def _dealloc(p: Printer, op: Operation) -> str:
    return f"memref.dealloc {p.value(op.operands[0])}{p.attr_dict(op.attributes)} : {op.operands[0].type}"


@custom_printer("memref.load")
def _load(p: Printer, op: Operation) -> str:
    m, *idx = op.operands
    return f"memref.load {p.value(m)}[{p.values(idx)}]{p.attr_dict({**_nontemporal_left(op), **op.attributes})} : {m.type}"


@custom_printer("memref.store")
def _store(p: Printer, op: Operation) -> str:
    v, m, *idx = op.operands
    return f"memref.store {p.value(v)}, {p.value(m)}[{p.values(idx)}]{p.attr_dict({**_nontemporal_left(op), **op.attributes})} : {m.type}"


@custom_printer("memref.dim")
def _dim(p: Printer, op: Operation) -> str:
    m, i = op.operands
    return f"memref.dim {p.value(m)}, {p.value(i)}{p.attr_dict(op.attributes)} : {m.type}"


@custom_printer("memref.cast")
def _memref_cast(p: Printer, op: Operation) -> str:
    (m,) = op.operands
    return f"memref.cast {p.value(m)}{p.attr_dict(op.attributes)} : {m.type} to {op.results[0].type}"


@custom_printer("memref.copy")
def _copy(p: Printer, op: Operation) -> str:
    a, b = op.operands
    return f"memref.copy {p.value(a)}, {p.value(b)}{p.attr_dict(op.attributes)} : {a.type} to {b.type}"


@custom_printer("memref.subview")
def _subview(p: Printer, op: Operation) -> str:
    src, offs, sizes, strides = segments(op)
    text = f"memref.subview {p.value(src[0])}"
    for key, dyn in (("static_offsets", offs), ("static_sizes", sizes), ("static_strides", strides)):
        statics = op.properties[key].values  # type: ignore[attr-defined]  # a DenseArrayAttr (registry: the static_* arrays)
        it = iter(dyn)
        text += "[" + ", ".join(p.value(next(it)) if s == K_DYNAMIC else str(s) for s in statics) + "]"
        if key != "static_strides":
            text += " "
    rest = _props_left(op, "operandSegmentSizes", "static_offsets", "static_sizes", "static_strides")
    return text + p.attr_dict({**rest, **op.attributes}) + f" : {src[0].type} to {op.results[0].type}"
