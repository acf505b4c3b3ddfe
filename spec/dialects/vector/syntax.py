"""The `vector` ops of the subset: `load`, `store`, `print`, `splat`,
`broadcast`, `bitcast`, `shape_cast`, `type_cast`, `transpose`, `extract`,
`insert`, `fma`, `reduction`, `outerproduct`, `contract`, `constant_mask`,
`create_mask`, `gather`, `compressstore`, `from_elements`, `transfer_read` and
`transfer_write`: the builder rules of their custom forms and the printers.

The builders make the op mlir-opt-19's parsers make: a type the form
requires to be a vector (or a memref) refused where it is written (`invalid
kind of type specified`); the defaults the custom parsers add
(`outerproduct`'s and `contract`'s `kind`, a transfer's minor identity
`permutation_map` and all-false `in_bounds`, one entry per map result); the
types they infer (an outer product's result, a transfer's mask from its
map, `extract`'s, `insert`'s and `gather`'s operand types). The printers
give 19's text, quirks included: `outerproduct` prints its attributes,
`kind` always among them, only when it has an accumulator; `contract`
prints its iterator types as strings and its `kind` always; a transfer
leaves out a minor identity map and an `in_bounds` with nothing true.

A transfer of a tensor is refused as outside the subset: 19 declares no
memory effect for it, an effect this tool's registry gives by op name.
The ops' own checks are `spec.dialects.vector.verifiers`.
"""

from __future__ import annotations

import math
from typing import Any

from lark import Token

from spec import registry
from spec.attributes import (
    I1,
    INDEX,
    ArrayAttr,
    Attr,
    DenseArrayAttr,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    Type,
    shared_type,
)
from spec.diagnostics import DiagnosticError, error
from spec.dialects.vector.verifiers import (
    is_minor_identity,
    kind_name,
    parse_map,
    shaped_element,
    transfer_map,
    transfer_mask_type,
)
from spec.ir import Operation
from spec.syntax.build_base import (
    BuilderBase,
    PartialOp,
    TokenError,
    UseRef,
    segment_sizes,
)
from spec.syntax.custom_registry import custom_printer, mixed, segments, shown_attrs
from spec.syntax.dialect_attrs.vector_enums import ENUMS, KINDS, failed_parameter, unknown_case
from spec.syntax.op_checks import declared
from spec.syntax.printer import Printer
from spec.syntax.string_literals import unescape

KEYWORD_FIRST: frozenset[str] = frozenset()
"""Rules whose first child is the op keyword: it locates the op and is dropped
from the children the callback sees."""

NAME_FIRST: frozenset[str] = frozenset(
    "vector_splat_op vector_from_elements_op vector_transfer_read_op vector_transfer_write_op vector_extract_op vector_insert_op "
    "vector_cast_op vector_load_op vector_print_op vector_store_op vector_transpose_op vector_fma_op "
    "vector_compressstore_op vector_gather_op vector_constant_mask_op vector_create_mask_op vector_reduction_op "
    "vector_outerproduct_op vector_contract_op".split()
)
"""Rules whose first child is the token naming the op: kept, and the location."""

KEYWORDS: dict[str, str] = {
    "vector_splat_kw": "VECTOR_SPLAT_KW",
    "vector_from_elements_kw": "VECTOR_FROM_ELEMENTS_KW",
    "vector_transfer_read_kw": "VECTOR_TRANSFER_READ_KW",
    "vector_transfer_write_kw": "VECTOR_TRANSFER_WRITE_KW",
    "vector_extract_kw": "VECTOR_EXTRACT_KW",
    "vector_insert_kw": "VECTOR_INSERT_KW",
    "vector_cast_kw": "VECTOR_CAST_KW",
    "vector_load_kw": "VECTOR_LOAD_KW",
    "vector_print_kw": "VECTOR_PRINT_KW",
    "vector_store_kw": "VECTOR_STORE_KW",
    "vector_transpose_kw": "VECTOR_TRANSPOSE_KW",
    "vector_fma_kw": "VECTOR_FMA_KW",
    "vector_compressstore_kw": "VECTOR_COMPRESSSTORE_KW",
    "vector_gather_kw": "VECTOR_GATHER_KW",
    "vector_constant_mask_kw": "VECTOR_CONSTANT_MASK_KW",
    "vector_create_mask_kw": "VECTOR_CREATE_MASK_KW",
    "vector_reduction_kw": "VECTOR_REDUCTION_KW",
    "vector_outerproduct_kw": "VECTOR_OUTERPRODUCT_KW",
    "vector_contract_kw": "VECTOR_CONTRACT_KW",
}
"""Keyword rules (string literals) and the token type each hands on."""

TRAIT_ATTRS = ("indexing_maps", "iterator_types", "kind")
"""`vector.contract`'s attributes written in its leading dictionary."""


class WrittenAttrs(dict[str, Attr]):
    """The attr-dict of an op 19 reads with a declarative parser, with the
    `{` it starts at: 19 checks the inherent attributes written there as
    it reads them, and reports a failure at the `{`."""

    at: Token


class VectorRules(BuilderBase):
    """The rules of the `vector` ops' custom forms."""

    def _typed_kind(self, tok: Any, name: str, kind: str) -> Type:
        """The type written at `tok`, which the form requires to be a
        `vector` (kind `vector`), a `memref`, or shaped (memref or tensor)."""
        t = self.read_value_type(tok)
        ok = {
            "vector": t.vector is not None,
            "memref": t.is_memref,
            "shaped": t.is_memref or t.text.startswith(("tensor<", "vector<")),
        }[kind]
        if not ok:
            raise TokenError(tok, 0, f"custom op '{name}' invalid kind of type specified")
        return t

    def vector_attr_dict(self, meta: Any, items: list) -> WrittenAttrs:
        attrs = WrittenAttrs(i for i in items[1:] if i is not None)
        attrs.at = items[0]
        return attrs

    def _written(self, name: str, attrs: dict[str, Attr] | None) -> None:
        """19's check of the inherent attributes written in the attr-dict of
        a declaratively parsed op, by name: `custom op
        'X' 'X' op attribute 'k' failed to satisfy constraint: ...`."""
        if not isinstance(attrs, WrittenAttrs):
            return
        for key, inherent in sorted(declared(name).items()):
            if key in attrs and not inherent.kind.satisfied(attrs[key]):
                message = f"'{name}' op attribute '{key}' failed to satisfy constraint: {inherent.kind.summary}"
                raise DiagnosticError(error(self.tok_loc(attrs.at), f"custom op '{name}' {message}"))

    def vector_splat_op(self, meta: Any, items: list) -> PartialOp:
        name = str(items[0])
        attrs, (_, v, t) = self._rest(items)
        t = self._typed_kind(t, name, "vector")
        return self._custom_op(name, meta, [self.typed(v, t.vector.element)], [t], attrs)  # type: ignore[union-attr]  # a vector: checked just above

    def vector_from_elements_op(self, meta: Any, items: list) -> PartialOp:
        """`vector.from_elements %a, ... : vector<...>`: one operand per
        element, typed from the result (`TypesMatchWith`)."""
        name = str(items[0])
        uses = items[1] or []
        attrs = items[2] if isinstance(items[2], dict) else None
        t = self._typed_kind(items[-1], name, "vector")
        shape = t.vector
        count = math.prod(shape.sizes) if shape is not None else 0
        if len(uses) != count:
            where = uses[0].loc if uses else self.tok_loc(items[-1])
            raise DiagnosticError(
                error(where, f"custom op '{name}' {len(uses)} operands present, but expected {count}")
            )
        element = shape.element if shape is not None else t
        return self._custom_op(name, meta, [self.typed(u, element) for u in uses], [t], attrs)

    def vector_load_op(self, meta: Any, items: list) -> PartialOp:
        base, idx = items[1], items[2] or []
        attrs = items[3] if isinstance(items[3], dict) else None
        self._written("vector.load", attrs)
        mt = self._typed_kind(items[-2], "vector.load", "memref")
        vt = self._typed_kind(items[-1], "vector.load", "vector")
        return self._custom_op(
            "vector.load", meta, [self.typed(base, mt), *(self.typed(i, INDEX) for i in idx)], [vt], attrs
        )

    def vector_store_op(self, meta: Any, items: list) -> PartialOp:
        val, base, idx = items[1], items[2], items[3] or []
        attrs = items[4] if isinstance(items[4], dict) else None
        self._written("vector.store", attrs)
        mt = self._typed_kind(items[-2], "vector.store", "memref")
        vt = self._typed_kind(items[-1], "vector.store", "vector")
        return self._custom_op(
            "vector.store",
            meta,
            [self.typed(val, vt), self.typed(base, mt), *(self.typed(i, INDEX) for i in idx)],
            [],
            attrs,
        )

    def vector_print_op(self, meta: Any, items: list) -> PartialOp:
        rest = items[1:]
        attrs = rest.pop() if rest and isinstance(rest[-1], dict) else None
        self._written("vector.print", attrs)
        props: dict[str, Attr] = {}
        operands: list[UseRef] = []
        for item in rest:
            if isinstance(item, tuple) and item[0] == "punctuation":
                props["punctuation"] = OpaqueAttr(f"#vector.punctuation<{item[1]}>")
            elif isinstance(item, tuple) and item[0] == "str":
                props["stringLiteral"] = StringAttr(unescape(item[1]))
        if len(rest) >= 2 and not isinstance(rest[0], tuple):
            operands = [self.typed(rest[0], self.read_value_type(rest[1]))]
        return self._custom_op("vector.print", meta, operands, [], attrs, props)

    def vector_print_punct(self, meta: Any, items: list) -> tuple[str, str]:
        return ("punctuation", str(items[0]))

    def vector_print_str(self, meta: Any, items: list) -> tuple[str, str]:
        return ("str", str(items[0]))

    def vector_cast_op(self, meta: Any, items: list) -> PartialOp:
        """`broadcast` (any source, a vector result), `bitcast` and
        `shape_cast` (vectors), `type_cast` (memrefs)."""
        name = str(items[0])
        src_kind, res_kind = {
            "vector.broadcast": (None, "vector"),
            "vector.type_cast": ("memref", "memref"),
        }.get(name, ("vector", "vector"))
        src = self.read_value_type(items[-2]) if src_kind is None else self._typed_kind(items[-2], name, src_kind)
        res = self._typed_kind(items[-1], name, res_kind)
        return self._custom_op(name, meta, [self.typed(items[1], src)], [res], self._attrs(items))

    def vector_extract_op(self, meta: Any, items: list) -> PartialOp:
        self._written("vector.extract", self._attrs(items))
        res_t = self.read_value_type(items[-2])
        src_t = self._typed_kind(items[-1], "vector.extract", "vector")
        props: dict[str, Attr] = {}
        dyn = self.mixed_sizes(items[2], "static_position", props)
        return self._custom_op(
            "vector.extract", meta, [self.typed(items[1], src_t), *dyn], [res_t], self._attrs(items), props
        )

    def vector_insert_op(self, meta: Any, items: list) -> PartialOp:
        self._written("vector.insert", self._attrs(items))
        val_t = self.read_value_type(items[-2])
        dst_t = self._typed_kind(items[-1], "vector.insert", "vector")
        props: dict[str, Attr] = {}
        dyn = self.mixed_sizes(items[3], "static_position", props)
        operands = [self.typed(items[1], val_t), self.typed(items[2], dst_t), *dyn]
        return self._custom_op("vector.insert", meta, operands, [dst_t], self._attrs(items), props)

    def vector_transpose_op(self, meta: Any, items: list) -> PartialOp:
        self._written("vector.transpose", self._attrs(items))
        src = self._typed_kind(items[-2], "vector.transpose", "vector")
        res = self._typed_kind(items[-1], "vector.transpose", "vector")
        perm = tuple(int(str(i), 0) for i in items[2:-2] if isinstance(i, Token) and i.type == "INT")
        props: dict[str, Attr] = {"permutation": DenseArrayAttr(Type("i64"), perm)}
        return self._custom_op("vector.transpose", meta, [self.typed(items[1], src)], [res], self._attrs(items), props)

    def vector_fma_op(self, meta: Any, items: list) -> PartialOp:
        t = self._typed_kind(items[-1], "vector.fma", "vector")
        operands = [self.typed(u, t) for u in items[1:4]]
        return self._custom_op("vector.fma", meta, operands, [t], self._attrs(items))

    def vector_compressstore_op(self, meta: Any, items: list) -> PartialOp:
        name = "vector.compressstore"
        base_t = self._typed_kind(items[-3], name, "memref")
        mask_t = self._typed_kind(items[-2], name, "vector")
        val_t = self._typed_kind(items[-1], name, "vector")
        operands = [
            self.typed(items[1], base_t),
            *(self.typed(i, INDEX) for i in items[2] or []),
            self.typed(items[3], mask_t),
            self.typed(items[4], val_t),
        ]
        return self._custom_op(name, meta, operands, [], self._attrs(items))

    def vector_gather_op(self, meta: Any, items: list) -> PartialOp:
        name = "vector.gather"
        base_t = self._typed_kind(items[-5], name, "shaped")
        idx_t, mask_t, pass_t, res_t = (self._typed_kind(t, name, "vector") for t in items[-4:])
        operands = [
            self.typed(items[1], base_t),
            *(self.typed(i, INDEX) for i in items[2] or []),
            self.typed(items[3], idx_t),
            self.typed(items[4], mask_t),
            self.typed(items[5], pass_t),
        ]
        return self._custom_op(name, meta, operands, [res_t], self._attrs(items))

    def vector_constant_mask_op(self, meta: Any, items: list) -> PartialOp:
        self._written("vector.constant_mask", self._attrs(items))
        t = self._typed_kind(items[-1], "vector.constant_mask", "vector")
        sizes = [i for i in items[1:-1] if isinstance(i, Attr)]
        props: dict[str, Attr] = {"mask_dim_sizes": ArrayAttr(tuple(sizes))}
        return self._custom_op("vector.constant_mask", meta, [], [t], self._attrs(items), props)

    def vector_create_mask_op(self, meta: Any, items: list) -> PartialOp:
        t = self._typed_kind(items[-1], "vector.create_mask", "vector")
        operands = [self.typed(u, INDEX) for u in items[1] or []]
        return self._custom_op("vector.create_mask", meta, operands, [t], self._attrs(items))

    def vector_kind_ref(self, meta: Any, items: list) -> list[Token]:
        return items

    def vector_reduction_op(self, meta: Any, items: list) -> PartialOp:
        """`<kind>, %v [, %acc] [fastmath<...>] [attr-dict] : V into T` (the
        accumulator of the result's type)."""
        name = "vector.reduction"
        _, case, close = items[1]
        self._check_kind(name, case, close)
        self._written(name, self._attrs(items[2:]))
        vec_t = self._typed_kind(items[-2], name, "vector")
        res_t = self.read_value_type(items[-1])
        rest = items[2:-2]
        uses = [u for u in rest if isinstance(u, UseRef)]
        props: dict[str, Attr] = {"kind": OpaqueAttr(f"#vector.kind<{case}>")}
        for flag in rest:
            if isinstance(flag, tuple):
                if flag[0] != "fastmath":
                    raise DiagnosticError(error(self.loc(meta), f"custom op '{name}' expected ':'"))
                props["fastmath"] = flag[1]
        operands = [self.typed(uses[0], vec_t), *(self.typed(u, res_t) for u in uses[1:])]
        return self._custom_op(name, meta, operands, [res_t], self._attrs(rest), props)

    def _check_kind(self, name: str, case: Token, close: Token) -> None:
        """A kind 19's `CombiningKind` does not have: its two errors, at the
        case and at the `>` after it."""
        if str(case) in KINDS:
            return
        enum, owner, cases = ENUMS["kind"]
        raise DiagnosticError(
            [
                error(self.tok_loc(case), f"custom op '{name}' {unknown_case(enum, cases)}"),
                error(self.tok_loc(close), f"custom op '{name}' {failed_parameter(owner, enum)}"),
            ]
        )

    def vector_outerproduct_op(self, meta: Any, items: list) -> PartialOp:
        """`%lhs, %rhs [, %acc] [attr-dict] : L, R`: the result (and the
        accumulator) `vector<L0xR0xT>`, or `vector<L0xT>` for a scalar `R`;
        an operand after the accumulator is dropped, as 19 drops it."""
        name = "vector.outerproduct"
        uses: list[UseRef] = items[1]
        if len(uses) < 2:
            raise DiagnosticError(error(self.loc(meta), f"custom op '{name}' expected at least 2 operands"))
        lhs_t, rhs_t = self.read_value_type(items[-2]), self.read_value_type(items[-1])
        lhs, rhs = lhs_t.vector, rhs_t.vector
        if lhs is None:
            raise DiagnosticError(error(self.loc(meta), f"custom op '{name}' expected vector type for operand #1"))
        if not lhs.sizes:
            raise DiagnosticError(error(self.loc(meta), f"custom op '{name}' expected 1-d vector for operand #1"))
        if rhs is not None and rhs.sizes:
            res = lhs.text((lhs.sizes[0], rhs.sizes[0]), (lhs.scalable[0], rhs.scalable[0]))
        else:
            res = lhs.text((lhs.sizes[0],), (lhs.scalable[0],))
        res_t = shared_type(Type(res))
        operands = [self.typed(uses[0], lhs_t), self.typed(uses[1], rhs_t), *(self.typed(u, res_t) for u in uses[2:3])]
        return self._custom_op(name, meta, operands, [res_t], self._attrs(items[2:-2]))

    def vector_contract_op(self, meta: Any, items: list) -> PartialOp:
        """`{indexing_maps = ..., iterator_types = [strings], kind = ...} %a,
        %b, %acc [attr-dict] : A, B into R`: the leading dictionary's
        entries join the attributes (after the trailing ones), its iterator
        types become `#vector.iterator_type<...>`, `kind` defaults to `add`."""
        name = "vector.contract"
        open_brace: Token = items[1]
        lead: dict[str, Attr] = dict(e for e in items[2:] if isinstance(e, tuple))
        uses: list[UseRef] = next(i for i in items[2:] if isinstance(i, list))
        trailing = self._attrs(items[2:-3]) or {}
        lhs_t, rhs_t, res_t = (self.read_value_type(t) for t in items[-3:])
        loc = self.loc(meta)
        at_dict = self.tok_loc(open_brace)
        if len(uses) < 3:
            raise DiagnosticError(error(loc, f"custom op '{name}' expected 3 operands"))
        if len(uses) not in (3, 5):
            raise DiagnosticError(error(loc, f"custom op '{name}' expected zero or exactly 2 vector mask operands"))
        attrs = {**trailing, **lead}
        iterators = attrs.get("iterator_types")
        if not isinstance(iterators, ArrayAttr) or not all(isinstance(e, StringAttr) for e in iterators.elements):
            # 19 reads the strings without checking what they are (and
            # crashes on anything else): refused here instead.
            raise DiagnosticError(error(at_dict, f"custom op '{name}' expected iterator_types array attribute"))
        converted = []
        for e in iterators.elements:
            value = e.value  # type: ignore[attr-defined]  # a StringAttr: checked just above
            if value not in ENUMS["iterator_type"][2]:
                raise DiagnosticError(error(at_dict, f"custom op '{name}' unexpected iterator_type ({value})"))
            converted.append(OpaqueAttr(f"#vector.iterator_type<{value}>"))
        attrs["iterator_types"] = ArrayAttr(tuple(converted))
        operands = [self.typed(uses[0], lhs_t), self.typed(uses[1], rhs_t), self.typed(uses[2], res_t)]
        if len(uses) == 5:
            lv, rv = lhs_t.vector, rhs_t.vector
            if lv is None or rv is None:
                raise DiagnosticError(error(loc, f"custom op '{name}' expected vector types for masked operands"))
            operands += [
                self.typed(uses[3], Type(lv.text().replace(f"{lv.element}>", "i1>"))),
                self.typed(uses[4], Type(rv.text().replace(f"{rv.element}>", "i1>"))),
            ]
        return self._custom_op(name, meta, operands, [res_t], attrs)

    def vector_types_at(self, meta: Any, items: list) -> Token:
        return items[0]

    def vector_dict_open(self, meta: Any, items: list) -> Token:
        return items[0]

    def _transfer(
        self,
        name: str,
        meta: Any,
        mem: UseRef,
        idx: list,
        vec_t: Type,
        mem_t: Type,
        lead: list[UseRef],
        mask: UseRef | None,
        attrs: dict | None,
        colon: Token,
    ) -> PartialOp:
        """A transfer's operands and defaults as 19's parser makes them: the
        map and `in_bounds` when not written, the mask's type inferred."""
        attrs = dict(attrs or {})
        if "permutation_map" not in attrs:
            attrs["permutation_map"] = OpaqueAttr(transfer_map(mem_t, vec_t))
        perm = parse_map(attrs["permutation_map"])
        n_results = len(perm.results) if perm is not None else 0
        if "in_bounds" not in attrs:
            attrs["in_bounds"] = ArrayAttr(tuple(IntegerAttr(0, I1) for _ in range(n_results)))
        operands = [*lead, self.typed(mem, mem_t), *(self.typed(u, INDEX) for u in idx)]
        if name == "vector.transfer_read":
            operands = [self.typed(mem, mem_t), *(self.typed(u, INDEX) for u in idx), *lead]
        if mask is not None:
            if shaped_element(mem_t).vector is not None:
                raise DiagnosticError(
                    error(mask.loc, f"custom op '{name}' does not support masks with vector element type")
                )
            vec = vec_t.vector
            if perm is None or vec is None or vec.rank != n_results:
                raise DiagnosticError(
                    error(
                        self.tok_loc(colon),
                        f"custom op '{name}' expected the same rank for the vector and the results of the permutation map",
                    )
                )
            inferred = transfer_mask_type(vec_t, perm)
            if inferred is None:
                # 19 asserts here (no inverse of the map): refused instead.
                raise DiagnosticError(
                    error(self.tok_loc(colon), f"custom op '{name}' expected a projected permutation map")
                )
            operands.append(self.typed(mask, inferred))
        sizes = (
            (1, len(idx), 1, int(mask is not None))
            if name == "vector.transfer_read"
            else (1, 1, len(idx), int(mask is not None))
        )
        props: dict[str, Attr] = {"operandSegmentSizes": segment_sizes(*sizes)}
        return self._custom_op(name, meta, operands, [vec_t] if name == "vector.transfer_read" else [], attrs, props)

    def _transfer_types(self, name: str, colon: Token, shaped: Any, vector: Any) -> tuple[Type, Type]:
        """19's checks of a transfer's two types (at the `:`), and the
        subset's: a memref source."""
        mem_t, vec_t = self.read_value_type(shaped), self.read_value_type(vector)
        ranked = mem_t.text.startswith(("memref<", "tensor<")) and not mem_t.text.startswith(("memref<*", "tensor<*"))
        checks = [("memref or ranked tensor", ranked), ("vector", vec_t.vector is not None)]
        for what, ok in checks if name == "vector.transfer_read" else reversed(checks):
            if not ok:
                raise DiagnosticError(error(self.tok_loc(colon), f"custom op '{name}' requires {what} type"))
        if not mem_t.is_memref:
            raise TokenError(
                shaped,
                0,
                f"custom op '{name}' of a tensor is unsupported: this tool's subset has transfers of memrefs (docs/subset.md)",
            )
        return mem_t, vec_t

    def vector_transfer_read_op(self, meta: Any, items: list) -> PartialOp:
        name = "vector.transfer_read"
        colon = next(i for i in items if isinstance(i, Token) and str(i) == ":")
        mem_t, vec_t = self._transfer_types(name, colon, items[-2], items[-1])
        uses = [i for i in items[3:-3] if isinstance(i, UseRef)]
        mask = uses[1] if len(uses) > 1 else None
        pad = self.typed(uses[0], shaped_element(mem_t))
        return self._transfer(
            name, meta, items[1], items[2] or [], vec_t, mem_t, [pad], mask, self._attrs(items), colon
        )

    def vector_transfer_write_op(self, meta: Any, items: list) -> PartialOp:
        name = "vector.transfer_write"
        colon = next(i for i in items if isinstance(i, Token) and str(i) == ":")
        mem_t, vec_t = self._transfer_types(name, colon, items[-1], items[-2])
        uses = [i for i in items[4:-3] if isinstance(i, UseRef)]
        mask = uses[0] if uses else None
        val = self.typed(items[1], vec_t)
        return self._transfer(
            name, meta, items[2], items[3] or [], vec_t, mem_t, [val], mask, self._attrs(items), colon
        )


_left = shown_attrs


@custom_printer("vector.from_elements")
def _from_elements(p: Printer, op: Operation) -> str:
    return f"vector.from_elements {p.values(op.operands)}{p.attr_dict(_left(op))} : {op.results[0].type}"


@custom_printer("vector.splat")
def _splat(p: Printer, op: Operation) -> str:
    return f"vector.splat {p.value(op.operands[0])}{p.attr_dict(_left(op))} : {op.results[0].type}"


@custom_printer("vector.load")
def _vload(p: Printer, op: Operation) -> str:
    base, *idx = op.operands
    return f"vector.load {p.value(base)}[{p.values(idx)}]{p.attr_dict(_left(op))} : {base.type}, {op.results[0].type}"


@custom_printer("vector.store")
def _vstore(p: Printer, op: Operation) -> str:
    val, base, *idx = op.operands
    return f"vector.store {p.value(val)}, {p.value(base)}[{p.values(idx)}]{p.attr_dict(_left(op))} : {base.type}, {val.type}"


@custom_printer("vector.print")
def _vprint(p: Printer, op: Operation) -> str:
    parts = ["vector.print"]
    if op.operands:
        (v,) = op.operands
        parts.append(f"{p.value(v)} : {v.type}")
    text = op.properties.get("stringLiteral")
    if isinstance(text, StringAttr):
        parts.append(f"str {text}")
    default = registry.lookup(op.name).default_properties["punctuation"]
    punct = op.properties.get("punctuation", default)
    if punct != default:
        parts.append("punctuation <" + str(punct).removeprefix("#vector.punctuation<"))
    return " ".join(parts) + p.attr_dict(_left(op, "punctuation", "stringLiteral"))


@custom_printer("vector.broadcast", "vector.bitcast", "vector.shape_cast", "vector.type_cast")
def _vcast(p: Printer, op: Operation) -> str:
    (v,) = op.operands
    return f"{op.name} {p.value(v)}{p.attr_dict(_left(op))} : {v.type} to {op.results[0].type}"


@custom_printer("vector.extract")
def _vextract(p: Printer, op: Operation) -> str:
    src, *dyn = op.operands
    pos = mixed(p, op.properties["static_position"], dyn)
    return f"vector.extract {p.value(src)}{pos}{p.attr_dict(_left(op, 'static_position'))} : {op.results[0].type} from {src.type}"


@custom_printer("vector.insert")
def _vinsert(p: Printer, op: Operation) -> str:
    val, dst, *dyn = op.operands
    pos = mixed(p, op.properties["static_position"], dyn)
    return f"vector.insert {p.value(val)}, {p.value(dst)} {pos}{p.attr_dict(_left(op, 'static_position'))} : {val.type} into {dst.type}"


@custom_printer("vector.transpose")
def _vtranspose(p: Printer, op: Operation) -> str:
    perm = op.properties.get("permutation")
    if not isinstance(perm, DenseArrayAttr):
        raise ValueError("no permutation: printed generically")
    (v,) = op.operands
    text = f"vector.transpose {p.value(v)}, [{', '.join(str(i) for i in perm.values)}]"
    return text + f"{p.attr_dict(_left(op, 'permutation'))} : {v.type} to {op.results[0].type}"


@custom_printer("vector.fma")
def _vfma(p: Printer, op: Operation) -> str:
    return f"vector.fma {p.values(op.operands)}{p.attr_dict(_left(op))} : {op.operands[0].type}"


@custom_printer("vector.compressstore")
def _vcompressstore(p: Printer, op: Operation) -> str:
    base, *idx, mask, val = op.operands
    text = f"vector.compressstore {p.value(base)}[{p.values(idx)}], {p.value(mask)}, {p.value(val)}"
    return text + f"{p.attr_dict(_left(op))} : {base.type}, {mask.type}, {val.type}"


@custom_printer("vector.gather")
def _vgather(p: Printer, op: Operation) -> str:
    base, *idx, iv, mask, pt = op.operands
    text = f"vector.gather {p.value(base)}[{p.values(idx)}] [{p.value(iv)}], {p.value(mask)}, {p.value(pt)}"
    types = f"{base.type}, {iv.type}, {mask.type}, {pt.type} into {op.results[0].type}"
    return text + f"{p.attr_dict(_left(op))} : {types}"


@custom_printer("vector.constant_mask")
def _vconstant_mask(p: Printer, op: Operation) -> str:
    sizes = op.properties.get("mask_dim_sizes")
    if not isinstance(sizes, ArrayAttr):
        raise ValueError("no mask_dim_sizes: printed generically")
    return f"vector.constant_mask {sizes}{p.attr_dict(_left(op, 'mask_dim_sizes'))} : {op.results[0].type}"


@custom_printer("vector.create_mask")
def _vcreate_mask(p: Printer, op: Operation) -> str:
    return f"vector.create_mask {p.values(op.operands)}{p.attr_dict(_left(op))} : {op.results[0].type}"


@custom_printer("vector.reduction")
def _vreduction(p: Printer, op: Operation) -> str:
    kind = kind_name(op.properties.get("kind"))
    if kind is None:
        raise ValueError("no kind: printed generically")
    text = f"vector.reduction <{kind}>, {p.values(op.operands)}"
    fastmath = op.properties.get("fastmath")
    if fastmath is not None and fastmath != registry.lookup(op.name).default_properties["fastmath"]:
        text += " " + str(fastmath).removeprefix("#arith.")
    return text + f"{p.attr_dict(_left(op, 'kind', 'fastmath'))} : {op.operands[0].type} into {op.results[0].type}"


@custom_printer("vector.outerproduct")
def _vouterproduct(p: Printer, op: Operation) -> str:
    """The attributes (`kind` among them, even its default) only with an
    accumulator, as 19 prints them."""
    lhs, rhs, *acc = op.operands
    text = f"vector.outerproduct {p.value(lhs)}, {p.value(rhs)}"
    if acc:
        text += f", {p.values(acc)}" + p.attr_dict({**op.properties, **op.attributes})
    return text + f" : {lhs.type}, {rhs.type}"


@custom_printer("vector.contract")
def _vcontract(p: Printer, op: Operation) -> str:
    lead: dict[str, Attr] = {}
    for key in TRAIT_ATTRS:
        value = op.properties.get(key)
        if value is None:
            continue
        if key == "iterator_types":
            if not isinstance(value, ArrayAttr):
                raise ValueError("iterator_types not an array: printed generically")
            names = [str(e).removeprefix("#vector.iterator_type<").removesuffix(">") for e in value.elements]
            value = ArrayAttr(tuple(StringAttr(n) for n in names))
        lead[key] = value
    lhs, rhs, acc, *masks = op.operands
    text = f"vector.contract {{{', '.join(f'{k} = {v}' for k, v in sorted(lead.items()))}}} {p.value(lhs)}, {p.value(rhs)}, {p.value(acc)}"
    if len(masks) == 2:
        text += f", {p.values(masks)}"
    return text + f"{p.attr_dict(op.attributes)} : {lhs.type}, {rhs.type} into {op.results[0].type}"


def _transfer_left(op: Operation) -> dict[str, Attr]:
    """The attr-dict of a transfer: a minor identity `permutation_map` and an
    `in_bounds` with nothing true are left out."""
    rest = _left(op, "operandSegmentSizes")
    perm = parse_map(rest.get("permutation_map"))
    if perm is not None and is_minor_identity(perm):
        del rest["permutation_map"]
    ib = rest.get("in_bounds")
    if isinstance(ib, ArrayAttr) and not any(isinstance(e, IntegerAttr) and e.value for e in ib.elements):
        del rest["in_bounds"]
    return rest


@custom_printer("vector.transfer_read")
def _tread(p: Printer, op: Operation) -> str:
    (mem,), idx, (pad,), mask = segments(op)
    m = f", {p.value(mask[0])}" if mask else ""
    return f"vector.transfer_read {p.value(mem)}[{p.values(idx)}], {p.value(pad)}{m}{p.attr_dict(_transfer_left(op))} : {mem.type}, {op.results[0].type}"


@custom_printer("vector.transfer_write")
def _twrite(p: Printer, op: Operation) -> str:
    (val,), (mem,), idx, mask = segments(op)
    m = f", {p.value(mask[0])}" if mask else ""
    return f"vector.transfer_write {p.value(val)}, {p.value(mem)}[{p.values(idx)}]{m}{p.attr_dict(_transfer_left(op))} : {val.type}, {mem.type}"
