"""The `scf` dialect's ops: structured control flow. Each region op has its
body's effects (`RecursiveMemoryEffects`) but `execute_region`, which
declares none (MLIR assumes anything); `region_flow` says how a thread
runs its regions: `for` counted, `while` before then after, `parallel`
and `forall` side by side, `if` and `index_switch` one of them,
`execute_region` once. The terminators hand their operands to the op
(`yield`, `condition`) or close a reduction (`reduce`, `reduce.return`).

`scf.forall` runs its body for every point of its iteration space in any
order; `in_parallel` is its (pure) terminator, whose own region holds the
`shared_outs` inserts.
"""

from __future__ import annotations

from spec.op_info import OpInfo, names, op, opt, req

REGISTERED_OPS = names(
    "scf",
    "condition execute_region for forall forall.in_parallel if index_switch parallel reduce reduce.return while yield",
)
"""Every op mlir-opt-19 registers in `scf` (see `spec.registry.COMPLETE_DIALECTS`)."""

OPS: tuple[OpInfo, ...] = (
    # loops
    op(
        "scf.for",
        recursive=True,
        loop=True,
        operand_count=(3, None),
        region_flow="counted",
        single_block_regions=("region",),
    ),
    op("scf.while", recursive=True, loop=True, region_flow="while", single_block_regions=("before", "after")),
    op(
        "scf.parallel",
        recursive=True,
        loop=True,
        segments=("lowerBound", "upperBound", "step", "initVals"),
        region_flow="parallel",
    ),
    op(
        "scf.forall",
        recursive=True,
        loop=True,
        segments=("dynamicLowerBound", "dynamicUpperBound", "dynamicStep", "outputs"),
        inherent={
            "staticLowerBound": req("dense_i64"),
            "staticUpperBound": req("dense_i64"),
            "staticStep": req("dense_i64"),
            "mapping": opt("device_mapping"),
        },
        checked=True,
        single_block_regions=("region",),
    ),
    # branches and a region run once
    op(
        "scf.if",
        recursive=True,
        operand_count=(1, 1),
        region_flow="then_else",
        single_block_regions=("thenRegion", "elseRegion?"),
    ),
    op(
        "scf.index_switch",
        recursive=True,
        inherent={"cases": req("dense_i64")},
        operand_count=(1, 1),
        region_flow="cases",
    ),
    op("scf.execute_region", effects=None, operand_count=(0, 0), region_flow="once"),
    # terminators
    op(
        "scf.yield",
        terminator=True,
        tokens="pass",
        parents=("scf.execute_region", "scf.for", "scf.if", "scf.index_switch", "scf.while"),
        result_count=0,
        yields=True,
    ),
    op(
        "scf.condition", terminator=True, tokens="pass", operand_count=(1, None), parents=("scf.while",), result_count=0
    ),
    op(
        "scf.forall.in_parallel",
        terminator=True,
        no_terminator=True,
        checked=True,
        operand_count=(0, 0),
        parents=("scf.forall",),
        result_count=0,
    ),
    op("scf.reduce", terminator=True, recursive=True, parents=("scf.parallel",), result_count=0),
    op("scf.reduce.return", terminator=True, operand_count=(1, 1), parents=("scf.reduce",), result_count=0),
)
