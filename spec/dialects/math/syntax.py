"""The `math` dialect's custom syntax: the floating-point unary and binary
ops (with `fastmath`), the integer ops (`absi`, `ctlz`, `ctpop`, `cttz`,
`ipowi`), `fma` and `fpowi`; the builder rules and the printers.
"""

from __future__ import annotations

from typing import Any

from spec import registry
from spec.attributes import Attr
from spec.diagnostics import DiagnosticError, error
from spec.ir import Operation
from spec.syntax.build_base import BuilderBase, PartialOp
from spec.syntax.custom_registry import custom_printer, shown_attrs
from spec.syntax.printer import Printer

KEYWORD_FIRST: frozenset[str] = frozenset()
"""Rules whose first child is the op keyword: it locates the op and is dropped
from the children the callback sees."""

NAME_FIRST: frozenset[str] = frozenset(
    "math_ipowi_op math_fma_op math_fpowi_op math_int_unary_op math_float_unary_op math_float_binary_op".split()
)
"""Rules whose first child is the token naming the op: kept, and the location."""

KEYWORDS: dict[str, str] = {
    "math_ipowi_kw": "MATH_IPOWI_KW",
    "math_fma_kw": "MATH_FMA_KW",
    "math_fpowi_kw": "MATH_FPOWI_KW",
    "math_int_unary_kw": "MATH_INT_UNARY_KW",
    "math_float_unary_kw": "MATH_FLOAT_UNARY_KW",
    "math_float_binary_kw": "MATH_FLOAT_BINARY_KW",
}
"""Keyword rules (string literals) and the token type each hands on."""


class MathRules(BuilderBase):
    """The rules of the `math` ops' custom forms."""

    def _math(self, meta: Any, items: list, arity: int) -> PartialOp:
        name = str(items[0])
        t = self.read_value_type(items[-1])
        props: dict[str, Attr] = {}
        attrs = None
        for it in items[1 + arity : -1]:
            if isinstance(it, tuple):
                if it[0] != "fastmath":
                    raise DiagnosticError(error(self.loc(meta), f"'{name}' op has no overflow flags"))
                props[it[0]] = it[1]
            elif isinstance(it, dict):
                attrs = it
        return self._custom_op(name, meta, [self.typed(u, t) for u in items[1 : 1 + arity]], [t], attrs, props)

    def math_float_unary_op(self, meta: Any, items: list) -> PartialOp:
        return self._math(meta, items, 1)

    def math_float_binary_op(self, meta: Any, items: list) -> PartialOp:
        return self._math(meta, items, 2)

    def math_ipowi_op(self, meta: Any, items: list) -> PartialOp:
        """Two operands of the type written; the registry says how many results of it."""
        name = str(items[0])
        t = self.read_value_type(items[-1])
        n = registry.lookup(name).result_count or 1
        return self.op_with_flags(name, meta, [self.typed(items[1], t), self.typed(items[2], t)], [t] * n, items[3:-1])

    def math_int_unary_op(self, meta: Any, items: list) -> PartialOp:
        t = self.read_value_type(items[-1])
        return self.op_with_flags(str(items[0]), meta, [self.typed(items[1], t)], [t], items[2:-1])

    def math_fma_op(self, meta: Any, items: list) -> PartialOp:
        t = self.read_value_type(items[-1])
        return self.op_with_flags("math.fma", meta, [self.typed(u, t) for u in items[1:4]], [t], items[4:-1])

    def math_fpowi_op(self, meta: Any, items: list) -> PartialOp:
        t, p = self.read_value_type(items[-2]), self.read_value_type(items[-1])
        return self.op_with_flags(
            "math.fpowi", meta, [self.typed(items[1], t), self.typed(items[2], p)], [t], items[3:-2]
        )


_left = shown_attrs


_MATH1 = [
    f"math.{n}"
    for n in "absf atan cbrt ceil cos erf exp exp2 expm1 floor log log10 log1p log2 round roundeven rsqrt sin sqrt tan tanh trunc acos acosh asin asinh atanh cosh sinh".split()
]
_MATH2 = [f"math.{n}" for n in "atan2 copysign powf".split()]


def _fastmath(op: Operation) -> str:
    v = op.properties.get("fastmath")
    if v is None or v == registry.lookup(op.name).default_properties.get("fastmath"):
        return ""
    return " " + str(v)[len("#arith.") :]


_MATH_PLAIN = [f"math.{n}" for n in "fma absi ctlz ctpop cttz ipowi".split()]


@custom_printer(*_MATH1, *_MATH2, *_MATH_PLAIN)
def _math(p: Printer, op: Operation) -> str:
    return (
        f"{op.name} {p.values(op.operands)}{_fastmath(op)}{p.attr_dict(_left(op, 'fastmath'))} : {op.results[0].type}"
    )


def fastmath_text(op: Operation) -> str:
    """` fastmath<...>` when not the default, else ``."""
    v = op.properties.get("fastmath")
    if v is None or v == registry.lookup(op.name).default_properties.get("fastmath"):
        return ""
    return " " + str(v).removeprefix("#arith.")


@custom_printer("math.fpowi")
def _fpowi(p: Printer, op: Operation) -> str:
    a, b = op.operands
    return f"math.fpowi {p.values(op.operands)}{fastmath_text(op)}{p.attr_dict(shown_attrs(op, 'fastmath'))} : {a.type}, {b.type}"
