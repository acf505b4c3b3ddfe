"""Builder rules of the `builtin`, `func` and `gpu` ops' custom forms."""

from __future__ import annotations

from typing import Any

from lark import Token

from spec import registry
from spec.attributes import (
    GPU_TOKEN,
    I64,
    INDEX,
    ArrayAttr,
    Attr,
    DictAttr,
    FunctionType,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    Type,
    TypeAttr,
    UnitAttr,
)
from spec.diagnostics import DiagnosticError, error
from spec.invariant import InternalError
from spec.ir import Block, Region, Value
from spec.registry import HANDLE_TYPES
from spec.syntax.build_base import (
    BuilderBase,
    PartialOp,
    TokenError,
    UseRef,
    raw_rule,
    read_type,
    segment_sizes,
    symbol_name,
    symbol_ref_attr,
)
from spec.syntax.op_checks import declared
from spec.syntax.op_verifiers import custom_type_refused
from spec.syntax.rules_core import value_type


class FuncGpuRules(BuilderBase):
    """Modules, functions, calls and the GPU dialect."""

    # -- builtin / func -------------------------------------------------------
    def module_op(self, meta: Any, items: list) -> PartialOp:
        props: dict[str, Attr] = {}
        attrs: dict[str, Attr] = {}
        for it in items[1:-1]:
            if isinstance(it, Token):
                props["sym_name"] = StringAttr(symbol_name(str(it)))
            elif isinstance(it, dict):
                attrs = it
        region: Region = items[-1]
        if not region.blocks:
            region.append(Block())
        props, attrs = self.split_attrs("builtin.module", attrs, props)
        return self.bare_name(self.op("builtin.module", meta, properties=props, attributes=attrs, regions=[region]), items[0])

    def named_arg(self, meta: Any, items: list) -> tuple:
        return ("named", items[0], value_type(items[1]), items[2] if len(items) > 2 and isinstance(items[2], dict) else None)

    def type_with_attrs(self, meta: Any, items: list) -> tuple:
        return ("type", None, value_type(items[0]), items[1] if len(items) > 1 else None)

    def func_args(self, meta: Any, items: list) -> tuple:
        return ("args", items)

    def func_results(self, meta: Any, items: list) -> tuple:
        out = []
        for it in items:
            if it is None:
                continue
            if isinstance(it, tuple):
                out.append(it)
            else:
                out.append(("type", None, read_type(it), None))
        return ("results", out)

    def _function_parts(self, items: list) -> dict[str, Any]:
        parts: dict[str, Any] = {"vis": None, "sym": "", "args": [], "results": [], "attrs": {}, "region": Region(), "attribs": [], "kernel": False}
        for it in items:
            if isinstance(it, Token) and it.type == "VISIBILITY":
                parts["vis"] = str(it)
            elif isinstance(it, Token) and it.type == "SYMBOL":
                parts["sym"] = symbol_name(str(it))
            elif isinstance(it, Token) and it.type == "KERNEL_KW":
                parts["kernel"] = True
            elif isinstance(it, tuple) and it[0] in ("args", "results"):
                parts[it[0]] = it[1]
            elif isinstance(it, tuple) and it[0] == "attrib":
                parts["attribs"].append(it)
            elif isinstance(it, dict):
                parts["attrs"] = it
            elif isinstance(it, Region):
                parts["region"] = it
        return parts

    def _function_like(self, meta: Any, items: list) -> tuple[dict, dict, Region, FunctionType]:
        p = self._function_parts(items)
        args, results, region = p["args"], p["results"], p["region"]
        fn = FunctionType(tuple(a[2] for a in args), tuple(r[2] for r in results))
        props: dict[str, Attr] = {"sym_name": StringAttr(p["sym"]), "function_type": TypeAttr(fn)}
        if p["vis"]:
            props["sym_visibility"] = StringAttr(p["vis"])
        if any(a[3] for a in args):
            props["arg_attrs"] = ArrayAttr(tuple(DictAttr(tuple(sorted((a[3] or {}).items()))) for a in args))
        if any(r[3] for r in results):
            props["res_attrs"] = ArrayAttr(tuple(DictAttr(tuple(sorted((r[3] or {}).items()))) for r in results))
        if not region.blocks and id(region) in self.empty_regions:
            # A body written `{}`: mlir-opt-19's function parser refuses it.
            where = self.empty_regions[id(region)]
            raise DiagnosticError(error(where, "custom op 'func.func' expected non-empty function body"))
        if region.blocks:
            if any(a[0] != "named" for a in args):
                raise DiagnosticError(error(self.loc(meta), "expected SSA identifier"))
            self._entry_args(region, [(a[1], a[2]) for a in args])
        return props, p["attrs"], region, fn

    def func_op(self, meta: Any, items: list) -> PartialOp:
        props, attrs, region, _ = self._function_like(meta, items)
        props, attrs = self.split_attrs("func.func", attrs, props)
        return self.op("func.func", meta, properties=props, attributes=attrs, regions=[region])

    def call_op(self, meta: Any, items: list) -> PartialOp:
        callee: Token = items[1]
        fn: FunctionType = items[-1]
        operands = [self.typed(u, t) for u, t in zip(items[2] or [], fn.inputs)]
        if len(items[2] or []) != len(fn.inputs):
            raise DiagnosticError(error(self.loc(meta), f"expected {len(items[2] or [])} operand types but had {len(fn.inputs)}"))
        attrs = items[3] if len(items) > 4 else None
        props, attrs = self.split_attrs("func.call", attrs, {"callee": symbol_ref_attr(symbol_name(str(callee)))})
        return self.bare_name(self.op("func.call", meta, operands, list(fn.results), properties=props, attributes=attrs), items[0])

    def return_op(self, meta: Any, items: list) -> PartialOp:
        return self.bare_name(self.op("func.return", meta, self._typed_list(items[1], items[2], meta)), items[0])

    # -- gpu ------------------------------------------------------------------
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
                raise DiagnosticError(error(self.loc(meta), f"'gpu.module' op attribute '{key}' failed to satisfy constraint: {kind.summary}"))
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

    def gpu_dim_op(self, meta: Any, items: list) -> PartialOp:
        name = str(items[0])
        props: dict[str, Attr] = {"dimension": OpaqueAttr(f"#gpu<dim {items[1]}>")}
        attrs = None
        for it in items[2:]:
            if isinstance(it, Token):
                props["upper_bound"] = IntegerAttr(int(str(it)), INDEX)
            elif isinstance(it, dict):
                attrs = it
        props, attrs = self.split_attrs(name, attrs, props)
        return self.op(name, meta, [], [INDEX], properties=props, attributes=attrs)

    @raw_rule
    def async_deps(self, items: list) -> tuple[Token | None, list[UseRef]]:
        # The `async` keyword itself (truthy), kept for its location.
        is_async = next((i for i in items if isinstance(i, Token) and i.type == "ASYNC_KW"), None)
        deps: list[UseRef] = []
        for it in items:
            if isinstance(it, list):
                deps = it
        return is_async, [self.typed(d, GPU_TOKEN) for d in deps]

    @raw_rule
    def triple(self, items: list) -> list[UseRef]:
        return [self.typed(u, INDEX) for u in items]

    def launch_args(self, meta: Any, items: list) -> list[UseRef]:
        return [i for i in items if i is not None]

    def launch_arg(self, meta: Any, items: list) -> UseRef:
        return self.typed(items[0], read_type(items[1]))  # type: ignore[arg-type]  # read_type of a value type: no function type here

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
                size_type = read_type(it)  # type: ignore[assignment]  # read_type of a value type: no function type here
        sizes_ops = [self.typed(u, size_type) for u in (*grid, *block, *cluster)]
        sizes = (len(deps), 1, 1, 1, 1, 1, 1, *(1, 1, 1)[: len(cluster)], *(0, 0, 0)[len(cluster) :], len(dsm), len(args), 0)
        props, attrs = self.split_attrs("gpu.launch_func", attrs, {"kernel": kernel, "operandSegmentSizes": segment_sizes(*sizes)})
        results = [GPU_TOKEN] if is_async else []
        ops = [*deps, *sizes_ops[:6], *sizes_ops[6:], *dsm, *args]
        return self._async_kw(is_async, self.op("gpu.launch_func", meta, ops, results, properties=props, attributes=attrs))

    def _copy_like(self, name: str, meta: Any, items: list) -> PartialOp:
        is_async, deps = items[0]
        a, b = items[1], items[2]
        attrs = items[3] if len(items) > 5 else None
        t1, t2 = read_type(items[-2]), read_type(items[-1])
        for at, t in ((-2, t1), (-1, t2)):
            refused = custom_type_refused(name, at, t)  # type: ignore[arg-type]
            if refused is not None:
                raise TokenError(items[at], 0, refused)
        props, attrs = self.split_attrs(name, attrs, {})
        return self._async_kw(is_async, self.op(name, meta, [*deps, self.typed(a, t1), self.typed(b, t2)], [GPU_TOKEN] if is_async else [], properties=props, attributes=attrs))  # type: ignore[arg-type]  # read_type of a value type: no function type here

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
        t = read_type(items[-1])
        dyn = [self.typed(u, INDEX) for u in (lists[0] if lists else [])]
        syms = [self.typed(u, INDEX) for u in (lists[1] if len(lists) > 1 else [])]
        props: dict[str, Attr] = {"operandSegmentSizes": segment_sizes(len(deps), len(dyn), len(syms))}
        if host_shared:
            props["hostShared"] = UnitAttr()
        props, attrs = self.split_attrs("gpu.alloc", attrs, props)
        results = [t, GPU_TOKEN] if is_async else [t]
        return self._async_kw(is_async, self.op("gpu.alloc", meta, [*deps, *dyn, *syms], results, properties=props, attributes=attrs))  # type: ignore[arg-type]  # read_type of a memref: no function type

    def gpu_dealloc_op(self, meta: Any, items: list) -> PartialOp:
        is_async, deps = items[0]
        attrs = items[2] if len(items) > 3 else None
        return self._async_kw(is_async, self.op("gpu.dealloc", meta, [*deps, self.typed(items[1], read_type(items[-1]))], [GPU_TOKEN] if is_async else [], attributes=attrs))  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def gpu_wait_op(self, meta: Any, items: list) -> PartialOp:
        is_async, deps = items[0]
        attrs = items[1] if len(items) > 1 else None
        return self._async_kw(is_async, self.op("gpu.wait", meta, deps, [GPU_TOKEN] if is_async else [], attributes=attrs))

    # -- the GPU library (sparse) ops: one rule, read by the registry's LibraryForm
    def library_operand(self, meta: Any, items: list) -> tuple:
        return ("operand", items[0], items[1] if len(items) > 1 else None)

    def gpu_library0_op(self, meta: Any, items: list) -> PartialOp:
        return self._library_op(meta, items)

    def gpu_library_op(self, meta: Any, items: list) -> PartialOp:
        return self._library_op(meta, items)

    def _library_op(self, meta: Any, items: list) -> PartialOp:
        name = str(items[0])
        info = registry.lookup(name)
        form = info.library_form
        if form is None:
            raise InternalError("spec.syntax.rules_func_gpu: expected form is not None")
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
                into = read_type(it)  # type: ignore[assignment]  # read_type of a value type: no function type here
        props: dict[str, Attr] = {}
        attrs: dict[str, Attr] | None = None
        if form.lead and lead is None:
            # 19 wants the `{ X}` right after the deps (issue 16), and points
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
            t = types.get(i) or (INDEX if kind == "index" else Type(HANDLE_TYPES[kind]) if kind in HANDLE_TYPES else None)
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
        return self._async_kw(is_async, self.op(name, meta, [*deps, *uses], results, properties=props, attributes=attrs))

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
            raise DiagnosticError(error(self.loc(meta), f"expected {' '.join(repr(w) for w in expected)} clauses in this order"))
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
        props: dict[str, Attr] = {"operandSegmentSizes": segment_sizes(len(deps), 1, 1, 1, 1, 1, 1, nc, nc, nc, len(dsm))}
        props, attrs = self.split_attrs("gpu.launch", attrs, props)
        attrs = {"workgroup_attributions": IntegerAttr(0, I64), **attrs}
        return self._async_kw(is_async, self.op("gpu.launch", meta, operands, [GPU_TOKEN] if is_async else [], properties=props, attributes=attrs, regions=[region]))




def _enum_word(written: dict[str, Attr] | None, meta: Any) -> str:
    """The one keyword of a `{ X}` enum (read as an attr-dict `{X}`); a
    failure becomes the builder's located diagnostic."""
    del meta
    if not written or len(written) != 1 or not isinstance(next(iter(written.values())), UnitAttr):
        raise ValueError("expected an enum keyword in '{...}'")
    return next(iter(written))
