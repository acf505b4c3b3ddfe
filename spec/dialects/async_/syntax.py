"""The `async` dialect's custom syntax: `async.execute` (its token and
value results, its operands' unwrapped block arguments), `await`, `yield`,
`create_group`, `add_to_group` and `await_all`; `async.func`, `call` and
`return`, written and printed as `func`'s are; the builder rules and the
printers.
"""

from __future__ import annotations

from typing import Any

from lark import Token

from spec.attributes import ASYNC_GROUP, ASYNC_TOKEN, GPU_TOKEN, INDEX, Attr, FunctionType, Type
from spec.diagnostics import DiagnosticError, error
from spec.dialects.func.syntax import call_text, function_op_text
from spec.ir import Operation, Region
from spec.syntax.build_base import (
    BuilderBase,
    PartialOp,
    UseRef,
    raw_rule,
    segment_sizes,
    symbol_name,
    symbol_ref_attr,
)
from spec.syntax.custom_registry import custom_printer, return_like, segments
from spec.syntax.op_checks import check_region_blocks
from spec.syntax.printer import Printer

KEYWORD_FIRST: frozenset[str] = frozenset(
    "async_add_to_group_op async_await_all_op async_await_op async_create_group_op async_execute_op "
    "async_yield_op async_func_op async_call_op async_return_op".split()
)
"""Rules whose first child is the op keyword: it locates the op and is dropped
from the children the callback sees."""

NAME_FIRST: frozenset[str] = frozenset()
"""Rules whose first child is the token naming the op: kept, and the location."""

KEYWORDS: dict[str, str] = {}
"""Keyword rules (string literals) and the token type each hands on."""


_BARE_IN_FUNC = {"func.return": "async.return", "func.call": "async.call"}
"""What `return` and `call` written without a dialect are in an
`async.func` (its default dialect is `async`): read as `func`'s, renamed."""


class AsyncRules(BuilderBase):
    """The rules of the `async` ops' custom forms."""

    def async_func_op(self, meta: Any, items: list) -> PartialOp:
        """`async.func`, written as `func.func` is; its blocks' bare `return`
        and `call` are the async ones."""
        region = next((i for i in items if isinstance(i, Region)), None)
        if region is not None and not region.blocks and id(region) in self.empty_regions:
            # `{}`: 19's function parser reads an empty block, then refuses it.
            raise DiagnosticError(error(self.loc(meta), "empty block: expect at least a terminator"))
        props, attrs, body, _ = self._function_like(meta, items)
        bare = {id(op) for op, _, _ in self.bare_names}
        for block in body.blocks:
            for op in block.ops:
                if op.name in _BARE_IN_FUNC and id(op) in bare:
                    op.name = _BARE_IN_FUNC[op.name]
        props, attrs = self.split_attrs("async.func", attrs, props)
        return self.op("async.func", meta, properties=props, attributes=attrs, regions=[body])

    def async_call_op(self, meta: Any, items: list) -> PartialOp:
        fn: FunctionType = items[-1]
        uses = items[1] or []
        if len(uses) != len(fn.inputs):
            raise DiagnosticError(error(self.loc(meta), f"{len(uses)} operands present, but expected {len(fn.inputs)}"))
        operands = [self.typed(u, t) for u, t in zip(uses, fn.inputs)]
        attrs = items[2] if len(items) > 3 else None
        props, attrs = self.split_attrs("async.call", attrs, {"callee": symbol_ref_attr(symbol_name(str(items[0])))})
        return self.op("async.call", meta, operands, list(fn.results), properties=props, attributes=attrs)

    def async_return_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[0] if items and isinstance(items[0], dict) else None
        rest = items[1:] if attrs is not None else items
        return self.op("async.return", meta, self._typed_list(rest[0], rest[1], meta), attributes=attrs)

    @raw_rule
    def async_deps(self, items: list) -> tuple[Token | None, list[UseRef]]:
        # The `async` keyword itself (truthy), kept for its location.
        is_async = next((i for i in items if isinstance(i, Token) and i.type == "ASYNC_KW"), None)
        deps: list[UseRef] = []
        for it in items:
            if isinstance(it, list):
                deps = it
        return is_async, [self.typed(d, GPU_TOKEN) for d in deps]

    def exec_operand(self, meta: Any, items: list) -> tuple:
        t = self.read_value_type(items[2])
        return (self.typed(items[0], t), items[1], t)

    def async_execute_op(self, meta: Any, items: list) -> PartialOp:
        deps: list[UseRef] = []
        operands: list[tuple] = []
        types: list[Type] = []
        attrs = None
        region: Region = items[-1]
        for it in items[:-1]:
            if isinstance(it, tuple):
                operands.append(it)
            elif isinstance(it, list) and it and isinstance(it[0], UseRef):
                deps = it
            elif isinstance(it, list) and it and isinstance(it[0], Type):
                types = it
            elif isinstance(it, Token):
                types = [self.read_value_type(it)]
            elif isinstance(it, FunctionType):
                types = [it]  # type: ignore[list-item]  # the grammar hands a FunctionType here, kept as the result type as before
            elif isinstance(it, dict):
                attrs = it
        deps = [self.typed(d, ASYNC_TOKEN) for d in deps]
        inner = []
        for _, tok, t in operands:
            if not t.is_async_value:
                raise DiagnosticError(error(self.loc(meta), f"expected !async.value type for body operand, got '{t}'"))
            inner.append((tok, t.async_value_inner))
        # `{ }` is a region without blocks (mlir-opt-19 makes the entry
        # block only to hold named arguments): checked as written.
        written = Region() if not region.blocks and not inner else region
        self._entry_args(region, inner)
        props: dict[str, Attr] = {"operandSegmentSizes": segment_sizes(len(deps), len(operands))}
        props, attrs = self.split_attrs("async.execute", attrs, props)
        partial = self.op(
            "async.execute",
            meta,
            [*deps, *(u for u, _, _ in operands)],
            [ASYNC_TOKEN, *types],
            properties=props,
            attributes=attrs,
            regions=[region],
        )
        blocks = check_region_blocks("async.execute", [written], partial.op.loc)
        if blocks is not None:
            # Reported by the verifier after the parse, as mlir-opt-19 does.
            self._defer(partial.op, properties=blocks)  # type: ignore[attr-defined]  # CoreRules' method: this mixin is combined with it (parser._Builder)
        return partial

    def async_await_op(self, meta: Any, items: list) -> PartialOp:
        t = self.read_value_type(items[-1])
        attrs = items[1] if len(items) > 2 else None
        result = [t.async_value_inner] if isinstance(t, Type) and t.is_async_value else []
        return self.op("async.await", meta, [self.typed(items[0], t)], result, attributes=attrs)

    def async_yield_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[0] if items and isinstance(items[0], dict) else None
        rest = items[1:] if items and (attrs is not None or items[0] is None) else items
        return self.op(
            "async.yield",
            meta,
            self._typed_list(rest[0] if rest else None, rest[1] if len(rest) > 1 else None, meta),
            attributes=attrs,
        )

    def async_create_group_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[1] if len(items) > 2 else None
        return self.op("async.create_group", meta, [self.typed(items[0], INDEX)], [ASYNC_GROUP], attributes=attrs)

    def async_add_to_group_op(self, meta: Any, items: list) -> PartialOp:
        t = self.read_value_type(items[-1])
        attrs = items[2] if len(items) > 3 else None
        return self.op(
            "async.add_to_group",
            meta,
            [self.typed(items[0], t), self.typed(items[1], ASYNC_GROUP)],
            [INDEX],
            attributes=attrs,
        )

    def async_await_all_op(self, meta: Any, items: list) -> PartialOp:
        return self.op(
            "async.await_all",
            meta,
            [self.typed(items[0], ASYNC_GROUP)],
            attributes=items[1] if len(items) > 1 else None,
        )


@custom_printer("async.execute")
def _execute(p: Printer, op: Operation) -> str:
    deps, operands = segments(op)
    text = "async.execute"
    if deps:
        text += f" [{p.values(deps)}]"
    if operands:
        args = op.regions[0].blocks[0].args
        text += " (" + ", ".join(f"{p.value(o)} as {p.value(a)}: {o.type}" for o, a in zip(operands, args)) + ")"
    values = op.results[1:]
    if len(values) == 1:
        text += f" -> {values[0].type}"
    elif values:
        text += f" -> ({p.types(values)})"
    text += p.attr_dict({**op.attributes}, keyword=True)
    return text + " " + p.region(op.regions[0], False, True)


@custom_printer("async.await")
def _await(p: Printer, op: Operation) -> str:
    (v,) = op.operands
    return f"async.await {p.value(v)}{p.attr_dict(op.attributes)} : {v.type}"


@custom_printer("async.create_group")
def _create_group(p: Printer, op: Operation) -> str:
    return f"async.create_group {p.value(op.operands[0])}{p.attr_dict(op.attributes)} : {op.results[0].type}"


@custom_printer("async.add_to_group")
def _add_to_group(p: Printer, op: Operation) -> str:
    a, g = op.operands
    return f"async.add_to_group {p.value(a)}, {p.value(g)}{p.attr_dict(op.attributes)} : {a.type}"


@custom_printer("async.await_all")
def _await_all(p: Printer, op: Operation) -> str:
    return f"async.await_all {p.value(op.operands[0])}{p.attr_dict(op.attributes)}"


@custom_printer("async.yield")
def _yield(p: Printer, op: Operation) -> str:
    return return_like(p, op, op.name)


custom_printer("async.func")(function_op_text)
custom_printer("async.call")(call_text)


@custom_printer("async.return")
def _return(p: Printer, op: Operation) -> str:
    return return_like(p, op)
