"""Custom-form printers of the `affine` ops, as mlir-opt-19 prints them, and
the attribute aliases (`#map = ...`) it puts before a printed module.

`spec.syntax.printing.print_op` prints a module with its maps and sets
written out, then `affine.with_aliases` names them and puts the definitions
first. An op printed on its own (a diagnostic's "see current operation")
keeps them written out, as mlir-opt-19 does.
"""

from __future__ import annotations

from spec.attributes import Attr, IntegerAttr
from spec.ir import Operation, Value
from spec.syntax import affine
from spec.syntax.custom_registry import custom_printer, return_like, segments
from spec.syntax.printer import Printer


def _map(attr: Attr) -> affine.AffineMap:
    text = str(attr)
    if not text.startswith("affine_map<"):
        raise ValueError("not an affine map")
    return affine.parse_map(text[11:-1])


def _dim_syms(p: Printer, operands: list[Value], n_dims: int) -> str:
    """`printDimAndSymbolList`: `(dims)` always, `[syms]` when there are any."""
    text = f"({p.values(operands[:n_dims])})"
    if len(operands) > n_dims:
        text += f"[{p.values(operands[n_dims:])}]"
    return text


def _left(op: Operation, *known: str) -> dict[str, Attr]:
    return {**{k: v for k, v in op.properties.items() if k not in known}, **op.attributes}


@custom_printer("affine.apply")
def _apply(p: Printer, op: Operation) -> str:
    m = _map(op.properties["map"])
    if len(op.operands) != m.dims + m.syms:
        raise ValueError("operand count")
    return f"affine.apply {op.properties['map']}{_dim_syms(p, op.operands, m.dims)}{p.attr_dict(_left(op, 'map'))}"


def _subscripts(p: Printer, op: Operation, operands: list[Value]) -> str:
    m = _map(op.properties["map"])
    if len(operands) != m.dims + m.syms:
        raise ValueError("operand count")
    names = [p.value(v) for v in operands]
    return affine.ssa_exprs_text(m, names[: m.dims], names[m.dims :])


@custom_printer("affine.load")
def _load(p: Printer, op: Operation) -> str:
    mem, *idx = op.operands
    return f"affine.load {p.value(mem)}[{_subscripts(p, op, idx)}]{p.attr_dict(_left(op, 'map'))} : {mem.type}"


@custom_printer("affine.store")
def _store(p: Printer, op: Operation) -> str:
    val, mem, *idx = op.operands
    return f"affine.store {p.value(val)}, {p.value(mem)}[{_subscripts(p, op, idx)}]{p.attr_dict(_left(op, 'map'))} : {mem.type}"


def _bound(p: Printer, attr: Attr, operands: list[Value], prefix: str) -> str:
    """`printBound`: a constant, a lone symbol operand, or the map with its operands."""
    m = _map(attr)
    if len(operands) != m.dims + m.syms:
        raise ValueError("operand count")
    if len(m.results) == 1:
        e = m.results[0]
        if m.dims == 0 and m.syms == 0 and e.kind == "const":
            return str(e.value)
        if m.dims == 0 and m.syms == 1 and e.kind == "sym":
            return p.value(operands[0])
        head = ""
    else:
        head = f"{prefix} "
    return f"{head}{attr}{_dim_syms(p, operands, m.dims)}"


@custom_printer("affine.for")
def _for(p: Printer, op: Operation) -> str:
    lbs, ubs, inits = segments(op)
    body = op.regions[0].blocks[0]
    iv, *iter_args = body.args
    text = f"affine.for {p.value(iv)} = {_bound(p, op.properties['lowerBoundMap'], lbs, 'max')}"
    text += f" to {_bound(p, op.properties['upperBoundMap'], ubs, 'min')}"
    step = op.properties.get("step")
    if isinstance(step, IntegerAttr) and step.value != 1:
        text += f" step {step.value}"
    if inits:
        pairs = ", ".join(f"{p.value(a)} = {p.value(v)}" for a, v in zip(iter_args, inits))
        text += f" iter_args({pairs}) -> ({', '.join(str(r.type) for r in op.results)})"
    text += " " + p.region(op.regions[0], False, bool(inits))
    return text + p.attr_dict(_left(op, "lowerBoundMap", "upperBoundMap", "step", "operandSegmentSizes"))


@custom_printer("affine.if")
def _if(p: Printer, op: Operation) -> str:
    cond = op.attributes["condition"]
    text = str(cond)
    s = affine.parse_set(text[11:-1])
    if len(op.operands) != s.dims + s.syms:
        raise ValueError("operand count")
    text = f"affine.if {cond}{_dim_syms(p, op.operands, s.dims)}"
    if len(op.results) == 1:
        text += f" -> {op.results[0].type}"
    elif op.results:
        text += " -> (" + ", ".join(str(r.type) for r in op.results) + ")"
    show = bool(op.results)
    text += " " + p.region(op.regions[0], False, show)
    if op.regions[1].blocks:
        text += " else " + p.region(op.regions[1], False, show)
    rest = {k: v for k, v in {**op.properties, **op.attributes}.items() if k != "condition"}
    return text + p.attr_dict(rest)


@custom_printer("affine.yield")
def _yield(p: Printer, op: Operation) -> str:
    return return_like(p, op, "affine.yield")
