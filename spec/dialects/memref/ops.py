"""The `memref` dialect's ops: allocation, access, globals, views and
queries, with their memory effects as mlir-opt-19 declares them (checked by
where its -gpu-async-region puts a wait: an op before which it waits is not
effect free). The views, casts and reshapes are pure (views of their
operand), but not speculatable where a dynamic shape may not match the
static one asked for, nor is `dim` of an index out of range: undefined at
run time. `global` is a symbol op outside functions; `assume_alignment`
implements no effects interface, so MLIR assumes anything of it.
"""

from __future__ import annotations

from spec.op_info import ALLOC, FREE, READ, SYMBOL_ATTRS, WRITE, OpInfo, names, op, opt, req

REGISTERED_OPS = names(
    "memref",
    "alloc alloca alloca_scope alloca_scope.return assume_alignment atomic_rmw atomic_yield "
    "cast collapse_shape copy dealloc dim dma_start dma_wait expand_shape "
    "extract_aligned_pointer_as_index extract_strided_metadata generic_atomic_rmw get_global "
    "global load memory_space_cast prefetch rank realloc reinterpret_cast reshape store "
    "subview transpose view",
)
"""Every op mlir-opt-19 registers in `memref` (see `spec.registry.COMPLETE_DIALECTS`)."""

_NONTEMPORAL = {"nontemporal": opt("bool")}
_OFFSETS_SIZES_STRIDES = {
    "static_offsets": req("dense_i64"),
    "static_sizes": req("dense_i64"),
    "static_strides": req("dense_i64"),
}

OPS: tuple[OpInfo, ...] = (
    # allocation and scopes
    *(
        op(
            name,
            effects=frozenset({ALLOC}),
            inherent={"alignment": opt("alignment")},
            segments=("dynamicSizes", "symbolOperands"),
            result_count=1,
        )
        for name in ("memref.alloc", "memref.alloca")
    ),
    op("memref.dealloc", effects=frozenset({FREE}), operand_count=(1, 1), result_count=0),
    op(
        "memref.realloc",
        effects=frozenset({ALLOC, FREE}),
        inherent={"alignment": opt("alignment")},
        operand_count=(1, 2),
        result_count=1,
    ),
    op("memref.alloca_scope", recursive=True, operand_count=(0, 0), region_flow="once"),
    op("memref.alloca_scope.return", terminator=True, parents=("memref.alloca_scope",), result_count=0, yields=True),
    # access
    op(
        "memref.load",
        effects=frozenset({READ}),
        inherent=_NONTEMPORAL,
        operand_count=(1, None),
        elided_defaults={"nontemporal": "false"},
        indexed_memref=(0, "incorrect number of indices for load, expected {rank} but got {count}"),
        result_count=1,
    ),
    op(
        "memref.store",
        effects=frozenset({WRITE}),
        inherent=_NONTEMPORAL,
        operand_count=(2, None),
        elided_defaults={"nontemporal": "false"},
        indexed_memref=(1, "store index operand count not equal to memref rank"),
        result_count=0,
    ),
    op("memref.copy", effects=frozenset({READ, WRITE}), operand_count=(2, 2), result_count=0),
    op(
        "memref.atomic_rmw",
        effects=frozenset({READ, WRITE}),
        inherent={"kind": req("atomic_rmw_kind")},
        operand_count=(2, None),
        predicates=("atomic_kind",),
    ),
    op("memref.generic_atomic_rmw", effects=frozenset({READ, WRITE}), operand_count=(1, None), result_count=1),
    op(
        "memref.atomic_yield",
        terminator=True,
        parents=("memref.generic_atomic_rmw",),
        operand_count=(1, 1),
        result_count=0,
    ),
    op(
        "memref.prefetch",
        effects=frozenset({READ}),
        inherent={"isWrite": req("bool"), "localityHint": req("locality_hint"), "isDataCache": req("bool")},
        operand_count=(1, None),
        result_count=0,
    ),
    op("memref.dma_start", effects=frozenset({READ, WRITE}), operand_count=(4, None), result_count=0),
    op("memref.dma_wait", effects=frozenset({READ, WRITE}), operand_count=(2, None), result_count=0),
    # globals
    op(
        "memref.global",
        effects=None,
        inherent={
            **SYMBOL_ATTRS,
            "type": req("type"),
            "initial_value": opt("any"),
            "constant": opt("unit"),
            "alignment": opt("alignment"),
        },
        operand_count=(0, 0),
    ),
    op("memref.get_global", inherent={"name": req("flat_symbol_ref")}, operand_count=(0, 0)),
    # views, casts and reshapes
    op("memref.cast", operand_count=(1, 1), speculatable=False, result_count=1),
    op(
        "memref.subview",
        inherent=_OFFSETS_SIZES_STRIDES,
        segments=("source", "offsets", "sizes", "strides"),
        speculatable=False,
        result_count=1,
    ),
    op(
        "memref.reinterpret_cast",
        inherent=_OFFSETS_SIZES_STRIDES,
        segments=("source", "offsets", "sizes", "strides"),
        speculatable=False,
    ),
    op("memref.view", operand_count=(2, None), speculatable=False),
    op(
        "memref.collapse_shape",
        inherent={"reassociation": req("reassociation")},
        operand_count=(1, 1),
        speculatable=False,
        operand_types=((0, "strided_memref"),),
        checked=True,
    ),
    op(
        "memref.expand_shape",
        inherent={"reassociation": req("reassociation"), "static_output_shape": req("dense_i64")},
        operand_count=(1, None),
        speculatable=False,
        operand_types=((0, "strided_memref"),),
        checked=True,
    ),
    op("memref.reshape", operand_count=(2, 2), result_count=1, result_names=("reshape",), speculatable=False),
    op(
        "memref.transpose",
        inherent={"permutation": req("affine_map")},
        operand_count=(1, 1),
        result_count=1,
        result_names=("transpose",),
    ),
    op("memref.memory_space_cast", operand_count=(1, 1), result_count=1, result_names=("memspacecast",)),
    # queries
    op("memref.dim", operand_count=(2, 2), speculatable=False, result_count=1),
    op("memref.rank", operand_count=(1, 1), result_count=1),
    op("memref.extract_aligned_pointer_as_index", operand_count=(1, 1), result_count=1, result_names=("intptr",)),
    op(
        "memref.extract_strided_metadata",
        operand_count=(1, 1),
        result_names=("base_buffer", "offset", "sizes*", "strides*"),
    ),
    op(
        "memref.assume_alignment",
        effects=None,
        inherent={"alignment": req("positive_i32")},
        operand_count=(1, 1),
        result_count=0,
    ),
)
