"""Builder rules of the control-flow and async ops' custom forms: `scf`,
`cf` and `async`."""

from __future__ import annotations

from typing import Any

from lark import Token

from spec.attributes import (
    ASYNC_GROUP,
    ASYNC_TOKEN,
    I1,
    INDEX,
    Attr,
    DenseArrayAttr,
    FunctionType,
    StringAttr,
    Type,
)
from spec.diagnostics import DiagnosticError, error
from spec.ir import Region
from spec.syntax.build_base import (
    BuilderBase,
    PartialOp,
    UseRef,
    read_type,
    segment_sizes,
)
from spec.syntax.op_checks import check_region_blocks
from spec.syntax.string_literals import unescape


class ControlRules(BuilderBase):
    """Structured and unstructured control flow, and `async` regions."""

    # -- scf --------------------------------------------------------------------
    def iter_args(self, meta: Any, items: list) -> tuple:
        pairs = [i for i in items[:-1] if i is not None]
        types = items[-1] or []
        if len(pairs) != len(types):
            raise DiagnosticError(error(self.loc(meta), "mismatch in number of loop-carried values and defined values"))
        return ("iter", pairs, types)

    def iter_arg(self, meta: Any, items: list) -> tuple:
        return (items[0], items[1])

    def scf_for_op(self, meta: Any, items: list) -> PartialOp:
        iv: Token = items[0]
        iv_type: Type = INDEX
        pairs: list = []
        types: list[Type] = []
        region = Region()
        attrs = None
        for it in items[4:]:
            if isinstance(it, tuple) and it[0] == "iter":
                pairs, types = it[1], it[2]
            elif isinstance(it, Region):
                region = it
            elif isinstance(it, dict):
                attrs = it
            elif it is not None:
                iv_type = read_type(it)  # type: ignore[assignment]  # read_type of a value type: no function type here
        bounds = [self.typed(u, iv_type) for u in items[1:4]]
        inits = [self.typed(u, t) for (_, u), t in zip(pairs, types)]
        self._entry_args(region, [(iv, iv_type), *((tok, t) for (tok, _), t in zip(pairs, types))])
        self._ensure_terminator(region, "scf.yield", self.loc(meta))
        return self.op("scf.for", meta, [*bounds, *inits], types, attributes=attrs, regions=[region])

    def scf_if_op(self, meta: Any, items: list) -> PartialOp:
        cond = self.typed(items[0], I1)
        types: list[Type] = []
        regions: list[Region] = []
        attrs = None
        for it in items[1:]:
            if isinstance(it, Region):
                regions.append(it)
            elif isinstance(it, list) or (it is None and not regions):
                types = it or []
            elif isinstance(it, dict):
                attrs = it
        loc = self.loc(meta)
        self._ensure_terminator(regions[0], "scf.yield", loc)
        if len(regions) == 1:
            regions.append(Region())
        else:
            self._ensure_terminator(regions[1], "scf.yield", loc)
        return self.op("scf.if", meta, [cond], types, attributes=attrs, regions=regions)

    def scf_while_op(self, meta: Any, items: list) -> PartialOp:
        pairs = [i for i in items if isinstance(i, tuple)]
        fn: FunctionType = next(i for i in items if isinstance(i, FunctionType))
        regions = [i for i in items if isinstance(i, Region)]
        attrs = next((i for i in items if isinstance(i, dict)), None)
        if len(pairs) != len(fn.inputs):
            raise DiagnosticError(error(self.loc(meta), "expected as many input types as operands"))
        inits = [self.typed(u, t) for (_, u), t in zip(pairs, fn.inputs)]
        self._entry_args(regions[0], [(tok, t) for (tok, _), t in zip(pairs, fn.inputs)])
        return self.op("scf.while", meta, inits, list(fn.results), attributes=attrs, regions=regions)

    def scf_parallel_op(self, meta: Any, items: list) -> PartialOp:
        ivs = [i for i in items if isinstance(i, Token)]
        lists = [i for i in items if isinstance(i, list) and (not i or isinstance(i[0], UseRef))]
        type_lists = [i for i in items if isinstance(i, list) and i and isinstance(i[0], Type)]
        region = next(i for i in items if isinstance(i, Region))
        attrs = next((i for i in items if isinstance(i, dict)), None)
        lbs, ubs, steps = ([self.typed(u, INDEX) for u in lst] for lst in lists[:3])
        types = type_lists[0] if type_lists else []
        inits = [self.typed(u, t) for u, t in zip(lists[3] if len(lists) > 3 else [], types)]
        self._entry_args(region, [(tok, INDEX) for tok in ivs])
        self._ensure_terminator(region, "scf.reduce", self.loc(meta))
        props: dict[str, Attr] = {"operandSegmentSizes": segment_sizes(len(lbs), len(ubs), len(steps), len(inits))}
        return self.op("scf.parallel", meta, [*lbs, *ubs, *steps, *inits], types, properties=props, attributes=attrs, regions=[region])

    def scf_yield_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[0] if items and isinstance(items[0], dict) else None
        rest = items[1:] if items and (attrs is not None or items[0] is None) else items
        return self.op("scf.yield", meta, self._typed_list(rest[0] if rest else None, rest[1] if len(rest) > 1 else None, meta), attributes=attrs)

    def scf_condition_op(self, meta: Any, items: list) -> PartialOp:
        cond = self.typed(items[0], I1)
        rest = [i for i in items[1:] if not isinstance(i, dict)]
        attrs = next((i for i in items[1:] if isinstance(i, dict)), None)
        ops = self._typed_list(rest[0] if rest else None, rest[1] if len(rest) > 1 else None, meta)
        return self.op("scf.condition", meta, [cond, *ops], attributes=attrs)

    def scf_reduce_op(self, meta: Any, items: list) -> PartialOp:
        uses = next((i for i in items if isinstance(i, list) and i and isinstance(i[0], UseRef)), [])
        types = next((i for i in items if isinstance(i, list) and i and isinstance(i[0], Type)), [])
        regions = [i for i in items if isinstance(i, Region)]
        attrs = next((i for i in items if isinstance(i, dict)), None)
        return self.op("scf.reduce", meta, self._typed_list(uses, types, meta), attributes=attrs, regions=regions)

    def scf_reduce_return_op(self, meta: Any, items: list) -> PartialOp:
        return self.op("scf.reduce.return", meta, [self.typed(items[0], read_type(items[-1]))], attributes=items[1] if len(items) > 2 else None)  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def arrow_types(self, meta: Any, items: list) -> list[Type]:
        if len(items) == 1 and isinstance(items[0], Token):
            return [read_type(items[0])]  # type: ignore[list-item]  # read_type of a value type: no function type here
        return items[0] or []

    def scf_execute_region_op(self, meta: Any, items: list) -> PartialOp:
        types = next((i for i in items if isinstance(i, list)), [])
        region = next(i for i in items if isinstance(i, Region))
        attrs = next((i for i in items if isinstance(i, dict)), None)
        return self.op("scf.execute_region", meta, [], types, attributes=attrs, regions=[region])

    # -- cf ---------------------------------------------------------------------
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
        return self.op("cf.cond_br", meta, [cond, *t_ops, *f_ops], properties=props, attributes=attrs, successors=[t_label, f_label])

    def cf_assert_op(self, meta: Any, items: list) -> PartialOp:
        props, attrs = self.split_attrs("cf.assert", items[2] if len(items) > 2 else None, {"msg": StringAttr(unescape(str(items[1])))})
        return self.op("cf.assert", meta, [self.typed(items[0], I1)], properties=props, attributes=attrs)

    # -- async ------------------------------------------------------------------
    def exec_operand(self, meta: Any, items: list) -> tuple:
        t = read_type(items[2])
        return (self.typed(items[0], t), items[1], t)  # type: ignore[arg-type]  # read_type of a value type: no function type here

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
                types = [read_type(it)]  # type: ignore[list-item]  # read_type of a value type: no function type here
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
        partial = self.op("async.execute", meta, [*deps, *(u for u, _, _ in operands)], [ASYNC_TOKEN, *types], properties=props, attributes=attrs, regions=[region])
        blocks = check_region_blocks("async.execute", [written], partial.op.loc)
        if blocks is not None:
            # Reported by the verifier after the parse, as mlir-opt-19 does.
            self._defer(partial.op, properties=blocks)  # type: ignore[attr-defined]  # CoreRules' method: this mixin is combined with it (parser._Builder)
        return partial

    def async_await_op(self, meta: Any, items: list) -> PartialOp:
        t = read_type(items[-1])
        attrs = items[1] if len(items) > 2 else None
        result = [t.async_value_inner] if isinstance(t, Type) and t.is_async_value else []
        return self.op("async.await", meta, [self.typed(items[0], t)], result, attributes=attrs)  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def async_yield_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[0] if items and isinstance(items[0], dict) else None
        rest = items[1:] if items and (attrs is not None or items[0] is None) else items
        return self.op("async.yield", meta, self._typed_list(rest[0] if rest else None, rest[1] if len(rest) > 1 else None, meta), attributes=attrs)

    def async_create_group_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[1] if len(items) > 2 else None
        return self.op("async.create_group", meta, [self.typed(items[0], INDEX)], [ASYNC_GROUP], attributes=attrs)

    def async_add_to_group_op(self, meta: Any, items: list) -> PartialOp:
        t = read_type(items[-1])
        attrs = items[2] if len(items) > 3 else None
        return self.op("async.add_to_group", meta, [self.typed(items[0], t), self.typed(items[1], ASYNC_GROUP)], [INDEX], attributes=attrs)  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def async_await_all_op(self, meta: Any, items: list) -> PartialOp:
        return self.op("async.await_all", meta, [self.typed(items[0], ASYNC_GROUP)], attributes=items[1] if len(items) > 1 else None)


