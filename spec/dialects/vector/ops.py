"""The `vector` dialect's ops this tool reads: those found in host code
around launches. Memory effects as mlir-opt-19 declares them: the loads,
the gather and `transfer_read` read; the stores, the compressing store,
`transfer_write` and `print` write (its -gpu-async-region waits before the
gather and the compressing store). The transfers read and write memory only
when their source is a memref (19 declares no effect on a tensor): the
subset takes memrefs only. Every other op is `Pure` there, so speculatable.

`kind` has a default (`add`), which the custom forms print all the same
(`contract`; `outerproduct` with an accumulator). Each op but `print` has
its own checks: the rule of its name in `spec.dialects.vector.verifiers`.
"""

from __future__ import annotations

from spec.attributes import OpaqueAttr
from spec.dialects.arith.ops import FASTMATH, FASTMATH_DEFAULT
from spec.op_info import READ, WRITE, OpInfo, names, op, ops, opt, req

REGISTERED_OPS = names(
    "vector",
    "bitcast broadcast compressstore constant_mask contract create_mask deinterleave expandload "
    "extract extractelement extract_strided_slice fma flat_transpose from_elements gather insert "
    "insertelement insert_strided_slice interleave load mask maskedload maskedstore matrix_multiply "
    "multi_reduction outerproduct print reduction scalable.extract scalable.insert scan scatter "
    "shape_cast shuffle splat step store transfer_read transfer_write transpose type_cast vscale "
    "warp_execute_on_lane_0 yield",
)
"""Every op mlir-opt-19 registers in `vector` (see `spec.registry.COMPLETE_DIALECTS`)."""

_NONTEMPORAL = {"nontemporal": opt("bool")}
_TRANSFER = {"permutation_map": req("affine_map"), "in_bounds": req("bool_array")}
_KIND_DEFAULT = {"kind": OpaqueAttr("#vector.kind<add>")}

OPS: tuple[OpInfo, ...] = (
    # memory
    op(
        "vector.load",
        checked=True,
        effects=frozenset({READ}),
        inherent=_NONTEMPORAL,
        operand_count=(1, None),
        elided_defaults={"nontemporal": "false"},
        result_count=1,
    ),
    op(
        "vector.store",
        checked=True,
        effects=frozenset({WRITE}),
        inherent=_NONTEMPORAL,
        operand_count=(2, None),
        elided_defaults={"nontemporal": "false"},
        result_count=0,
    ),
    op(
        "vector.transfer_read",
        checked=True,
        operand_count=(2, None),
        effects=frozenset({READ}),
        inherent=_TRANSFER,
        segments=("source", "indices", "padding", "mask"),
        result_count=1,
    ),
    op(
        "vector.transfer_write",
        checked=True,
        operand_count=(2, None),
        effects=frozenset({WRITE}),
        inherent=_TRANSFER,
        segments=("vector", "source", "indices", "mask"),
    ),
    op("vector.gather", checked=True, effects=frozenset({READ}), operand_count=(4, None), result_count=1),
    op("vector.compressstore", checked=True, effects=frozenset({WRITE}), operand_count=(3, None), result_count=0),
    op(
        "vector.print",
        effects=frozenset({WRITE}),
        inherent={"punctuation": opt("vector_punctuation"), "stringLiteral": opt("string_literal")},
        default_properties={"punctuation": OpaqueAttr("#vector.punctuation<newline>")},
        operand_count=(0, 1),
        predicates=("string_alone",),
    ),
    # building vectors and masks
    *ops("vector", "splat broadcast", checked=True, operand_count=(1, 1), result_count=1),
    op("vector.from_elements", checked=True, result_count=1),
    op(
        "vector.constant_mask",
        checked=True,
        inherent={"mask_dim_sizes": req("i64_array")},
        operand_count=(0, 0),
        result_count=1,
    ),
    op("vector.create_mask", checked=True, operand_count=(0, None), result_count=1),
    # extracts and inserts
    op(
        "vector.extract",
        checked=True,
        inherent={"static_position": req("dense_i64")},
        operand_count=(1, None),
        result_count=1,
    ),
    op(
        "vector.insert",
        checked=True,
        inherent={"static_position": req("dense_i64")},
        operand_count=(2, None),
        result_count=1,
    ),
    # casts and reshapes
    *ops("vector", "bitcast shape_cast type_cast", checked=True, operand_count=(1, 1), result_count=1),
    op(
        "vector.transpose",
        checked=True,
        inherent={"permutation": req("dense_i64")},
        operand_count=(1, 1),
        result_count=1,
    ),
    # arithmetic and reductions
    op("vector.fma", checked=True, operand_count=(3, 3), result_count=1),
    op(
        "vector.contract",
        checked=True,
        inherent={
            "indexing_maps": req("array"),
            "iterator_types": req("vector_iterator_types"),
            "kind": opt("vector_kind"),
        },
        default_properties=_KIND_DEFAULT,
        operand_count=(3, 3),
        result_count=1,
    ),
    op(
        "vector.outerproduct",
        checked=True,
        inherent={"kind": opt("vector_kind")},
        default_properties=_KIND_DEFAULT,
        operand_count=(2, None),
        result_count=1,
    ),
    op(
        "vector.reduction",
        checked=True,
        inherent={"kind": req("vector_kind"), **FASTMATH},
        default_properties=FASTMATH_DEFAULT,
        operand_count=(1, None),
        result_count=1,
    ),
)
