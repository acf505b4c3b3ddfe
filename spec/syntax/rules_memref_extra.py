"""Builder rules of the rest of mlir-opt-19's `memref` dialect (issue 16,
part 3): `alloca_scope` and its `alloca_scope.return`, `assume_alignment`,
`generic_atomic_rmw` and its `atomic_yield`, `dma_start`/`dma_wait`,
`extract_aligned_pointer_as_index`, `extract_strided_metadata`,
`memory_space_cast`, `prefetch`, `rank`, `realloc`, `reshape`, `transpose`.

As in `rules_wide`: one grammar rule per shape (`mx_*_op`), its keyword rule
listing the ops written that way; the builder makes MLIR's generic model
as mlir-opt-19 does (`alloca_scope`'s implicit terminator added, the
transpose's permutation an affine map attribute). Facts in
`spec.registry`, printers in `custom_memref_extra`. The parser takes these
rules through `rules_more`.
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token

from spec.attributes import I1, INDEX, Attr, FunctionType, IntegerAttr, OpaqueAttr, Type
from spec.diagnostics import DiagnosticError, error
from spec.ir import Region
from spec.syntax import affine
from spec.syntax.build_base import BuilderBase, PartialOp, TokenError, memref_element, read_type

MX_RULES = frozenset(
    "mx_scope_op mx_scope_return_op mx_assume_op mx_garmw_op mx_ayield_op mx_dma_start_op mx_dma_wait_op "
    "mx_extract_op mx_cast_op mx_prefetch_op mx_rank_op mx_realloc_op mx_reshape_op mx_transpose_op".split()
)
"""Rules whose first child is the keyword token naming the op."""

MX_KEYWORDS = {rule.removesuffix("_op") + "_kw": rule.removesuffix("_op").upper() + "_KW" for rule in MX_RULES}
"""Keyword rules (string literals) and the token type each hands on."""

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


class MemrefExtraRules(BuilderBase):
    """The `mx_*` rules."""

    def _mx(self, name: str, meta: Any, operands: list, results: list, attrs: dict | None, props: dict[str, Attr] | None = None, regions: list[Region] | None = None) -> PartialOp:
        props, attrs = self.split_attrs(name, attrs, props or {})
        return self.op(name, meta, operands, results, properties=props, attributes=attrs, regions=regions)

    def mx_scope_op(self, meta: Any, items: list) -> PartialOp:
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
        return self._mx("memref.alloca_scope", meta, [], results, _attrs(items), regions=[region])

    def mx_scope_return_op(self, meta: Any, items: list) -> PartialOp:
        lists = [i for i in items[1:] if isinstance(i, list)]
        values = self._typed_list(lists[0], lists[1], meta) if len(lists) == 2 else []
        return self._mx("memref.alloca_scope.return", meta, values, [], _attrs(items[1:]))

    def mx_assume_op(self, meta: Any, items: list) -> PartialOp:
        t = read_type(items[-1])
        props: dict[str, Attr] = {"alignment": IntegerAttr(int(str(items[2]), 0), I32)}
        partial = self._mx("memref.assume_alignment", meta, [self.typed(items[1], t)], [], _attrs(items[3:-1]), props)  # type: ignore[arg-type]  # read_type of a value type: no function type here
        if props["alignment"].value <= 0:  # type: ignore[attr-defined]  # the IntegerAttr made just above
            raise DiagnosticError(error(self.loc(meta), "'memref.assume_alignment' op attribute 'alignment' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive"))
        return partial

    def mx_garmw_op(self, meta: Any, items: list) -> PartialOp:
        """`memref.generic_atomic_rmw %m[%i] : T {^bb0(%cur: E): ...}`: the
        result is the element."""
        t = read_type(items[3])
        elem = Type(memref_element(t.text))  # type: ignore[union-attr]  # read_type of a shaped type: a Type, no FunctionType
        ops = [self.typed(items[1], t), *(self.typed(i, INDEX) for i in items[2] or [])]  # type: ignore[arg-type]  # read_type of a value type: no function type here
        return self._mx("memref.generic_atomic_rmw", meta, ops, [elem], _attrs(items[5:]), regions=[items[4]])

    def mx_ayield_op(self, meta: Any, items: list) -> PartialOp:
        return self._mx("memref.atomic_yield", meta, [self.typed(items[1], read_type(items[-1]))], [], _attrs(items[2:-1]))  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def mx_dma_start_op(self, meta: Any, items: list) -> PartialOp:
        """`src[i...], dst[j...], n, tag[k...] [, stride, per_stride] : S, D, T`:
        operands in that order, flattened (no attr-dict: 19 reads none)."""
        src_t, dst_t, tag_t = (read_type(t) for t in items[-3:])
        src, si, dst, di, num, tag, ti, *rest = items[1:-3]
        strides = [self.typed(u, INDEX) for u in rest if u is not None]
        ops = [self.typed(src, src_t), *(self.typed(i, INDEX) for i in si or []), self.typed(dst, dst_t), *(self.typed(i, INDEX) for i in di or [])]  # type: ignore[arg-type]  # read_type of a value type: no function type here
        ops += [self.typed(num, INDEX), self.typed(tag, tag_t), *(self.typed(i, INDEX) for i in ti or []), *strides]  # type: ignore[arg-type]  # read_type of a value type: no function type here
        return self._mx("memref.dma_start", meta, ops, [], None)

    def mx_dma_wait_op(self, meta: Any, items: list) -> PartialOp:
        t = read_type(items[-1])
        ops = [self.typed(items[1], t), *(self.typed(i, INDEX) for i in items[2] or []), self.typed(items[3], INDEX)]  # type: ignore[arg-type]  # read_type of a value type: no function type here
        return self._mx("memref.dma_wait", meta, ops, [], _attrs(items[4:-1]))

    def mx_extract_op(self, meta: Any, items: list) -> PartialOp:
        """`%m : T -> types [attr-dict]` (the attr-dict last, as 19 reads it)."""
        t = read_type(items[2])
        return self._mx(str(items[0]), meta, [self.typed(items[1], t)], list(items[3]), _attrs(items[4:]))  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def mx_cast_op(self, meta: Any, items: list) -> PartialOp:
        return self._mx(str(items[0]), meta, [self.typed(items[1], read_type(items[-2]))], [read_type(items[-1])], _attrs(items[2:-2]))  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def mx_prefetch_op(self, meta: Any, items: list) -> PartialOp:
        """`%m[%i...], read|write, locality<0..3>, data|instr : T` (no
        attr-dict: 19 reads none)."""
        name = "memref.prefetch"
        t = read_type(items[-1])
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
            raise DiagnosticError(error(self.loc(meta), f"'{name}' op attribute 'localityHint' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3"))
        ops = [self.typed(items[1], t), *(self.typed(i, INDEX) for i in items[2] or [])]  # type: ignore[arg-type]  # read_type of a value type: no function type here
        return self._mx(name, meta, ops, [], None, props)

    def mx_rank_op(self, meta: Any, items: list) -> PartialOp:
        return self._mx("memref.rank", meta, [self.typed(items[1], read_type(items[-1]))], [INDEX], _attrs(items[2:-1]))  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def mx_realloc_op(self, meta: Any, items: list) -> PartialOp:
        """`%m [(%size)] [attr-dict] : T to R`."""
        src_t, res_t = read_type(items[-2]), read_type(items[-1])
        ops = [self.typed(items[1], src_t)]  # type: ignore[arg-type]  # read_type of a value type: no function type here
        ops += [self.typed(u, INDEX) for u in items[2:-2] if u is not None and not isinstance(u, dict)]
        return self._mx("memref.realloc", meta, ops, [res_t], _attrs(items[2:-2]))

    def mx_reshape_op(self, meta: Any, items: list) -> PartialOp:
        fn: FunctionType = items[-1]
        if len(fn.inputs) != 2:
            raise DiagnosticError(error(self.loc(meta), f"2 operands present, but expected {len(fn.inputs)}"))
        ops = [self.typed(items[1], fn.inputs[0]), self.typed(items[2], fn.inputs[1])]
        return self._mx("memref.reshape", meta, ops, list(fn.results), _attrs(items[3:-1]))

    def mx_transpose_op(self, meta: Any, items: list) -> PartialOp:
        """`%m (d0, d1) -> (d1, d0) : T to R`: the map is the `permutation`."""
        tok: Token = items[2]
        try:
            text = affine.canonical("map", str(tok))
        except affine.AffineError as exc:
            raise TokenError(tok, exc.args[0] if exc.args and isinstance(exc.args[0], int) else 0, "invalid affine map") from None
        if not is_permutation(text):
            raise DiagnosticError(error(self.loc(meta), "'memref.transpose' op expected a permutation map"))
        props: dict[str, Attr] = {"permutation": OpaqueAttr(text)}
        src_t, res_t = read_type(items[-2]), read_type(items[-1])
        return self._mx("memref.transpose", meta, [self.typed(items[1], src_t)], [res_t], _attrs(items[3:-2]), props)  # type: ignore[arg-type]  # read_type of a value type: no function type here
