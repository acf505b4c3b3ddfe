"""The `memref` dialect's custom syntax: `alloc`/`alloca`, `dealloc`,
`load`, `store`, `dim`, `cast`, `copy`, `subview`, `global`, `get_global`,
`collapse_shape`, `expand_shape`, `reinterpret_cast`, `view`, `atomic_rmw`,
`generic_atomic_rmw` and its `atomic_yield`, `alloca_scope` and its
`alloca_scope.return`, `assume_alignment`, `dma_start`/`dma_wait`,
`extract_aligned_pointer_as_index`, `extract_strided_metadata`,
`memory_space_cast`, `prefetch`, `rank`, `realloc`, `reshape` and
`transpose`.

The builder rules make MLIR's generic model as mlir-opt-19 does
(`alloca_scope`'s implicit terminator added, the transpose's permutation an
affine map attribute, static and dynamic offsets, sizes and strides); the
printers give its text (`memref.alloca_scope  {` with two blanks, the
body's terminator shown only when it returns values, the permutation as a
bare affine map).
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token

from spec import registry
from spec.attributes import (
    I1,
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
    canonical_dense,
    quote_symbol,
    shared_type,
)
from spec.diagnostics import DiagnosticError, error
from spec.invariant import InternalError
from spec.ir import Operation, Region
from spec.syntax import affine
from spec.syntax.build_base import (
    K_DYNAMIC,
    BuilderBase,
    PartialOp,
    TokenError,
    UseRef,
    enum_error,
    memref_element,
    segment_sizes,
    split_top,
    symbol_text,
)
from spec.syntax.custom_registry import custom_printer, mixed, props_left, return_like, segments, shown_attrs
from spec.syntax.op_verifiers import TYPE_CONSTRAINTS
from spec.syntax.printer import Printer
from spec.syntax.string_literals import unescape

ATOMIC_RMW_KINDS = "addf addi assign maximumf maxs maxu minimumf mins minu mulf muli ori andi maxnumf minnumf".split()

KEYWORD_FIRST: frozenset[str] = frozenset(
    "memref_cast_op memref_copy_op memref_dealloc_op memref_dim_op memref_load_op memref_store_op "
    "memref_subview_op".split()
)
"""Rules whose first child is the op keyword: it locates the op and is dropped
from the children the callback sees."""

NAME_FIRST: frozenset[str] = frozenset(
    "memref_alloc_op memref_global_op memref_reinterpret_cast_op memref_collapse_expand_op memref_view_op memref_assume_alignment_op "
    "memref_atomic_yield_op memref_memory_space_cast_op memref_dma_start_op memref_dma_wait_op memref_extract_op memref_generic_atomic_rmw_op memref_prefetch_op "
    "memref_rank_op memref_realloc_op memref_reshape_op memref_alloca_scope_op memref_alloca_scope_return_op memref_transpose_op memref_atomic_rmw_op "
    "memref_get_global_op".split()
)
"""Rules whose first child is the token naming the op: kept, and the location."""

KEYWORDS: dict[str, str] = {
    "memref_alloc": "MEMREF_ALLOC",
    "memref_global_kw": "MEMREF_GLOBAL_KW",
    "memref_reinterpret_cast_kw": "MEMREF_REINTERPRET_CAST_KW",
    "memref_collapse_kw": "MEMREF_COLLAPSE_EXPAND_KW",
    "memref_expand_kw": "MEMREF_COLLAPSE_EXPAND_KW",
    "memref_view_kw": "MEMREF_VIEW_KW",
    "memref_assume_alignment_kw": "MEMREF_ASSUME_ALIGNMENT_KW",
    "memref_atomic_yield_kw": "MEMREF_ATOMIC_YIELD_KW",
    "memref_memory_space_cast_kw": "MEMREF_MEMORY_SPACE_CAST_KW",
    "memref_dma_start_kw": "MEMREF_DMA_START_KW",
    "memref_dma_wait_kw": "MEMREF_DMA_WAIT_KW",
    "memref_extract_kw": "MEMREF_EXTRACT_KW",
    "memref_generic_atomic_rmw_kw": "MEMREF_GENERIC_ATOMIC_RMW_KW",
    "memref_prefetch_kw": "MEMREF_PREFETCH_KW",
    "memref_rank_kw": "MEMREF_RANK_KW",
    "memref_realloc_kw": "MEMREF_REALLOC_KW",
    "memref_reshape_kw": "MEMREF_RESHAPE_KW",
    "memref_alloca_scope_kw": "MEMREF_ALLOCA_SCOPE_KW",
    "memref_alloca_scope_return_kw": "MEMREF_ALLOCA_SCOPE_RETURN_KW",
    "memref_transpose_kw": "MEMREF_TRANSPOSE_KW",
    "memref_atomic_rmw_kw": "MEMREF_ATOMIC_RMW_KW",
    "memref_get_global_kw": "MEMREF_GET_GLOBAL_KW",
}
"""Keyword rules (string literals) and the token type each hands on."""


def memref_to_tensor(t: str) -> str:
    """`memref<4x?xf32, ...>` to `tensor<4x?xf32>` (the type of a global's initial value)."""
    body = t[len("memref<") : -1]
    parts = split_top(body)
    return f"tensor<{parts[0]}>"


I32 = Type("i32")


def is_permutation(map_text: str) -> bool:
    """Whether the canonical `affine_map<(d0, ...) -> (...)>` permutes its
    dimensions: no symbols, each result a distinct bare dimension, all of
    them used (MLIR's `AffineMap::isPermutation`)."""
    m = re.fullmatch(r"affine_map<\(([^()]*)\) -> \(([^()]*)\)>", map_text)
    if m is None:
        return False
    dims = [d.strip() for d in m.group(1).split(",") if d.strip()]
    results = [r.strip() for r in m.group(2).split(",") if r.strip()]
    return sorted(results) == sorted(dims)


def _attrs(items: list) -> dict[str, Attr] | None:
    return next((i for i in items if isinstance(i, dict)), None)


class MemrefRules(BuilderBase):
    """The rules of the `memref` ops' custom forms."""

    def memref_alloc_op(self, meta: Any, items: list) -> PartialOp:
        name = str(items[0])
        lists: list[list[UseRef]] = []
        attrs = None
        for it in items[1:-1]:
            if isinstance(it, list) or it is None:
                lists.append(it or [])
            elif isinstance(it, dict):
                attrs = it
        dyn = [self.typed(u, INDEX) for u in (lists[0] if lists else [])]
        syms = [self.typed(u, INDEX) for u in (lists[1] if len(lists) > 1 else [])]
        props, attrs = self.split_attrs(name, attrs, {"operandSegmentSizes": segment_sizes(len(dyn), len(syms))})
        return self.op(name, meta, [*dyn, *syms], [self.read_value_type(items[-1])], properties=props, attributes=attrs)

    def memref_dealloc_op(self, meta: Any, items: list) -> PartialOp:
        return self.op(
            "memref.dealloc",
            meta,
            [self.typed(items[0], self.read_value_type(items[-1]))],
            attributes=items[1] if len(items) > 2 else None,
        )

    def memref_load_op(self, meta: Any, items: list) -> PartialOp:
        t = self.read_value_type(items[-1])
        idx = [self.typed(u, INDEX) for u in (items[1] or [])]
        attrs = items[2] if len(items) > 3 else None
        props, attrs = self.split_attrs("memref.load", attrs, {})
        elem = shared_type(Type(memref_element(t.text)))
        return self.op("memref.load", meta, [self.typed(items[0], t), *idx], [elem], properties=props, attributes=attrs)

    def memref_store_op(self, meta: Any, items: list) -> PartialOp:
        t = self.read_value_type(items[-1])
        idx = [self.typed(u, INDEX) for u in (items[2] or [])]
        attrs = items[3] if len(items) > 4 else None
        props, attrs = self.split_attrs("memref.store", attrs, {})
        elem = shared_type(Type(memref_element(t.text)))
        return self.op(
            "memref.store",
            meta,
            [self.typed(items[0], elem), self.typed(items[1], t), *idx],
            [],
            properties=props,
            attributes=attrs,
        )

    def memref_dim_op(self, meta: Any, items: list) -> PartialOp:
        t = self.read_value_type(items[-1])
        attrs = items[2] if len(items) > 3 else None
        return self.op(
            "memref.dim", meta, [self.typed(items[0], t), self.typed(items[1], INDEX)], [INDEX], attributes=attrs
        )

    def memref_cast_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[1] if len(items) > 3 else None
        return self.op(
            "memref.cast",
            meta,
            [self.typed(items[0], self.read_value_type(items[-2]))],
            [self.read_value_type(items[-1])],
            attributes=attrs,
        )

    def memref_copy_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[2] if len(items) > 4 else None
        return self.op(
            "memref.copy",
            meta,
            [
                self.typed(items[0], self.read_value_type(items[-2])),
                self.typed(items[1], self.read_value_type(items[-1])),
            ],
            attributes=attrs,
        )

    def mixed_list(self, meta: Any, items: list) -> list:
        return [i for i in items if i is not None]

    def memref_subview_op(self, meta: Any, items: list) -> PartialOp:
        src = self.typed(items[0], self.read_value_type(items[-2]))
        attrs = items[4] if len(items) > 6 else None
        props: dict[str, Attr] = {}
        dyn_lists: list[list[UseRef]] = []
        for key, entries in zip(("static_offsets", "static_sizes", "static_strides"), items[1:4]):
            dyn_lists.append(self.mixed_sizes(entries, key, props, base=10))
        props["operandSegmentSizes"] = segment_sizes(1, *(len(d) for d in dyn_lists))
        props, attrs = self.split_attrs("memref.subview", attrs, props)
        operands = [src, *(u for d in dyn_lists for u in d)]
        return self.op(
            "memref.subview", meta, operands, [self.read_value_type(items[-1])], properties=props, attributes=attrs
        )

    def memref_atomic_rmw_op(self, meta: Any, items: list) -> PartialOp:
        kind = str(items[1])
        if kind not in ATOMIC_RMW_KINDS:
            raise enum_error(items[1], "memref.atomic_rmw", "kind", ATOMIC_RMW_KINDS, self.tok_loc(items[1]))
        fn: FunctionType = items[-1]
        if len(fn.inputs) != 2 or len(fn.results) != 1:
            raise DiagnosticError(
                error(self.loc(meta), "'memref.atomic_rmw' op expects (value type, memref type) -> result type")
            )
        idx = items[4] or []
        attrs = items[5] if isinstance(items[5], dict) else None
        ops = [
            self.typed(items[2], fn.inputs[0]),
            self.typed(items[3], fn.inputs[1]),
            *(self.typed(i, INDEX) for i in idx),
        ]
        return self._custom_op(
            "memref.atomic_rmw",
            meta,
            ops,
            [fn.results[0]],
            attrs,
            {"kind": IntegerAttr(ATOMIC_RMW_KINDS.index(kind), I64)},
        )

    def memref_get_global_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[2] if isinstance(items[2], dict) else None
        sym: SymbolRefAttr = items[1]
        return self._custom_op("memref.get_global", meta, [], [self.read_value_type(items[-1])], attrs, {"name": sym})

    def global_init(self, meta: Any, items: list) -> Attr:
        it = items[0]
        return UnitAttr() if isinstance(it, Token) and it.type == "UNINITIALIZED" else it

    def memref_global_op(self, meta: Any, items: list) -> PartialOp:
        props: dict[str, Attr] = {}
        attrs = None
        t: Type | None = None
        for it in items[1:]:
            if isinstance(it, Token) and it.type == "STRING":
                props["sym_visibility"] = StringAttr(unescape(str(it)))
            elif isinstance(it, Token) and it.type == "GLOBAL_CONSTANT":
                props["constant"] = UnitAttr()
            elif isinstance(it, Token) and it.type == "SYMBOL":
                props["sym_name"] = StringAttr(symbol_text(it))
            elif isinstance(it, dict):
                attrs = it
            elif t is None and not isinstance(it, Attr):
                t = self.read_value_type(it)
                props["type"] = TypeAttr(t)
            elif isinstance(it, Attr):
                props["initial_value"] = self._global_value(it, t)
        return self._custom_op("memref.global", meta, [], [], attrs, props)

    def _global_value(self, value: Attr, t: Type | None) -> Attr:
        if isinstance(value, UnitAttr) or t is None or not t.text.startswith("memref<"):
            return value
        tensor = memref_to_tensor(t.text)
        text = str(value)
        if isinstance(value, OpaqueAttr) and text.startswith("dense<") and " : " not in text.rsplit(">", 1)[-1]:
            return OpaqueAttr(f"{canonical_dense(text[len('dense<') : -1], tensor) or text} : {tensor}")
        return value

    def reassoc_group(self, meta: Any, items: list) -> ArrayAttr:
        return ArrayAttr(tuple(IntegerAttr(int(str(i), 0), I64) for i in items if i is not None))

    def reassociation(self, meta: Any, items: list) -> ArrayAttr:
        return ArrayAttr(tuple(i for i in items if i is not None))

    def memref_collapse_expand_op(self, meta: Any, items: list) -> PartialOp:
        name = str(items[0])
        src, reassoc = items[1], items[2]
        lists = [i for i in items[3:] if isinstance(i, list)]
        src_t, res_t = self.read_value_type(items[-2]), self.read_value_type(items[-1])
        for tok, t in ((items[-2], src_t), (items[-1], res_t)):
            if not TYPE_CONSTRAINTS["strided_memref"][0](t):
                raise TokenError(tok, 0, f"custom op '{name}' invalid kind of type specified")
        props: dict[str, Attr] = {"reassociation": reassoc}
        operands = [self.typed(src, src_t)]
        if name == "memref.expand_shape":
            operands += self.mixed_sizes(lists[0] if lists else [], "static_output_shape", props)
        return self._custom_op(name, meta, operands, [res_t], self._attrs(items), props)

    def memref_reinterpret_cast_op(self, meta: Any, items: list) -> PartialOp:
        src = self.typed(items[1], self.read_value_type(items[-2]))
        props: dict[str, Attr] = {}
        dyn = [
            self.mixed_sizes(lst, key, props)
            for lst, key in zip(items[2:5], ("static_offsets", "static_sizes", "static_strides"))
        ]
        props["operandSegmentSizes"] = segment_sizes(1, *(len(d) for d in dyn))
        operands = [src, *(u for d in dyn for u in d)]
        return self._custom_op(
            "memref.reinterpret_cast", meta, operands, [self.read_value_type(items[-1])], self._attrs(items), props
        )

    def memref_view_op(self, meta: Any, items: list) -> PartialOp:
        src = self.typed(items[1], self.read_value_type(items[-2]))
        shift = self.typed(items[2], INDEX)
        sizes = [self.typed(u, INDEX) for u in (items[3] or [])]
        return self._custom_op(
            "memref.view", meta, [src, shift, *sizes], [self.read_value_type(items[-1])], self._attrs(items)
        )

    def memref_alloca_scope_op(self, meta: Any, items: list) -> PartialOp:
        """`memref.alloca_scope [-> (types)] {body} [attr-dict]`: a body
        without a terminator gets `memref.alloca_scope.return`."""
        results = next((i for i in items[1:] if isinstance(i, list)), [])
        region: Region = next(i for i in items if isinstance(i, Region))
        self._ensure_terminator(region, "memref.alloca_scope.return", self.loc(meta))
        returned = region.blocks[-1].ops[-1]
        if returned.name == "memref.alloca_scope.return" and len(returned.operands) != len(results):
            # The region-branch verifier (two blanks after `op`, as 19 words it).
            message = f"'memref.alloca_scope' op  region control flow edge from Region #0 to parent results: source has {len(returned.operands)} operands, but target successor needs {len(results)}"
            raise DiagnosticError(error(self.loc(meta), message))
        return self._custom_op("memref.alloca_scope", meta, [], results, _attrs(items), regions=[region])

    def memref_alloca_scope_return_op(self, meta: Any, items: list) -> PartialOp:
        lists = [i for i in items[1:] if isinstance(i, list)]
        values = self._typed_list(lists[0], lists[1], meta) if len(lists) == 2 else []
        return self._custom_op("memref.alloca_scope.return", meta, values, [], _attrs(items[1:]))

    def memref_assume_alignment_op(self, meta: Any, items: list) -> PartialOp:
        t = self.read_value_type(items[-1])
        props: dict[str, Attr] = {"alignment": IntegerAttr(int(str(items[2]), 0), I32)}
        partial = self._custom_op(
            "memref.assume_alignment", meta, [self.typed(items[1], t)], [], _attrs(items[3:-1]), props
        )
        if props["alignment"].value <= 0:  # type: ignore[attr-defined]  # the IntegerAttr made just above
            raise DiagnosticError(
                error(
                    self.loc(meta),
                    "'memref.assume_alignment' op attribute 'alignment' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive",
                )
            )
        return partial

    def memref_generic_atomic_rmw_op(self, meta: Any, items: list) -> PartialOp:
        """`memref.generic_atomic_rmw %m[%i] : T {^bb0(%cur: E): ...}`: the
        result is the element."""
        t = self.read_value_type(items[3])
        elem = Type(memref_element(t.text))
        ops = [self.typed(items[1], t), *(self.typed(i, INDEX) for i in items[2] or [])]
        return self._custom_op("memref.generic_atomic_rmw", meta, ops, [elem], _attrs(items[5:]), regions=[items[4]])

    def memref_atomic_yield_op(self, meta: Any, items: list) -> PartialOp:
        return self._custom_op(
            "memref.atomic_yield",
            meta,
            [self.typed(items[1], self.read_value_type(items[-1]))],
            [],
            _attrs(items[2:-1]),
        )

    def memref_dma_start_op(self, meta: Any, items: list) -> PartialOp:
        """`src[i...], dst[j...], n, tag[k...] [, stride, per_stride] : S, D, T`:
        operands in that order, flattened (no attr-dict: 19 reads none)."""
        src_t, dst_t, tag_t = (self.read_value_type(t) for t in items[-3:])
        src, si, dst, di, num, tag, ti, *rest = items[1:-3]
        strides = [self.typed(u, INDEX) for u in rest if u is not None]
        ops = [
            self.typed(src, src_t),
            *(self.typed(i, INDEX) for i in si or []),
            self.typed(dst, dst_t),
            *(self.typed(i, INDEX) for i in di or []),
        ]
        ops += [self.typed(num, INDEX), self.typed(tag, tag_t), *(self.typed(i, INDEX) for i in ti or []), *strides]
        return self._custom_op("memref.dma_start", meta, ops, [], None)

    def memref_dma_wait_op(self, meta: Any, items: list) -> PartialOp:
        t = self.read_value_type(items[-1])
        ops = [self.typed(items[1], t), *(self.typed(i, INDEX) for i in items[2] or []), self.typed(items[3], INDEX)]
        return self._custom_op("memref.dma_wait", meta, ops, [], _attrs(items[4:-1]))

    def memref_extract_op(self, meta: Any, items: list) -> PartialOp:
        """`%m : T -> types [attr-dict]` (the attr-dict last, as 19 reads it)."""
        t = self.read_value_type(items[2])
        return self._custom_op(str(items[0]), meta, [self.typed(items[1], t)], list(items[3]), _attrs(items[4:]))

    def memref_memory_space_cast_op(self, meta: Any, items: list) -> PartialOp:
        return self._custom_op(
            str(items[0]),
            meta,
            [self.typed(items[1], self.read_value_type(items[-2]))],
            [self.read_value_type(items[-1])],
            _attrs(items[2:-2]),
        )

    def memref_prefetch_op(self, meta: Any, items: list) -> PartialOp:
        """`%m[%i...], read|write, locality<0..3>, data|instr : T` (no
        attr-dict: 19 reads none)."""
        name = "memref.prefetch"
        t = self.read_value_type(items[-1])
        rw, hint, cache = items[3], items[4], items[5]
        if str(rw) not in ("read", "write"):
            raise DiagnosticError(error(self.loc(meta), f"custom op '{name}' rw specifier has to be 'read' or 'write'"))
        if str(cache) not in ("data", "instr"):
            raise DiagnosticError(error(self.loc(meta), f"custom op '{name}' cache type has to be 'data' or 'instr'"))
        props: dict[str, Attr] = {
            "isWrite": IntegerAttr(int(str(rw) == "write"), I1),
            "localityHint": IntegerAttr(int(str(hint)), I32),
            "isDataCache": IntegerAttr(int(str(cache) == "data"), I1),
        }
        if not 0 <= props["localityHint"].value <= 3:  # type: ignore[attr-defined]  # the IntegerAttr made just above
            raise DiagnosticError(
                error(
                    self.loc(meta),
                    f"'{name}' op attribute 'localityHint' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3",
                )
            )
        ops = [self.typed(items[1], t), *(self.typed(i, INDEX) for i in items[2] or [])]
        return self._custom_op(name, meta, ops, [], None, props)

    def memref_rank_op(self, meta: Any, items: list) -> PartialOp:
        return self._custom_op(
            "memref.rank", meta, [self.typed(items[1], self.read_value_type(items[-1]))], [INDEX], _attrs(items[2:-1])
        )

    def memref_realloc_op(self, meta: Any, items: list) -> PartialOp:
        """`%m [(%size)] [attr-dict] : T to R`."""
        src_t, res_t = self.read_value_type(items[-2]), self.read_value_type(items[-1])
        ops = [self.typed(items[1], src_t)]
        ops += [self.typed(u, INDEX) for u in items[2:-2] if u is not None and not isinstance(u, dict)]
        return self._custom_op("memref.realloc", meta, ops, [res_t], _attrs(items[2:-2]))

    def memref_reshape_op(self, meta: Any, items: list) -> PartialOp:
        fn: FunctionType = items[-1]
        if len(fn.inputs) != 2:
            raise DiagnosticError(error(self.loc(meta), f"2 operands present, but expected {len(fn.inputs)}"))
        ops = [self.typed(items[1], fn.inputs[0]), self.typed(items[2], fn.inputs[1])]
        return self._custom_op("memref.reshape", meta, ops, list(fn.results), _attrs(items[3:-1]))

    def memref_transpose_op(self, meta: Any, items: list) -> PartialOp:
        """`%m (d0, d1) -> (d1, d0) : T to R`: the map is the `permutation`."""
        tok: Token = items[2]
        try:
            text = affine.canonical("map", str(tok))
        except affine.AffineError as exc:
            raise TokenError(
                tok, exc.args[0] if exc.args and isinstance(exc.args[0], int) else 0, "invalid affine map"
            ) from None
        if not is_permutation(text):
            raise DiagnosticError(error(self.loc(meta), "'memref.transpose' op expected a permutation map"))
        props: dict[str, Attr] = {"permutation": OpaqueAttr(text)}
        src_t, res_t = self.read_value_type(items[-2]), self.read_value_type(items[-1])
        return self._custom_op(
            "memref.transpose", meta, [self.typed(items[1], src_t)], [res_t], _attrs(items[3:-2]), props
        )


_left = shown_attrs


def _nontemporal_left(op: Operation) -> dict[str, Attr]:
    """`nontemporal` has a default (false), which the custom form elides."""
    return registry.without_defaults(op.name, props_left(op))


@custom_printer("memref.alloc", "memref.alloca")
def _alloc(p: Printer, op: Operation) -> str:
    dyn, syms = segments(op)
    text = f"{op.name}({p.values(dyn)})"
    if syms:
        text += f"[{p.values(syms)}]"
    return text + p.attr_dict({**props_left(op, "operandSegmentSizes"), **op.attributes}) + f" : {op.results[0].type}"


@custom_printer("memref.dealloc")
def _dealloc(p: Printer, op: Operation) -> str:
    return f"memref.dealloc {p.value(op.operands[0])}{p.attr_dict(op.attributes)} : {op.operands[0].type}"


@custom_printer("memref.load")
def _load(p: Printer, op: Operation) -> str:
    m, *idx = op.operands
    return (
        f"memref.load {p.value(m)}[{p.values(idx)}]{p.attr_dict({**_nontemporal_left(op), **op.attributes})} : {m.type}"
    )


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
    rest = props_left(op, "operandSegmentSizes", "static_offsets", "static_sizes", "static_strides")
    return text + p.attr_dict({**rest, **op.attributes}) + f" : {src[0].type} to {op.results[0].type}"


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
        raise InternalError("spec.dialects.memref.syntax: expected isinstance(name, StringAttr)")

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
def _collapse_expand(p: Printer, op: Operation) -> str:
    src, *dyn = op.operands
    text = f"{op.name} {p.value(src)} {op.properties['reassociation']}"
    if op.name == "memref.expand_shape":
        text += f" output_shape {mixed(p, op.properties['static_output_shape'], dyn)}"
    elif dyn:
        raise ValueError("collapse_shape takes one operand")
    rest = _left(op, "reassociation", "static_output_shape")
    return text + f"{p.attr_dict(rest)} : {src.type} into {op.results[0].type}"


@custom_printer("memref.reinterpret_cast")
def _reinterpret(p: Printer, op: Operation) -> str:
    (src,), offs, sizes, strides = segments(op)
    text = f"memref.reinterpret_cast {p.value(src)} to offset: {mixed(p, op.properties['static_offsets'], offs)}"
    text += f", sizes: {mixed(p, op.properties['static_sizes'], sizes)}, strides: {mixed(p, op.properties['static_strides'], strides)}"
    rest = _left(op, "operandSegmentSizes", "static_offsets", "static_sizes", "static_strides")
    return text + f"{p.attr_dict(rest)} : {src.type} to {op.results[0].type}"


@custom_printer("memref.view")
def _view(p: Printer, op: Operation) -> str:
    src, shift, *sizes = op.operands
    return f"memref.view {p.value(src)}[{p.value(shift)}][{p.values(sizes)}]{p.attr_dict(_left(op))} : {src.type} to {op.results[0].type}"


@custom_printer("memref.alloca_scope")
def _alloca_scope(p: Printer, op: Operation) -> str:
    text = "memref.alloca_scope "
    if op.results:
        text += f" -> ({', '.join(str(r.type) for r in op.results)})"
    return text + " " + p.region(op.regions[0], False, bool(op.results)) + p.attr_dict(shown_attrs(op))


@custom_printer("memref.alloca_scope.return")
def _alloca_scope_return(p: Printer, op: Operation) -> str:
    return return_like(p, op)


@custom_printer("memref.assume_alignment")
def _assume_alignment(p: Printer, op: Operation) -> str:
    align = op.properties.get("alignment")
    if not isinstance(align, IntegerAttr):
        raise ValueError("no alignment: printed generically")
    (m,) = op.operands
    return f"memref.assume_alignment {p.value(m)}, {align.value}{p.attr_dict(shown_attrs(op, 'alignment'))} : {m.type}"


@custom_printer("memref.generic_atomic_rmw")
def _generic_atomic_rmw(p: Printer, op: Operation) -> str:
    m, *idx = op.operands
    text = f"memref.generic_atomic_rmw {p.value(m)}[{p.values(idx)}] : {m.type} "
    return text + p.region(op.regions[0], True, True) + p.attr_dict(shown_attrs(op))


@custom_printer("memref.atomic_yield")
def _atomic_yield(p: Printer, op: Operation) -> str:
    (v,) = op.operands
    return f"memref.atomic_yield {p.value(v)}{p.attr_dict(shown_attrs(op))} : {v.type}"


def _indexed(p: Printer, operands: list, at: int) -> tuple[str, int]:
    """`%m[%i, ...]` for the memref at `at` (its rank of indices after it)
    and the position after them."""
    m = operands[at]
    rank = _rank(m.type.text)
    return f"{p.value(m)}[{p.values(operands[at + 1 : at + 1 + rank])}]", at + 1 + rank


def _rank(memref_type: str) -> int:
    body = memref_type[len("memref<") :]
    dims = 0
    for part in body.split("x"):
        if part.strip().isdigit() or part.strip() == "?":
            dims += 1
        else:
            break
    return dims


@custom_printer("memref.dma_start")
def _dma_start(p: Printer, op: Operation) -> str:
    ops = op.operands
    src, at = _indexed(p, ops, 0)
    dst, at2 = _indexed(p, ops, at)
    tag, end = _indexed(p, ops, at2 + 1)
    text = f"memref.dma_start {src}, {dst}, {p.value(ops[at2])}, {tag}"
    if end < len(ops):
        text += f", {p.values(ops[end:])}"
    return text + f"{p.attr_dict(shown_attrs(op))} : {ops[0].type}, {ops[at].type}, {ops[at2 + 1].type}"


@custom_printer("memref.dma_wait")
def _dma_wait(p: Printer, op: Operation) -> str:
    tag, *rest = op.operands
    *idx, num = rest
    return f"memref.dma_wait {p.value(tag)}[{p.values(idx)}], {p.value(num)}{p.attr_dict(shown_attrs(op))} : {tag.type}"


@custom_printer("memref.extract_aligned_pointer_as_index", "memref.extract_strided_metadata")
def _extract(p: Printer, op: Operation) -> str:
    (m,) = op.operands
    return f"{op.name} {p.value(m)} : {m.type} -> {', '.join(str(r.type) for r in op.results)}{p.attr_dict(shown_attrs(op))}"


@custom_printer("memref.memory_space_cast")
def _memory_space_cast(p: Printer, op: Operation) -> str:
    (m,) = op.operands
    return f"{op.name} {p.value(m)}{p.attr_dict(shown_attrs(op))} : {m.type} to {op.results[0].type}"


@custom_printer("memref.prefetch")
def _prefetch(p: Printer, op: Operation) -> str:
    props = op.properties
    write, hint, data = props.get("isWrite"), props.get("localityHint"), props.get("isDataCache")
    if not all(isinstance(a, IntegerAttr) for a in (write, hint, data)):
        raise ValueError("incomplete: printed generically")
    m, *idx = op.operands
    text = (
        f"memref.prefetch {p.value(m)}[{p.values(idx)}], {'write' if write.value else 'read'}, locality<{hint.value}>, "  # type: ignore[union-attr]  # IntegerAttrs, checked just above (mypy cannot narrow all())
    )
    text += "data" if data.value else "instr"  # type: ignore[union-attr]  # as above
    return text + f"{p.attr_dict(shown_attrs(op, 'isWrite', 'localityHint', 'isDataCache'))} : {m.type}"


@custom_printer("memref.rank")
def _rank_op(p: Printer, op: Operation) -> str:
    (m,) = op.operands
    return f"memref.rank {p.value(m)}{p.attr_dict(shown_attrs(op))} : {m.type}"


@custom_printer("memref.realloc")
def _realloc(p: Printer, op: Operation) -> str:
    m, *size = op.operands
    text = f"memref.realloc {p.value(m)}"
    if size:
        text += f"({p.values(size)})"
    return text + f"{p.attr_dict(shown_attrs(op))} : {m.type} to {op.results[0].type}"


@custom_printer("memref.reshape")
def _reshape(p: Printer, op: Operation) -> str:
    return f"memref.reshape {p.value(op.operands[0])}({p.value(op.operands[1])}){p.attr_dict(shown_attrs(op))} : ({p.types(op.operands)}) -> {op.results[0].type}"


@custom_printer("memref.transpose")
def _transpose(p: Printer, op: Operation) -> str:
    perm = op.properties.get("permutation")
    if not (isinstance(perm, OpaqueAttr) and perm.text.startswith("affine_map<")):
        raise ValueError("no permutation map: printed generically")
    (m,) = op.operands
    body = perm.text[len("affine_map<") : -1]
    return f"memref.transpose {p.value(m)} {body}{p.attr_dict(shown_attrs(op, 'permutation'))} : {m.type} to {op.results[0].type}"
