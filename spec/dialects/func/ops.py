"""The `func` dialect's ops: `func.func`, the functions the pass rewrites
and the semantics runs, its `return`, and the calls out of a function
(`call`, `call_indirect`, `constant` that names a function for the latter).

A call hands its token operands out of the function, to a receiver that
may do anything with them (`tokens="escape"`); neither call implements an
effects interface, so MLIR assumes it may do anything (the pass waits
before it).
"""

from __future__ import annotations

from spec.op_info import FUNCTION_ATTRS, SYMBOL_ATTRS, OpInfo, names, op, req

REGISTERED_OPS = names("func", "call call_indirect constant func return")
"""Every op mlir-opt-19 registers in `func` (see `spec.registry.COMPLETE_DIALECTS`)."""

OPS: tuple[OpInfo, ...] = (
    # the function and its terminator
    op(
        "func.func",
        effects=None,
        function="host",
        symbol=True,
        inherent={**SYMBOL_ATTRS, **FUNCTION_ATTRS},
        operand_count=(0, 0),
        default_dialect="func",
        isolated=True,
        result_count=0,
    ),
    op("func.return", terminator=True, tokens="escape", parents=("func.func",), result_count=0),
    # calls; 19's `call` has no `arg_attrs`, `res_attrs` or `no_inline` (22's has)
    op(
        "func.call",
        effects=None,
        tokens="escape",
        inherent={"callee": req("flat_symbol_ref")},
        calls=True,
        callee="func.func",
    ),
    op("func.call_indirect", effects=None, tokens="escape", operand_count=(1, None)),
    op(
        "func.constant",
        inherent={"value": req("flat_symbol_ref")},
        operand_count=(0, 0),
        result_count=1,
        result_names=("f",),
    ),
)
