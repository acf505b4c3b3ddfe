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

from spec import registry
from spec.attributes import I1, I64, INDEX, Attr, DenseArrayAttr, FunctionType, IntegerAttr, Type
from spec.diagnostics import DiagnosticError, error
from spec.ir import Block, Operation, Region
from spec.syntax.build_base import K_DYNAMIC, BuilderBase, PartialOp, UseRef, segment_sizes
from spec.syntax.custom_registry import custom_printer, return_like, segments, shown_attrs
from spec.syntax.op_checks import check_region_blocks
from spec.syntax.printer import Printer

KEYWORD_FIRST: frozenset[str] = frozenset(
    "scf_condition_op scf_execute_region_op scf_for_op scf_if_op scf_parallel_op scf_reduce_op "
    "scf_reduce_return_op scf_while_op scf_yield_op scf_forall_op scf_in_parallel_op".split()
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

    def forall_list(self, meta: Any, items: list) -> list:
        return [i for i in items if i is not None]

    def forall_in(self, meta: Any, items: list) -> tuple:
        return ("in", items[0])

    def forall_bounds(self, meta: Any, items: list) -> tuple:
        return ("bounds", *items)

    def forall_outs(self, meta: Any, items: list) -> tuple:
        pairs = [i for i in items[1:-1] if i is not None]
        types = items[-1] or []
        if len(pairs) != len(types):
            # 19 resolves the operands against the types at `shared_outs`.
            raise DiagnosticError(
                error(
                    self.tok_loc(items[0]),
                    f"custom op 'scf.forall' {len(pairs)} operands present, but expected {len(types)}",
                )
            )
        return ("outs", pairs, types)

    def scf_forall_op(self, meta: Any, items: list) -> PartialOp:
        """`scf.forall (ivs) in (ubs)` or `= (lbs) to (ubs) step (steps)`,
        then `shared_outs(%o = %init, ...) -> (types)`: each bound list of
        integers and index values (`static*` properties with `K_DYNAMIC`
        where a value stands), the lower bounds 0 and steps 1 with `in`."""
        ivs = [i for i in items if isinstance(i, Token)]
        tuples = [i for i in items if isinstance(i, tuple)]
        outs = next((t for t in tuples if t[0] == "outs"), ("outs", [], []))
        bounds = next(t for t in tuples if t[0] != "outs")
        region = next(i for i in items if isinstance(i, Region))
        attrs = next((i for i in items if isinstance(i, dict)), None)
        loc = self.loc(meta)
        props: dict[str, Attr] = {}
        if bounds[0] == "in":
            lbs, steps = [], []
            ubs = self.mixed_sizes(_decimal(bounds[1]), "staticUpperBound", props)
            props["staticLowerBound"] = DenseArrayAttr(I64, (0,) * len(ivs))
            props["staticStep"] = DenseArrayAttr(I64, (1,) * len(ivs))
        else:
            lbs = self.mixed_sizes(_decimal(bounds[1]), "staticLowerBound", props)
            ubs = self.mixed_sizes(_decimal(bounds[2]), "staticUpperBound", props)
            steps = self.mixed_sizes(_decimal(bounds[3]), "staticStep", props)
        pairs, types = outs[1], outs[2]
        inits = [self.typed(u, t) for (_, u), t in zip(pairs, types)]
        self._entry_args(region, [*((tok, INDEX) for tok in ivs), *((tok, t) for (tok, _), t in zip(pairs, types))])
        if not region.blocks[-1].ops or not registry.lookup(region.blocks[-1].ops[-1].name).terminator:
            region.blocks[-1].append(Operation(IN_PARALLEL, regions=[Region([Block()])], loc=loc))
        props["operandSegmentSizes"] = segment_sizes(len(lbs), len(ubs), len(steps), len(inits))
        props, attrs = self.split_attrs("scf.forall", attrs, props)
        return self._blocks_checked(
            self.op(
                "scf.forall",
                meta,
                [*lbs, *ubs, *steps, *inits],
                types,
                properties=props,
                attributes=attrs,
                regions=[region],
            )
        )

    def scf_in_parallel_op(self, meta: Any, items: list) -> PartialOp:
        """`scf.forall.in_parallel {...}`: an empty body gets its block."""
        region: Region = items[0]
        if not region.blocks:
            region.append(Block())
        attrs = items[1] if len(items) > 1 else None
        return self.op(IN_PARALLEL, meta, attributes=attrs, regions=[region])

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


IN_PARALLEL = "scf.forall.in_parallel"


def _decimal(entries: list) -> list:
    """Integer entries of a bound list as decimal text (`0x10` is 16)."""
    return [e if isinstance(e, UseRef) else str(int(str(e), 0 if "x" in str(e) else 10)) for e in entries]


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


_FORALL_STATICS = ("staticLowerBound", "staticUpperBound", "staticStep")


@custom_printer("scf.forall")
def _forall(p: Printer, op: Operation) -> str:
    """`ForallOp::print`: `in (ubs)` when every lower bound is 0 and every
    step 1, an index constant counting as its value; region results shown
    only with `shared_outs`."""
    lbs, ubs, steps, outs = segments(op)
    statics = [op.properties.get(k) for k in _FORALL_STATICS]
    if not all(isinstance(s, DenseArrayAttr) for s in statics) or not op.regions[0].blocks:
        raise ValueError("scf.forall without its bounds or body: printed generically")
    static_lbs, static_ubs, static_steps = (s.ints for s in statics)  # type: ignore[union-attr]  # DenseArrayAttr, checked above
    args = op.regions[0].blocks[0].args
    ivs, out_args = args[: len(args) - len(outs)], args[len(args) - len(outs) :]
    text = f"scf.forall ({p.values(ivs)})"
    if _all_equal(static_lbs, lbs, 0) and _all_equal(static_steps, steps, 1):
        text += " in " + _bound_list(p, static_ubs, ubs)
    else:
        text += " = " + _bound_list(p, static_lbs, lbs)
        text += " to " + _bound_list(p, static_ubs, ubs)
        text += " step " + _bound_list(p, static_steps, steps)
    if outs:
        text += " shared_outs(" + ", ".join(f"{p.value(a)} = {p.value(o)}" for a, o in zip(out_args, outs)) + ")"
    text += " "
    if out_args:
        text += f"-> ({p.types(op.results)}) "
    text += p.region(op.regions[0], False, bool(op.results))
    shown = shown_attrs(op, "operandSegmentSizes", *_FORALL_STATICS)
    return text + p.attr_dict(dict(sorted(shown.items())))


def _bound_list(p: Printer, statics: tuple[int, ...], values: list) -> str:
    it = iter(values)
    return "(" + ", ".join(p.value(next(it)) if s == K_DYNAMIC else str(s) for s in statics) + ")"


def _all_equal(statics: tuple[int, ...], values: list, want: int) -> bool:
    """Every entry is `want`: a static one, or a value an integer constant
    op defines (`getConstantIntValue`)."""
    it = iter(values)
    for s in statics:
        if s == K_DYNAMIC:
            v = next(it, None)
            if v is None or _constant(v) != want:
                return False
        elif s != want:
            return False
    return True


def _constant(v: Any) -> int | None:
    owner = v.owner
    if not isinstance(owner, Operation) or owner.name not in ("arith.constant", "index.constant"):
        return None
    value = owner.properties.get("value")
    return value.value if isinstance(value, IntegerAttr) else None


@custom_printer(IN_PARALLEL)
def _in_parallel(p: Printer, op: Operation) -> str:
    return IN_PARALLEL + " " + p.region(op.regions[0], False, False) + p.attr_dict(op.attributes)


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
