"""The `builtin` dialect's custom syntax: `module` (with its optional symbol
name and `attributes`); its builder rule and printer.
"""

from __future__ import annotations

from typing import Any

from lark import Token

from spec.attributes import Attr, StringAttr, quote_symbol
from spec.ir import Block, Operation, Region
from spec.syntax.build_base import BuilderBase, PartialOp, symbol_name
from spec.syntax.custom_registry import custom_printer
from spec.syntax.printer import Printer

KEYWORD_FIRST: frozenset[str] = frozenset()
"""Rules whose first child is the op keyword: it locates the op and is dropped
from the children the callback sees."""

NAME_FIRST: frozenset[str] = frozenset("module_op".split())
"""Rules whose first child is the token naming the op: kept, and the location."""

KEYWORDS: dict[str, str] = {
    "module_kw": "MODULE_KW",
}
"""Keyword rules (string literals) and the token type each hands on."""


class BuiltinRules(BuilderBase):
    """The rules of the `builtin` ops' custom forms."""

    def module_op(self, meta: Any, items: list) -> PartialOp:
        props: dict[str, Attr] = {}
        attrs: dict[str, Attr] = {}
        for it in items[1:-1]:
            if isinstance(it, Token):
                props["sym_name"] = StringAttr(symbol_name(str(it)))
            elif isinstance(it, dict):
                attrs = it
        region: Region = items[-1]
        if not region.blocks:
            region.append(Block())
        props, attrs = self.split_attrs("builtin.module", attrs, props)
        return self.bare_name(
            self.op("builtin.module", meta, properties=props, attributes=attrs, regions=[region]), items[0]
        )


@custom_printer("builtin.module")
def _module(p: Printer, op: Operation) -> str:
    text = (
        "builtin.module"
        if op.parent is not None and op.parent_op is not None and op.parent_op.name != "builtin.module"
        else "module"
    )
    sym = op.properties.get("sym_name")
    if isinstance(sym, StringAttr):
        text += " " + quote_symbol(sym.value)
    text += p.attr_dict({**op.attributes, **{k: v for k, v in op.properties.items() if k != "sym_name"}}, keyword=True)
    return text + " " + p.region(op.regions[0], False, True)
