"""Builder rules of the rest of mlir-opt-19's scalar ops (issue 16, part 3):
`arith.addui_extended`, `mulsi_extended`, `mului_extended`; the integer
`math` ops (`absi`, `ctlz`, `ctpop`, `cttz`, `ipowi`), `math.fma` and
`math.fpowi`; `index.bool.constant`, `constant`, `casts`, `castu`, `cmp`,
`sizeof`; `func.constant` and `func.call_indirect` (also without their
prefix in a function: `func` is its default dialect). `arith.ceildivui` and
the fast-math unary `math` ops share the rules of their kin
(`arith_binary_op`, `wide_math1_op`).

As in `rules_wide`: one grammar rule per shape (`sx_*_op`), its keyword rule
listing the ops written that way; facts in `spec.registry`, printers in
`custom_scalar`. The parser takes these rules through `rules_more`.
"""

from __future__ import annotations

from typing import Any

from lark import Token

from spec.attributes import I1, INDEX, FunctionType, IntegerAttr, OpaqueAttr, SymbolRefAttr
from spec.diagnostics import DiagnosticError, error
from spec.syntax.build_base import BuilderBase, PartialOp, read_type, symbol_name
from spec.syntax.rules_core import value_type

SX_RULES = frozenset(
    "sx_addx_op sx_int2_op sx_int1_op sx_fma_op sx_fpowi_op sx_ibool_op sx_iconst_op sx_icast_op sx_icmp_op "
    "sx_sizeof_op sx_fconst_op sx_icall_op".split()
)
"""Rules whose first child is the keyword token naming the op."""

SX_KEYWORDS = {rule.removesuffix("_op") + "_kw": rule.removesuffix("_op").upper() + "_KW" for rule in SX_RULES}
"""Keyword rules (string literals) and the token type each hands on."""

INDEX_CMP_PREDICATES = tuple("eq ne slt sle sgt sge ult ule ugt uge".split())
"""`index.cmp` predicates (`#index<cmp_predicate X>`), in MLIR 19's order."""


def _with_prefix(kw: Token) -> str:
    """The op name of a keyword that may be written without `func.`."""
    return str(kw) if "." in kw else f"func.{kw}"


class ScalarRules(BuilderBase):
    """The `sx_*` rules."""

    def sx_addx_op(self, meta: Any, items: list) -> PartialOp:
        t, flag = read_type(items[-2]), read_type(items[-1])
        ops = [self.typed(items[1], t), self.typed(items[2], t)]  # type: ignore[arg-type]  # read_type of a value type: no function type here
        return self.op_with_flags("arith.addui_extended", meta, ops, [t, flag], items[3:-2])  # type: ignore[list-item]  # read_type of a value type: no function type here

    def sx_int2_op(self, meta: Any, items: list) -> PartialOp:
        """Two operands of the type written; the registry says how many results of it."""
        from spec import registry

        name = str(items[0])
        t = read_type(items[-1])
        n = registry.lookup(name).result_count or 1
        return self.op_with_flags(name, meta, [self.typed(items[1], t), self.typed(items[2], t)], [t] * n, items[3:-1])  # type: ignore[arg-type,list-item]  # read_type of a value type: no function type here

    def sx_int1_op(self, meta: Any, items: list) -> PartialOp:
        t = read_type(items[-1])
        return self.op_with_flags(str(items[0]), meta, [self.typed(items[1], t)], [t], items[2:-1])  # type: ignore[arg-type,list-item]  # read_type of a value type: no function type here

    def sx_fma_op(self, meta: Any, items: list) -> PartialOp:
        t = read_type(items[-1])
        return self.op_with_flags("math.fma", meta, [self.typed(u, t) for u in items[1:4]], [t], items[4:-1])  # type: ignore[arg-type,list-item]  # read_type of a value type: no function type here

    def sx_fpowi_op(self, meta: Any, items: list) -> PartialOp:
        t, p = read_type(items[-2]), read_type(items[-1])
        return self.op_with_flags("math.fpowi", meta, [self.typed(items[1], t), self.typed(items[2], p)], [t], items[3:-2])  # type: ignore[arg-type,list-item]  # read_type of a value type: no function type here

    def sx_ibool_op(self, meta: Any, items: list) -> PartialOp:
        """`index.bool.constant [attr-dict] true|false`."""
        value = IntegerAttr(1 if str(items[-1]) == "true" else 0, I1)
        return self.op_with_flags("index.bool.constant", meta, [], [I1], items[1:-1], {"value": value})

    def sx_iconst_op(self, meta: Any, items: list) -> PartialOp:
        """`index.constant [attr-dict] N`."""
        return self.op_with_flags("index.constant", meta, [], [INDEX], items[1:-1], {"value": IntegerAttr(int(str(items[-1]), 0), INDEX)})

    def sx_icast_op(self, meta: Any, items: list) -> PartialOp:
        return self.op_with_flags(str(items[0]), meta, [self.typed(items[1], read_type(items[-2]))], [read_type(items[-1])], items[2:-2])  # type: ignore[arg-type,list-item]  # read_type of a value type: no function type here

    def sx_icmp_op(self, meta: Any, items: list) -> PartialOp:
        pred = str(items[1])
        if pred not in INDEX_CMP_PREDICATES:
            message = f"custom op 'index.cmp' expected ::mlir::index::IndexCmpPredicate to be one of: {', '.join(INDEX_CMP_PREDICATES)}"
            raise DiagnosticError(error(self.tok_loc(items[1]), message))
        ops = [self.typed(items[2], INDEX), self.typed(items[3], INDEX)]
        return self.op_with_flags("index.cmp", meta, ops, [I1], items[4:], {"pred": OpaqueAttr(f"#index<cmp_predicate {pred}>")})

    def sx_sizeof_op(self, meta: Any, items: list) -> PartialOp:
        return self.op_with_flags("index.sizeof", meta, [], [INDEX], items[1:])

    def sx_fconst_op(self, meta: Any, items: list) -> PartialOp:
        """`constant [attr-dict] @sym : type` (the attr-dict first, as 19 reads it)."""
        t = value_type(items[-1])
        value = SymbolRefAttr(symbol_name(str(items[-2])))
        partial = self.op_with_flags(_with_prefix(items[0]), meta, [], [t], items[1:-2], {"value": value})
        return self.bare_name(partial, items[0])

    def sx_icall_op(self, meta: Any, items: list) -> PartialOp:
        fn: FunctionType = items[-1]
        args = items[2] or []
        if len(args) != len(fn.inputs):
            raise DiagnosticError(error(self.loc(meta), f"{len(args)} operands present, but expected {len(fn.inputs)}"))
        ops = [self.typed(items[1], value_type(fn)), *(self.typed(u, t) for u, t in zip(args, fn.inputs))]
        partial = self.op_with_flags(_with_prefix(items[0]), meta, ops, list(fn.results), items[3:-1])
        return self.bare_name(partial, items[0])

