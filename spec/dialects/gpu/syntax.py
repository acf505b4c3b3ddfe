"""The `gpu` dialect's host side: `gpu.module`, `func`, `launch`,
`launch_func`, the host ops (`alloc`, `dealloc`, `memcpy`, `memset`, `wait`,
`host_register`, `host_unregister`, `set_default_device`), the library
(sparse) ops of the registry's `LibraryForm`, `binary`, and the structure
of kernels (`barrier`, `terminator`, `return`). The ops that compute inside
kernels are `spec.dialects.gpu.device_syntax`.

The builder rules make MLIR's generic model (async tokens and dependencies,
`operandSegmentSizes`, properties) as mlir-opt-19 does; the printers give
its text, spacing quirks included (`gpu.launch_func  @k` for a synchronous
launch, a trailing blank after `gpu.wait` with no operands, two blanks
before `args(...)`, and in `gpu.binary @name  [...]` when the default
offloading handler is left out).
"""

from __future__ import annotations

from typing import Any

from lark import Token

from spec import gpu_async, registry
from spec.attributes import (
    GPU_TOKEN,
    I64,
    INDEX,
    ArrayAttr,
    Attr,
    FunctionType,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    Type,
    TypeAttr,
    UnitAttr,
    quote_symbol,
)
from spec.diagnostics import DiagnosticError, error
from spec.dialects.gpu.library_ops import HANDLE_TYPES
from spec.invariant import InternalError
from spec.ir import Block, Location, Operation, Region, Value
from spec.syntax.build_base import (
    BuilderBase,
    PartialOp,
    TokenError,
    UseRef,
    raw_rule,
    segment_sizes,
    symbol_name,
)
from spec.syntax.custom_registry import custom_printer, fn_signature, return_like, segments, shown_attrs
from spec.syntax.op_checks import declared
from spec.syntax.op_verifiers import custom_type_refused
from spec.syntax.printer import Printer

KEYWORD_FIRST: frozenset[str] = frozenset(
    "gpu_alloc_op gpu_barrier_op gpu_dealloc_op gpu_func_op gpu_launch_op gpu_module_op gpu_return_op "
    "gpu_terminator_op gpu_wait_op launch_func_op memcpy_op memset_op".split()
)
"""Rules whose first child is the op keyword: it locates the op and is dropped
from the children the callback sees."""

NAME_FIRST: frozenset[str] = frozenset(
    "gpu_library0_op gpu_library_op gpu_binary_op gpu_set_default_device_op gpu_host_register_op".split()
)
"""Rules whose first child is the token naming the op: kept, and the location."""

KEYWORDS: dict[str, str] = {
    "attribution_kw": "ATTRIBUTION_KW",
    "dim": "DIM",
    "gpu_library_kw": "GPU_LIBRARY_KW",
    "gpu_binary_kw": "GPU_BINARY_KW",
    "gpu_set_default_device_kw": "GPU_SET_DEFAULT_DEVICE_KW",
    "launch_kw": "LAUNCH_KW",
    "gpu_host_register_kw": "GPU_HOST_REGISTER_KW",
}
"""Keyword rules (string literals) and the token type each hands on."""


def _enum_word(written: dict[str, Attr] | None, meta: Any) -> str:
    """The one keyword of a `{ X}` enum (read as an attr-dict `{X}`); a
    failure becomes the builder's located diagnostic."""
    del meta
    if not written or len(written) != 1 or not isinstance(next(iter(written.values())), UnitAttr):
        raise ValueError("expected an enum keyword in '{...}'")
    return next(iter(written))


DEFAULT_HANDLER = "#gpu.select_object"


class GpuRules(BuilderBase):
    """The rules of the `gpu` ops' custom forms."""

    def gpu_module_handler(self, meta: Any, items: list) -> tuple[str, Attr]:
        return ("offloadingHandler", items[0])

    def gpu_module_targets(self, meta: Any, items: list) -> tuple[str, Attr]:
        return ("targets", ArrayAttr(tuple(i for i in items if i is not None)))

    def gpu_module_op(self, meta: Any, items: list) -> PartialOp:
        """`gpu.module @name <handler> [targets] attributes {...} {...}`:
        the handler and targets are properties, as mlir-opt-19 stores them.
        One also written in the attribute dict replaces them; there a
        `targets` that is not an array fails property conversion and is
        dropped (so the module has none), as mlir-opt-19 does silently.
        Then its verifier's constraints, in its order."""
        region: Region = items[-1]
        if not region.blocks:
            region.append(Block())
        props: dict[str, Attr] = {"sym_name": StringAttr(symbol_name(str(items[0])))}
        attrs: dict[str, Attr] | None = None
        for it in items[1:-1]:
            if isinstance(it, tuple):
                props[it[0]] = it[1]
            elif isinstance(it, dict):
                attrs = it
        props, attrs = self.split_attrs("gpu.module", attrs, props)
        if "targets" in props and not isinstance(props["targets"], ArrayAttr):
            del props["targets"]
        for key in ("targets", "offloadingHandler"):
            kind = declared("gpu.module")[key].kind
            if key in props and not kind.satisfied(props[key]):
                raise DiagnosticError(
                    error(
                        self.loc(meta),
                        f"'gpu.module' op attribute '{key}' failed to satisfy constraint: {kind.summary}",
                    )
                )
        return self.op("gpu.module", meta, properties=props, attributes=attrs, regions=[region])

    def gpu_attributions(self, meta: Any, items: list) -> tuple:
        return ("attrib", str(items[0]), [i for i in items[1:] if i is not None])

    def gpu_func_op(self, meta: Any, items: list) -> PartialOp:
        p = self._function_parts(items)
        args, results, region = p["args"], p["results"], p["region"]
        fn = FunctionType(tuple(a[2] for a in args), tuple(r[2] for r in results))
        workgroup = [a for kind, lst in ((x[1], x[2]) for x in p["attribs"]) if kind == "workgroup" for a in lst]
        private = [a for kind, lst in ((x[1], x[2]) for x in p["attribs"]) if kind == "private" for a in lst]
        all_args = [*args, *workgroup, *private]
        sym = next((i for i in items if isinstance(i, Token) and i.type == "SYMBOL"), None)
        if args and args[0][1] is None and sym is not None and sym.line is not None:
            # mlir-opt-19 reads a first argument without a name as a
            # signature of types only, which a gpu.func may not have.
            where = Location(self.file, sym.line + self.line_offset, (sym.column or 0) + len(str(sym)))
            raise DiagnosticError(error(where, "custom op 'gpu.func' gpu.func requires named arguments"))
        if any(a[1] is None for a in all_args):
            raise DiagnosticError(error(self.loc(meta), "expected SSA identifier"))
        self._entry_args(region, [(a[1], a[2]) for a in all_args])
        props, attrs = self.split_attrs("gpu.func", p["attrs"], {"function_type": TypeAttr(fn)})
        attrs = {**attrs, "sym_name": StringAttr(p["sym"]), "workgroup_attributions": IntegerAttr(len(workgroup), I64)}
        if p["kernel"]:
            attrs["gpu.kernel"] = UnitAttr()
        return self.op("gpu.func", meta, properties=props, attributes=attrs, regions=[region])

    def gpu_return_op(self, meta: Any, items: list) -> PartialOp:
        return self.op("gpu.return", meta, self._typed_list(items[0], items[1], meta))

    def gpu_barrier_op(self, meta: Any, items: list) -> PartialOp:
        return self.op("gpu.barrier", meta, attributes=items[0] if items else None)

    def gpu_terminator_op(self, meta: Any, items: list) -> PartialOp:
        return self.op("gpu.terminator", meta, attributes=items[0] if items else None)

    @raw_rule
    def triple(self, items: list) -> list[UseRef]:
        return [self.typed(u, INDEX) for u in items]

    def launch_args(self, meta: Any, items: list) -> list[UseRef]:
        return [i for i in items if i is not None]

    def launch_arg(self, meta: Any, items: list) -> UseRef:
        return self.typed(items[0], self.read_value_type(items[1]))

    def launch_clusters(self, meta: Any, items: list) -> tuple[str, list[UseRef]]:
        return ("clusters", items[0])

    def launch_func_op(self, meta: Any, items: list) -> PartialOp:
        """`gpu.launch_func [async [deps]] @m::@k [clusters in (...)] blocks
        in (...) threads in (...) [: T] [dynamic_shared_memory_size %s]
        [args(...)] [attr-dict]`: `T` (default `index`) types every size,
        clusters included."""
        is_async, deps = items[0]
        kernel: SymbolRefAttr = items[1]
        rest = list(items[2:])
        cluster: list[UseRef] = []
        if isinstance(rest[0], tuple):
            cluster = rest.pop(0)[1]
        grid, block = rest[0], rest[1]
        size_type: Type = INDEX
        dsm: list[UseRef] = []
        args: list[UseRef] = []
        attrs = None
        for it in rest[2:]:
            if isinstance(it, UseRef):
                dsm = [self.typed(it, Type("i32"))]
            elif isinstance(it, list):
                args = it
            elif isinstance(it, dict):
                attrs = it
            elif it is not None:
                size_type = self.read_value_type(it)
        sizes_ops = [self.typed(u, size_type) for u in (*grid, *block, *cluster)]
        sizes = (
            len(deps),
            1,
            1,
            1,
            1,
            1,
            1,
            *(1, 1, 1)[: len(cluster)],
            *(0, 0, 0)[len(cluster) :],
            len(dsm),
            len(args),
            0,
        )
        props, attrs = self.split_attrs(
            "gpu.launch_func", attrs, {"kernel": kernel, "operandSegmentSizes": segment_sizes(*sizes)}
        )
        results = [GPU_TOKEN] if is_async else []
        ops = [*deps, *sizes_ops[:6], *sizes_ops[6:], *dsm, *args]
        return self._async_kw(
            is_async, self.op("gpu.launch_func", meta, ops, results, properties=props, attributes=attrs)
        )

    def _copy_like(self, name: str, meta: Any, items: list) -> PartialOp:
        is_async, deps = items[0]
        a, b = items[1], items[2]
        attrs = items[3] if len(items) > 5 else None
        t1, t2 = self.read_value_type(items[-2]), self.read_value_type(items[-1])
        for at, t in ((-2, t1), (-1, t2)):
            refused = custom_type_refused(name, at, t)
            if refused is not None:
                raise TokenError(items[at], 0, refused)
        props, attrs = self.split_attrs(name, attrs, {})
        return self._async_kw(
            is_async,
            self.op(
                name,
                meta,
                [*deps, self.typed(a, t1), self.typed(b, t2)],
                [GPU_TOKEN] if is_async else [],
                properties=props,
                attributes=attrs,
            ),
        )

    def memcpy_op(self, meta: Any, items: list) -> PartialOp:
        return self._copy_like("gpu.memcpy", meta, items)

    def memset_op(self, meta: Any, items: list) -> PartialOp:
        return self._copy_like("gpu.memset", meta, items)

    def gpu_alloc_op(self, meta: Any, items: list) -> PartialOp:
        is_async, deps = items[0]
        host_shared = False
        lists: list[list[UseRef]] = []
        attrs = None
        for it in items[1:-1]:
            if isinstance(it, Token) and it.type == "HOST_SHARED":
                host_shared = True
            elif isinstance(it, list) or it is None:
                lists.append(it or [])
            elif isinstance(it, dict):
                attrs = it
        t = self.read_value_type(items[-1])
        dyn = [self.typed(u, INDEX) for u in (lists[0] if lists else [])]
        syms = [self.typed(u, INDEX) for u in (lists[1] if len(lists) > 1 else [])]
        props: dict[str, Attr] = {"operandSegmentSizes": segment_sizes(len(deps), len(dyn), len(syms))}
        if host_shared:
            props["hostShared"] = UnitAttr()
        props, attrs = self.split_attrs("gpu.alloc", attrs, props)
        results = [t, GPU_TOKEN] if is_async else [t]
        return self._async_kw(
            is_async, self.op("gpu.alloc", meta, [*deps, *dyn, *syms], results, properties=props, attributes=attrs)
        )

    def gpu_dealloc_op(self, meta: Any, items: list) -> PartialOp:
        is_async, deps = items[0]
        attrs = items[2] if len(items) > 3 else None
        return self._async_kw(
            is_async,
            self.op(
                "gpu.dealloc",
                meta,
                [*deps, self.typed(items[1], self.read_value_type(items[-1]))],
                [GPU_TOKEN] if is_async else [],
                attributes=attrs,
            ),
        )

    def gpu_wait_op(self, meta: Any, items: list) -> PartialOp:
        is_async, deps = items[0]
        attrs = items[1] if len(items) > 1 else None
        return self._async_kw(
            is_async, self.op("gpu.wait", meta, deps, [GPU_TOKEN] if is_async else [], attributes=attrs)
        )

    # -- the GPU library (sparse) ops: one rule, read by the registry's LibraryForm
    def library_operand(self, meta: Any, items: list) -> tuple:
        return ("operand", items[0], items[1] if len(items) > 1 else None)

    def gpu_library0_op(self, meta: Any, items: list) -> PartialOp:
        return self._library_op(meta, items)

    def gpu_library_op(self, meta: Any, items: list) -> PartialOp:
        return self._library_op(meta, items)

    def _library_op(self, meta: Any, items: list) -> PartialOp:  # noqa: C901 - one case per library op's syntax
        name = str(items[0])
        info = registry.lookup(name)
        form = info.library_form
        if form is None:
            raise InternalError("spec.dialects.gpu.syntax: expected form is not None")
        is_async, deps = items[1]
        lead: dict[str, Attr] | None = None
        written: list[tuple] = []
        colon: list[Type] = []
        into: Type | None = None
        for it in items[2:]:
            if isinstance(it, dict):
                lead = it
            elif isinstance(it, tuple):
                written.append(it)
            elif isinstance(it, list):
                colon = it
            elif it is not None:
                into = self.read_value_type(it)
        props: dict[str, Attr] = {}
        attrs: dict[str, Attr] | None = None
        if form.lead and lead is None:
            # 19 wants the `{ X}` right after the deps, and points
            # just past the token before (taken as one blank before the operand).
            first = written[0][1] if written and isinstance(written[0][1], UseRef) else None
            loc = first.loc._replace(col=max(first.loc.col - 1, 1)) if first is not None else self.loc(meta)
            raise DiagnosticError(error(loc, "expected '{'"))
        if form.lead:
            props[form.lead] = OpaqueAttr(f"#gpu<{form.lead_enum} {_enum_word(lead, meta)}>")
        elif lead is not None:
            if written:
                raise DiagnosticError(error(self.loc(meta), "expected SSA operand"))
            attrs = lead
        if written and written[-1][2] is not None and len(written) - 1 not in form.modes:
            attrs = written[-1][2]
            written[-1] = (*written[-1][:2], None)
        for k, pos in enumerate(form.modes):
            mode = written[pos][2] if pos < len(written) else None
            word = _enum_word(mode, meta) if mode is not None else "NON_TRANSPOSE"
            props[("modeA", "modeB")[k]] = OpaqueAttr(f"#gpu<mat_transpose_mode {word}>")
        if any(w[2] is not None for i, w in enumerate(written) if i not in form.modes):
            raise DiagnosticError(error(self.loc(meta), "expected ':'"))
        fixed = [k for k in form.operands if not k.endswith("*")]
        n_var = len(written) - len(fixed)
        if n_var < 0 or (n_var and len(fixed) == len(form.operands)):
            raise DiagnosticError(error(self.loc(meta), f"'{name}' op has {len(written)} operands"))
        kinds = [kk for k in form.operands for kk in ([k.rstrip("*")] * (n_var if k.endswith("*") else 1))]
        sizes = [n_var if k.endswith("*") else 1 for k in form.operands]
        types: dict[int, Type] = {}
        memrefs = [i for i, k in enumerate(kinds) if k == "memref"]
        var_results: list[Type] = []
        for part, given in ((form.colon, colon), (form.into, [into] if into is not None else [])):
            if part == "memrefs":
                types.update(zip(memrefs, given))
            elif part == "memref":
                types[memrefs[0]] = given[0]
            elif part == "dims":
                types.update(zip([i for i, k in enumerate(kinds) if k == "index"][len(fixed) - 1 :], given))
            elif part == "results":
                var_results = list(given)
            elif part == "compute":
                props["computeType"] = TypeAttr(given[0])
        uses = []
        for i, (kind, w) in enumerate(zip(kinds, written)):
            t = types.get(i) or (
                INDEX if kind == "index" else Type(HANDLE_TYPES[kind]) if kind in HANDLE_TYPES else None
            )
            if t is None:
                raise DiagnosticError(error(self.loc(meta), f"'{name}' op: no type for operand {i}"))
            uses.append(self.typed(w[1], t))
        results: list[Type] = []
        for _rname, kind in form.results:
            if kind == "index*":
                results.extend(var_results)
            else:
                results.append(INDEX if kind == "index" else Type(HANDLE_TYPES[kind]))
        if is_async:
            results.append(GPU_TOKEN)
        if form.order:
            placed: list[UseRef] = list(uses)
            for written_at, at in enumerate(form.order):
                placed[at] = uses[written_at]
            uses = placed
        if info.segments:
            props["operandSegmentSizes"] = segment_sizes(len(deps), *sizes)
        if info.result_segments:
            props["resultSegmentSizes"] = segment_sizes(len(var_results), 1 if is_async else 0)
        props, attrs = self.split_attrs(name, attrs, props)
        return self._async_kw(
            is_async, self.op(name, meta, [*deps, *uses], results, properties=props, attributes=attrs)
        )

    def launch_ids(self, meta: Any, items: list) -> tuple:
        ids = items[1:4]
        sizes = [(items[i], self.typed(items[i + 1], INDEX)) for i in (4, 6, 8)]
        return (str(items[0]), ids, sizes)

    def gpu_launch_op(self, meta: Any, items: list) -> PartialOp:
        """`gpu.launch [async [deps]] [clusters(...) in (...)] blocks(...) in
        (...) threads(...) in (...) ...`: the region's entry block takes the
        block and thread ids and sizes (12 arguments), then the cluster ids
        and sizes (6 more) when clusters are given."""
        is_async, deps = items[0]
        clauses = [i for i in items[1:4] if isinstance(i, tuple)]
        words = [c[0] for c in clauses]
        expected = ["blocks", "threads"] if len(clauses) == 2 else ["clusters", "blocks", "threads"]
        if words != expected:
            raise DiagnosticError(
                error(self.loc(meta), f"expected {' '.join(repr(w) for w in expected)} clauses in this order")
            )
        cluster = clauses[0][1:] if len(clauses) == 3 else None
        (bids, gsizes), (tids, bsizes) = clauses[-2][1:], clauses[-1][1:]
        items = [items[0], *items[1 + len(clauses) - 2 :]]
        dsm: list[UseRef] = []
        region: Region = Region()
        attrs = None
        for it in items[3:]:
            if isinstance(it, UseRef):
                dsm = [self.typed(it, Type("i32"))]
            elif isinstance(it, Region):
                region = it
            elif isinstance(it, dict):
                attrs = it
        if not region.blocks:
            region.append(Block())
        entry = region.blocks[0]
        names = [*bids, *tids, *(n for n, _ in gsizes), *(n for n, _ in bsizes)]
        csizes: list = []
        if cluster is not None:
            names += [*cluster[0], *(n for n, _ in cluster[1])]
            csizes = cluster[1]
        for i, tok in enumerate(names):
            entry.args.insert(i, Value(INDEX, entry, i, str(tok), self.tok_loc(tok)))
        for i, v in enumerate(entry.args):
            v.index = i
        operands = [*deps, *(u for _, u in gsizes), *(u for _, u in bsizes), *(u for _, u in csizes), *dsm]
        nc = 1 if csizes else 0
        props: dict[str, Attr] = {
            "operandSegmentSizes": segment_sizes(len(deps), 1, 1, 1, 1, 1, 1, nc, nc, nc, len(dsm))
        }
        props, attrs = self.split_attrs("gpu.launch", attrs, props)
        attrs = {"workgroup_attributions": IntegerAttr(0, I64), **attrs}
        return self._async_kw(
            is_async,
            self.op(
                "gpu.launch",
                meta,
                operands,
                [GPU_TOKEN] if is_async else [],
                properties=props,
                attributes=attrs,
                regions=[region],
            ),
        )

    def gpu_host_register_op(self, meta: Any, items: list) -> PartialOp:
        name = str(items[0])
        attrs, (_, v, t) = self._rest(items)
        t = self.read_value_type(t)
        refused = custom_type_refused(name, 0, t)
        if refused is not None:
            raise TokenError(items[-1], 0, refused)
        return self._custom_op(name, meta, [self.typed(v, t)], [], attrs)

    def gpu_binary_op(self, meta: Any, items: list) -> PartialOp:
        """`gpu.binary @name [<handler>] [attr-dict] [objects]`: the handler
        and objects are properties, the handler `#gpu.select_object` when
        not written (19's custom parser sets it; its generic one does not)."""
        props: dict[str, Attr] = {
            "sym_name": StringAttr(symbol_name(str(items[1]))),
            "offloadingHandler": OpaqueAttr(DEFAULT_HANDLER),
        }
        attrs = None
        for it in items[2:]:
            if isinstance(it, tuple) and it[0] == "targets":
                props["objects"] = it[1]
            elif isinstance(it, tuple):
                props[it[0]] = it[1]
            elif isinstance(it, dict):
                attrs = it
        return self._custom_op("gpu.binary", meta, [], [], attrs, props)

    def gpu_set_default_device_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[1] if isinstance(items[1], dict) else None
        return self._custom_op("gpu.set_default_device", meta, [self.typed(items[-1], Type("i32"))], [], attrs)


_left = shown_attrs


def _async_deps(p: Printer, is_async: bool, deps: list[Value]) -> str:
    text = "async" if is_async else ""
    if deps:
        text += (" " if is_async else "") + "[" + p.values(deps) + "]"
    return text


def _is_async(op: Operation) -> bool:
    return bool(op.results) and op.results[-1].type.is_gpu_token


@custom_printer("gpu.return")
def _return(p: Printer, op: Operation) -> str:
    return return_like(p, op)


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


@custom_printer("gpu.func")
def _gpu_func(p: Printer, op: Operation) -> str:
    fn: FunctionType = op.properties["function_type"].type  # type: ignore[attr-defined]  # a TypeAttr of a FunctionType (registry: function_type)
    attrs = op.attributes
    text = f"gpu.func {quote_symbol(attrs['sym_name'].value)}"  # type: ignore[attr-defined]  # a StringAttr (sym_name)
    text += fn_signature(p, op, fn, op.properties.get("arg_attrs"), op.properties.get("res_attrs"))
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


@custom_printer("gpu.launch_func")
def _launch_func(p: Printer, op: Operation) -> str:
    seg = segments(op)
    deps, grid, block, cluster, dsm, args = (
        seg[0],
        seg[1] + seg[2] + seg[3],
        seg[4] + seg[5] + seg[6],
        seg[7] + seg[8] + seg[9],
        seg[10],
        seg[11],
    )
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
        raise InternalError("spec.dialects.gpu.syntax: expected form is not None")
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


@custom_printer("gpu.host_register", "gpu.host_unregister")
def _register(p: Printer, op: Operation) -> str:
    (v,) = op.operands
    return f"{op.name} {p.value(v)}{p.attr_dict(_left(op))} : {v.type}"


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


@custom_printer("gpu.set_default_device")
def _set_default_device(p: Printer, op: Operation) -> str:
    return f"gpu.set_default_device{p.attr_dict(shown_attrs(op))} {p.value(op.operands[0])}"
