"""Builder rules of the ops found around the pass in real files (issue 16):
`gpu` host and kernel ops, `memref.atomic_rmw`/`get_global`, `vector`
loads, stores, prints and broadcasts, `math` and `index` arithmetic.

Each grammar rule covers one shape of custom syntax (`wide_*_op`) and its
keyword rule lists the ops written that way; the builder here turns the
text into MLIR's generic model (operands, result types, properties), as
mlir-opt-19 does, so the generic printer and the pass see one
representation. Their facts (effects, properties) are in `spec.registry`;
their printers in `custom_wide`.
"""

from __future__ import annotations

from typing import Any

from lark import Token

from spec.attributes import (
    I1,
    I64,
    INDEX,
    Attr,
    FunctionType,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    Type,
    UnitAttr,
)
from spec.diagnostics import DiagnosticError, error
from spec.syntax.build_base import BuilderBase, PartialOp, TokenError, UseRef, memref_element, read_type
from spec.syntax.op_checks import check_reduction_kind
from spec.syntax.op_verifiers import custom_type_refused
from spec.syntax.string_literals import unescape

WIDE_RULES = frozenset(
    "wide_value_op wide_sized_op wide_lane_op wide_index_op wide_math1_op wide_math2_op wide_vload_op "
    "wide_vstore_op wide_vprint_op wide_vbroadcast_op wide_shuffle_op wide_reduce_op wide_atomic_op "
    "wide_get_global_op wide_printf_op".split()
)
"""Rules whose first child is the keyword token naming the op."""

WIDE_KEYWORDS = {rule.removesuffix("_op") + "_kw": rule.removesuffix("_op").upper() + "_KW" for rule in WIDE_RULES}
"""Keyword rules (string literals) and the token type each hands on."""

ATOMIC_RMW_KINDS = (
    "addf addi assign maximumf maxs maxu minimumf mins minu mulf muli ori andi maxnumf minnumf".split()
)
"""MLIR 19's `AtomicRMWKind`, in enum order (the generic form's `kind`
integer is the index; checked against mlir-opt-19)."""

SHUFFLE_MODES = ("xor", "up", "down", "idx")
"""`gpu.shuffle` modes (`#gpu<shuffle_mode X>`)."""

REDUCE_OPS = ("add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf", "and", "or", "xor", "minimumf", "maximumf")
"""`gpu.subgroup_reduce` operations (`#gpu<all_reduce_op X>`) in MLIR 19."""


def enum_error(tok: Token, op: str, attr: str, values: tuple[str, ...] | list[str], loc: Any) -> DiagnosticError:
    return DiagnosticError(
        error(loc, f"custom op '{op}' expected string or keyword containing one of the following enum values for attribute '{attr}' [{', '.join(values)}]")
    )


class WideRules(BuilderBase):
    """The `wide_*` rules."""

    def _rest(self, items: list) -> tuple[dict[str, Attr] | None, list]:
        """The attr-dict among `items` (or None) and the other non-None items."""
        attrs = next((i for i in items if isinstance(i, dict)), None)
        return attrs, [i for i in items if i is not None and not isinstance(i, dict)]

    def _wide(self, name: str, meta: Any, operands: list[UseRef], results: list[Type], attrs: dict | None, props: dict[str, Attr] | None = None) -> PartialOp:
        props, attrs = self.split_attrs(name, attrs, props or {})
        return self.op(name, meta, operands, results, properties=props, attributes=attrs)

    def wide_value_op(self, meta: Any, items: list) -> PartialOp:
        name = str(items[0])
        attrs, (_, v, t) = self._rest(items)
        t = read_type(t)
        if name == "vector.splat":
            elem = Type(memref_element(t.text.replace("vector<", "memref<", 1)))  # type: ignore[union-attr]  # read_type of a shaped type: a Type, no FunctionType
            return self._wide(name, meta, [self.typed(v, elem)], [t], attrs)  # type: ignore[list-item]  # read_type of a value type: no function type here
        refused = custom_type_refused(name, 0, t)  # type: ignore[arg-type]  # read_type of a value type: no function type here
        if refused is not None:
            raise TokenError(items[-1], 0, refused)
        return self._wide(name, meta, [self.typed(v, t)], [], attrs)  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def wide_sized_op(self, meta: Any, items: list) -> PartialOp:
        name = str(items[0])
        attrs, rest = self._rest(items[1:])
        props: dict[str, Attr] = {}
        if len(rest) == 2:
            props["upper_bound"] = IntegerAttr(int(str(rest[0])), INDEX)
        return self._wide(name, meta, [], [read_type(rest[-1])], attrs, props)  # type: ignore[list-item]  # read_type of a value type: no function type here

    def wide_lane_op(self, meta: Any, items: list) -> PartialOp:
        attrs, rest = self._rest(items[1:])
        props: dict[str, Attr] = {"upper_bound": IntegerAttr(int(str(rest[0])), INDEX)} if rest else {}
        return self._wide("gpu.lane_id", meta, [], [INDEX], attrs, props)

    def wide_index_op(self, meta: Any, items: list) -> PartialOp:
        attrs, (_, a, b) = self._rest(items)
        return self._wide(str(items[0]), meta, [self.typed(a, INDEX), self.typed(b, INDEX)], [INDEX], attrs)

    def _math(self, meta: Any, items: list, arity: int) -> PartialOp:
        name = str(items[0])
        t = read_type(items[-1])
        props: dict[str, Attr] = {}
        attrs = None
        for it in items[1 + arity : -1]:
            if isinstance(it, tuple):
                if it[0] != "fastmath":
                    raise DiagnosticError(error(self.loc(meta), f"'{name}' op has no overflow flags"))
                props[it[0]] = it[1]
            elif isinstance(it, dict):
                attrs = it
        return self._wide(name, meta, [self.typed(u, t) for u in items[1 : 1 + arity]], [t], attrs, props)  # type: ignore[arg-type,list-item]  # read_type of a value type: no function type here

    def wide_math1_op(self, meta: Any, items: list) -> PartialOp:
        return self._math(meta, items, 1)

    def wide_math2_op(self, meta: Any, items: list) -> PartialOp:
        return self._math(meta, items, 2)

    def wide_vload_op(self, meta: Any, items: list) -> PartialOp:
        base, idx = items[1], items[2] or []
        attrs = items[3] if isinstance(items[3], dict) else None
        mt, vt = read_type(items[-2]), read_type(items[-1])
        return self._wide("vector.load", meta, [self.typed(base, mt), *(self.typed(i, INDEX) for i in idx)], [vt], attrs)  # type: ignore[arg-type,list-item]  # read_type of a value type: no function type here

    def wide_vstore_op(self, meta: Any, items: list) -> PartialOp:
        val, base, idx = items[1], items[2], items[3] or []
        attrs = items[4] if isinstance(items[4], dict) else None
        mt, vt = read_type(items[-2]), read_type(items[-1])
        return self._wide("vector.store", meta, [self.typed(val, vt), self.typed(base, mt), *(self.typed(i, INDEX) for i in idx)], [], attrs)  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def wide_vprint_op(self, meta: Any, items: list) -> PartialOp:
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
            operands = [self.typed(rest[0], read_type(rest[1]))]  # type: ignore[arg-type]  # read_type of a value type: no function type here
        return self._wide("vector.print", meta, operands, [], attrs, props)

    def vprint_punct(self, meta: Any, items: list) -> tuple[str, str]:
        return ("punctuation", str(items[0]))

    def vprint_str(self, meta: Any, items: list) -> tuple[str, str]:
        return ("str", str(items[0]))

    def wide_vbroadcast_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[2] if isinstance(items[2], dict) else None
        return self._wide("vector.broadcast", meta, [self.typed(items[1], read_type(items[-2]))], [read_type(items[-1])], attrs)  # type: ignore[arg-type,list-item]  # read_type of a value type: no function type here

    def wide_shuffle_op(self, meta: Any, items: list) -> PartialOp:
        mode = str(items[1])
        if mode not in SHUFFLE_MODES:
            raise enum_error(items[1], "gpu.shuffle", "mode", SHUFFLE_MODES, self.tok_loc(items[1]))
        t = read_type(items[-1])
        attrs = items[5] if isinstance(items[5], dict) else None
        i32 = Type("i32")
        ops = [self.typed(items[2], t), self.typed(items[3], i32), self.typed(items[4], i32)]  # type: ignore[arg-type]  # read_type of a value type: no function type here
        return self._wide("gpu.shuffle", meta, ops, [t, I1], attrs, {"mode": OpaqueAttr(f"#gpu<shuffle_mode {mode}>")})  # type: ignore[list-item]  # read_type of a value type: no function type here

    def wide_reduce_op(self, meta: Any, items: list) -> PartialOp:
        kind = str(items[1])
        if kind not in REDUCE_OPS:
            raise enum_error(items[1], "gpu.subgroup_reduce", "op", REDUCE_OPS, self.tok_loc(items[1]))
        fn: FunctionType = items[-1]
        props: dict[str, Attr] = {"op": OpaqueAttr(f"#gpu<all_reduce_op {kind}>")}
        attrs = None
        for it in items[3:-1]:
            if isinstance(it, Token) and str(it) == "uniform":
                props["uniform"] = UnitAttr()
            elif isinstance(it, dict):
                attrs = it
        if len(fn.inputs) != 1 or len(fn.results) != 1:
            raise DiagnosticError(error(self.loc(meta), "'gpu.subgroup_reduce' op expects one operand and one result"))
        check_reduction_kind(props["op"], fn.results[0].text, self.loc(meta))
        return self._wide("gpu.subgroup_reduce", meta, [self.typed(items[2], fn.inputs[0])], [fn.results[0]], attrs, props)

    def wide_atomic_op(self, meta: Any, items: list) -> PartialOp:
        kind = str(items[1])
        if kind not in ATOMIC_RMW_KINDS:
            raise enum_error(items[1], "memref.atomic_rmw", "kind", ATOMIC_RMW_KINDS, self.tok_loc(items[1]))
        fn: FunctionType = items[-1]
        if len(fn.inputs) != 2 or len(fn.results) != 1:
            raise DiagnosticError(error(self.loc(meta), "'memref.atomic_rmw' op expects (value type, memref type) -> result type"))
        idx = items[4] or []
        attrs = items[5] if isinstance(items[5], dict) else None
        ops = [self.typed(items[2], fn.inputs[0]), self.typed(items[3], fn.inputs[1]), *(self.typed(i, INDEX) for i in idx)]
        return self._wide("memref.atomic_rmw", meta, ops, [fn.results[0]], attrs, {"kind": IntegerAttr(ATOMIC_RMW_KINDS.index(kind), I64)})

    def wide_get_global_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[2] if isinstance(items[2], dict) else None
        sym: SymbolRefAttr = items[1]
        return self._wide("memref.get_global", meta, [], [read_type(items[-1])], attrs, {"name": sym})  # type: ignore[list-item]  # read_type of a memref: no function type

    def wide_printf_op(self, meta: Any, items: list) -> PartialOp:
        fmt = StringAttr(unescape(str(items[1])))
        attrs = next((i for i in items[2:] if isinstance(i, dict)), None)
        lists = [i for i in items[2:] if isinstance(i, list)]
        args = self._typed_list(lists[0], lists[1], meta) if lists else []
        return self._wide("gpu.printf", meta, args, [], attrs, {"format": fmt})
