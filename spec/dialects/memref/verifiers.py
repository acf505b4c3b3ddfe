"""The `memref` ops' own verifiers (MLIR's `verify()`), with mlir-opt-19's
messages (each checked against it, tests/syntax/test_syntax_host_verifiers.py).

Per-op dispatch: `MEMREF_RULES` maps each rule name the `memref` ops'
entries give (`checked`) to its code, joined to
`spec.syntax.op_verifiers.RULES`, which runs them.

- `memref.expand_shape` / `memref.collapse_shape`: strided memrefs in and
  out (`operand #0` / `result #0 must be strided memref of any type
  values`), the rank not lower / higher (`This is not an expansion`),
  `verifyCollapsedShape` (group count, contiguous in-bound indices,
  dynamic sizes only from dynamic groups, static sizes the group's
  product, rank 0 from or to ones), the result type the source layout
  expands or collapses to (`spec.syntax.memref_layouts`), and an expand's
  `static_output_shape` against the result type.
"""

from __future__ import annotations

from collections.abc import Callable

from spec.attributes import DenseArrayAttr, IntegerAttr, Type
from spec.ir import Operation
from spec.syntax import memref_layouts as layouts
from spec.syntax.build_base import K_DYNAMIC
from spec.syntax.structure import op_error


def strided_memref(t: Type) -> bool:
    """`AnyStridedMemRef`: a ranked memref whose layout has strides (the
    operand type constraint `strided_memref`)."""
    ranked = layouts.ranked(t.text)
    return ranked is not None and layouts.layout_strides(ranked) != layouts.NOT_STRIDED


def _type(v: object) -> str | None:
    t = getattr(v, "type", None)
    return t.text if isinstance(t, Type) else None


def _groups(op: Operation) -> list[list[int]]:
    """The `reassociation` property as lists of dimension indices."""
    reassoc = op.properties.get("reassociation")
    elements = getattr(reassoc, "elements", ())
    return [[i.value for i in getattr(g, "elements", ()) if isinstance(i, IntegerAttr)] for g in elements]


def _check_collapsed_shape(
    op: Operation, collapsed: tuple[int | None, ...], expanded: tuple[int | None, ...], groups: list[list[int]]
) -> None:
    """`verifyCollapsedShape`: one group per collapsed dimension, the
    groups' indices contiguous and in bounds, a collapsed dimension
    dynamic exactly when its group has a dynamic one, a static one the
    product of its group; rank 0 from or to ones only."""
    if len(collapsed) != len(groups):
        raise op_error(op, f"invalid number of reassociation groups: found {len(groups)}, expected {len(collapsed)}")
    next_dim = 0
    for at, group in enumerate(groups):
        dynamic = False
        for dim in group:
            if dim != next_dim:
                raise op_error(op, "reassociation indices must be contiguous")
            next_dim += 1
            if dim >= len(expanded):
                raise op_error(op, f"reassociation index {dim} is out of bounds")
            dynamic = dynamic or expanded[dim] is None
        if (collapsed[at] is None) != dynamic:
            raise op_error(op, f"collapsed dim ({at}) must be dynamic if and only if reassociation group is dynamic")
        if not dynamic:
            size = 1
            for dim in group:
                size *= expanded[dim] or 0
            if size != collapsed[at]:
                raise op_error(op, f"collapsed dim size ({collapsed[at]}) must equal reassociation group size ({size})")
    if not collapsed:
        if any(d != 1 for d in expanded):
            raise op_error(op, "rank 0 memrefs can only be extended/collapsed with/from ones")
    elif next_dim != len(expanded):
        raise op_error(
            op, f"expanded rank ({len(expanded)}) inconsistent with number of reassociation indices ({next_dim})"
        )


def _reshape_types(op: Operation) -> tuple[layouts.MemRef, layouts.MemRef, Type] | None:
    """Source and result of a reshape op, the result checked against
    `AnyStridedMemRef`; None where a type is not known yet."""
    src_t, res_t = _type(op.operands[0]) if op.operands else None, _type(op.results[0]) if op.results else None
    if src_t is None or res_t is None:
        return None
    if not strided_memref(Type(res_t)):
        raise op_error(op, f"result #0 must be strided memref of any type values, but got '{res_t}'")
    src, res = layouts.ranked(src_t), layouts.ranked(res_t)
    if src is None or res is None:
        return None
    return src, res, op.results[0].type


def _source_strides(op: Operation, src: layouts.MemRef) -> layouts.Strides | None:
    strides = layouts.layout_strides(src)
    if strides == layouts.UNKNOWN:
        raise op_error(op, f"source layout '{src.layout}' is not modelled by this tool (docs/subset.md)")
    return None if isinstance(strides, str) else strides


def _expand_shape(op: Operation) -> None:
    """`memref.expand_shape`: no lower rank, `verifyCollapsedShape`, the
    result type the source's layout expands to, then `static_output_shape`
    (one entry per result dimension, one operand per dynamic entry, static
    entries equal to the result's static sizes)."""
    found = _reshape_types(op)
    if found is None:
        return
    src, res, res_type = found
    if len(src.shape) > len(res.shape):
        r0, r1 = len(src.shape), len(res.shape)
        raise op_error(op, f"has source rank {r0} and result rank {r1}. This is not an expansion ({r0} > {r1}).")
    groups = _groups(op)
    _check_collapsed_shape(op, src.shape, res.shape, groups)
    expected: layouts.Strides | None = None
    if not layouts.is_identity(src):
        strides = _source_strides(op, src)
        if strides is None:
            raise op_error(op, "invalid source layout map")
        expected = layouts.expanded_strides(strides, res.shape, groups)
    if not layouts.same_type((res.shape, src.element, expected, src.space), res):
        layout = "" if expected is None else layouts.strided_text(expected)
        want = layouts.type_text(res.shape, src.element, layout, src.space)
        raise op_error(op, f"expected expanded type to be '{want}' but found '{res_type}'")
    statics = op.properties.get("static_output_shape")
    values = tuple(statics.values) if isinstance(statics, DenseArrayAttr) else ()
    if len(values) != len(res.shape):
        raise op_error(
            op,
            f"expected number of static shape bounds to be equal to the output rank ({len(res.shape)}) "
            f"but found {len(values)} inputs instead",
        )
    dynamic = sum(v == K_DYNAMIC for v in values)
    if len(op.operands) - 1 != dynamic:
        raise op_error(
            op,
            "mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape has "
            f"{dynamic} dynamic dims while output_shape has {len(op.operands) - 1} values",
        )
    for pos, size in enumerate(res.shape):
        if size is not None and size != values[pos]:
            raise op_error(op, f"invalid output shape provided at pos {pos}")


def _collapse_shape(op: Operation) -> None:
    """`memref.collapse_shape`: no higher rank, `verifyCollapsedShape`, and
    the result type the source's layout collapses to (contiguous groups
    only)."""
    found = _reshape_types(op)
    if found is None:
        return
    src, res, res_type = found
    if len(src.shape) < len(res.shape):
        r0, r1 = len(src.shape), len(res.shape)
        raise op_error(op, f"has source rank {r0} and result rank {r1}. This is not a collapse ({r0} < {r1}).")
    groups = _groups(op)
    _check_collapsed_shape(op, res.shape, src.shape, groups)
    expected: layouts.Strides | None = None
    if not layouts.is_identity(src):
        strides = _source_strides(op, src)
        collapsed = None if strides is None else layouts.collapsed_strides(strides, src.shape, groups)
        if collapsed is None:
            raise op_error(op, "invalid source layout map or collapsing non-contiguous dims")
        expected = collapsed
    if not layouts.same_type((res.shape, src.element, expected, src.space), res):
        layout = "" if expected is None else layouts.strided_text(expected)
        want = layouts.type_text(res.shape, src.element, layout, src.space)
        raise op_error(op, f"expected collapsed type to be '{want}' but found '{res_type}'")


MEMREF_RULES: dict[str, Callable[[Operation], None]] = {
    "memref.expand_shape": _expand_shape,
    "memref.collapse_shape": _collapse_shape,
}
"""Each rule the `memref` ops name, by name."""
