"""The `arith` dialect's ops, all pure: integer and float arithmetic,
comparisons, casts, `constant` and `select` (a decision on an `i1` that
picks one of two operands, tokens included).

Integer division traps on a zero divisor (and signed overflow): undefined
behaviour, so those ops are not speculatable. The overflow flags and the
fast-math flags have defaults (`none`) that the custom form leaves out.
"""

from __future__ import annotations

from spec.attributes import OpaqueAttr
from spec.op_info import OpInfo, names, op, ops, opt, req

REGISTERED_OPS = names(
    "arith",
    "addf addi addui_extended andi bitcast ceildivsi ceildivui cmpf cmpi constant "
    "divf divsi divui extf extsi extui floordivsi fptosi fptoui index_cast index_castui "
    "maximumf maxnumf maxsi maxui minimumf minnumf minsi minui mulf muli mulsi_extended "
    "mului_extended negf ori remf remsi remui select shli shrsi shrui sitofp subf subi "
    "truncf trunci uitofp xori",
)
"""Every op mlir-opt-19 registers in `arith` (see `spec.registry.COMPLETE_DIALECTS`)."""

FASTMATH = {"fastmath": opt("fastmath")}
"""The fast-math flags, an inherent attribute of the float ops (`math`'s
and `vector.reduction` too)."""
FASTMATH_DEFAULT = {"fastmath": OpaqueAttr("#arith.fastmath<none>")}
"""Its default, which the custom form leaves out."""
_OVERFLOW = {"overflowFlags": opt("overflow")}
_OVERFLOW_DEFAULT = {"overflowFlags": OpaqueAttr("#arith.overflow<none>")}

OPS: tuple[OpInfo, ...] = (
    # integer arithmetic
    *ops(
        "arith",
        "addi subi muli shli",
        default_properties=_OVERFLOW_DEFAULT,
        inherent=_OVERFLOW,
        operand_count=(2, 2),
        result_count=1,
    ),
    *ops("arith", "andi ori xori maxsi minsi maxui minui shrsi shrui", operand_count=(2, 2), result_count=1),
    *ops(
        "arith",
        "divsi divui remsi remui ceildivsi ceildivui floordivsi",
        operand_count=(2, 2),
        speculatable=False,
        result_count=1,
    ),
    op("arith.addui_extended", operand_count=(2, 2), result_count=2, result_names=("sum", "overflow")),
    *ops("arith", "mulsi_extended mului_extended", operand_count=(2, 2), result_count=2, result_names=("low", "high")),
    # float arithmetic
    *ops(
        "arith",
        "addf subf mulf divf remf maximumf minimumf maxnumf minnumf",
        default_properties=FASTMATH_DEFAULT,
        inherent=FASTMATH,
        operand_count=(2, 2),
        result_count=1,
    ),
    op("arith.negf", default_properties=FASTMATH_DEFAULT, inherent=FASTMATH, operand_count=(1, 1), result_count=1),
    # casts
    *ops(
        "arith",
        "index_cast index_castui sitofp uitofp fptosi fptoui extsi extui trunci extf truncf bitcast",
        operand_count=(1, 1),
        result_count=1,
    ),
    # comparisons, constants and the choice of one of two values
    op("arith.cmpi", inherent={"predicate": req("cmpi_predicate")}, operand_count=(2, 2), result_count=1),
    op(
        "arith.cmpf",
        inherent={"predicate": req("cmpf_predicate"), **FASTMATH},
        default_properties=FASTMATH_DEFAULT,
        operand_count=(2, 2),
        result_count=1,
    ),
    op(
        "arith.constant",
        inherent={"value": req("typed")},
        operand_count=(0, 0),
        result_count=1,
        constant=True,
        predicates=("value_type",),
    ),
    op("arith.select", tokens="select", operand_count=(3, 3), result_count=1),
)
