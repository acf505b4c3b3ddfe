"""The `math` dialect's ops, all pure: the float functions (with the
fast-math flags of `arith`, whose default the custom form leaves out) and
the integer ones.
"""

from __future__ import annotations

from spec.dialects.arith.ops import FASTMATH, FASTMATH_DEFAULT
from spec.op_info import OpInfo, names, op, ops

REGISTERED_OPS = names(
    "math",
    "absf absi acos acosh asin asinh atan atan2 atanh cbrt ceil copysign cos cosh ctlz "
    "ctpop cttz erf exp exp2 expm1 floor fma fpowi ipowi log log10 log1p log2 powf round "
    "roundeven rsqrt sin sinh sqrt tan tanh trunc",
)
"""Every op mlir-opt-19 registers in `math` (see `spec.registry.COMPLETE_DIALECTS`)."""

OPS: tuple[OpInfo, ...] = (
    # float functions of one operand (the result count is checked for the
    # second group only)
    *ops(
        "math",
        "absf atan cbrt ceil cos erf exp exp2 expm1 floor log log10 log1p log2 round roundeven rsqrt sin sqrt tan "
        "tanh trunc",
        default_properties=FASTMATH_DEFAULT,
        inherent=FASTMATH,
        operand_count=(1, 1),
    ),
    *ops(
        "math",
        "acos acosh asin asinh atanh cosh sinh",
        default_properties=FASTMATH_DEFAULT,
        inherent=FASTMATH,
        operand_count=(1, 1),
        result_count=1,
    ),
    # float functions of two or three operands
    *ops("math", "atan2 copysign powf", default_properties=FASTMATH_DEFAULT, inherent=FASTMATH, operand_count=(2, 2)),
    op("math.fpowi", default_properties=FASTMATH_DEFAULT, inherent=FASTMATH, operand_count=(2, 2), result_count=1),
    op("math.fma", default_properties=FASTMATH_DEFAULT, inherent=FASTMATH, operand_count=(3, 3), result_count=1),
    # integer functions
    *ops("math", "absi ctlz ctpop cttz", operand_count=(1, 1), result_count=1),
    op("math.ipowi", operand_count=(2, 2), result_count=1),
)
