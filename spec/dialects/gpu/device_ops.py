"""The `gpu` dialect's device side: the ops that compute inside kernels
(the ids and dimensions, `printf`, `shuffle`, the reductions, the dynamic
shared memory and the subgroup MMA ops). The pass never rewrites them, but
the parser reads real files that hold them, with mlir-opt-19's checks.

Effects as mlir-opt-19 declares them: `printf` writes, the MMA load reads
and store writes; `subgroup_reduce` and `all_reduce` implement no effects
interface (`None`); the others are pure.
"""

from __future__ import annotations

from spec.op_info import READ, WRITE, OpInfo, op, ops, opt, req

_DIMENSION = {"dimension": req("gpu_dim"), "upper_bound": opt("index")}
_MMA_LEAD = {"leadDimension": req("index"), "transpose": opt("unit")}

OPS: tuple[OpInfo, ...] = (
    # ids and dimensions
    *ops("gpu", "thread_id block_id block_dim grid_dim", inherent=_DIMENSION, operand_count=(0, 0), result_count=1),
    *ops("gpu", "cluster_id cluster_dim", inherent=_DIMENSION, operand_count=(0, 0), result_count=1),
    *ops(
        "gpu",
        "cluster_block_id cluster_dim_blocks",
        inherent=_DIMENSION,
        operand_count=(0, 0),
        result_names=("{name}_{dim}",),
        result_count=1,
    ),
    op("gpu.global_id", inherent=_DIMENSION, operand_count=(0, 0)),
    *ops(
        "gpu",
        "lane_id subgroup_id num_subgroups subgroup_size",
        inherent={"upper_bound": opt("index")},
        operand_count=(0, 0),
    ),
    op("gpu.dynamic_shared_memory", operand_count=(0, 0), result_count=1),
    # output
    op("gpu.printf", effects=frozenset({WRITE}), inherent={"format": req("string")}),
    # exchanges and reductions across threads
    op("gpu.shuffle", checked=True, inherent={"mode": req("shuffle_mode")}, operand_count=(3, 3)),
    op(
        "gpu.subgroup_reduce",
        effects=None,
        inherent={"op": req("all_reduce_op"), "uniform": opt("unit")},
        operand_count=(1, 1),
        predicates=("reduction_kind",),
    ),
    op(
        "gpu.all_reduce",
        effects=None,
        checked=True,
        inherent={"op": opt("all_reduce_op"), "uniform": opt("unit")},
        operand_count=(1, 1),
        isolated=True,
    ),
    op("gpu.yield", terminator=True),
    # subgroup MMA on `!gpu.mma_matrix` values
    op(
        "gpu.subgroup_mma_load_matrix",
        effects=frozenset({READ}),
        checked=True,
        inherent=_MMA_LEAD,
        operand_count=(1, None),
        result_count=1,
    ),
    op(
        "gpu.subgroup_mma_store_matrix",
        effects=frozenset({WRITE}),
        checked=True,
        inherent=_MMA_LEAD,
        operand_count=(2, None),
        result_count=0,
    ),
    op(
        "gpu.subgroup_mma_compute",
        checked=True,
        inherent={"a_transpose": opt("unit"), "b_transpose": opt("unit")},
        operand_count=(3, 3),
        result_count=1,
    ),
    op("gpu.subgroup_mma_constant_matrix", checked=True, operand_count=(1, 1), result_count=1),
    op(
        "gpu.subgroup_mma_elementwise",
        checked=True,
        inherent={"opType": req("mma_element_wise")},
        operand_count=(1, None),
        result_count=1,
    ),
)
