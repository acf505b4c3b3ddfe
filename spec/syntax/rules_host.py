"""Builder rules of the `arith` and `memref` ops' custom forms."""

from __future__ import annotations

from typing import Any

from spec.attributes import (
    I1,
    I64,
    INDEX,
    Attr,
    FloatAttr,
    IntegerAttr,
    OpaqueAttr,
    Type,
    arith_flags_text,
    shared_type,
)
from spec.diagnostics import DiagnosticError, error
from spec.syntax.build_base import (
    CMPF_PREDICATES,
    CMPI_PREDICATES,
    BuilderBase,
    PartialOp,
    UseRef,
    memref_element,
    read_type,
    segment_sizes,
)


class HostRules(BuilderBase):
    """Host arithmetic and memory."""

    # -- arith ----------------------------------------------------------------
    def arith_constant_op(self, meta: Any, items: list) -> PartialOp:
        value: Attr = items[-1]
        if isinstance(value, (IntegerAttr, FloatAttr)):
            t = value.type
        elif isinstance(value, OpaqueAttr) and " : " in value.text:
            t = Type(value.text.rsplit(" : ", 1)[1])
        else:
            raise DiagnosticError(error(self.loc(meta), "'arith.constant' op value must be a typed attribute"))
        attrs = next((i for i in items[:-1] if isinstance(i, dict)), None)
        props, attrs = self.split_attrs("arith.constant", attrs, {"value": value})
        return self.op("arith.constant", meta, [], [t], properties=props, attributes=attrs)

    def arith_flags(self, meta: Any, items: list) -> tuple[str, Attr]:
        kind = str(items[0])
        key = {"overflow": "overflowFlags", "fastmath": "fastmath"}.get(kind)
        if key is None:
            raise DiagnosticError(error(self.tok_loc(items[0]), f"expected 'overflow' or 'fastmath', got '{kind}'"))
        text = arith_flags_text(kind, [str(i) for i in items[1:] if i is not None])
        if text is None:
            raise DiagnosticError(error(self.tok_loc(items[0]), f"invalid {kind} flags"))
        return (key, OpaqueAttr(text))

    def _arith(self, name: str, meta: Any, operands: list[UseRef], result: Type, rest: list, extra: dict | None = None) -> PartialOp:
        return self.op_with_flags(name, meta, operands, [result], rest, extra)

    def arith_binary_op(self, meta: Any, items: list) -> PartialOp:
        t = read_type(items[-1])
        return self._arith(str(items[0]), meta, [self.typed(items[1], t), self.typed(items[2], t)], t, items[3:-1])  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def arith_unary_op(self, meta: Any, items: list) -> PartialOp:
        t = read_type(items[-1])
        return self._arith("arith.negf", meta, [self.typed(items[0], t)], t, items[1:-1])  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def arith_cast_op(self, meta: Any, items: list) -> PartialOp:
        src, dst = read_type(items[-2]), read_type(items[-1])
        return self._arith(str(items[0]), meta, [self.typed(items[1], src)], dst, items[2:-2])  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def arith_cmp_op(self, meta: Any, items: list) -> PartialOp:
        name = str(items[0])
        table = CMPI_PREDICATES if name == "arith.cmpi" else CMPF_PREDICATES
        pred = str(items[1])
        if pred not in table:
            raise DiagnosticError(
                error(
                    self.tok_loc(items[1]),
                    f"custom op '{name}' expected string or keyword containing one of the following enum values for attribute 'predicate' [{', '.join(table)}]",
                )
            )
        t = read_type(items[-1])
        pa = {"predicate": IntegerAttr(table.index(pred), I64)}
        return self._arith(name, meta, [self.typed(items[2], t), self.typed(items[3], t)], I1, items[4:-1], pa)  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def arith_select_op(self, meta: Any, items: list) -> PartialOp:
        types = [read_type(t) for t in items[3:] if not isinstance(t, dict) and t is not None]
        t = types[-1]
        cond_t = types[0] if len(types) == 2 else I1
        attrs = next((i for i in items[3:] if isinstance(i, dict)), None)
        ops = [self.typed(items[0], cond_t), self.typed(items[1], t), self.typed(items[2], t)]  # type: ignore[arg-type]  # read_type of a value type: no function type here
        return self.op("arith.select", meta, ops, [t], attributes=attrs)  # type: ignore[list-item]  # read_type of a value type: no function type here

    # -- memref -----------------------------------------------------------------
    def memref_alloc_op(self, meta: Any, items: list) -> PartialOp:
        name = str(items[0])
        lists: list[list[UseRef]] = []
        attrs = None
        for it in items[1:-1]:
            if isinstance(it, list) or it is None:
                lists.append(it or [])
            elif isinstance(it, dict):
                attrs = it
        dyn = [self.typed(u, INDEX) for u in (lists[0] if lists else [])]
        syms = [self.typed(u, INDEX) for u in (lists[1] if len(lists) > 1 else [])]
        props, attrs = self.split_attrs(name, attrs, {"operandSegmentSizes": segment_sizes(len(dyn), len(syms))})
        return self.op(name, meta, [*dyn, *syms], [read_type(items[-1])], properties=props, attributes=attrs)  # type: ignore[list-item]  # read_type of a value type: no function type here

    def memref_dealloc_op(self, meta: Any, items: list) -> PartialOp:
        return self.op("memref.dealloc", meta, [self.typed(items[0], read_type(items[-1]))], attributes=items[1] if len(items) > 2 else None)  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def memref_load_op(self, meta: Any, items: list) -> PartialOp:
        t = read_type(items[-1])
        idx = [self.typed(u, INDEX) for u in (items[1] or [])]
        attrs = items[2] if len(items) > 3 else None
        props, attrs = self.split_attrs("memref.load", attrs, {})
        elem = shared_type(Type(memref_element(t.text)))  # type: ignore[union-attr]  # read_type of a shaped type: a Type, no FunctionType
        return self.op("memref.load", meta, [self.typed(items[0], t), *idx], [elem], properties=props, attributes=attrs)  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def memref_store_op(self, meta: Any, items: list) -> PartialOp:
        t = read_type(items[-1])
        idx = [self.typed(u, INDEX) for u in (items[2] or [])]
        attrs = items[3] if len(items) > 4 else None
        props, attrs = self.split_attrs("memref.store", attrs, {})
        elem = shared_type(Type(memref_element(t.text)))  # type: ignore[union-attr]  # read_type of a shaped type: a Type, no FunctionType
        return self.op("memref.store", meta, [self.typed(items[0], elem), self.typed(items[1], t), *idx], [], properties=props, attributes=attrs)  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def memref_dim_op(self, meta: Any, items: list) -> PartialOp:
        t = read_type(items[-1])
        attrs = items[2] if len(items) > 3 else None
        return self.op("memref.dim", meta, [self.typed(items[0], t), self.typed(items[1], INDEX)], [INDEX], attributes=attrs)  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def memref_cast_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[1] if len(items) > 3 else None
        return self.op("memref.cast", meta, [self.typed(items[0], read_type(items[-2]))], [read_type(items[-1])], attributes=attrs)  # type: ignore[arg-type,list-item]  # read_type of a value type: no function type here

    def memref_copy_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[2] if len(items) > 4 else None
        return self.op("memref.copy", meta, [self.typed(items[0], read_type(items[-2])), self.typed(items[1], read_type(items[-1]))], attributes=attrs)  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def mixed_list(self, meta: Any, items: list) -> list:
        return [i for i in items if i is not None]

    def memref_subview_op(self, meta: Any, items: list) -> PartialOp:
        src = self.typed(items[0], read_type(items[-2]))  # type: ignore[arg-type]  # read_type of a value type: no function type here
        attrs = items[4] if len(items) > 6 else None
        props: dict[str, Attr] = {}
        dyn_lists: list[list[UseRef]] = []
        for key, entries in zip(("static_offsets", "static_sizes", "static_strides"), items[1:4]):
            dyn_lists.append(self.mixed_sizes(entries, key, props, base=10))
        props["operandSegmentSizes"] = segment_sizes(1, *(len(d) for d in dyn_lists))
        props, attrs = self.split_attrs("memref.subview", attrs, props)
        operands = [src, *(u for d in dyn_lists for u in d)]
        return self.op("memref.subview", meta, operands, [read_type(items[-1])], properties=props, attributes=attrs)  # type: ignore[list-item]  # read_type of a value type: no function type here

