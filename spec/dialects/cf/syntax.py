"""The `cf` dialect's custom syntax: `cf.br`, `cond_br`, `assert` and
`switch` (a default successor then the cases; case values printed unsigned,
one case a line, as mlir-opt-19 does); the builder rules, successor lists
included, and the printers.
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token

from spec.attributes import I1, Attr, DenseArrayAttr, OpaqueAttr, StringAttr, Type, quote_string
from spec.diagnostics import DiagnosticError, error
from spec.invariant import InternalError
from spec.ir import Operation, Value
from spec.syntax.build_base import BuilderBase, PartialOp, segment_sizes
from spec.syntax.custom_registry import custom_printer, segments, shown_attrs
from spec.syntax.printer import Printer
from spec.syntax.string_literals import unescape

KEYWORD_FIRST: frozenset[str] = frozenset("cf_assert_op cf_br_op cf_cond_br_op".split())
"""Rules whose first child is the op keyword: it locates the op and is dropped
from the children the callback sees."""

NAME_FIRST: frozenset[str] = frozenset("cf_switch_op".split())
"""Rules whose first child is the token naming the op: kept, and the location."""

KEYWORDS: dict[str, str] = {
    "cf_switch_kw": "CF_SWITCH_KW",
}
"""Keyword rules (string literals) and the token type each hands on."""


class CfRules(BuilderBase):
    """The rules of the `cf` ops' custom forms."""

    def successor(self, meta: Any, items: list) -> tuple:
        uses = items[1] if len(items) > 1 else []
        types = items[2] if len(items) > 2 else []
        return (items[0], self._typed_list(uses, types, meta))

    def cf_br_op(self, meta: Any, items: list) -> PartialOp:
        label, ops = items[0]
        return self.op("cf.br", meta, ops, attributes=items[1] if len(items) > 1 else None, successors=[label])

    def cf_cond_br_op(self, meta: Any, items: list) -> PartialOp:
        cond = self.typed(items[0], I1)
        succ = [i for i in items[1:] if isinstance(i, tuple)]
        weights = [int(str(i)) for i in items[1:] if isinstance(i, Token)]
        attrs = next((i for i in items[1:] if isinstance(i, dict)), None)
        (t_label, t_ops), (f_label, f_ops) = succ
        props: dict[str, Attr] = {"operandSegmentSizes": segment_sizes(1, len(t_ops), len(f_ops))}
        if weights:
            props["branch_weights"] = DenseArrayAttr(Type("i32"), tuple(weights))
        props, attrs = self.split_attrs("cf.cond_br", attrs, props)
        return self.op(
            "cf.cond_br",
            meta,
            [cond, *t_ops, *f_ops],
            properties=props,
            attributes=attrs,
            successors=[t_label, f_label],
        )

    def cf_assert_op(self, meta: Any, items: list) -> PartialOp:
        props, attrs = self.split_attrs(
            "cf.assert", items[2] if len(items) > 2 else None, {"msg": StringAttr(unescape(str(items[1])))}
        )
        return self.op("cf.assert", meta, [self.typed(items[0], I1)], properties=props, attributes=attrs)

    # -- cf.switch -------------------------------------------------------------
    def switch_default(self, meta: Any, items: list) -> tuple:
        return ("default", items[0])

    def switch_case(self, meta: Any, items: list) -> tuple:
        return (int(str(items[0]), 0), items[1])

    def cf_switch_op(self, meta: Any, items: list) -> PartialOp:
        flag = items[1]
        t = self.read_value_type(items[2])
        width = t.int_width if isinstance(t, Type) else None
        if width is None:
            raise DiagnosticError(error(self.loc(meta), "'cf.switch' op flag must be an integer"))
        (_, (d_label, d_ops)), *cases = [i for i in items[3:] if isinstance(i, tuple)]
        mask = (1 << width) - 1
        values = [((v & mask) ^ (1 << (width - 1))) - (1 << (width - 1)) if width > 1 else v & 1 for v, _ in cases]
        props: dict[str, Attr] = {}
        if cases:
            body = ", ".join(str(v) for v in values) if len(values) > 1 else str(values[0])
            text = f"[{body}]" if len(values) > 1 else body
            props["case_values"] = OpaqueAttr(f"dense<{text}> : vector<{len(values)}x{t}>")
        props["case_operand_segments"] = DenseArrayAttr(Type("i32"), tuple(len(ops) for _, (_, ops) in cases))
        props["operandSegmentSizes"] = segment_sizes(1, len(d_ops), sum(len(ops) for _, (_, ops) in cases))
        operands = [self.typed(flag, t), *d_ops, *(u for _, (_, ops) in cases for u in ops)]
        labels = [d_label, *(label for _, (label, _) in cases)]
        return self._custom_op("cf.switch", meta, operands, [], self._attrs(items), props, successors=labels)


_left = shown_attrs


def _successor(p: Printer, op: Operation, i: int, operands: list[Value]) -> str:
    text = p.block_name(op.successors[i])
    if operands:
        text += f"({p.values(operands)} : {p.types(operands)})"
    return text


@custom_printer("cf.br")
def _br(p: Printer, op: Operation) -> str:
    return f"cf.br {_successor(p, op, 0, op.operands)}{p.attr_dict(op.attributes)}"


@custom_printer("cf.cond_br")
def _cond_br(p: Printer, op: Operation) -> str:
    (c,), t_ops, f_ops = segments(op)
    text = f"cf.cond_br {p.value(c)}"
    w = op.properties.get("branch_weights")
    if isinstance(w, DenseArrayAttr):
        text += " weights([" + ", ".join(map(str, w.values)) + "])"
    return text + f", {_successor(p, op, 0, t_ops)}, {_successor(p, op, 1, f_ops)}{p.attr_dict(op.attributes)}"


@custom_printer("cf.assert")
def _assert(p: Printer, op: Operation) -> str:
    msg = op.properties["msg"]
    return f"cf.assert {p.value(op.operands[0])}, {quote_string(msg.value)}{p.attr_dict(op.attributes)}"  # type: ignore[attr-defined]  # a StringAttr (registry: msg is a string)


# -- cf.switch -------------------------------------------------------------------


def switch_case_values(attr: Attr | None) -> list[int]:
    """The case values of `case_values` (`dense<[1, 2]> : vector<2xi32>`)."""
    if attr is None:
        return []
    m = re.fullmatch(r"dense<(\[?)([^\]>]*)\]?> : vector<(\d+)x[a-z0-9]+>", str(attr))
    if m is None:
        raise ValueError("case_values not a dense integer vector")
    values = [int(v.strip()) for v in m.group(2).split(",") if v.strip()]
    if not m.group(1):
        values = values * int(m.group(3))
    return values


@custom_printer("cf.switch")
def _switch(p: Printer, op: Operation) -> str:
    (flag,), default, case_ops = segments(op)
    width = flag.type.int_width
    if width is None:
        raise InternalError("spec.dialects.cf.syntax: expected width is not None")
    values = switch_case_values(op.properties.get("case_values"))
    sizes = op.properties.get("case_operand_segments")
    counts = list(sizes.ints) if isinstance(sizes, DenseArrayAttr) else []
    if len(values) != len(counts) or len(op.successors) != len(values) + 1:
        raise ValueError("cases do not match")
    pad = " " * (p.indent + 2)

    def succ(i: int, operands: list[Value]) -> str:
        text = p.block_name(op.successors[i])
        return text + (f"({p.values(operands)} : {p.types(operands)})" if operands else "")

    lines = [f"{pad}default: {succ(0, default)}"]
    at = 0
    for k, (v, n) in enumerate(zip(values, counts)):
        lines.append(f"{pad}{v & ((1 << width) - 1)}: {succ(k + 1, case_ops[at : at + n])}")
        at += n
    body = ",\n".join(lines)
    rest = _left(op, "case_values", "case_operand_segments", "operandSegmentSizes")
    return f"cf.switch {p.value(flag)} : {flag.type}, [\n{body}\n{' ' * p.indent}]{p.attr_dict(rest)}"
