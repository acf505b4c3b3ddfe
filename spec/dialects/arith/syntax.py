"""The `arith` dialect's custom syntax: `arith.constant`, the binary, unary,
cast and compare ops, `select`, and the extended additions and
multiplications (`addui_extended`, `mulsi_extended`, `mului_extended`);
the builder rules (operands, result types, `overflowFlags` and `fastmath`
properties, as mlir-opt-19 builds them) and the printers.
"""

from __future__ import annotations

from typing import Any

from spec import registry
from spec.attributes import I1, I64, Attr, FloatAttr, IntegerAttr, OpaqueAttr, Type, arith_flags_text
from spec.diagnostics import DiagnosticError, error
from spec.ir import Operation
from spec.syntax.build_base import CMPF_PREDICATES, CMPI_PREDICATES, BuilderBase, PartialOp, UseRef
from spec.syntax.custom_registry import custom_printer, props_left, shown_attrs
from spec.syntax.printer import Printer

KEYWORD_FIRST: frozenset[str] = frozenset("arith_constant_op arith_select_op arith_unary_op".split())
"""Rules whose first child is the op keyword: it locates the op and is dropped
from the children the callback sees."""

NAME_FIRST: frozenset[str] = frozenset(
    "arith_binary_op arith_cast_op arith_cmp_op arith_addui_extended_op arith_mul_extended_op".split()
)
"""Rules whose first child is the token naming the op: kept, and the location."""

KEYWORDS: dict[str, str] = {
    "arith_binary": "ARITH_BINARY",
    "arith_cast": "ARITH_CAST",
    "arith_cmp": "ARITH_CMP",
    "arith_addui_extended_kw": "ARITH_ADDUI_EXTENDED_KW",
    "arith_mul_extended_kw": "ARITH_MUL_EXTENDED_KW",
}
"""Keyword rules (string literals) and the token type each hands on."""


class ArithRules(BuilderBase):
    """The rules of the `arith` ops' custom forms."""

    def arith_constant_op(self, meta: Any, items: list) -> PartialOp:
        value: Attr = items[-1]
        if isinstance(value, (IntegerAttr, FloatAttr)):
            t = value.type
        elif isinstance(value, OpaqueAttr) and " : " in value.text:
            t = Type(value.text.rsplit(" : ", 1)[1])
        else:
            raise DiagnosticError(error(self.loc(meta), "'arith.constant' op value must be a typed attribute"))
        attrs = next((i for i in items[:-1] if isinstance(i, dict)), None)
        props, attrs = self.split_attrs("arith.constant", attrs, {"value": value})
        return self.op("arith.constant", meta, [], [t], properties=props, attributes=attrs)

    def arith_flags(self, meta: Any, items: list) -> tuple[str, Attr]:
        kind = str(items[0])
        key = {"overflow": "overflowFlags", "fastmath": "fastmath"}.get(kind)
        if key is None:
            raise DiagnosticError(error(self.tok_loc(items[0]), f"expected 'overflow' or 'fastmath', got '{kind}'"))
        text = arith_flags_text(kind, [str(i) for i in items[1:] if i is not None])
        if text is None:
            raise DiagnosticError(error(self.tok_loc(items[0]), f"invalid {kind} flags"))
        return (key, OpaqueAttr(text))

    def _arith(
        self, name: str, meta: Any, operands: list[UseRef], result: Type, rest: list, extra: dict | None = None
    ) -> PartialOp:
        return self.op_with_flags(name, meta, operands, [result], rest, extra)

    def arith_binary_op(self, meta: Any, items: list) -> PartialOp:
        t = self.read_value_type(items[-1])
        return self._arith(str(items[0]), meta, [self.typed(items[1], t), self.typed(items[2], t)], t, items[3:-1])

    def arith_unary_op(self, meta: Any, items: list) -> PartialOp:
        t = self.read_value_type(items[-1])
        return self._arith("arith.negf", meta, [self.typed(items[0], t)], t, items[1:-1])

    def arith_cast_op(self, meta: Any, items: list) -> PartialOp:
        src, dst = self.read_value_type(items[-2]), self.read_value_type(items[-1])
        return self._arith(str(items[0]), meta, [self.typed(items[1], src)], dst, items[2:-2])

    def arith_cmp_op(self, meta: Any, items: list) -> PartialOp:
        name = str(items[0])
        table = CMPI_PREDICATES if name == "arith.cmpi" else CMPF_PREDICATES
        pred = str(items[1])
        if pred not in table:
            raise DiagnosticError(
                error(
                    self.tok_loc(items[1]),
                    f"custom op '{name}' expected string or keyword containing one of the following enum values for attribute 'predicate' [{', '.join(table)}]",
                )
            )
        t = self.read_value_type(items[-1])
        pa = {"predicate": IntegerAttr(table.index(pred), I64)}
        return self._arith(name, meta, [self.typed(items[2], t), self.typed(items[3], t)], I1, items[4:-1], pa)

    def arith_select_op(self, meta: Any, items: list) -> PartialOp:
        types = [self.read_value_type(t) for t in items[3:] if not isinstance(t, dict) and t is not None]
        t = types[-1]
        cond_t = types[0] if len(types) == 2 else I1
        attrs = next((i for i in items[3:] if isinstance(i, dict)), None)
        ops = [self.typed(items[0], cond_t), self.typed(items[1], t), self.typed(items[2], t)]
        return self.op("arith.select", meta, ops, [t], attributes=attrs)

    def arith_addui_extended_op(self, meta: Any, items: list) -> PartialOp:
        t, flag = self.read_value_type(items[-2]), self.read_value_type(items[-1])
        ops = [self.typed(items[1], t), self.typed(items[2], t)]
        return self.op_with_flags("arith.addui_extended", meta, ops, [t, flag], items[3:-2])

    def arith_mul_extended_op(self, meta: Any, items: list) -> PartialOp:
        """Two operands of the type written; the registry says how many results of it."""
        name = str(items[0])
        t = self.read_value_type(items[-1])
        n = registry.lookup(name).result_count or 1
        return self.op_with_flags(name, meta, [self.typed(items[1], t), self.typed(items[2], t)], [t] * n, items[3:-1])


def _flags(op: Operation) -> str:
    defaults = registry.lookup(op.name).default_properties
    text = ""
    for key in ("overflowFlags", "fastmath"):
        v = op.properties.get(key)
        if v is not None and v != defaults.get(key):
            s = str(v)
            text += " " + s[len("#arith.") :]
    return text


@custom_printer("arith.constant")
def _constant(p: Printer, op: Operation) -> str:
    return f"arith.constant{p.attr_dict(op.attributes)} {op.properties['value']}"


_BINARY = (
    "addi subi muli shli divsi divui remsi remui andi ori xori maxsi minsi maxui minui shrsi shrui ceildivsi ceildivui "
    "floordivsi addf subf mulf divf remf maximumf minimumf maxnumf minnumf"
).split()


@custom_printer(*(f"arith.{n}" for n in _BINARY))
def _binary(p: Printer, op: Operation) -> str:
    a, b = op.operands
    return f"{op.name} {p.value(a)}, {p.value(b)}{_flags(op)}{p.attr_dict({**props_left(op), **op.attributes})} : {op.results[0].type}"


@custom_printer("arith.negf")
def _negf(p: Printer, op: Operation) -> str:
    return f"arith.negf {p.value(op.operands[0])}{_flags(op)}{p.attr_dict(op.attributes)} : {op.results[0].type}"


_CASTS = "index_cast index_castui sitofp uitofp fptosi fptoui extsi extui trunci extf truncf bitcast".split()


@custom_printer(*(f"arith.{n}" for n in _CASTS))
def _cast(p: Printer, op: Operation) -> str:
    (a,) = op.operands
    return f"{op.name} {p.value(a)}{p.attr_dict(op.attributes)} : {a.type} to {op.results[0].type}"


@custom_printer("arith.cmpi", "arith.cmpf")
def _cmp(p: Printer, op: Operation) -> str:
    table = CMPI_PREDICATES if op.name == "arith.cmpi" else CMPF_PREDICATES
    pred = op.properties["predicate"]
    a, b = op.operands
    if not (isinstance(pred, IntegerAttr) and 0 <= pred.value < len(table)):
        raise ValueError("predicate out of range: printed generically")
    name = table[pred.value]
    return f"{op.name} {name}, {p.value(a)}, {p.value(b)}{_flags(op)}{p.attr_dict(op.attributes)} : {a.type}"


@custom_printer("arith.select")
def _select(p: Printer, op: Operation) -> str:
    c, a, b = op.operands
    cond = f"{c.type}, " if c.type.text != "i1" else ""
    return f"arith.select {p.values(op.operands)}{p.attr_dict(op.attributes)} : {cond}{op.results[0].type}"


@custom_printer("arith.addui_extended")
def _addui_extended(p: Printer, op: Operation) -> str:
    s, o = op.results
    return f"{op.name} {p.values(op.operands)}{p.attr_dict(shown_attrs(op))} : {s.type}, {o.type}"


@custom_printer("arith.mulsi_extended", "arith.mului_extended")
def _mul_extended(p: Printer, op: Operation) -> str:
    return f"{op.name} {p.values(op.operands)}{p.attr_dict(shown_attrs(op))} : {op.operands[0].type}"
