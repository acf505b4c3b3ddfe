"""The `affine` dialect's custom syntax: `affine.apply`, `load`, `store`,
`for`, `if`, `yield`, and `#name = value` attribute aliases. The maps and
sets themselves are `spec.syntax.affine`'s.

Parsing, as mlir-opt-19 builds them: `affine.load`/`store` subscripts become
a map over the SSA values in them (dims in order of first use, `symbol(%x)`
a symbol), operands the memref then the dims then the symbols; an
`affine.for` bound is a constant map (`0`), a one-symbol map (`%n`), or a
map with its operands (`max #map(%a)[%b]`); its `step` an index attribute;
`affine.if`'s set a discardable `condition` attribute. Regions without a
terminator get an `affine.yield`.

Printing: `spec.syntax.printing.print_op` prints a module with its maps and
sets written out, then `affine.with_aliases` names them and puts the
definitions first. An op printed on its own (a diagnostic's "see current
operation") keeps them written out, as mlir-opt-19 does.
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token

from spec.attributes import INDEX, Attr, IntegerAttr, OpaqueAttr, Type
from spec.diagnostics import DiagnosticError, error
from spec.ir import Operation, Region, Value
from spec.syntax import affine
from spec.syntax.build_base import BuilderBase, PartialOp, TokenError, UseRef, segment_sizes
from spec.syntax.custom_registry import custom_printer, return_like, segments
from spec.syntax.printer import Printer

KEYWORD_FIRST: frozenset[str] = frozenset()
"""Rules whose first child is the op keyword: it locates the op and is dropped
from the children the callback sees."""

NAME_FIRST: frozenset[str] = frozenset(
    "affine_apply_op affine_for_op affine_if_op affine_load_op affine_store_op affine_yield_op".split()
)
"""Rules whose first child is the token naming the op: kept, and the location."""

KEYWORDS: dict[str, str] = {
    "affine_apply_kw": "AFFINE_APPLY_KW",
    "affine_for_kw": "AFFINE_FOR_KW",
    "affine_if_kw": "AFFINE_IF_KW",
    "affine_load_kw": "AFFINE_LOAD_KW",
    "affine_store_kw": "AFFINE_STORE_KW",
    "affine_yield_kw": "AFFINE_YIELD_KW",
}
"""Keyword rules (string literals) and the token type each hands on."""


def attr_text(tok: Token, aliases: affine.AliasTable) -> str | None:
    """The canonical text of an attribute token that is an affine map or
    set, or an alias use (`#map`) resolved; None for any other token."""
    raw = str(tok)
    if raw.startswith(("affine_map<", "affine_set<")):
        try:
            return affine.canonical(raw[7:10], raw[11:-1])
        except affine.AffineError as exc:
            raise TokenError(tok, exc.offset + 11, exc.message) from None
    if raw.startswith("#") and "." not in raw and "<" not in raw:
        value = aliases.attrs.get(raw[1:])
        if value is None:
            raise TokenError(tok, len(raw), f"undefined symbol alias id '{raw[1:]}'")
        return value
    return None


def _map_ref(tok: Token, aliases: affine.AliasTable) -> tuple[str, affine.AffineMap | affine.IntegerSet]:
    text = attr_text(tok, aliases)
    if text is None or not text.startswith("affine_"):
        raise TokenError(tok, 0, "expected affine map or integer set")
    body = text[11:-1]
    return text, (affine.parse_map(body) if text.startswith("affine_map") else affine.parse_set(body))


class AffineRules(BuilderBase):
    """The rules of the `affine` ops' custom forms."""

    def alias_def(self, meta: Any, items: list) -> None:
        tok: Token = items[0]
        name = str(tok)[1:]
        if "." in name or "<" in name:
            raise TokenError(tok, 0, "expected attribute alias name")
        # A syntax error re-parses the text from the start (`lark_fast`):
        # the same definition is then met again, at the same place.
        if self.aliases.where.get(name, tok.start_pos) != tok.start_pos:
            raise TokenError(tok, 0, f"redefinition of attribute alias id '{name}'")
        self.aliases.attrs[name] = str(items[1])
        self.aliases.where[name] = tok.start_pos  # type: ignore[assignment]  # lark types it Optional; a lexed token has one
        return None

    def affine_ref(self, meta: Any, items: list) -> tuple:
        tok = items[0]
        text, obj = _map_ref(tok, self.aliases)
        return ("ref", tok, text, obj)

    def dim_syms(self, meta: Any, items: list) -> tuple:
        return ("operands", items[0] or [], items[1] or [] if len(items) > 1 else [])

    def _operands(self, ref: tuple, ds: tuple, meta: Any) -> list[UseRef]:
        obj = ref[3]
        dims, syms = ds[1], ds[2]
        if len(dims) != obj.dims:
            raise DiagnosticError(error(self.loc(meta), "dim operand count and affine map dim count must match"))
        if len(syms) != obj.syms:
            raise DiagnosticError(error(self.loc(meta), "symbol operand count and affine map symbol count must match"))
        return [self.typed(u, INDEX) for u in (*dims, *syms)]

    def affine_apply_op(self, meta: Any, items: list) -> PartialOp:
        ref, ds = items[1], items[2]
        attrs = items[3] if len(items) > 3 and isinstance(items[3], dict) else None
        if not isinstance(ref[3], affine.AffineMap) or len(ref[3].results) != 1:
            raise DiagnosticError(error(self.loc(meta), "'affine.apply' op mapping must produce one value"))
        props, attrs = self.split_attrs("affine.apply", attrs, {"map": OpaqueAttr(ref[2])})
        return self.op("affine.apply", meta, self._operands(ref, ds, meta), [INDEX], properties=props, attributes=attrs)

    # Subscripts: a tree of tuples, numbered into a map by `affine_subs`.
    def aff_const(self, meta: Any, items: list) -> tuple:
        return ("const", int(str(items[0]), 0))

    def aff_dim(self, meta: Any, items: list) -> tuple:
        return ("dim", items[0])

    def aff_sym(self, meta: Any, items: list) -> tuple:
        return ("sym", items[0])

    def aff_neg(self, meta: Any, items: list) -> tuple:
        return ("neg", items[0])

    def aff_add(self, meta: Any, items: list) -> tuple:
        return ("add", items[0], items[1])

    def aff_sub(self, meta: Any, items: list) -> tuple:
        return ("sub", items[0], items[1])

    def aff_mul(self, meta: Any, items: list) -> tuple:
        return ("mul", items[0], items[1])

    def aff_div_kw(self, meta: Any, items: list) -> str:
        return str(items[0])

    def aff_div(self, meta: Any, items: list) -> tuple:
        return (str(items[1]), items[0], items[2])

    def affine_subs(self, meta: Any, items: list) -> tuple[OpaqueAttr, list[UseRef]]:
        dims: list[UseRef] = []
        syms: list[UseRef] = []
        dim_names: list[str] = []
        sym_names: list[str] = []

        def build(t: tuple) -> affine.Expr:
            kind = t[0]
            if kind == "const":
                return affine.const(t[1])
            if kind in ("dim", "sym"):
                use: UseRef = t[1]
                name = f"{use.name}#{use.number}"
                if name in dim_names:
                    return affine.Expr("dim", dim_names.index(name))
                if name in sym_names:
                    return affine.Expr("sym", sym_names.index(name))
                names, uses = (dim_names, dims) if kind == "dim" else (sym_names, syms)
                names.append(name)
                uses.append(self.typed(use, INDEX))
                return affine.Expr(kind, len(names) - 1)
            if kind == "neg":
                return affine.mul(build(t[1]), affine.const(-1))
            lhs, rhs = build(t[1]), build(t[2])
            if kind == "add":
                return affine.add(lhs, rhs)
            if kind == "sub":
                return affine.sub(lhs, rhs)
            if kind == "mul":
                return affine.mul(lhs, rhs)
            return affine.div(kind, lhs, rhs)

        exprs = tuple(build(t) for t in items if t is not None)
        m = affine.AffineMap(len(dim_names), len(sym_names), exprs)
        return OpaqueAttr(m.text), [*dims, *syms]

    def affine_load_op(self, meta: Any, items: list) -> PartialOp:
        mt = self.read_value_type(items[-1])
        amap, idx = items[2]
        attrs = items[3] if isinstance(items[3], dict) else None
        elem = (
            Type(re.sub(r"^memref<(?:[\d?]+x)*", "", mt.text).split(",")[0].rstrip(">")) if isinstance(mt, Type) else mt
        )
        props, attrs = self.split_attrs("affine.load", attrs, {"map": amap})
        return self.op(
            "affine.load", meta, [self.typed(items[1], mt), *idx], [elem], properties=props, attributes=attrs
        )

    def affine_store_op(self, meta: Any, items: list) -> PartialOp:
        mt = self.read_value_type(items[-1])
        amap, idx = items[3]
        attrs = items[4] if isinstance(items[4], dict) else None
        elem = (
            Type(re.sub(r"^memref<(?:[\d?]+x)*", "", mt.text).split(",")[0].rstrip(">")) if isinstance(mt, Type) else mt
        )
        props, attrs = self.split_attrs("affine.store", attrs, {"map": amap})
        operands = [self.typed(items[1], elem), self.typed(items[2], mt), *idx]
        return self.op("affine.store", meta, operands, [], properties=props, attributes=attrs)

    def affine_bound(self, meta: Any, items: list) -> tuple[str, list[UseRef]]:
        items = [i for i in items if i is not None]
        first = items[0]
        if isinstance(first, Token) and first.type == "INT":
            return affine.AffineMap(0, 0, (affine.const(int(str(first), 0)),)).text, []
        if isinstance(first, UseRef):
            return affine.AffineMap(0, 1, (affine.Expr("sym", 0),)).text, [self.typed(first, INDEX)]
        minmax = str(first) if isinstance(first, Token) else None
        ref, ds = items[-2], items[-1]
        if not isinstance(ref[3], affine.AffineMap):
            raise TokenError(ref[1], 0, "expected affine map")
        if len(ref[3].results) > 1 and minmax is None:
            raise TokenError(ref[1], 0, "expected 'max' or 'min' prefix for a multi-result bound")
        return ref[2], self._operands(ref, ds, None)

    def affine_for_op(self, meta: Any, items: list) -> PartialOp:
        iv: Token = items[1]
        (lb, lb_ops), (ub, ub_ops) = items[2], items[3]
        step = 1
        pairs: list = []
        types: list[Type] = []
        region = Region()
        attrs = None
        for it in items[4:]:
            if isinstance(it, Token) and it.type == "INT":
                step = int(str(it), 0)
                if step <= 0:
                    raise DiagnosticError(
                        error(self.tok_loc(it), "expected step to be representable as a positive signed integer")
                    )
            elif isinstance(it, tuple) and it[0] == "iter":
                pairs, types = it[1], it[2]
            elif isinstance(it, Region):
                region = it
            elif isinstance(it, dict):
                attrs = it
        inits = [self.typed(u, t) for (_, u), t in zip(pairs, types)]
        self._entry_args(region, [(iv, INDEX), *((tok, t) for (tok, _), t in zip(pairs, types))])
        self._ensure_terminator(region, "affine.yield", self.loc(meta))
        props: dict[str, Attr] = {
            "lowerBoundMap": OpaqueAttr(lb),
            "upperBoundMap": OpaqueAttr(ub),
            "step": IntegerAttr(step, INDEX),
            "operandSegmentSizes": segment_sizes(len(lb_ops), len(ub_ops), len(inits)),
        }
        props, attrs = self.split_attrs("affine.for", attrs, props)
        return self.op(
            "affine.for", meta, [*lb_ops, *ub_ops, *inits], types, properties=props, attributes=attrs, regions=[region]
        )

    def affine_if_op(self, meta: Any, items: list) -> PartialOp:
        ref, ds = items[1], items[2]
        if not isinstance(ref[3], affine.IntegerSet):
            raise TokenError(ref[1], 0, "expected integer set")
        types: list[Type] = []
        regions: list[Region] = []
        attrs = None
        for it in items[3:]:
            if isinstance(it, Region):
                regions.append(it)
            elif isinstance(it, list):
                types = it
            elif isinstance(it, dict):
                attrs = it
        loc = self.loc(meta)
        self._ensure_terminator(regions[0], "affine.yield", loc)
        if len(regions) == 1:
            regions.append(Region())
        else:
            self._ensure_terminator(regions[1], "affine.yield", loc)
        attrs = {"condition": OpaqueAttr(ref[2]), **(attrs or {})}
        return self.op("affine.if", meta, self._operands(ref, ds, meta), types, attributes=attrs, regions=regions)

    def affine_yield_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[1] if isinstance(items[1], dict) else None
        return self.op("affine.yield", meta, self._typed_list(items[-2], items[-1], meta), attributes=attrs)


def _map(attr: Attr) -> affine.AffineMap:
    text = str(attr)
    if not text.startswith("affine_map<"):
        raise ValueError("not an affine map")
    return affine.parse_map(text[11:-1])


def _dim_syms(p: Printer, operands: list[Value], n_dims: int) -> str:
    """`printDimAndSymbolList`: `(dims)` always, `[syms]` when there are any."""
    text = f"({p.values(operands[:n_dims])})"
    if len(operands) > n_dims:
        text += f"[{p.values(operands[n_dims:])}]"
    return text


def _left(op: Operation, *known: str) -> dict[str, Attr]:
    return {**{k: v for k, v in op.properties.items() if k not in known}, **op.attributes}


@custom_printer("affine.apply")
def _apply(p: Printer, op: Operation) -> str:
    m = _map(op.properties["map"])
    if len(op.operands) != m.dims + m.syms:
        raise ValueError("operand count")
    return f"affine.apply {op.properties['map']}{_dim_syms(p, op.operands, m.dims)}{p.attr_dict(_left(op, 'map'))}"


def _subscripts(p: Printer, op: Operation, operands: list[Value]) -> str:
    m = _map(op.properties["map"])
    if len(operands) != m.dims + m.syms:
        raise ValueError("operand count")
    names = [p.value(v) for v in operands]
    return affine.ssa_exprs_text(m, names[: m.dims], names[m.dims :])


@custom_printer("affine.load")
def _load(p: Printer, op: Operation) -> str:
    mem, *idx = op.operands
    return f"affine.load {p.value(mem)}[{_subscripts(p, op, idx)}]{p.attr_dict(_left(op, 'map'))} : {mem.type}"


@custom_printer("affine.store")
def _store(p: Printer, op: Operation) -> str:
    val, mem, *idx = op.operands
    return f"affine.store {p.value(val)}, {p.value(mem)}[{_subscripts(p, op, idx)}]{p.attr_dict(_left(op, 'map'))} : {mem.type}"


def _bound(p: Printer, attr: Attr, operands: list[Value], prefix: str) -> str:
    """`printBound`: a constant, a lone symbol operand, or the map with its operands."""
    m = _map(attr)
    if len(operands) != m.dims + m.syms:
        raise ValueError("operand count")
    if len(m.results) == 1:
        e = m.results[0]
        if m.dims == 0 and m.syms == 0 and e.kind == "const":
            return str(e.value)
        if m.dims == 0 and m.syms == 1 and e.kind == "sym":
            return p.value(operands[0])
        head = ""
    else:
        head = f"{prefix} "
    return f"{head}{attr}{_dim_syms(p, operands, m.dims)}"


@custom_printer("affine.for")
def _for(p: Printer, op: Operation) -> str:
    lbs, ubs, inits = segments(op)
    body = op.regions[0].blocks[0]
    iv, *iter_args = body.args
    text = f"affine.for {p.value(iv)} = {_bound(p, op.properties['lowerBoundMap'], lbs, 'max')}"
    text += f" to {_bound(p, op.properties['upperBoundMap'], ubs, 'min')}"
    step = op.properties.get("step")
    if isinstance(step, IntegerAttr) and step.value != 1:
        text += f" step {step.value}"
    if inits:
        pairs = ", ".join(f"{p.value(a)} = {p.value(v)}" for a, v in zip(iter_args, inits))
        text += f" iter_args({pairs}) -> ({', '.join(str(r.type) for r in op.results)})"
    text += " " + p.region(op.regions[0], False, bool(inits))
    return text + p.attr_dict(_left(op, "lowerBoundMap", "upperBoundMap", "step", "operandSegmentSizes"))


@custom_printer("affine.if")
def _if(p: Printer, op: Operation) -> str:
    cond = op.attributes["condition"]
    text = str(cond)
    s = affine.parse_set(text[11:-1])
    if len(op.operands) != s.dims + s.syms:
        raise ValueError("operand count")
    text = f"affine.if {cond}{_dim_syms(p, op.operands, s.dims)}"
    if len(op.results) == 1:
        text += f" -> {op.results[0].type}"
    elif op.results:
        text += " -> (" + ", ".join(str(r.type) for r in op.results) + ")"
    show = bool(op.results)
    text += " " + p.region(op.regions[0], False, show)
    if op.regions[1].blocks:
        text += " else " + p.region(op.regions[1], False, show)
    rest = {k: v for k, v in {**op.properties, **op.attributes}.items() if k != "condition"}
    return text + p.attr_dict(rest)


@custom_printer("affine.yield")
def _yield(p: Printer, op: Operation) -> str:
    return return_like(p, op, "affine.yield")
