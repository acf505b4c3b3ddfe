"""The `affine` dialect's ops: `apply` is pure, `load` reads and `store`
writes; `for` and `if` have their bodies' effects
(`RecursiveMemoryEffects`) and run their regions as a counted loop and a
branch; `yield` ends their regions, handing its operands to the op.
"""

from __future__ import annotations

from spec.op_info import READ, WRITE, OpInfo, names, op, req

REGISTERED_OPS = names(
    "affine",
    "apply delinearize_index dma_start dma_wait for if load max min parallel prefetch store "
    "vector_load vector_store yield",
)
"""Every op mlir-opt-19 registers in `affine` (see `spec.registry.COMPLETE_DIALECTS`)."""

OPS: tuple[OpInfo, ...] = (
    # maps and memory
    op("affine.apply", inherent={"map": req("affine_map")}, operand_count=(0, None)),
    op("affine.load", effects=frozenset({READ}), inherent={"map": req("affine_map")}, operand_count=(1, None)),
    op("affine.store", effects=frozenset({WRITE}), inherent={"map": req("affine_map")}, operand_count=(2, None)),
    # structured control flow
    op(
        "affine.for",
        recursive=True,
        loop=True,
        region_flow="counted",
        inherent={"lowerBoundMap": req("affine_map"), "upperBoundMap": req("affine_map"), "step": req("index")},
        segments=("lowerBoundOperands", "upperBoundOperands", "inits"),
    ),
    op("affine.if", recursive=True, region_flow="then_else"),
    op(
        "affine.yield",
        terminator=True,
        tokens="pass",
        parents=("affine.for", "affine.if", "affine.parallel"),
        yields=True,
    ),
)
