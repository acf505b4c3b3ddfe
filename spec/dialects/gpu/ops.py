"""The `gpu` dialect's host side: kernel modules and functions and the
structure of kernels (`module`, `func`, `return`, `terminator`, `barrier`,
`binary`), the launches, the async ops the pass threads tokens through
(`launch_func`, `memcpy`, `memset`, `alloc`, `dealloc`, `wait`) and the
other host ops. Its device side (`device_ops`) and its sparse library ops
(`library_ops`) have tables of their own; the ops' syntax is `syntax` and
`device_syntax` beside them.

Effects as mlir-opt-19 declares them, checked by where its
-gpu-async-region puts a wait: `host_register`, `host_unregister` and the
module and kernel ops implement no effects interface (`None`: anything may
happen); `set_default_device` writes.
"""

from __future__ import annotations

from spec.op_info import ALLOC, FREE, FUNCTION_ATTRS, READ, WRITE, OpInfo, names, op, opt, req

REGISTERED_OPS = names(
    "gpu",
    "all_reduce alloc barrier binary block_dim block_id cluster_block_id cluster_dim "
    "cluster_dim_blocks cluster_id create_2to4_spmat create_bsr create_coo create_coo_aos "
    "create_csc create_csr create_dn_tensor dealloc destroy_dn_tensor destroy_sp_mat "
    "dynamic_shared_memory func global_id grid_dim host_register host_unregister lane_id "
    "launch launch_func memcpy memset module module_end num_subgroups printf return sddmm "
    "sddmm_buffer_size set_csr_pointers set_default_device shuffle spgemm_copy "
    "spgemm_create_descr spgemm_destroy_descr spgemm_work_estimation_or_compute "
    "spmat_get_size spmm spmm_buffer_size spmv spmv_buffer_size subgroup_id "
    "subgroup_mma_compute subgroup_mma_constant_matrix subgroup_mma_elementwise "
    "subgroup_mma_load_matrix subgroup_mma_store_matrix subgroup_reduce subgroup_size "
    "terminator thread_id wait yield",
)
"""Every op mlir-opt-19 registers in `gpu`, host and device side (see
`spec.registry.COMPLETE_DIALECTS`)."""

ATTRIBUTE_VERIFIERS: dict[str, str] = {
    "gpu.container_module": "gpu.container_module",
    "gpu.known_block_size": "gpu.known_block_size",
    "gpu.known_grid_size": "gpu.known_grid_size",
}
"""The `gpu` discardable attributes that verify the op that carries them
(see `spec.registry.DIALECT_ATTRIBUTE_VERIFIERS`)."""

_LAUNCH_SEGMENTS = (
    "asyncDependencies",
    "gridSizeX",
    "gridSizeY",
    "gridSizeZ",
    "blockSizeX",
    "blockSizeY",
    "blockSizeZ",
    "clusterSizeX",
    "clusterSizeY",
    "clusterSizeZ",
    "dynamicSharedMemorySize",
)
"""The operand segments of a launch: its dependencies and sizes."""

OPS: tuple[OpInfo, ...] = (
    # kernel modules and functions (opaque to the pass)
    op(
        "gpu.module",
        effects=None,
        kernels=True,
        symbol=True,
        symbol_table=True,
        no_terminator=True,
        inherent={
            "sym_name": req("string"),
            "targets": opt("gpu_targets"),
            "offloadingHandler": opt("offloading_handler"),
        },
        operand_count=(0, 0),
        generic_terminator="gpu.module_end",
        isolated=True,
        result_count=0,
    ),
    op("gpu.module_end", terminator=True, operand_count=(0, 0), parents=("gpu.module",), result_count=0),
    op(
        "gpu.binary",
        effects=None,
        symbol=True,
        operand_count=(0, 0),
        result_count=0,
        inherent={
            "sym_name": req("string"),
            "offloadingHandler": opt("offloading_handler"),
            "objects": req("gpu_objects"),
        },
    ),
    # `gpu.func` keeps `sym_name` in the discardable dict (spec.syntax.op_checks checks it).
    op(
        "gpu.func",
        effects=None,
        function="gpu",
        symbol=True,
        checked=True,
        inherent={
            **FUNCTION_ATTRS,
            "workgroup_attrib_attrs": opt("dict_array"),
            "private_attrib_attrs": opt("dict_array"),
            "known_block_size": opt("dense_i32_3"),
            "known_grid_size": opt("dense_i32_3"),
        },
        operand_count=(0, 0),
        isolated=True,
        parents=("gpu.module",),
        result_count=0,
    ),
    op("gpu.return", terminator=True, checked=True, parents=("gpu.func",), result_count=0),
    op("gpu.terminator", terminator=True, operand_count=(0, 0), parents=("gpu.launch",), result_count=0),
    op("gpu.barrier", effects=None, operand_count=(0, 0), result_count=0),
    # launches: of a kernel written in the op's own region, and of an outlined one
    op("gpu.launch", effects=None, segments=_LAUNCH_SEGMENTS, deps_segment=0, inline_kernel=True),
    op(
        "gpu.launch_func",
        effects=None,
        launches=True,
        gpu_async=True,
        inherent={"kernel": req("symbol_ref")},
        checked=True,
        segments=(*_LAUNCH_SEGMENTS, "kernelOperands", "asyncObject"),
        deps_segment=0,
    ),
    # the async ops on memory, and the wait
    op(
        "gpu.memcpy",
        effects=frozenset({READ, WRITE}),
        gpu_async=True,
        fixed_trailing=2,
        checked=True,
        operand_types=((-2, "ranked_memref"), (-1, "ranked_memref")),
    ),
    op(
        "gpu.memset",
        effects=frozenset({WRITE}),
        gpu_async=True,
        fixed_trailing=2,
        checked=True,
        operand_types=((-2, "ranked_memref"),),
    ),
    op(
        "gpu.alloc",
        effects=frozenset({ALLOC}),
        gpu_async=True,
        inherent={"hostShared": opt("unit")},
        checked=True,
        segments=("asyncDependencies", "dynamicSizes", "symbolOperands"),
        deps_segment=0,
    ),
    op("gpu.dealloc", effects=frozenset({FREE}), gpu_async=True, fixed_trailing=1),
    op("gpu.wait", effects=None, gpu_async=True, wait_only=True, sync="wait", fixed_trailing=0),
    # the other host ops
    op("gpu.host_register", effects=None, operand_count=(1, 1), operand_types=((0, "unranked_memref"),)),
    op("gpu.host_unregister", effects=None, operand_count=(1, 1), operand_types=((0, "unranked_memref"),)),
    op("gpu.set_default_device", effects=frozenset({WRITE}), operand_count=(1, 1), result_count=0),
)
