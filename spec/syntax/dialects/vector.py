"""The `vector` ops found around the pass: `vector.load`, `store`, `print`,
`broadcast`, `splat`, `extract`, `insert`, `transfer_read` and
`transfer_write`; the builder rules and the printers (a blank before
`vector.insert`'s position, as mlir-opt-19 prints it).
"""

from __future__ import annotations

from typing import Any

from spec import registry
from spec.attributes import INDEX, ArrayAttr, Attr, IntegerAttr, OpaqueAttr, StringAttr, Type
from spec.ir import Operation
from spec.syntax.build_base import (
    BuilderBase,
    PartialOp,
    UseRef,
    memref_element,
    segment_sizes,
    split_top,
)
from spec.syntax.custom_registry import custom_printer, mixed, segments, shown_attrs
from spec.syntax.printer import Printer
from spec.syntax.string_literals import unescape

KEYWORD_FIRST: frozenset[str] = frozenset()
"""Rules whose first child is the op keyword: it locates the op and is dropped
from the children the callback sees."""

NAME_FIRST: frozenset[str] = frozenset(
    "vector_splat_op vector_transfer_read_op vector_transfer_write_op vector_extract_op vector_insert_op vector_broadcast_op vector_load_op "
    "vector_print_op vector_store_op".split()
)
"""Rules whose first child is the token naming the op: kept, and the location."""

KEYWORDS: dict[str, str] = {
    "vector_splat_kw": "VECTOR_SPLAT_KW",
    "vector_transfer_read_kw": "VECTOR_TRANSFER_READ_KW",
    "vector_transfer_write_kw": "VECTOR_TRANSFER_WRITE_KW",
    "vector_extract_kw": "VECTOR_EXTRACT_KW",
    "vector_insert_kw": "VECTOR_INSERT_KW",
    "vector_broadcast_kw": "VECTOR_BROADCAST_KW",
    "vector_load_kw": "VECTOR_LOAD_KW",
    "vector_print_kw": "VECTOR_PRINT_KW",
    "vector_store_kw": "VECTOR_STORE_KW",
}
"""Keyword rules (string literals) and the token type each hands on."""


def shape_dims(t: str) -> list[str]:
    """The dims of a shaped type's text (`memref<4x?xf32>`: `4`, `?`)."""
    body = split_top(t[t.index("<") + 1 : -1])[0]
    parts = body.split("x")
    return parts[:-1]


def _element(t: str) -> str:
    return split_top(t[t.index("<") + 1 : -1])[0].split("x")[-1]


def minor_identity(rank: int, k: int) -> str:
    """`affine_map<(d0, ..., d{rank-1}) -> (the last k dims)>`."""
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({', '.join(f'd{i}' for i in range(rank - k, rank))})>"


class VectorRules(BuilderBase):
    """The rules of the `vector` ops' custom forms."""

    def vector_splat_op(self, meta: Any, items: list) -> PartialOp:
        name = str(items[0])
        attrs, (_, v, t) = self._rest(items)
        t = self.read_value_type(t)
        elem = Type(memref_element(t.text.replace("vector<", "memref<", 1)))
        return self._custom_op(name, meta, [self.typed(v, elem)], [t], attrs)

    def vector_load_op(self, meta: Any, items: list) -> PartialOp:
        base, idx = items[1], items[2] or []
        attrs = items[3] if isinstance(items[3], dict) else None
        mt, vt = self.read_value_type(items[-2]), self.read_value_type(items[-1])
        return self._custom_op(
            "vector.load", meta, [self.typed(base, mt), *(self.typed(i, INDEX) for i in idx)], [vt], attrs
        )

    def vector_store_op(self, meta: Any, items: list) -> PartialOp:
        val, base, idx = items[1], items[2], items[3] or []
        attrs = items[4] if isinstance(items[4], dict) else None
        mt, vt = self.read_value_type(items[-2]), self.read_value_type(items[-1])
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

    def vector_broadcast_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[2] if isinstance(items[2], dict) else None
        return self._custom_op(
            "vector.broadcast",
            meta,
            [self.typed(items[1], self.read_value_type(items[-2]))],
            [self.read_value_type(items[-1])],
            attrs,
        )

    def vector_extract_op(self, meta: Any, items: list) -> PartialOp:
        res_t, src_t = self.read_value_type(items[-2]), self.read_value_type(items[-1])
        props: dict[str, Attr] = {}
        dyn = self.mixed_sizes(items[2], "static_position", props)
        return self._custom_op(
            "vector.extract", meta, [self.typed(items[1], src_t), *dyn], [res_t], self._attrs(items), props
        )

    def vector_insert_op(self, meta: Any, items: list) -> PartialOp:
        val_t, dst_t = self.read_value_type(items[-2]), self.read_value_type(items[-1])
        props: dict[str, Attr] = {}
        dyn = self.mixed_sizes(items[3], "static_position", props)
        operands = [self.typed(items[1], val_t), self.typed(items[2], dst_t), *dyn]
        return self._custom_op("vector.insert", meta, operands, [dst_t], self._attrs(items), props)

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
    ) -> PartialOp:
        shape = shape_dims(vec_t.text)
        props: dict[str, Attr] = {
            "in_bounds": ArrayAttr(tuple(IntegerAttr(0, Type("i1")) for _ in shape)),
            "permutation_map": OpaqueAttr(minor_identity(len(shape_dims(mem_t.text)), len(shape))),
        }
        operands = [*lead, self.typed(mem, mem_t), *(self.typed(u, INDEX) for u in idx)]
        if name == "vector.transfer_read":
            operands = [self.typed(mem, mem_t), *(self.typed(u, INDEX) for u in idx), *lead]
        if mask is not None:
            operands.append(self.typed(mask, Type("vector<" + "".join(f"{d}x" for d in shape) + "i1>")))
        sizes = (
            (1, len(idx), 1, int(mask is not None))
            if name == "vector.transfer_read"
            else (1, 1, len(idx), int(mask is not None))
        )
        props["operandSegmentSizes"] = segment_sizes(*sizes)
        return self._custom_op(name, meta, operands, [vec_t] if name == "vector.transfer_read" else [], attrs, props)

    def vector_transfer_read_op(self, meta: Any, items: list) -> PartialOp:
        mem_t, vec_t = self.read_value_type(items[-2]), self.read_value_type(items[-1])
        uses = [i for i in items[3:-2] if isinstance(i, UseRef)]
        mask = uses[1] if len(uses) > 1 else None
        pad = self.typed(uses[0], Type(_element(vec_t.text)))
        return self._transfer(
            "vector.transfer_read", meta, items[1], items[2] or [], vec_t, mem_t, [pad], mask, self._attrs(items)
        )

    def vector_transfer_write_op(self, meta: Any, items: list) -> PartialOp:
        vec_t, mem_t = self.read_value_type(items[-2]), self.read_value_type(items[-1])
        uses = [i for i in items[4:-2] if isinstance(i, UseRef)]
        mask = uses[0] if uses else None
        val = self.typed(items[1], vec_t)
        return self._transfer(
            "vector.transfer_write", meta, items[2], items[3] or [], vec_t, mem_t, [val], mask, self._attrs(items)
        )


_left = shown_attrs


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


@custom_printer("vector.broadcast")
def _vbroadcast(p: Printer, op: Operation) -> str:
    (v,) = op.operands
    return f"vector.broadcast {p.value(v)}{p.attr_dict(_left(op))} : {v.type} to {op.results[0].type}"


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


def _transfer_left(op: Operation) -> dict[str, Attr]:
    """`in_bounds` all false and a minor identity `permutation_map` are left out."""

    mem_t = op.operands[0].type if op.name == "vector.transfer_read" else op.operands[1].type
    vec_t = op.results[0].type if op.name == "vector.transfer_read" else op.operands[0].type
    rest = _left(op, "operandSegmentSizes")
    if str(rest.get("permutation_map")) == minor_identity(len(shape_dims(mem_t.text)), len(shape_dims(vec_t.text))):
        del rest["permutation_map"]
    ib = rest.get("in_bounds")
    if ib is not None and str(ib).strip("[]").replace(", ", ",").split(",") == ["false"] * len(shape_dims(vec_t.text)):
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
