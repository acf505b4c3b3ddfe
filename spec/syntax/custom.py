"""Custom assembly of each op in the subset, as mlir-opt-19 prints it.

Each printer returns the op's text after `%results = `. The spacing quirks
are deliberate: they are mlir-opt's (`gpu.launch_func  @k` for a synchronous
launch, a trailing blank after `scf.reduce` and after `gpu.wait` with no
operands, two blanks before `args(...)`).
"""

from __future__ import annotations

from collections.abc import Callable

from spec.attributes import (
    Attr,
    DenseArrayAttr,
    FunctionType,
    IntegerAttr,
    StringAttr,
    TypeAttr,
    UnitAttr,
    quote_string,
    quote_symbol,
)
from spec.ir import Operation, Value
from spec.syntax.parser import CMPF_PREDICATES, CMPI_PREDICATES, K_DYNAMIC
from spec.syntax.printer import Printer

CUSTOM_PRINTERS: dict[str, Callable[[Printer, Operation], str]] = {}


def _printer(*names: str) -> Callable:
    def deco(fn: Callable[[Printer, Operation], str]) -> Callable[[Printer, Operation], str]:
        for n in names:
            CUSTOM_PRINTERS[n] = fn
        return fn

    return deco


def segments(op: Operation) -> list[list[Value]]:
    sizes = op.properties.get("operandSegmentSizes")
    assert isinstance(sizes, DenseArrayAttr)
    out, i = [], 0
    for n in sizes.values:
        out.append(op.operands[i : i + n])
        i += n
    return out


def _async_deps(p: Printer, is_async: bool, deps: list[Value]) -> str:
    text = "async" if is_async else ""
    if deps:
        text += (" " if is_async else "") + "[" + p.values(deps) + "]"
    return text


def _is_async(op: Operation) -> bool:
    return bool(op.results) and op.results[-1].type.is_gpu_token


def _fn_signature(p: Printer, op: Operation, fn: FunctionType, arg_attrs: Attr | None, res_attrs: Attr | None) -> str:
    region = op.regions[0] if op.regions else None
    entry = region.blocks[0] if region is not None and region.blocks else None
    parts = []
    for i, t in enumerate(fn.inputs):
        attrs = ""
        if arg_attrs is not None and str(arg_attrs.elements[i]) != "{}":  # type: ignore[attr-defined]
            attrs = " " + str(arg_attrs.elements[i])  # type: ignore[attr-defined]
        parts.append(f"{p.value(entry.args[i])}: {t}{attrs}" if entry is not None else f"{t}{attrs}")
    text = "(" + ", ".join(parts) + ")"
    if fn.results:
        res = []
        for i, t in enumerate(fn.results):
            attrs = ""
            if res_attrs is not None and str(res_attrs.elements[i]) != "{}":  # type: ignore[attr-defined]
                attrs = " " + str(res_attrs.elements[i])  # type: ignore[attr-defined]
            res.append(f"{t}{attrs}")
        if len(res) == 1 and not res[0].startswith("(") and res_attrs is None:
            text += f" -> {res[0]}"
        else:
            text += " -> (" + ", ".join(res) + ")"
    return text


# -- builtin / func ---------------------------------------------------------------
@_printer("builtin.module")
def _module(p: Printer, op: Operation) -> str:
    text = "builtin.module" if op.parent is not None and op.parent_op is not None and op.parent_op.name != "builtin.module" else "module"
    sym = op.properties.get("sym_name")
    if isinstance(sym, StringAttr):
        text += " " + quote_symbol(sym.value)
    text += p.attr_dict({**op.attributes, **{k: v for k, v in op.properties.items() if k != "sym_name"}}, keyword=True)
    return text + " " + p.region(op.regions[0], False, True)


@_printer("func.func")
def _func(p: Printer, op: Operation) -> str:
    props = op.properties
    text = "func.func "
    vis = props.get("sym_visibility")
    if isinstance(vis, StringAttr):
        text += vis.value + " "
    fn = props["function_type"].type  # type: ignore[attr-defined]
    text += quote_symbol(props["sym_name"].value)  # type: ignore[attr-defined]
    text += _fn_signature(p, op, fn, props.get("arg_attrs"), props.get("res_attrs"))
    text += p.attr_dict(op.attributes, keyword=True)
    if op.regions and op.regions[0].blocks:
        text += " " + p.region(op.regions[0], False, True)
    return text


@_printer("func.call")
def _call(p: Printer, op: Operation) -> str:
    fn = FunctionType(tuple(v.type for v in op.operands), tuple(v.type for v in op.results))
    extra = {k: v for k, v in op.properties.items() if k != "callee"}
    return f"{p.op_name(op)} {op.properties['callee']}({p.values(op.operands)}){p.attr_dict({**extra, **op.attributes})} : {fn}"


def _return_like(p: Printer, op: Operation, name: str | None = None) -> str:
    text = name or p.op_name(op)
    text += p.attr_dict(op.attributes)
    if op.operands:
        text += f" {p.values(op.operands)} : {p.types(op.operands)}"
    return text


@_printer("func.return", "gpu.return")
def _return(p: Printer, op: Operation) -> str:
    return _return_like(p, op)


# -- gpu --------------------------------------------------------------------------
@_printer("gpu.module")
def _gpu_module(p: Printer, op: Operation) -> str:
    text = f"gpu.module {quote_symbol(op.properties['sym_name'].value)}"  # type: ignore[attr-defined]
    rest = {k: v for k, v in op.properties.items() if k != "sym_name"}
    text += p.attr_dict({**rest, **op.attributes}, keyword=True)
    return text + " " + p.region(op.regions[0], False, True)


@_printer("gpu.func")
def _gpu_func(p: Printer, op: Operation) -> str:
    fn: FunctionType = op.properties["function_type"].type  # type: ignore[attr-defined]
    attrs = op.attributes
    text = f"gpu.func {quote_symbol(attrs['sym_name'].value)}"  # type: ignore[attr-defined]
    text += _fn_signature(p, op, fn, op.properties.get("arg_attrs"), op.properties.get("res_attrs"))
    n_wg = attrs.get("workgroup_attributions")
    entry = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
    if entry is not None:
        n_in = len(fn.inputs)
        wg = n_wg.value if isinstance(n_wg, IntegerAttr) else 0
        workgroup = entry.args[n_in : n_in + wg]
        private = entry.args[n_in + wg :]
        if workgroup:
            text += " workgroup(" + ", ".join(f"{p.value(a)} : {a.type}" for a in workgroup) + ")"
        if private:
            text += " private(" + ", ".join(f"{p.value(a)} : {a.type}" for a in private) + ")"
    if isinstance(attrs.get("gpu.kernel"), UnitAttr):
        text += " kernel"
    shown = {**{k: v for k, v in op.properties.items() if k.startswith("known_")}, **attrs}
    text += p.attr_dict(shown, ("sym_name", "workgroup_attributions", "gpu.kernel", "function_type"), keyword=True)
    return text + " " + p.region(op.regions[0], False, True)


@_printer("gpu.barrier", "gpu.terminator", "gpu.module_end")
def _bare(p: Printer, op: Operation) -> str:
    return op.name + p.attr_dict(op.attributes)


@_printer("gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim", "gpu.cluster_id", "gpu.cluster_dim")
def _gpu_dim(p: Printer, op: Operation) -> str:
    dim = str(op.properties["dimension"]).removeprefix("#gpu<dim ").rstrip(">")
    text = f"{op.name}  {dim}"
    ub = op.properties.get("upper_bound")
    if isinstance(ub, IntegerAttr):
        text += f" upper_bound {ub.value}"
    return text + p.attr_dict(op.attributes)


@_printer("gpu.launch_func")
def _launch_func(p: Printer, op: Operation) -> str:
    seg = segments(op)
    deps, grid, block, cluster, dsm, args = seg[0], seg[1] + seg[2] + seg[3], seg[4] + seg[5] + seg[6], seg[7] + seg[8] + seg[9], seg[10], seg[11]
    text = f"gpu.launch_func {_async_deps(p, _is_async(op), deps)} {op.properties['kernel']}"
    text += f" blocks in ({p.values(grid)}) threads in ({p.values(block)})"
    if cluster:
        text += f" clusters in ({p.values(cluster)})"
    text += " "
    if dsm:
        text += f" dynamic_shared_memory_size {p.value(dsm[0])}"
    text += " "
    if args:
        text += "args(" + ", ".join(f"{p.value(a)} : {a.type}" for a in args) + ")"
    return text + p.attr_dict(op.attributes)


def _gpu_prefix(p: Printer, op: Operation, fixed: int) -> tuple[str, list[Value]]:
    n_deps = len(op.operands) - fixed
    return f"{op.name} {_async_deps(p, _is_async(op), op.operands[:n_deps])}", op.operands[n_deps:]


@_printer("gpu.memcpy", "gpu.memset")
def _memcpy(p: Printer, op: Operation) -> str:
    head, (a, b) = _gpu_prefix(p, op, 2)
    return f"{head} {p.value(a)}, {p.value(b)}{p.attr_dict(op.attributes)} : {a.type}, {b.type}"


@_printer("gpu.dealloc")
def _gpu_dealloc(p: Printer, op: Operation) -> str:
    head, (m,) = _gpu_prefix(p, op, 1)
    return f"{head} {p.value(m)}{p.attr_dict(op.attributes)} : {m.type}"


@_printer("gpu.wait")
def _gpu_wait(p: Printer, op: Operation) -> str:
    return f"gpu.wait {_async_deps(p, _is_async(op), op.operands)}{p.attr_dict(op.attributes)}"


@_printer("gpu.alloc")
def _gpu_alloc(p: Printer, op: Operation) -> str:
    deps, dyn, syms = segments(op)
    text = f"gpu.alloc {_async_deps(p, _is_async(op), deps)}"
    if isinstance(op.properties.get("hostShared"), UnitAttr):
        text += " host_shared"
    text += f" ({p.values(dyn)})"
    if syms:
        text += f"[{p.values(syms)}]"
    return text + p.attr_dict(op.attributes) + f" : {op.results[0].type}"


@_printer("gpu.launch")
def _gpu_launch(p: Printer, op: Operation) -> str:
    seg = segments(op)
    deps = seg[0]
    sizes = [v for s in seg[1:7] for v in s]
    dsm = seg[10]
    entry = op.regions[0].blocks[0]
    a = entry.args
    text = "gpu.launch "
    if _is_async(op) or deps:
        text += _async_deps(p, _is_async(op), deps) + " "
    text += f"blocks({p.values(a[0:3])}) in ({p.value(a[6])} = {p.value(sizes[0])}, {p.value(a[7])} = {p.value(sizes[1])}, {p.value(a[8])} = {p.value(sizes[2])})"
    text += f" threads({p.values(a[3:6])}) in ({p.value(a[9])} = {p.value(sizes[3])}, {p.value(a[10])} = {p.value(sizes[4])}, {p.value(a[11])} = {p.value(sizes[5])})"
    if dsm:
        text += f" dynamic_shared_memory_size {p.value(dsm[0])}"
    text += " " + p.region(op.regions[0], False, True)
    return text + p.attr_dict(op.attributes, ("workgroup_attributions",))


# -- arith ------------------------------------------------------------------------
def _flags(op: Operation) -> str:
    from spec import registry

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


@_printer("arith.constant")
def _constant(p: Printer, op: Operation) -> str:
    return f"arith.constant{p.attr_dict(op.attributes)} {op.properties['value']}"


_BINARY = (
    "addi subi muli shli divsi divui remsi remui andi ori xori maxsi minsi maxui minui shrsi shrui ceildivsi "
    "floordivsi addf subf mulf divf remf maximumf minimumf maxnumf minnumf"
).split()


@_printer(*(f"arith.{n}" for n in _BINARY))
def _binary(p: Printer, op: Operation) -> str:
    a, b = op.operands
    return f"{op.name} {p.value(a)}, {p.value(b)}{_flags(op)}{p.attr_dict({**_props_left(op), **op.attributes})} : {op.results[0].type}"


@_printer("arith.negf")
def _negf(p: Printer, op: Operation) -> str:
    return f"arith.negf {p.value(op.operands[0])}{_flags(op)}{p.attr_dict(op.attributes)} : {op.results[0].type}"


_CASTS = "index_cast index_castui sitofp uitofp fptosi fptoui extsi extui trunci extf truncf bitcast".split()


@_printer(*(f"arith.{n}" for n in _CASTS))
def _cast(p: Printer, op: Operation) -> str:
    (a,) = op.operands
    return f"{op.name} {p.value(a)}{p.attr_dict(op.attributes)} : {a.type} to {op.results[0].type}"


@_printer("arith.cmpi", "arith.cmpf")
def _cmp(p: Printer, op: Operation) -> str:
    table = CMPI_PREDICATES if op.name == "arith.cmpi" else CMPF_PREDICATES
    pred = op.properties["predicate"]
    a, b = op.operands
    if not (isinstance(pred, IntegerAttr) and 0 <= pred.value < len(table)):
        raise ValueError("predicate out of range: printed generically")
    name = table[pred.value]
    return f"{op.name} {name}, {p.value(a)}, {p.value(b)}{_flags(op)}{p.attr_dict(op.attributes)} : {a.type}"


@_printer("arith.select")
def _select(p: Printer, op: Operation) -> str:
    c, a, b = op.operands
    cond = f"{c.type}, " if c.type.text != "i1" else ""
    return f"arith.select {p.values(op.operands)}{p.attr_dict(op.attributes)} : {cond}{op.results[0].type}"


# -- memref -----------------------------------------------------------------------
@_printer("memref.alloc", "memref.alloca")
def _alloc(p: Printer, op: Operation) -> str:
    dyn, syms = segments(op)
    text = f"{op.name}({p.values(dyn)})"
    if syms:
        text += f"[{p.values(syms)}]"
    return text + p.attr_dict({**_props_left(op, "operandSegmentSizes"), **op.attributes}) + f" : {op.results[0].type}"


@_printer("memref.dealloc")
def _dealloc(p: Printer, op: Operation) -> str:
    return f"memref.dealloc {p.value(op.operands[0])}{p.attr_dict(op.attributes)} : {op.operands[0].type}"


@_printer("memref.load")
def _load(p: Printer, op: Operation) -> str:
    m, *idx = op.operands
    return f"memref.load {p.value(m)}[{p.values(idx)}]{p.attr_dict({**_props_left(op), **op.attributes})} : {m.type}"


@_printer("memref.store")
def _store(p: Printer, op: Operation) -> str:
    v, m, *idx = op.operands
    return f"memref.store {p.value(v)}, {p.value(m)}[{p.values(idx)}]{p.attr_dict({**_props_left(op), **op.attributes})} : {m.type}"


@_printer("memref.dim")
def _dim(p: Printer, op: Operation) -> str:
    m, i = op.operands
    return f"memref.dim {p.value(m)}, {p.value(i)}{p.attr_dict(op.attributes)} : {m.type}"


@_printer("memref.cast")
def _memref_cast(p: Printer, op: Operation) -> str:
    (m,) = op.operands
    return f"memref.cast {p.value(m)}{p.attr_dict(op.attributes)} : {m.type} to {op.results[0].type}"


@_printer("memref.copy")
def _copy(p: Printer, op: Operation) -> str:
    a, b = op.operands
    return f"memref.copy {p.value(a)}, {p.value(b)}{p.attr_dict(op.attributes)} : {a.type} to {b.type}"


@_printer("memref.subview")
def _subview(p: Printer, op: Operation) -> str:
    src, offs, sizes, strides = segments(op)
    text = f"memref.subview {p.value(src[0])}"
    for key, dyn in (("static_offsets", offs), ("static_sizes", sizes), ("static_strides", strides)):
        statics = op.properties[key].values  # type: ignore[attr-defined]
        it = iter(dyn)
        text += "[" + ", ".join(p.value(next(it)) if s == K_DYNAMIC else str(s) for s in statics) + "]"
        if key != "static_strides":
            text += " "
    rest = _props_left(op, "operandSegmentSizes", "static_offsets", "static_sizes", "static_strides")
    return text + p.attr_dict({**rest, **op.attributes}) + f" : {src[0].type} to {op.results[0].type}"


# -- scf --------------------------------------------------------------------------
@_printer("scf.for")
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


@_printer("scf.if")
def _if(p: Printer, op: Operation) -> str:
    text = f"scf.if {p.value(op.operands[0])}"
    if op.results:
        text += f" -> ({p.types(op.results)})"
    show = bool(op.results)
    text += " " + p.region(op.regions[0], False, show)
    if len(op.regions) > 1 and op.regions[1].blocks:
        text += " else " + p.region(op.regions[1], False, show)
    return text + p.attr_dict(op.attributes)


@_printer("scf.while")
def _while(p: Printer, op: Operation) -> str:
    before, after = op.regions
    args = before.blocks[0].args
    pairs = ", ".join(f"{p.value(a)} = {p.value(i)}" for a, i in zip(args, op.operands))
    fn = FunctionType(tuple(v.type for v in op.operands), tuple(v.type for v in op.results))
    text = f"scf.while ({pairs}) : {fn} " if op.operands else f"scf.while : {fn} "
    text += p.region(before, False, True)
    text += " do " + p.region(after, True, True)
    return text + p.attr_dict(op.attributes)


@_printer("scf.parallel")
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


@_printer("scf.yield", "async.yield")
def _yield(p: Printer, op: Operation) -> str:
    return _return_like(p, op, op.name)


@_printer("scf.condition")
def _condition(p: Printer, op: Operation) -> str:
    c, *rest = op.operands
    text = f"scf.condition({p.value(c)}){p.attr_dict(op.attributes)}"
    if rest:
        text += f" {p.values(rest)} : {p.types(rest)}"
    return text


@_printer("scf.reduce")
def _reduce(p: Printer, op: Operation) -> str:
    text = "scf.reduce"
    if op.operands:
        text += f"({p.values(op.operands)} : {p.types(op.operands)})"
        text += " " + ", ".join(p.region(r, True, True) for r in op.regions)
    else:
        text += " "
    return text + p.attr_dict(op.attributes)


@_printer("scf.reduce.return")
def _reduce_return(p: Printer, op: Operation) -> str:
    (v,) = op.operands
    return f"scf.reduce.return {p.value(v)}{p.attr_dict(op.attributes)} : {v.type}"


@_printer("scf.execute_region")
def _execute_region(p: Printer, op: Operation) -> str:
    text = "scf.execute_region" + _arrow_types(p, op)
    return text + " " + p.region(op.regions[0], False, True) + p.attr_dict(op.attributes)


# -- cf ---------------------------------------------------------------------------
def _successor(p: Printer, op: Operation, i: int, operands: list[Value]) -> str:
    text = p.block_name(op.successors[i])
    if operands:
        text += f"({p.values(operands)} : {p.types(operands)})"
    return text


@_printer("cf.br")
def _br(p: Printer, op: Operation) -> str:
    return f"cf.br {_successor(p, op, 0, op.operands)}{p.attr_dict(op.attributes)}"


@_printer("cf.cond_br")
def _cond_br(p: Printer, op: Operation) -> str:
    (c,), t_ops, f_ops = segments(op)
    text = f"cf.cond_br {p.value(c)}"
    w = op.properties.get("branch_weights")
    if isinstance(w, DenseArrayAttr):
        text += " weights([" + ", ".join(map(str, w.values)) + "])"
    return text + f", {_successor(p, op, 0, t_ops)}, {_successor(p, op, 1, f_ops)}{p.attr_dict(op.attributes)}"


@_printer("cf.assert")
def _assert(p: Printer, op: Operation) -> str:
    msg = op.properties["msg"]
    return f"cf.assert {p.value(op.operands[0])}, {quote_string(msg.value)}{p.attr_dict(op.attributes)}"  # type: ignore[attr-defined]


# -- async ------------------------------------------------------------------------
@_printer("async.execute")
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


@_printer("async.await")
def _await(p: Printer, op: Operation) -> str:
    (v,) = op.operands
    return f"async.await {p.value(v)}{p.attr_dict(op.attributes)} : {v.type}"


@_printer("async.create_group")
def _create_group(p: Printer, op: Operation) -> str:
    return f"async.create_group {p.value(op.operands[0])}{p.attr_dict(op.attributes)} : {op.results[0].type}"


@_printer("async.add_to_group")
def _add_to_group(p: Printer, op: Operation) -> str:
    a, g = op.operands
    return f"async.add_to_group {p.value(a)}, {p.value(g)}{p.attr_dict(op.attributes)} : {a.type}"


@_printer("async.await_all")
def _await_all(p: Printer, op: Operation) -> str:
    return f"async.await_all {p.value(op.operands[0])}{p.attr_dict(op.attributes)}"


del TypeAttr
