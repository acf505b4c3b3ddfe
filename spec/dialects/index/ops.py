"""The `index` dialect's ops, all pure: arithmetic on `index` values,
comparison, casts, `sizeof` and the constants. Division traps on a zero
divisor: those ops are not speculatable.
"""

from __future__ import annotations

from spec.op_info import OpInfo, names, op, ops, req

REGISTERED_OPS = names(
    "index",
    "add and bool.constant casts castu ceildivs ceildivu cmp constant divs divu floordivs "
    "maxs maxu mins minu mul or rems remu shl shrs shru sizeof sub xor",
)
"""Every op mlir-opt-19 registers in `index` (see `spec.registry.COMPLETE_DIALECTS`)."""

OPS: tuple[OpInfo, ...] = (
    # arithmetic
    *ops("index", "add sub mul maxs mins maxu minu and or xor shl shrs shru", operand_count=(2, 2)),
    *ops("index", "divs divu rems remu ceildivs ceildivu floordivs", operand_count=(2, 2), speculatable=False),
    # comparison, casts and size
    op("index.cmp", inherent={"pred": req("index_cmp_predicate")}, operand_count=(2, 2), result_count=1),
    *ops("index", "casts castu", operand_count=(1, 1), result_count=1),
    op("index.sizeof", operand_count=(0, 0), result_count=1),
    # constants
    op(
        "index.constant",
        inherent={"value": req("index")},
        operand_count=(0, 0),
        result_count=1,
        result_names=("idx{value}",),
        constant=True,
    ),
    op(
        "index.bool.constant",
        inherent={"value": req("bool")},
        operand_count=(0, 0),
        result_count=1,
        result_names=("{value}",),
    ),
)
