"""The `llvm` ops host code declares and calls: `llvm.func` declarations,
`llvm.mlir.global`, `llvm.mlir.addressof` and `llvm.call`; their builder
rules, the LLVM type-text helpers they need (function types, linkages) and
the printers.
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token

from spec.attributes import (
    Attr,
    FunctionType,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    Type,
    TypeAttr,
    UnitAttr,
    quote_symbol,
)
from spec.diagnostics import DiagnosticError, error
from spec.invariant import InternalError
from spec.ir import Operation, Region
from spec.syntax.build_base import BuilderBase, PartialOp, enum_error, split_top, symbol_text
from spec.syntax.custom_registry import custom_printer, shown_attrs
from spec.syntax.printer import Printer
from spec.syntax.syntax_errors import subset_form_message

KEYWORD_FIRST: frozenset[str] = frozenset()
"""Rules whose first child is the op keyword: it locates the op and is dropped
from the children the callback sees."""

NAME_FIRST: frozenset[str] = frozenset("llvm_addressof_op llvm_call_op llvm_func_op llvm_global_op".split())
"""Rules whose first child is the token naming the op: kept, and the location."""

KEYWORDS: dict[str, str] = {
    "llvm_addressof_kw": "LLVM_ADDRESSOF_KW",
    "llvm_call_kw": "LLVM_CALL_KW",
    "llvm_func_kw": "LLVM_FUNC_KW",
    "llvm_global_kw": "LLVM_GLOBAL_KW",
}
"""Keyword rules (string literals) and the token type each hands on."""


LLVM_LINKAGES = "private internal available_externally linkonce weak common appending extern_weak linkonce_odr weak_odr external".split()


def llvm_inner(t: str) -> str:
    """A type as the LLVM dialect prints it inside its own types
    (`!llvm.ptr` is `ptr` there; builtin types as they are)."""
    return t[len("!llvm.") :] if t.startswith("!llvm.") else t


def llvm_outer(t: str) -> str:
    """The inverse of `llvm_inner`: a type inside `!llvm.func<...>` as
    written elsewhere."""
    if re.match(r"(ptr|struct|array|void|func|vec|target|label|metadata|token|x86_mmx|ppc_fp128)\b", t):
        return "!llvm." + t
    return t


def llvm_func_type(params: list[str], vararg: bool, result: str | None) -> OpaqueAttr:
    inner = [llvm_inner(p) for p in params] + (["..."] if vararg else [])
    return OpaqueAttr(f"!llvm.func<{llvm_inner(result) if result else 'void'} ({', '.join(inner)})>")


def parse_llvm_func_type(text: str) -> tuple[list[str], bool, str | None]:
    """(params, vararg, result or None for void) of `!llvm.func<R (P, ...)>`."""
    m = re.fullmatch(r"!llvm\.func<(.*?) \((.*)\)>", text)
    if m is None:
        raise ValueError(f"not an LLVM function type: {text}")
    params = split_top(m.group(2))
    vararg = bool(params) and params[-1] == "..."
    if vararg:
        params = params[:-1]
    result = None if m.group(1) == "void" else llvm_outer(m.group(1))
    return [llvm_outer(p) for p in params], vararg, result


def _string_bytes(value: str) -> int:
    """The byte length of a string attribute's value (as MLIR stores it)."""
    return len(value.encode("utf-8", "surrogateescape"))


class LLVMRules(BuilderBase):
    """The rules of the `llvm` ops' custom forms."""

    def llvm_addressof_op(self, meta: Any, items: list) -> PartialOp:
        sym: SymbolRefAttr = items[1]
        return self._custom_op(
            "llvm.mlir.addressof", meta, [], [self.read_value_type(items[-1])], self._attrs(items), {"global_name": sym}
        )

    def llvm_call_op(self, meta: Any, items: list) -> PartialOp:
        sym: SymbolRefAttr = items[1]
        fn: FunctionType = items[-1]
        props: dict[str, Attr] = {"callee": sym}
        for it in items[3:-1]:
            if isinstance(it, Token):
                props["var_callee_type"] = OpaqueAttr(str(self.read_value_type(it)))
        args = self._typed_list(items[2], list(fn.inputs), meta)
        return self._custom_op("llvm.call", meta, args, list(fn.results), self._attrs(items[3:]), props)

    def llvm_params(self, meta: Any, items: list) -> tuple[list[str], bool]:
        vararg = bool(items) and isinstance(items[-1], Token) and items[-1].type == "VARARG"
        params = items[:-1] if vararg else items
        types = [p if isinstance(p, str) else str(self.read_value_type(p)) for p in params]
        named = next((p for p in params if isinstance(p, Token) and p.type == "VALUE_ID"), None)
        if named is not None:
            raise DiagnosticError(error(self.tok_loc(named), subset_form_message("llvm.func", str(named))))
        return types, vararg

    def llvm_named_param(self, meta: Any, items: list) -> Token:
        """`%arg: type`: a definition's argument, outside the subset; its
        type is read (refused as 19 refuses it), the name handed on for
        `llvm_params` to refuse once every argument's type is read."""
        self.read_value_type(items[1])
        return items[0]

    def llvm_func_op(self, meta: Any, items: list) -> PartialOp:
        props: dict[str, Attr] = {}
        params: tuple[list[str], bool] = ([], False)
        result: str | None = None
        attrs = None
        seen_params = False
        for it in items[1:]:
            if isinstance(it, Token) and it.type == "BARE_ID":
                if str(it) not in LLVM_LINKAGES:
                    raise enum_error(it, "llvm.func", "linkage", LLVM_LINKAGES, self.tok_loc(it))
                props["linkage"] = OpaqueAttr(f"#llvm.linkage<{it}>")
            elif isinstance(it, Token) and it.type == "SYMBOL":
                props["sym_name"] = StringAttr(symbol_text(it))
                seen_params = True
            elif isinstance(it, tuple):
                params = it
            elif isinstance(it, dict):
                attrs = it
            elif it is not None and seen_params:
                result = str(self.read_value_type(it))
        props["function_type"] = llvm_func_type(params[0], params[1], result)
        return self._custom_op("llvm.func", meta, [], [], attrs, props, regions=[Region()])

    def llvm_global_op(self, meta: Any, items: list) -> PartialOp:
        props: dict[str, Attr] = {"linkage": OpaqueAttr("#llvm.linkage<external>")}
        attrs = None
        value: Attr | None = None
        t: Type | None = None
        after_name = False
        for it in items[1:]:
            if isinstance(it, Token) and it.type == "BARE_ID":
                if str(it) not in LLVM_LINKAGES:
                    raise enum_error(it, "llvm.mlir.global", "linkage", LLVM_LINKAGES, self.tok_loc(it))
                props["linkage"] = OpaqueAttr(f"#llvm.linkage<{it}>")
            elif isinstance(it, Token) and it.type == "GLOBAL_CONSTANT":
                props["constant"] = UnitAttr()
            elif isinstance(it, Token) and it.type == "SYMBOL":
                props["sym_name"] = StringAttr(symbol_text(it))
                after_name = True
            elif isinstance(it, dict):
                attrs = it
            elif isinstance(it, Attr) and after_name and value is None and t is None:
                value = it
            elif it is not None:
                t = self.read_value_type(it)
        if value is not None:
            props["value"] = value
        if isinstance(value, StringAttr):
            props["global_type"] = TypeAttr(Type(f"!llvm.array<{_string_bytes(value.value)} x i8>"))
        elif t is not None:
            props["global_type"] = TypeAttr(t)
        else:
            raise DiagnosticError(error(self.loc(meta), "type can only be omitted for string globals"))
        props, attrs = self.split_attrs("llvm.mlir.global", attrs, props)
        props.setdefault("addr_space", IntegerAttr(0, Type("i32")))
        return self.op("llvm.mlir.global", meta, [], [], properties=props, attributes=attrs, regions=[Region()])


_left = shown_attrs


@custom_printer("llvm.mlir.addressof")
def _addressof(p: Printer, op: Operation) -> str:
    return f"llvm.mlir.addressof {op.properties['global_name']}{p.attr_dict(_left(op, 'global_name'))} : {op.results[0].type}"


@custom_printer("llvm.call")
def _llvm_call(p: Printer, op: Operation) -> str:
    callee = op.properties["callee"]
    text = f"llvm.call {callee}({p.values(op.operands)})"
    var = op.properties.get("var_callee_type")
    if var is not None:
        text += f" vararg({var})"
    fn = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
    return text + f"{p.attr_dict(_left(op, 'callee', 'var_callee_type'))} : {fn}"


def _linkage(op: Operation) -> str:
    return str(op.properties.get("linkage", "#llvm.linkage<external>")).removeprefix("#llvm.linkage<").rstrip(">")


@custom_printer("llvm.func")
def _llvm_func(p: Printer, op: Operation) -> str:

    if op.regions and op.regions[0].blocks:
        raise ValueError("llvm.func with a body: printed generically")
    params, vararg, result = parse_llvm_func_type(str(op.properties["function_type"]))
    text = "llvm.func "
    linkage = _linkage(op)
    if linkage != "external":
        text += f"{linkage} "
    name = op.properties["sym_name"]
    if not isinstance(name, StringAttr):
        raise InternalError("spec.dialects.llvm.syntax: expected isinstance(name, StringAttr)")
    text += f"{quote_symbol(name.value)}(" + ", ".join([*params, *(["..."] if vararg else [])]) + ")"
    if result is not None:
        text += f" -> {result}"
    rest = _left(op, "function_type", "linkage", "sym_name")
    return text + p.attr_dict(dict(sorted(rest.items())), keyword=True)


@custom_printer("llvm.mlir.global")
def _llvm_global(p: Printer, op: Operation) -> str:

    if op.regions and op.regions[0].blocks:
        raise ValueError("llvm.mlir.global with an initializer region: printed generically")
    text = f"llvm.mlir.global {_linkage(op)} "
    if isinstance(op.properties.get("constant"), UnitAttr):
        text += "constant "
    name = op.properties["sym_name"]
    if not isinstance(name, StringAttr):
        raise InternalError("spec.dialects.llvm.syntax: expected isinstance(name, StringAttr)")
    value = op.properties.get("value")
    text += f"{quote_symbol(name.value)}({'' if value is None else value})"
    rest = _left(op, "linkage", "constant", "sym_name", "value", "global_type")
    text += p.attr_dict(dict(sorted(rest.items())))
    if not isinstance(value, StringAttr):
        text += f" : {op.properties['global_type']}"
    return text
