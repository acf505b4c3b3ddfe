"""The `gpu` dialect's ops that run on the device, inside kernels: the id
and dimension ops (`thread_id` ... `cluster_dim_blocks`, `global_id`,
`lane_id`, `subgroup_id`, `num_subgroups`, `subgroup_size`), `printf`,
`shuffle`, `subgroup_reduce`, `all_reduce` and its `yield`,
`dynamic_shared_memory`, and the subgroup MMA ops on `!gpu.mma_matrix`
values.

The pass never rewrites them (they are in kernels, not host code), but the
parser must read real files that hold them, with mlir-opt-19's checks, and
print them back byte for byte, its spacing quirks included (two blanks
after `gpu.shuffle`, `gpu.subgroup_reduce`, `gpu.global_id`,
`gpu.all_reduce` and `gpu.subgroup_mma_elementwise`). The host side of the
dialect (modules, functions, launches, memory and the sparse library ops)
is `spec.dialects.gpu.syntax`.
"""

from __future__ import annotations

from typing import Any

from lark import Token

from spec.attributes import (
    I1,
    INDEX,
    Attr,
    FunctionType,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    Type,
    UnitAttr,
)
from spec.diagnostics import DiagnosticError, error
from spec.ir import Operation, Region
from spec.syntax.build_base import (
    BuilderBase,
    PartialOp,
    UseRef,
    enum_error,
)
from spec.syntax.custom_registry import custom_printer, return_like, shown_attrs
from spec.syntax.op_checks import check_reduction_kind
from spec.syntax.printer import Printer
from spec.syntax.string_literals import unescape

KEYWORD_FIRST: frozenset[str] = frozenset()
"""No rule here starts with its keyword."""

NAME_FIRST: frozenset[str] = frozenset(
    "gpu_dim_op gpu_mma_compute_op gpu_mma_constant_op gpu_mma_elementwise_op gpu_mma_load_op gpu_mma_store_op gpu_all_reduce_op gpu_yield_op gpu_lane_id_op gpu_printf_op gpu_subgroup_reduce_op gpu_shuffle_op gpu_subgroup_dim_op gpu_dynamic_shared_memory_op".split()
)
"""Rules whose first child is the token naming the op: kept, and the location."""

KEYWORDS: dict[str, str] = {
    "gpu_dim_kw": "GPU_DIM_KW",
    "gpu_dynamic_shared_memory_kw": "GPU_DYNAMIC_SHARED_MEMORY_KW",
    "gpu_mma_compute_kw": "GPU_MMA_COMPUTE_KW",
    "gpu_mma_constant_kw": "GPU_MMA_CONSTANT_KW",
    "gpu_mma_elementwise_kw": "GPU_MMA_ELEMENTWISE_KW",
    "gpu_mma_load_kw": "GPU_MMA_LOAD_KW",
    "gpu_mma_store_kw": "GPU_MMA_STORE_KW",
    "gpu_all_reduce_kw": "GPU_ALL_REDUCE_KW",
    "gpu_yield_kw": "GPU_YIELD_KW",
    "gpu_lane_id_kw": "GPU_LANE_ID_KW",
    "gpu_printf_kw": "GPU_PRINTF_KW",
    "gpu_subgroup_reduce_kw": "GPU_SUBGROUP_REDUCE_KW",
    "gpu_shuffle_kw": "GPU_SHUFFLE_KW",
    "gpu_subgroup_dim_kw": "GPU_SUBGROUP_DIM_KW",
}
"""Keyword rules (string literals) and the token type each hands on."""

SHUFFLE_MODES = ("xor", "up", "down", "idx")

REDUCE_OPS = (
    "add",
    "mul",
    "minui",
    "minsi",
    "minnumf",
    "maxui",
    "maxsi",
    "maxnumf",
    "and",
    "or",
    "xor",
    "minimumf",
    "maximumf",
)

MMA_ELEMENTWISE = tuple("addf mulf subf maxf minf divf addi muli subi divs divu negatef negates extf".split())


def required(name: str, props: dict[str, Attr], key: str, loc: Any) -> None:
    """The verifier's check of a required inherent attribute the custom
    form takes from the attribute dict (`leadDimension`)."""
    if key not in props:
        raise DiagnosticError(error(loc, f"'{name}' op requires attribute '{key}'"))


class GpuDeviceRules(BuilderBase):
    """Builder rules of the device-side `gpu` ops."""

    def gpu_dim_op(self, meta: Any, items: list) -> PartialOp:
        name = str(items[0])
        props: dict[str, Attr] = {"dimension": OpaqueAttr(f"#gpu<dim {items[1]}>")}
        attrs = None
        for it in items[2:]:
            if isinstance(it, Token):
                props["upper_bound"] = IntegerAttr(int(str(it)), INDEX)
            elif isinstance(it, dict):
                attrs = it
        props, attrs = self.split_attrs(name, attrs, props)
        return self.op(name, meta, [], [INDEX], properties=props, attributes=attrs)

    def gpu_subgroup_dim_op(self, meta: Any, items: list) -> PartialOp:
        name = str(items[0])
        attrs, rest = self._rest(items[1:])
        props: dict[str, Attr] = {}
        if len(rest) == 2:
            props["upper_bound"] = IntegerAttr(int(str(rest[0])), INDEX)
        return self._custom_op(name, meta, [], [self.read_value_type(rest[-1])], attrs, props)

    def gpu_lane_id_op(self, meta: Any, items: list) -> PartialOp:
        attrs, rest = self._rest(items[1:])
        props: dict[str, Attr] = {"upper_bound": IntegerAttr(int(str(rest[0])), INDEX)} if rest else {}
        return self._custom_op("gpu.lane_id", meta, [], [INDEX], attrs, props)

    def gpu_shuffle_op(self, meta: Any, items: list) -> PartialOp:
        mode = str(items[1])
        if mode not in SHUFFLE_MODES:
            # 19 reports the keyword, then the attribute it could not build, at the next token.
            name = "custom op 'gpu.shuffle'"
            raise DiagnosticError(
                [
                    error(
                        self.tok_loc(items[1]),
                        f"{name} expected ::mlir::gpu::ShuffleMode to be one of: {', '.join(SHUFFLE_MODES)}",
                    ),
                    error(
                        items[2].loc,
                        f"{name} failed to parse GPU_ShuffleModeAttr parameter 'value' which is to be a `::mlir::gpu::ShuffleMode`",
                    ),
                ]
            )
        t = self.read_value_type(items[-1])
        attrs = items[5] if isinstance(items[5], dict) else None
        i32 = Type("i32")
        ops = [self.typed(items[2], t), self.typed(items[3], i32), self.typed(items[4], i32)]
        return self._custom_op(
            "gpu.shuffle", meta, ops, [t, I1], attrs, {"mode": OpaqueAttr(f"#gpu<shuffle_mode {mode}>")}
        )

    def gpu_subgroup_reduce_op(self, meta: Any, items: list) -> PartialOp:
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
        return self._custom_op(
            "gpu.subgroup_reduce", meta, [self.typed(items[2], fn.inputs[0])], [fn.results[0]], attrs, props
        )

    def gpu_printf_op(self, meta: Any, items: list) -> PartialOp:
        fmt = StringAttr(unescape(str(items[1])))
        attrs = next((i for i in items[2:] if isinstance(i, dict)), None)
        lists = [i for i in items[2:] if isinstance(i, list)]
        args = self._typed_list(lists[0], lists[1], meta) if lists else []
        return self._custom_op("gpu.printf", meta, args, [], attrs, {"format": fmt})

    def gpu_all_reduce_op(self, meta: Any, items: list) -> PartialOp:
        props: dict[str, Attr] = {}
        rest = items[1:]
        if isinstance(rest[0], Token) and rest[0].type == "BARE_ID":
            kind = str(rest[0])
            if kind not in REDUCE_OPS:
                raise DiagnosticError(
                    error(
                        rest[1].loc if isinstance(rest[1], UseRef) else self.tok_loc(rest[0]),
                        "custom op 'gpu.all_reduce' invalid op kind",
                    )
                )
            props["op"] = OpaqueAttr(f"#gpu<all_reduce_op {kind}>")
            rest = rest[1:]
        value = rest[0]
        fn: FunctionType = items[-1]
        region = next(i for i in rest if isinstance(i, Region))
        if any(isinstance(i, Token) and str(i) == "uniform" for i in rest):
            props["uniform"] = UnitAttr()
        if len(fn.inputs) != 1 or len(fn.results) != 1:
            raise DiagnosticError(error(self.loc(meta), "'gpu.all_reduce' op expects one operand and one result"))
        return self._custom_op(
            "gpu.all_reduce",
            meta,
            [self.typed(value, fn.inputs[0])],
            [fn.results[0]],
            self._attrs(rest),
            props,
            regions=[region],
        )

    def gpu_yield_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[1] if isinstance(items[1], dict) else None
        uses, types = items[-2], items[-1]
        return self._custom_op("gpu.yield", meta, self._typed_list(uses, types, meta), [], attrs)

    def gpu_dynamic_shared_memory_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[1] if isinstance(items[1], dict) else None
        return self._custom_op("gpu.dynamic_shared_memory", meta, [], [self.read_value_type(items[-1])], attrs)

    def _lead(self, name: str, meta: Any, operands: list, results: list[Type], attrs: dict | None) -> PartialOp:
        partial = self._custom_op(name, meta, operands, results, attrs)
        required(name, partial.op.properties, "leadDimension", self.loc(meta))
        return partial

    def gpu_mma_load_op(self, meta: Any, items: list) -> PartialOp:
        src, idx = items[1], items[2] or []
        attrs = items[3] if isinstance(items[3], dict) else None
        mt, rt = self.read_value_type(items[-2]), self.read_value_type(items[-1])
        return self._lead(
            "gpu.subgroup_mma_load_matrix",
            meta,
            [self.typed(src, mt), *(self.typed(i, INDEX) for i in idx)],
            [rt],
            attrs,
        )

    def gpu_mma_store_op(self, meta: Any, items: list) -> PartialOp:
        val, dst, idx = items[1], items[2], items[3] or []
        attrs = items[4] if isinstance(items[4], dict) else None
        vt, mt = self.read_value_type(items[-2]), self.read_value_type(items[-1])
        return self._lead(
            "gpu.subgroup_mma_store_matrix",
            meta,
            [self.typed(val, vt), self.typed(dst, mt), *(self.typed(i, INDEX) for i in idx)],
            [],
            attrs,
        )

    def gpu_mma_compute_op(self, meta: Any, items: list) -> PartialOp:
        """`A, B, C : TA, TB -> TC`: C's type is the result's."""
        attrs = items[4] if isinstance(items[4], dict) else None
        ta, tb, tc = (self.read_value_type(t) for t in items[-3:])
        ops = [self.typed(items[1], ta), self.typed(items[2], tb), self.typed(items[3], tc)]
        return self._custom_op("gpu.subgroup_mma_compute", meta, ops, [tc], attrs)

    def gpu_mma_constant_op(self, meta: Any, items: list) -> PartialOp:
        """`%v : !gpu.mma_matrix<..., E>`: the operand's type is the element."""
        attrs = items[2] if isinstance(items[2], dict) else None
        t = self.read_value_type(items[-1])
        elem = Type(t.text.rsplit("x", 1)[-1].split(",", 1)[0])
        return self._custom_op("gpu.subgroup_mma_constant_matrix", meta, [self.typed(items[1], elem)], [t], attrs)

    def gpu_mma_elementwise_op(self, meta: Any, items: list) -> PartialOp:
        kind = str(items[1])
        name = "gpu.subgroup_mma_elementwise"
        if kind not in MMA_ELEMENTWISE:
            raise DiagnosticError(
                error(
                    self.tok_loc(items[1]),
                    f"custom op '{name}' expected ::mlir::gpu::MMAElementwiseOp to be one of: {', '.join(MMA_ELEMENTWISE)}",
                )
            )
        fn: FunctionType = items[-1]
        args = items[2]
        attrs = items[3] if isinstance(items[3], dict) else None
        if len(fn.inputs) != len(args):
            # 19 reports it where the operands start.
            raise DiagnosticError(
                error(args[0].loc, f"custom op '{name}' {len(args)} operands present, but expected {len(fn.inputs)}")
            )
        ops = [self.typed(u, t) for u, t in zip(args, fn.inputs)]
        return self._custom_op(
            name, meta, ops, list(fn.results), attrs, {"opType": OpaqueAttr(f"#gpu<mma_element_wise {kind}>")}
        )


@custom_printer(
    "gpu.thread_id",
    "gpu.block_id",
    "gpu.block_dim",
    "gpu.grid_dim",
    "gpu.cluster_id",
    "gpu.cluster_dim",
    "gpu.cluster_block_id",
    "gpu.cluster_dim_blocks",
)
def _gpu_dim(p: Printer, op: Operation) -> str:
    dim = str(op.properties["dimension"]).removeprefix("#gpu<dim ").rstrip(">")
    text = f"{op.name}  {dim}"
    ub = op.properties.get("upper_bound")
    if isinstance(ub, IntegerAttr):
        text += f" upper_bound {ub.value}"
    return text + p.attr_dict(op.attributes)


def _upper_bound(op: Operation) -> str:
    ub = op.properties.get("upper_bound")
    return f" upper_bound {ub.value}" if isinstance(ub, IntegerAttr) else ""


@custom_printer("gpu.global_id")
def _global_id(p: Printer, op: Operation) -> str:
    dim = str(op.properties["dimension"]).removeprefix("#gpu<dim ").rstrip(">")
    return f"gpu.global_id  {dim}{_upper_bound(op)}{p.attr_dict(shown_attrs(op, 'dimension', 'upper_bound'))}"


@custom_printer("gpu.lane_id")
def _lane_id(p: Printer, op: Operation) -> str:
    return f"gpu.lane_id{_upper_bound(op)}{p.attr_dict(shown_attrs(op, 'upper_bound'))}"


@custom_printer("gpu.subgroup_id", "gpu.num_subgroups", "gpu.subgroup_size")
def _sized(p: Printer, op: Operation) -> str:
    return f"{op.name}{_upper_bound(op)}{p.attr_dict(shown_attrs(op, 'upper_bound'))} : {op.results[0].type}"


@custom_printer("gpu.shuffle")
def _shuffle(p: Printer, op: Operation) -> str:
    mode = str(op.properties["mode"]).removeprefix("#gpu<shuffle_mode ").rstrip(">")
    return f"gpu.shuffle  {mode} {p.values(op.operands)}{p.attr_dict(shown_attrs(op, 'mode'))} : {op.results[0].type}"


@custom_printer("gpu.subgroup_reduce")
def _subgroup_reduce(p: Printer, op: Operation) -> str:
    kind = str(op.properties["op"]).removeprefix("#gpu<all_reduce_op ").rstrip(">")
    uniform = " uniform" if isinstance(op.properties.get("uniform"), UnitAttr) else ""
    (v,) = op.operands
    return f"gpu.subgroup_reduce  {kind} {p.value(v)}{uniform}{p.attr_dict(shown_attrs(op, 'op', 'uniform'))} : ({v.type}) -> {op.results[0].type}"


@custom_printer("gpu.printf")
def _printf(p: Printer, op: Operation) -> str:
    """`gpu.printf "fmt" [attr-dict] [%a, ... : T, ...]`. Printed only: the
    parser does not read this form (after the string, a value could start
    the arguments or the next op: not LALR(1)), so it is taken generic."""
    text = f"gpu.printf {op.properties['format']}{p.attr_dict(shown_attrs(op, 'format'))}"
    if op.operands:
        text += f" {p.values(op.operands)} : {p.types(op.operands)}"
    return text


@custom_printer("gpu.all_reduce")
def _all_reduce(p: Printer, op: Operation) -> str:
    text = "gpu.all_reduce  "
    kind = op.properties.get("op")
    if kind is not None:
        text += str(kind).removeprefix("#gpu<all_reduce_op ").rstrip(">") + " "
    (v,) = op.operands
    text += p.value(v)
    if isinstance(op.properties.get("uniform"), UnitAttr):
        text += " uniform"
    text += " " + p.region(op.regions[0], True, True)
    return text + f"{p.attr_dict(shown_attrs(op, 'op', 'uniform'))} : ({v.type}) -> {op.results[0].type}"


@custom_printer("gpu.yield")
def _gpu_yield(p: Printer, op: Operation) -> str:
    return return_like(p, op, "gpu.yield")


@custom_printer("gpu.dynamic_shared_memory")
def _dynamic_shared_memory(p: Printer, op: Operation) -> str:
    return f"gpu.dynamic_shared_memory{p.attr_dict(shown_attrs(op))} : {op.results[0].type}"


@custom_printer("gpu.subgroup_mma_load_matrix")
def _mma_load(p: Printer, op: Operation) -> str:
    src, *idx = op.operands
    return (
        f"{op.name} {p.value(src)}[{p.values(idx)}]{p.attr_dict(shown_attrs(op))} : {src.type} -> {op.results[0].type}"
    )


@custom_printer("gpu.subgroup_mma_store_matrix")
def _mma_store(p: Printer, op: Operation) -> str:
    val, dst, *idx = op.operands
    return f"{op.name} {p.value(val)}, {p.value(dst)}[{p.values(idx)}]{p.attr_dict(shown_attrs(op))} : {val.type}, {dst.type}"


@custom_printer("gpu.subgroup_mma_compute")
def _mma_compute(p: Printer, op: Operation) -> str:
    a, b, c = op.operands
    return f"{op.name} {p.values(op.operands)}{p.attr_dict(shown_attrs(op))} : {a.type}, {b.type} -> {c.type}"


@custom_printer("gpu.subgroup_mma_constant_matrix")
def _mma_constant(p: Printer, op: Operation) -> str:
    return f"{op.name} {p.value(op.operands[0])}{p.attr_dict(shown_attrs(op))} : {op.results[0].type}"


@custom_printer("gpu.subgroup_mma_elementwise")
def _mma_elementwise(p: Printer, op: Operation) -> str:
    kind = str(op.properties["opType"]).removeprefix("#gpu<mma_element_wise ").rstrip(">")
    fn = f"({p.types(op.operands)}) -> {op.results[0].type}"
    return f"{op.name}  {kind} {p.values(op.operands)}{p.attr_dict(shown_attrs(op, 'opType'))} : {fn}"
