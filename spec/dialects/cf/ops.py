"""The `cf` dialect's ops: the terminators that jump to other blocks of
their region (`br`, `cond_br`, `switch`), which hand their operands on to
the successor's arguments (`tokens="pass"`), and `assert`, which writes
(its message) when its condition fails.
"""

from __future__ import annotations

from spec.op_info import WRITE, OpInfo, names, op, opt, req

REGISTERED_OPS = names("cf", "assert br cond_br switch")
"""Every op mlir-opt-19 registers in `cf` (see `spec.registry.COMPLETE_DIALECTS`)."""

OPS: tuple[OpInfo, ...] = (
    # branches
    op("cf.br", terminator=True, tokens="pass", result_count=0, jump="always"),
    op(
        "cf.cond_br",
        terminator=True,
        tokens="pass",
        segments=("condition", "trueDestOperands", "falseDestOperands"),
        # mlir-opt-22's `branch_weights`, read in the custom form; 19 declares
        # no inherent attribute of it
        properties={"branch_weights"},
        result_count=0,
        jump="condition",
    ),
    op(
        "cf.switch",
        terminator=True,
        tokens="pass",
        segments=("flag", "defaultOperands", "caseOperands"),
        inherent={"case_values": opt("any"), "case_operand_segments": req("dense_i32")},
        jump="cases",
    ),
    # checks
    op("cf.assert", effects=frozenset({WRITE}), inherent={"msg": req("string")}, operand_count=(1, 1), result_count=0),
)
