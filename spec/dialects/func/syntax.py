"""The `func` dialect's custom syntax: `func.func` (arguments and results
with their attributes, visibility, `attributes`), `call`, `return`,
`constant` and `call_indirect` (also without their prefix in a function:
`func` is its default dialect, and they are printed so, as `func.call` is);
the builder rules and the printers. The function signature reader and
printer are shared with `gpu.func` (`build_base`, `custom_registry`).
"""

from __future__ import annotations

from typing import Any

from lark import Token

from spec.attributes import FunctionType, StringAttr, SymbolRefAttr, quote_symbol
from spec.diagnostics import DiagnosticError, error
from spec.ir import Operation
from spec.syntax.build_base import BuilderBase, PartialOp, symbol_name, symbol_ref_attr
from spec.syntax.custom_registry import custom_printer, fn_signature, return_like, shown_attrs
from spec.syntax.printer import Printer

KEYWORD_FIRST: frozenset[str] = frozenset("func_op".split())
"""Rules whose first child is the op keyword: it locates the op and is dropped
from the children the callback sees."""

NAME_FIRST: frozenset[str] = frozenset("call_op return_op func_constant_op func_call_indirect_op".split())
"""Rules whose first child is the token naming the op: kept, and the location."""

KEYWORDS: dict[str, str] = {
    "call_kw": "CALL_KW",
    "return_kw": "RETURN_KW",
    "func_constant_kw": "FUNC_CONSTANT_KW",
    "func_call_indirect_kw": "FUNC_CALL_INDIRECT_KW",
    "visibility": "VISIBILITY",
}
"""Keyword rules (string literals) and the token type each hands on."""


def _with_prefix(kw: Token) -> str:
    """The op name of a keyword that may be written without `func.`."""
    return str(kw) if "." in kw else f"func.{kw}"


class FuncRules(BuilderBase):
    """The rules of the `func` ops' custom forms."""

    def named_arg(self, meta: Any, items: list) -> tuple:
        return (
            "named",
            items[0],
            self.value_type(items[1]),
            items[2] if len(items) > 2 and isinstance(items[2], dict) else None,
        )

    def type_with_attrs(self, meta: Any, items: list) -> tuple:
        return ("type", None, self.value_type(items[0]), items[1] if len(items) > 1 else None)

    def func_args(self, meta: Any, items: list) -> tuple:
        return ("args", items)

    def func_results(self, meta: Any, items: list) -> tuple:
        out = []
        for it in items:
            if it is None:
                continue
            if isinstance(it, tuple):
                out.append(it)
            else:
                out.append(("type", None, self.read_value_type(it), None))
        return ("results", out)

    def func_op(self, meta: Any, items: list) -> PartialOp:
        props, attrs, region, _ = self._function_like(meta, items)
        props, attrs = self.split_attrs("func.func", attrs, props)
        return self.op("func.func", meta, properties=props, attributes=attrs, regions=[region])

    def call_op(self, meta: Any, items: list) -> PartialOp:
        callee: Token = items[1]
        fn: FunctionType = items[-1]
        operands = [self.typed(u, t) for u, t in zip(items[2] or [], fn.inputs)]
        if len(items[2] or []) != len(fn.inputs):
            raise DiagnosticError(
                error(self.loc(meta), f"expected {len(items[2] or [])} operand types but had {len(fn.inputs)}")
            )
        attrs = items[3] if len(items) > 4 else None
        props, attrs = self.split_attrs("func.call", attrs, {"callee": symbol_ref_attr(symbol_name(str(callee)))})
        return self.bare_name(
            self.op("func.call", meta, operands, list(fn.results), properties=props, attributes=attrs), items[0]
        )

    def return_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[1] if isinstance(items[1], dict) else None
        rest = items[2:] if attrs is not None else items[1:]
        partial = self.op("func.return", meta, self._typed_list(rest[0], rest[1], meta), attributes=attrs)
        return self.bare_name(partial, items[0])

    def func_constant_op(self, meta: Any, items: list) -> PartialOp:
        """`constant [attr-dict] @sym : type` (the attr-dict first, as 19 reads it)."""
        t = self.value_type(items[-1])
        value = SymbolRefAttr(symbol_name(str(items[-2])))
        partial = self.op_with_flags(_with_prefix(items[0]), meta, [], [t], items[1:-2], {"value": value})
        return self.bare_name(partial, items[0])

    def func_call_indirect_op(self, meta: Any, items: list) -> PartialOp:
        fn: FunctionType = items[-1]
        args = items[2] or []
        if len(args) != len(fn.inputs):
            raise DiagnosticError(error(self.loc(meta), f"{len(args)} operands present, but expected {len(fn.inputs)}"))
        ops = [self.typed(items[1], self.value_type(fn)), *(self.typed(u, t) for u, t in zip(args, fn.inputs))]
        partial = self.op_with_flags(_with_prefix(items[0]), meta, ops, list(fn.results), items[3:-1])
        return self.bare_name(partial, items[0])


@custom_printer("func.func")
def function_op_text(p: Printer, op: Operation) -> str:
    """`function_interface_impl::printFunctionOp`: `func.func`'s form, and
    `async.func`'s."""
    props = op.properties
    text = op.name + " "
    vis = props.get("sym_visibility")
    if isinstance(vis, StringAttr):
        text += vis.value + " "
    fn = props["function_type"].type  # type: ignore[attr-defined]  # a TypeAttr (registry: function_type)
    text += quote_symbol(props["sym_name"].value)  # type: ignore[attr-defined]  # a StringAttr (registry: sym_name)
    text += fn_signature(p, op, fn, props.get("arg_attrs"), props.get("res_attrs"))
    text += p.attr_dict(op.attributes, keyword=True)
    if op.regions and op.regions[0].blocks:
        text += " " + p.region(op.regions[0], False, True)
    return text


@custom_printer("func.call")
def call_text(p: Printer, op: Operation) -> str:
    """`func.call`'s form (and `async.call`'s)."""
    fn = FunctionType(tuple(v.type for v in op.operands), tuple(v.type for v in op.results))
    extra = {k: v for k, v in op.properties.items() if k != "callee"}
    return f"{p.op_name(op)} {op.properties['callee']}({p.values(op.operands)}){p.attr_dict({**extra, **op.attributes})} : {fn}"


@custom_printer("func.return")
def _return(p: Printer, op: Operation) -> str:
    return return_like(p, op)


@custom_printer("func.constant")
def _func_constant(p: Printer, op: Operation) -> str:
    return f"{p.op_name(op)}{p.attr_dict(shown_attrs(op, 'value'))} {op.properties['value']} : {op.results[0].type}"


@custom_printer("func.call_indirect")
def _call_indirect(p: Printer, op: Operation) -> str:
    callee, *args = op.operands
    return f"{p.op_name(op)} {p.value(callee)}({p.values(args)}){p.attr_dict(shown_attrs(op))} : {callee.type}"
