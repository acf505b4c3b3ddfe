"""The `builtin` dialect's op: `builtin.module`, the op a file's ops sit in
(implicit around them when not written; nested, a named scope of symbols).
"""

from __future__ import annotations

from spec.op_info import OpInfo, op, opt

OPS: tuple[OpInfo, ...] = (
    op(
        "builtin.module",
        effects=None,
        top_level=True,
        symbol_table=True,
        no_terminator=True,
        inherent={"sym_name": opt("string"), "sym_visibility": opt("string")},
        operand_count=(0, 0),
        default_dialect="builtin",
        isolated=True,
        result_count=0,
    ),
)
