"""Custom-form printers of the `builtin`, `func` and `gpu` ops (mlir-opt-19's text)."""

from __future__ import annotations

from spec import gpu_async, registry
from spec.attributes import ArrayAttr, Attr, FunctionType, IntegerAttr, StringAttr, UnitAttr, quote_symbol
from spec.invariant import InternalError
from spec.ir import Operation, Value
from spec.syntax.custom_registry import custom_printer, return_like, segments
from spec.syntax.printer import Printer


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
        if arg_attrs is not None and str(arg_attrs.elements[i]) != "{}":  # type: ignore[attr-defined]  # an ArrayAttr (registry: arg_attrs is an array of dicts)
            attrs = " " + str(arg_attrs.elements[i])  # type: ignore[attr-defined]  # as above
        parts.append(f"{p.value(entry.args[i])}: {t}{attrs}" if entry is not None else f"{t}{attrs}")
    text = "(" + ", ".join(parts) + ")"
    if fn.results:
        res = []
        for i, t in enumerate(fn.results):
            attrs = ""
            if res_attrs is not None and str(res_attrs.elements[i]) != "{}":  # type: ignore[attr-defined]  # an ArrayAttr (registry: res_attrs)
                attrs = " " + str(res_attrs.elements[i])  # type: ignore[attr-defined]  # as above
            res.append(f"{t}{attrs}")
        if len(res) == 1 and not res[0].startswith("(") and res_attrs is None:
            text += f" -> {res[0]}"
        else:
            text += " -> (" + ", ".join(res) + ")"
    return text


# -- builtin / func ---------------------------------------------------------------
@custom_printer("builtin.module")
def _module(p: Printer, op: Operation) -> str:
    text = "builtin.module" if op.parent is not None and op.parent_op is not None and op.parent_op.name != "builtin.module" else "module"
    sym = op.properties.get("sym_name")
    if isinstance(sym, StringAttr):
        text += " " + quote_symbol(sym.value)
    text += p.attr_dict({**op.attributes, **{k: v for k, v in op.properties.items() if k != "sym_name"}}, keyword=True)
    return text + " " + p.region(op.regions[0], False, True)


@custom_printer("func.func")
def _func(p: Printer, op: Operation) -> str:
    props = op.properties
    text = "func.func "
    vis = props.get("sym_visibility")
    if isinstance(vis, StringAttr):
        text += vis.value + " "
    fn = props["function_type"].type  # type: ignore[attr-defined]  # a TypeAttr (registry: function_type)
    text += quote_symbol(props["sym_name"].value)  # type: ignore[attr-defined]  # a StringAttr (registry: sym_name)
    text += _fn_signature(p, op, fn, props.get("arg_attrs"), props.get("res_attrs"))
    text += p.attr_dict(op.attributes, keyword=True)
    if op.regions and op.regions[0].blocks:
        text += " " + p.region(op.regions[0], False, True)
    return text


@custom_printer("func.call")
def _call(p: Printer, op: Operation) -> str:
    fn = FunctionType(tuple(v.type for v in op.operands), tuple(v.type for v in op.results))
    extra = {k: v for k, v in op.properties.items() if k != "callee"}
    return f"{p.op_name(op)} {op.properties['callee']}({p.values(op.operands)}){p.attr_dict({**extra, **op.attributes})} : {fn}"



@custom_printer("func.return", "gpu.return")
def _return(p: Printer, op: Operation) -> str:
    return return_like(p, op)


# -- gpu --------------------------------------------------------------------------
@custom_printer("gpu.module")
def _gpu_module(p: Printer, op: Operation) -> str:
    """`gpu.module @name <handler> [targets]  attributes {...} {...}`, as
    mlir-opt-19 prints it: the targets list is followed by two blanks (it
    prints one after `]` and one before what comes next)."""
    props = op.properties
    text = f"gpu.module {quote_symbol(props['sym_name'].value)}"  # type: ignore[attr-defined]  # a StringAttr (registry: sym_name)
    handler = props.get("offloadingHandler")
    if handler is not None:
        text += f" <{handler}>"
    targets = props.get("targets")
    if isinstance(targets, ArrayAttr):
        text += " [" + ", ".join(map(str, targets.elements)) + "] "
    rest = {k: v for k, v in props.items() if k not in _GPU_MODULE_SHOWN}
    text += p.attr_dict({**rest, **op.attributes}, keyword=True)
    return text + " " + p.region(op.regions[0], False, True)


_GPU_MODULE_SHOWN = frozenset({"sym_name", "offloadingHandler", "targets"})
"""The properties `gpu.module`'s custom form spells outside its attribute dict."""


@custom_printer("gpu.func")
def _gpu_func(p: Printer, op: Operation) -> str:
    fn: FunctionType = op.properties["function_type"].type  # type: ignore[attr-defined]  # a TypeAttr of a FunctionType (registry: function_type)
    attrs = op.attributes
    text = f"gpu.func {quote_symbol(attrs['sym_name'].value)}"  # type: ignore[attr-defined]  # a StringAttr (sym_name)
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


@custom_printer("gpu.barrier", "gpu.terminator", "gpu.module_end")
def _bare(p: Printer, op: Operation) -> str:
    return op.name + p.attr_dict(op.attributes)


@custom_printer("gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim", "gpu.cluster_id", "gpu.cluster_dim", "gpu.cluster_block_id", "gpu.cluster_dim_blocks")
def _gpu_dim(p: Printer, op: Operation) -> str:
    dim = str(op.properties["dimension"]).removeprefix("#gpu<dim ").rstrip(">")
    text = f"{op.name}  {dim}"
    ub = op.properties.get("upper_bound")
    if isinstance(ub, IntegerAttr):
        text += f" upper_bound {ub.value}"
    return text + p.attr_dict(op.attributes)


@custom_printer("gpu.launch_func")
def _launch_func(p: Printer, op: Operation) -> str:
    seg = segments(op)
    deps, grid, block, cluster, dsm, args = seg[0], seg[1] + seg[2] + seg[3], seg[4] + seg[5] + seg[6], seg[7] + seg[8] + seg[9], seg[10], seg[11]
    text = f"gpu.launch_func {_async_deps(p, _is_async(op), deps)} {op.properties['kernel']}"
    if cluster:
        text += f" clusters in ({p.values(cluster)})"
    text += f" blocks in ({p.values(grid)}) threads in ({p.values(block)}) "
    if grid[0].type.text != "index":
        text += f": {grid[0].type}"
    if dsm:
        text += f" dynamic_shared_memory_size {p.value(dsm[0])}"
    text += " "
    if args:
        text += "args(" + ", ".join(f"{p.value(a)} : {a.type}" for a in args) + ")"
    return text + p.attr_dict(op.attributes)


def _gpu_prefix(p: Printer, op: Operation, fixed: int) -> tuple[str, list[Value]]:
    n_deps = len(op.operands) - fixed
    return f"{op.name} {_async_deps(p, _is_async(op), op.operands[:n_deps])}", op.operands[n_deps:]


@custom_printer("gpu.memcpy", "gpu.memset")
def _memcpy(p: Printer, op: Operation) -> str:
    head, (a, b) = _gpu_prefix(p, op, 2)
    return f"{head} {p.value(a)}, {p.value(b)}{p.attr_dict(op.attributes)} : {a.type}, {b.type}"


@custom_printer("gpu.dealloc")
def _gpu_dealloc(p: Printer, op: Operation) -> str:
    head, (m,) = _gpu_prefix(p, op, 1)
    return f"{head} {p.value(m)}{p.attr_dict(op.attributes)} : {m.type}"


@custom_printer("gpu.wait")
def _gpu_wait(p: Printer, op: Operation) -> str:
    return f"gpu.wait {_async_deps(p, _is_async(op), op.operands)}{p.attr_dict(op.attributes)}"


@custom_printer("gpu.alloc")
def _gpu_alloc(p: Printer, op: Operation) -> str:
    deps, dyn, syms = segments(op)
    text = f"gpu.alloc {_async_deps(p, _is_async(op), deps)}"
    if isinstance(op.properties.get("hostShared"), UnitAttr):
        text += " host_shared"
    text += f" ({p.values(dyn)})"
    if syms:
        text += f"[{p.values(syms)}]"
    return text + p.attr_dict(op.attributes) + f" : {op.results[0].type}"


@custom_printer("gpu.launch")
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
    cl = [v for s in seg[7:10] for v in s]
    if cl:
        text += f"clusters({p.values(a[12:15])}) in ({p.value(a[15])} = {p.value(cl[0])}, {p.value(a[16])} = {p.value(cl[1])}, {p.value(a[17])} = {p.value(cl[2])}) "
    text += f"blocks({p.values(a[0:3])}) in ({p.value(a[6])} = {p.value(sizes[0])}, {p.value(a[7])} = {p.value(sizes[1])}, {p.value(a[8])} = {p.value(sizes[2])})"
    text += f" threads({p.values(a[3:6])}) in ({p.value(a[9])} = {p.value(sizes[3])}, {p.value(a[10])} = {p.value(sizes[4])}, {p.value(a[11])} = {p.value(sizes[5])})"
    if dsm:
        text += f" dynamic_shared_memory_size {p.value(dsm[0])}"
    text += " " + p.region(op.regions[0], False, True)
    return text + p.attr_dict(op.attributes, ("workgroup_attributions",))


def _library_form(p: Printer, op: Operation) -> str:
    """The GPU library (sparse) ops, printed from the registry's `LibraryForm`
    with mlir-opt-19's spacing (`{ X}` with a blank inside, no blank before
    it; two blanks after the name of a synchronous op without deps)."""
    info = registry.lookup(op.name)
    form = info.library_form
    if form is None:
        raise InternalError("spec.syntax.custom_func_gpu: expected form is not None")
    n_deps = len(gpu_async.async_deps(op))
    deps, rest = op.operands[:n_deps], op.operands[n_deps:]
    if form.order:
        rest = [rest[at] for at in form.order]
    text = f"{op.name} {_async_deps(p, _is_async(op), deps)}"
    if form.lead:
        text += "{ " + str(op.properties[form.lead]).rstrip(">").rsplit(" ", 1)[1] + "}"
    words = []
    for i, v in enumerate(rest):
        word = p.value(v)
        if i in form.modes:
            mode = str(op.properties.get(("modeA", "modeB")[form.modes.index(i)], "")).rstrip(">").rsplit(" ", 1)[-1]
            if mode and mode != "NON_TRANSPOSE":
                word += "{ " + mode + "}"
        words.append(word)
    if words:
        text += " " + ", ".join(words)
    text += p.attr_dict(op.attributes)
    memrefs = [v.type for v in rest if v.type.text.startswith("memref")]
    n_fixed_results = sum(1 for _, k in form.results if not k.endswith("*"))
    token = 1 if _is_async(op) else 0
    for sep, part in ((" : ", form.colon), (" into ", form.into)):
        if not part:
            continue
        if part == "memrefs":
            shown = [str(t) for t in memrefs]
        elif part == "memref":
            shown = [str(memrefs[0])]
        elif part == "dims":
            shown = [str(v.type) for v in rest[1:]]
        elif part == "results":
            shown = [str(r.type) for r in op.results[: len(op.results) - token - n_fixed_results]]
        else:
            shown = [str(op.properties["computeType"].type)]  # type: ignore[attr-defined]  # a TypeAttr (registry: computeType is a type)
        text += sep + ", ".join(shown)
    return text


for _name in registry.known_ops():
    if registry.lookup(_name).library_form is not None:
        custom_printer(_name)(_library_form)
