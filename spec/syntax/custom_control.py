"""Custom-form printers of the control-flow and async ops: `scf`, `cf` and
`async` (mlir-opt-19's text)."""

from __future__ import annotations

from spec.attributes import DenseArrayAttr, FunctionType, quote_string
from spec.ir import Operation, Value
from spec.syntax.custom_registry import custom_printer, return_like, segments
from spec.syntax.printer import Printer


# -- scf --------------------------------------------------------------------------
@custom_printer("scf.for")
def _for(p: Printer, op: Operation) -> str:
    lb, ub, step, *inits = op.operands
    body = op.regions[0].blocks[0]
    iv, *iters = body.args
    text = f"scf.for {p.value(iv)} = {p.value(lb)} to {p.value(ub)} step {p.value(step)}"
    if inits:
        pairs = ", ".join(f"{p.value(a)} = {p.value(i)}" for a, i in zip(iters, inits))
        text += f" iter_args({pairs}) -> ({p.types(op.results)})"
    if not iv.type.is_index:
        text += f"  : {iv.type}"
    return text + " " + p.region(op.regions[0], False, bool(inits)) + p.attr_dict(op.attributes)


@custom_printer("scf.if")
def _if(p: Printer, op: Operation) -> str:
    text = f"scf.if {p.value(op.operands[0])}"
    if op.results:
        text += f" -> ({p.types(op.results)})"
    show = bool(op.results)
    text += " " + p.region(op.regions[0], False, show)
    if len(op.regions) > 1 and op.regions[1].blocks:
        text += " else " + p.region(op.regions[1], False, show)
    return text + p.attr_dict(op.attributes)


@custom_printer("scf.while")
def _while(p: Printer, op: Operation) -> str:
    before, after = op.regions
    args = before.blocks[0].args
    pairs = ", ".join(f"{p.value(a)} = {p.value(i)}" for a, i in zip(args, op.operands))
    fn = FunctionType(tuple(v.type for v in op.operands), tuple(v.type for v in op.results))
    text = f"scf.while ({pairs}) : {fn} " if op.operands else f"scf.while : {fn} "
    text += p.region(before, False, True)
    text += " do " + p.region(after, True, True)
    return text + p.attr_dict(op.attributes, keyword=True)


@custom_printer("scf.parallel")
def _parallel(p: Printer, op: Operation) -> str:
    lbs, ubs, steps, inits = segments(op)
    ivs = op.regions[0].blocks[0].args
    text = f"scf.parallel ({p.values(ivs)}) = ({p.values(lbs)}) to ({p.values(ubs)}) step ({p.values(steps)})"
    if inits:
        text += f" init ({p.values(inits)})"
    text += _arrow_types(p, op)
    return text + " " + p.region(op.regions[0], False, True) + p.attr_dict(op.attributes)


def _arrow_types(p: Printer, op: Operation) -> str:
    """`printOptionalArrowTypeList`: ` -> T`, ` -> (T1, T2)` or nothing."""
    if not op.results:
        return ""
    if len(op.results) == 1:
        return f" -> {op.results[0].type}"
    return f" -> ({p.types(op.results)})"


@custom_printer("scf.yield", "async.yield")
def _yield(p: Printer, op: Operation) -> str:
    return return_like(p, op, op.name)


@custom_printer("scf.condition")
def _condition(p: Printer, op: Operation) -> str:
    c, *rest = op.operands
    text = f"scf.condition({p.value(c)}){p.attr_dict(op.attributes)}"
    if rest:
        text += f" {p.values(rest)} : {p.types(rest)}"
    return text


@custom_printer("scf.reduce")
def _reduce(p: Printer, op: Operation) -> str:
    text = "scf.reduce"
    if op.operands:
        text += f"({p.values(op.operands)} : {p.types(op.operands)})"
        text += " " + ", ".join(p.region(r, True, True) for r in op.regions)
    else:
        text += " "
    return text + p.attr_dict(op.attributes)


@custom_printer("scf.reduce.return")
def _reduce_return(p: Printer, op: Operation) -> str:
    (v,) = op.operands
    return f"scf.reduce.return {p.value(v)}{p.attr_dict(op.attributes)} : {v.type}"


@custom_printer("scf.execute_region")
def _execute_region(p: Printer, op: Operation) -> str:
    text = "scf.execute_region" + _arrow_types(p, op)
    return text + " " + p.region(op.regions[0], False, True) + p.attr_dict(op.attributes)


# -- cf ---------------------------------------------------------------------------
def _successor(p: Printer, op: Operation, i: int, operands: list[Value]) -> str:
    text = p.block_name(op.successors[i])
    if operands:
        text += f"({p.values(operands)} : {p.types(operands)})"
    return text


@custom_printer("cf.br")
def _br(p: Printer, op: Operation) -> str:
    return f"cf.br {_successor(p, op, 0, op.operands)}{p.attr_dict(op.attributes)}"


@custom_printer("cf.cond_br")
def _cond_br(p: Printer, op: Operation) -> str:
    (c,), t_ops, f_ops = segments(op)
    text = f"cf.cond_br {p.value(c)}"
    w = op.properties.get("branch_weights")
    if isinstance(w, DenseArrayAttr):
        text += " weights([" + ", ".join(map(str, w.values)) + "])"
    return text + f", {_successor(p, op, 0, t_ops)}, {_successor(p, op, 1, f_ops)}{p.attr_dict(op.attributes)}"


@custom_printer("cf.assert")
def _assert(p: Printer, op: Operation) -> str:
    msg = op.properties["msg"]
    return f"cf.assert {p.value(op.operands[0])}, {quote_string(msg.value)}{p.attr_dict(op.attributes)}"  # type: ignore[attr-defined]  # a StringAttr (registry: msg is a string)


# -- async ------------------------------------------------------------------------
@custom_printer("async.execute")
def _execute(p: Printer, op: Operation) -> str:
    deps, operands = segments(op)
    text = "async.execute"
    if deps:
        text += f" [{p.values(deps)}]"
    if operands:
        args = op.regions[0].blocks[0].args
        text += " (" + ", ".join(f"{p.value(o)} as {p.value(a)}: {o.type}" for o, a in zip(operands, args)) + ")"
    values = op.results[1:]
    if len(values) == 1:
        text += f" -> {values[0].type}"
    elif values:
        text += f" -> ({p.types(values)})"
    text += p.attr_dict({**op.attributes}, keyword=True)
    return text + " " + p.region(op.regions[0], False, True)


@custom_printer("async.await")
def _await(p: Printer, op: Operation) -> str:
    (v,) = op.operands
    return f"async.await {p.value(v)}{p.attr_dict(op.attributes)} : {v.type}"


@custom_printer("async.create_group")
def _create_group(p: Printer, op: Operation) -> str:
    return f"async.create_group {p.value(op.operands[0])}{p.attr_dict(op.attributes)} : {op.results[0].type}"


@custom_printer("async.add_to_group")
def _add_to_group(p: Printer, op: Operation) -> str:
    a, g = op.operands
    return f"async.add_to_group {p.value(a)}, {p.value(g)}{p.attr_dict(op.attributes)} : {a.type}"


@custom_printer("async.await_all")
def _await_all(p: Printer, op: Operation) -> str:
    return f"async.await_all {p.value(op.operands[0])}{p.attr_dict(op.attributes)}"
