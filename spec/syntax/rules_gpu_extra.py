"""Builder rules of the rest of mlir-opt-19's `gpu` dialect (issue 16,
part 3): `gpu.binary` (a module's compiled objects), `gpu.dynamic_shared_memory`,
`gpu.set_default_device` and the subgroup MMA ops (`subgroup_mma_load_matrix`,
`store_matrix`, `compute`, `constant_matrix`, `elementwise`) on
`!gpu.mma_matrix` values. `gpu.cluster_block_id` and
`gpu.cluster_dim_blocks` share `gpu_dim_op` with the other index ops.

As in `rules_wide`: one grammar rule per shape (`gx_*_op`), its keyword rule
listing the ops written that way; the builder makes MLIR's generic model
(operands, result types, properties) as mlir-opt-19 does. Facts (effects,
inherent attributes, result names) are in `spec.registry`, printers in
`custom_gpu_extra`. The parser takes these rules through `rules_more`.
"""

from __future__ import annotations

from typing import Any

from spec.attributes import INDEX, Attr, FunctionType, OpaqueAttr, StringAttr, Type
from spec.diagnostics import DiagnosticError, error
from spec.syntax.build_base import BuilderBase, PartialOp, read_type, symbol_name

GX_RULES = frozenset(
    "gx_binary_op gx_dsm_op gx_device_op gx_mma_load_op gx_mma_store_op gx_mma_compute_op gx_mma_const_op "
    "gx_mma_elementwise_op".split()
)
"""Rules whose first child is the keyword token naming the op."""

GX_KEYWORDS = {rule.removesuffix("_op") + "_kw": rule.removesuffix("_op").upper() + "_KW" for rule in GX_RULES}
"""Keyword rules (string literals) and the token type each hands on."""

DEFAULT_HANDLER = "#gpu.select_object"
"""`gpu.binary`'s offloading handler when its custom form names none."""

MMA_ELEMENTWISE = tuple("addf mulf subf maxf minf divf addi muli subi divs divu negatef negates extf".split())
"""MLIR 19's `MMAElementwiseOp` cases, in the order its error lists them."""


def required(name: str, props: dict[str, Attr], key: str, loc: Any) -> None:
    """The verifier's check of a required inherent attribute the custom
    form takes from the attribute dict (`leadDimension`)."""
    if key not in props:
        raise DiagnosticError(error(loc, f"'{name}' op requires attribute '{key}'"))


class GpuExtraRules(BuilderBase):
    """The `gx_*` rules."""

    def _gx(self, name: str, meta: Any, operands: list, results: list[Type], attrs: dict | None, props: dict[str, Attr] | None = None) -> PartialOp:
        props, attrs = self.split_attrs(name, attrs, props or {})
        return self.op(name, meta, operands, results, properties=props, attributes=attrs)

    def gx_binary_op(self, meta: Any, items: list) -> PartialOp:
        """`gpu.binary @name [<handler>] [attr-dict] [objects]`: the handler
        and objects are properties, the handler `#gpu.select_object` when
        not written (19's custom parser sets it; its generic one does not)."""
        props: dict[str, Attr] = {"sym_name": StringAttr(symbol_name(str(items[1]))), "offloadingHandler": OpaqueAttr(DEFAULT_HANDLER)}
        attrs = None
        for it in items[2:]:
            if isinstance(it, tuple) and it[0] == "targets":
                props["objects"] = it[1]
            elif isinstance(it, tuple):
                props[it[0]] = it[1]
            elif isinstance(it, dict):
                attrs = it
        return self._gx("gpu.binary", meta, [], [], attrs, props)

    def gx_dsm_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[1] if isinstance(items[1], dict) else None
        return self._gx("gpu.dynamic_shared_memory", meta, [], [read_type(items[-1])], attrs)  # type: ignore[list-item]  # read_type of a value type: no function type here

    def gx_device_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[1] if isinstance(items[1], dict) else None
        return self._gx("gpu.set_default_device", meta, [self.typed(items[-1], Type("i32"))], [], attrs)

    def _lead(self, name: str, meta: Any, operands: list, results: list[Type], attrs: dict | None) -> PartialOp:
        partial = self._gx(name, meta, operands, results, attrs)
        required(name, partial.op.properties, "leadDimension", self.loc(meta))
        return partial

    def gx_mma_load_op(self, meta: Any, items: list) -> PartialOp:
        src, idx = items[1], items[2] or []
        attrs = items[3] if isinstance(items[3], dict) else None
        mt, rt = read_type(items[-2]), read_type(items[-1])
        return self._lead("gpu.subgroup_mma_load_matrix", meta, [self.typed(src, mt), *(self.typed(i, INDEX) for i in idx)], [rt], attrs)  # type: ignore[arg-type,list-item]  # read_type of a value type: no function type here

    def gx_mma_store_op(self, meta: Any, items: list) -> PartialOp:
        val, dst, idx = items[1], items[2], items[3] or []
        attrs = items[4] if isinstance(items[4], dict) else None
        vt, mt = read_type(items[-2]), read_type(items[-1])
        return self._lead("gpu.subgroup_mma_store_matrix", meta, [self.typed(val, vt), self.typed(dst, mt), *(self.typed(i, INDEX) for i in idx)], [], attrs)  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def gx_mma_compute_op(self, meta: Any, items: list) -> PartialOp:
        """`A, B, C : TA, TB -> TC`: C's type is the result's."""
        attrs = items[4] if isinstance(items[4], dict) else None
        ta, tb, tc = (read_type(t) for t in items[-3:])
        ops = [self.typed(items[1], ta), self.typed(items[2], tb), self.typed(items[3], tc)]  # type: ignore[arg-type]  # read_type of a value type: no function type here
        return self._gx("gpu.subgroup_mma_compute", meta, ops, [tc], attrs)  # type: ignore[list-item]  # read_type of a value type: no function type here

    def gx_mma_const_op(self, meta: Any, items: list) -> PartialOp:
        """`%v : !gpu.mma_matrix<..., E>`: the operand's type is the element."""
        attrs = items[2] if isinstance(items[2], dict) else None
        t = read_type(items[-1])
        elem = Type(t.text.rsplit("x", 1)[-1].split(",", 1)[0])  # type: ignore[union-attr]  # read_type of a shaped type: a Type, no FunctionType
        return self._gx("gpu.subgroup_mma_constant_matrix", meta, [self.typed(items[1], elem)], [t], attrs)  # type: ignore[list-item]  # read_type of a value type: no function type here

    def gx_mma_elementwise_op(self, meta: Any, items: list) -> PartialOp:
        kind = str(items[1])
        name = "gpu.subgroup_mma_elementwise"
        if kind not in MMA_ELEMENTWISE:
            raise DiagnosticError(error(self.tok_loc(items[1]), f"custom op '{name}' expected ::mlir::gpu::MMAElementwiseOp to be one of: {', '.join(MMA_ELEMENTWISE)}"))
        fn: FunctionType = items[-1]
        args = items[2]
        attrs = items[3] if isinstance(items[3], dict) else None
        if len(fn.inputs) != len(args):
            # 19 reports it where the operands start.
            raise DiagnosticError(error(args[0].loc, f"custom op '{name}' {len(args)} operands present, but expected {len(fn.inputs)}"))
        ops = [self.typed(u, t) for u, t in zip(args, fn.inputs)]
        return self._gx(name, meta, ops, list(fn.results), attrs, {"opType": OpaqueAttr(f"#gpu<mma_element_wise {kind}>")})
