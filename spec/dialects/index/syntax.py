"""The `index` dialect's custom syntax: the binary ops (`index.add` ...
`floordivs`), `bool.constant`, `constant`, `casts`, `castu`, `cmp` and
`sizeof`; the builder rules and the printers.
"""

from __future__ import annotations

from typing import Any

from spec.attributes import I1, INDEX, IntegerAttr, OpaqueAttr
from spec.diagnostics import DiagnosticError, error
from spec.ir import Operation
from spec.syntax.build_base import BuilderBase, PartialOp
from spec.syntax.custom_registry import custom_printer, shown_attrs
from spec.syntax.printer import Printer

KEYWORD_FIRST: frozenset[str] = frozenset()
"""Rules whose first child is the op keyword: it locates the op and is dropped
from the children the callback sees."""

NAME_FIRST: frozenset[str] = frozenset(
    "index_bool_constant_op index_cast_op index_cmp_op index_constant_op index_sizeof_op index_binary_op".split()
)
"""Rules whose first child is the token naming the op: kept, and the location."""

KEYWORDS: dict[str, str] = {
    "index_bool_constant_kw": "INDEX_BOOL_CONSTANT_KW",
    "index_cast_kw": "INDEX_CAST_KW",
    "index_cmp_kw": "INDEX_CMP_KW",
    "index_constant_kw": "INDEX_CONSTANT_KW",
    "index_sizeof_kw": "INDEX_SIZEOF_KW",
    "index_binary_kw": "INDEX_BINARY_KW",
}
"""Keyword rules (string literals) and the token type each hands on."""


INDEX_CMP_PREDICATES = tuple("eq ne slt sle sgt sge ult ule ugt uge".split())


class IndexRules(BuilderBase):
    """The rules of the `index` ops' custom forms."""

    def index_binary_op(self, meta: Any, items: list) -> PartialOp:
        attrs, (_, a, b) = self._rest(items)
        return self._custom_op(str(items[0]), meta, [self.typed(a, INDEX), self.typed(b, INDEX)], [INDEX], attrs)

    def index_bool_constant_op(self, meta: Any, items: list) -> PartialOp:
        """`index.bool.constant [attr-dict] true|false`."""
        value = IntegerAttr(1 if str(items[-1]) == "true" else 0, I1)
        return self.op_with_flags("index.bool.constant", meta, [], [I1], items[1:-1], {"value": value})

    def index_constant_op(self, meta: Any, items: list) -> PartialOp:
        """`index.constant [attr-dict] N`."""
        return self.op_with_flags(
            "index.constant", meta, [], [INDEX], items[1:-1], {"value": IntegerAttr(int(str(items[-1]), 0), INDEX)}
        )

    def index_cast_op(self, meta: Any, items: list) -> PartialOp:
        return self.op_with_flags(
            str(items[0]),
            meta,
            [self.typed(items[1], self.read_value_type(items[-2]))],
            [self.read_value_type(items[-1])],
            items[2:-2],
        )

    def index_cmp_op(self, meta: Any, items: list) -> PartialOp:
        pred = str(items[1])
        if pred not in INDEX_CMP_PREDICATES:
            message = f"custom op 'index.cmp' expected ::mlir::index::IndexCmpPredicate to be one of: {', '.join(INDEX_CMP_PREDICATES)}"
            raise DiagnosticError(error(self.tok_loc(items[1]), message))
        ops = [self.typed(items[2], INDEX), self.typed(items[3], INDEX)]
        return self.op_with_flags(
            "index.cmp", meta, ops, [I1], items[4:], {"pred": OpaqueAttr(f"#index<cmp_predicate {pred}>")}
        )

    def index_sizeof_op(self, meta: Any, items: list) -> PartialOp:
        return self.op_with_flags("index.sizeof", meta, [], [INDEX], items[1:])


_left = shown_attrs


_INDEX2 = [
    f"index.{n}"
    for n in "add sub mul divs divu rems remu maxs mins maxu minu and or xor shl shrs shru ceildivs ceildivu floordivs".split()
]


@custom_printer(*_INDEX2)
def _index2(p: Printer, op: Operation) -> str:
    a, b = op.operands
    return f"{op.name} {p.value(a)}, {p.value(b)}{p.attr_dict(_left(op))}"


@custom_printer("index.bool.constant")
def _bool_constant(p: Printer, op: Operation) -> str:
    v = op.properties.get("value")
    if not (isinstance(v, IntegerAttr) and v.type.text == "i1"):
        raise ValueError("not a bool: printed generically")
    return f"index.bool.constant{p.attr_dict(shown_attrs(op, 'value'))} {'true' if v.value else 'false'}"


@custom_printer("index.constant")
def _index_constant(p: Printer, op: Operation) -> str:
    v = op.properties.get("value")
    if not isinstance(v, IntegerAttr):
        raise ValueError("not an integer: printed generically")
    return f"index.constant{p.attr_dict(shown_attrs(op, 'value'))} {v.value}"


@custom_printer("index.casts", "index.castu")
def _index_cast(p: Printer, op: Operation) -> str:
    (v,) = op.operands
    return f"{op.name} {p.value(v)}{p.attr_dict(shown_attrs(op))} : {v.type} to {op.results[0].type}"


@custom_printer("index.cmp")
def _index_cmp(p: Printer, op: Operation) -> str:
    pred = str(op.properties["pred"]).removeprefix("#index<cmp_predicate ").rstrip(">")
    return f"index.cmp {pred}({p.values(op.operands)}){p.attr_dict(shown_attrs(op, 'pred'))}"


@custom_printer("index.sizeof")
def _sizeof(p: Printer, op: Operation) -> str:
    return f"index.sizeof{p.attr_dict(shown_attrs(op))}"
