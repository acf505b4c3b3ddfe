"""The `scf` dialect's custom syntax: `scf.for`, `if`, `while`, `parallel`,
`execute_region`, `index_switch`, `yield`, `condition`, `reduce` and
`reduce.return`; the builder rules (implicit `scf.yield` terminators added
as mlir-opt-19 adds them) and the printers (`scf.index_switch %i -> T `
with a trailing blank before its cases, each case's `scf.yield` always
shown, the default region's only when it has operands or attributes; a
trailing blank after `scf.reduce`).
"""

from __future__ import annotations

from typing import Any

from lark import Token

from spec.attributes import I1, I64, INDEX, Attr, DenseArrayAttr, FunctionType, Type
from spec.diagnostics import DiagnosticError, error
from spec.ir import Operation, Region
from spec.syntax.build_base import BuilderBase, PartialOp, UseRef, segment_sizes
from spec.syntax.custom_registry import custom_printer, return_like, segments, shown_attrs
from spec.syntax.op_checks import check_region_blocks
from spec.syntax.printer import Printer

KEYWORD_FIRST: frozenset[str] = frozenset(
    "scf_condition_op scf_execute_region_op scf_for_op scf_if_op scf_parallel_op scf_reduce_op "
    "scf_reduce_return_op scf_while_op scf_yield_op".split()
)
"""Rules whose first child is the op keyword: it locates the op and is dropped
from the children the callback sees."""

NAME_FIRST: frozenset[str] = frozenset("scf_index_switch_op".split())
"""Rules whose first child is the token naming the op: kept, and the location."""

KEYWORDS: dict[str, str] = {
    "scf_index_switch_kw": "SCF_INDEX_SWITCH_KW",
}
"""Keyword rules (string literals) and the token type each hands on."""


class ScfRules(BuilderBase):
    """The rules of the `scf` ops' custom forms."""

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
                iv_type = self.read_value_type(it)
        bounds = [self.typed(u, iv_type) for u in items[1:4]]
        inits = [self.typed(u, t) for (_, u), t in zip(pairs, types)]
        self._entry_args(region, [(iv, iv_type), *((tok, t) for (tok, _), t in zip(pairs, types))])
        self._ensure_terminator(region, "scf.yield", self.loc(meta))
        return self._blocks_checked(
            self.op("scf.for", meta, [*bounds, *inits], types, attributes=attrs, regions=[region])
        )

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
        return self._blocks_checked(self.op("scf.if", meta, [cond], types, attributes=attrs, regions=regions))

    def scf_while_op(self, meta: Any, items: list) -> PartialOp:
        pairs = [i for i in items if isinstance(i, tuple)]
        fn: FunctionType = next(i for i in items if isinstance(i, FunctionType))
        regions = [i for i in items if isinstance(i, Region)]
        attrs = next((i for i in items if isinstance(i, dict)), None)
        if len(pairs) != len(fn.inputs):
            raise DiagnosticError(error(self.loc(meta), "expected as many input types as operands"))
        inits = [self.typed(u, t) for (_, u), t in zip(pairs, fn.inputs)]
        self._entry_args(regions[0], [(tok, t) for (tok, _), t in zip(pairs, fn.inputs)])
        return self._blocks_checked(
            self.op("scf.while", meta, inits, list(fn.results), attributes=attrs, regions=regions)
        )

    def _blocks_checked(self, partial: PartialOp) -> PartialOp:
        """`partial` with its single-block regions' counts checked, the
        failure reported after the parse, as mlir-opt-19's verifier does."""
        op = partial.op
        blocks = check_region_blocks(op.name, op.regions, op.loc)
        if blocks is not None:
            self._defer(op, properties=blocks)  # type: ignore[attr-defined]  # CoreRules' method: this mixin is combined with it (parser._Builder)
        return partial

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
        return self.op(
            "scf.parallel",
            meta,
            [*lbs, *ubs, *steps, *inits],
            types,
            properties=props,
            attributes=attrs,
            regions=[region],
        )

    def scf_yield_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[0] if items and isinstance(items[0], dict) else None
        rest = items[1:] if items and (attrs is not None or items[0] is None) else items
        return self.op(
            "scf.yield",
            meta,
            self._typed_list(rest[0] if rest else None, rest[1] if len(rest) > 1 else None, meta),
            attributes=attrs,
        )

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
        return self.op(
            "scf.reduce.return",
            meta,
            [self.typed(items[0], self.read_value_type(items[-1]))],
            attributes=items[1] if len(items) > 2 else None,
        )

    def arrow_types(self, meta: Any, items: list) -> list[Type]:
        if len(items) == 1 and isinstance(items[0], Token):
            return [self.read_value_type(items[0])]
        return items[0] or []

    def scf_execute_region_op(self, meta: Any, items: list) -> PartialOp:
        types = next((i for i in items if isinstance(i, list)), [])
        region = next(i for i in items if isinstance(i, Region))
        attrs = next((i for i in items if isinstance(i, dict)), None)
        return self.op("scf.execute_region", meta, [], types, attributes=attrs, regions=[region])

    def switch_case_region(self, meta: Any, items: list) -> tuple[int, Region]:
        return int(str(items[0]), 0), items[1]

    def scf_index_switch_op(self, meta: Any, items: list) -> PartialOp:
        """`scf.index_switch %i [attr-dict] [-> types] (case N {...})* default {...}`."""
        name = "scf.index_switch"
        attrs = next((i for i in items if isinstance(i, dict)), None)
        results: list[Type] = next((i for i in items[2:] if isinstance(i, list)), [])
        cases = [i for i in items if isinstance(i, tuple)]
        default: Region = items[-1]
        self._ensure_terminator(default, "scf.yield", self.loc(meta))
        for k, (_, region) in enumerate(cases):
            if not region.blocks:
                raise DiagnosticError(
                    error(
                        self.loc(meta),
                        f"'{name}' op region #{k + 1} ('caseRegions') failed to verify constraint: region with 1 blocks",
                    )
                )
        props, attrs = self.split_attrs(name, attrs, {"cases": DenseArrayAttr(I64, tuple(v for v, _ in cases))})
        regions = [default, *(r for _, r in cases)]
        return self.op(
            name, meta, [self.typed(items[1], INDEX)], results, properties=props, attributes=attrs, regions=regions
        )


@custom_printer("scf.for")
def _for(p: Printer, op: Operation) -> str:
    lb, ub, step, *inits = op.operands
    body = op.regions[0].blocks[0]
    iv, *iters = body.args
    text = f"scf.for {p.value(iv)} = {p.value(lb)} to {p.value(ub)} step {p.value(step)}"
    if inits:
        pairs = ", ".join(f"{p.value(a)} = {p.value(i)}" for a, i in zip(iters, inits))
        text += f" iter_args({pairs}) -> ({p.types(op.results)})"
    if not iv.type.is_index:
        text += f"  : {iv.type}"
    return text + " " + p.region(op.regions[0], False, bool(inits)) + p.attr_dict(op.attributes)


@custom_printer("scf.if")
def _if(p: Printer, op: Operation) -> str:
    text = f"scf.if {p.value(op.operands[0])}"
    if op.results:
        text += f" -> ({p.types(op.results)})"
    show = bool(op.results)
    text += " " + p.region(op.regions[0], False, show)
    if len(op.regions) > 1 and op.regions[1].blocks:
        text += " else " + p.region(op.regions[1], False, show)
    return text + p.attr_dict(op.attributes)


@custom_printer("scf.while")
def _while(p: Printer, op: Operation) -> str:
    before, after = op.regions
    args = before.blocks[0].args
    pairs = ", ".join(f"{p.value(a)} = {p.value(i)}" for a, i in zip(args, op.operands))
    fn = FunctionType(tuple(v.type for v in op.operands), tuple(v.type for v in op.results))
    text = f"scf.while ({pairs}) : {fn} " if op.operands else f"scf.while : {fn} "
    text += p.region(before, False, True)
    text += " do " + p.region(after, True, True)
    return text + p.attr_dict(op.attributes, keyword=True)


@custom_printer("scf.parallel")
def _parallel(p: Printer, op: Operation) -> str:
    lbs, ubs, steps, inits = segments(op)
    ivs = op.regions[0].blocks[0].args
    text = f"scf.parallel ({p.values(ivs)}) = ({p.values(lbs)}) to ({p.values(ubs)}) step ({p.values(steps)})"
    if inits:
        text += f" init ({p.values(inits)})"
    text += _arrow_types(p, op)
    return text + " " + p.region(op.regions[0], False, True) + p.attr_dict(op.attributes)


def _arrow_types(p: Printer, op: Operation) -> str:
    """`printOptionalArrowTypeList`: ` -> T`, ` -> (T1, T2)` or nothing."""
    if not op.results:
        return ""
    if len(op.results) == 1:
        return f" -> {op.results[0].type}"
    return f" -> ({p.types(op.results)})"


@custom_printer("scf.yield")
def _yield(p: Printer, op: Operation) -> str:
    return return_like(p, op, op.name)


@custom_printer("scf.condition")
def _condition(p: Printer, op: Operation) -> str:
    c, *rest = op.operands
    text = f"scf.condition({p.value(c)}){p.attr_dict(op.attributes)}"
    if rest:
        text += f" {p.values(rest)} : {p.types(rest)}"
    return text


@custom_printer("scf.reduce")
def _reduce(p: Printer, op: Operation) -> str:
    text = "scf.reduce"
    if op.operands:
        text += f"({p.values(op.operands)} : {p.types(op.operands)})"
        text += " " + ", ".join(p.region(r, True, True) for r in op.regions)
    else:
        text += " "
    return text + p.attr_dict(op.attributes)


@custom_printer("scf.reduce.return")
def _reduce_return(p: Printer, op: Operation) -> str:
    (v,) = op.operands
    return f"scf.reduce.return {p.value(v)}{p.attr_dict(op.attributes)} : {v.type}"


@custom_printer("scf.execute_region")
def _execute_region(p: Printer, op: Operation) -> str:
    text = "scf.execute_region" + _arrow_types(p, op)
    return text + " " + p.region(op.regions[0], False, True) + p.attr_dict(op.attributes)


def implicit_terminator_shown(region: Region) -> bool:
    """Whether MLIR's generated printer shows a single-block region's
    implicit terminator: when it has operands, results or attributes."""
    if not region.blocks or not region.blocks[0].ops:
        return True
    term = region.blocks[0].ops[-1]
    return bool(term.operands or term.results or term.attributes or term.properties)


@custom_printer("scf.index_switch")
def _index_switch(p: Printer, op: Operation) -> str:
    cases = op.properties.get("cases")
    if not (isinstance(cases, DenseArrayAttr) and len(cases.values) == len(op.regions) - 1):
        raise ValueError("cases do not match the regions: printed generically")
    text = f"scf.index_switch {p.value(op.operands[0])}{p.attr_dict(shown_attrs(op, 'cases'))} "
    if op.results:
        text += f"-> {', '.join(str(r.type) for r in op.results)} "
    pad = " " * p.indent
    default, *regions = op.regions
    for value, region in zip(cases.values, regions):
        text += f"\n{pad}case {value} " + p.region(region, False, True)
    return text + f"\n{pad}default " + p.region(default, False, implicit_terminator_shown(default))
