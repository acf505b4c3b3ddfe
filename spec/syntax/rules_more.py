"""Builder rules of more ops found around the pass (issue 16, part 2):
`cf.switch`; `memref.global`, `collapse_shape`, `expand_shape`,
`reinterpret_cast`, `view`; `gpu.all_reduce` and `gpu.yield`;
`vector.extract`/`insert`; and the `llvm` ops host code declares and calls
(`llvm.func` declarations, `llvm.mlir.global`, `llvm.mlir.addressof`,
`llvm.call`).

As in `rules_wide`: one grammar rule per shape (`more_*_op`), its keyword
rule listing the ops written that way; the builder makes MLIR's generic
model (operands, result types, properties) as mlir-opt-19 does. Facts are in
`spec.registry`, printers in `custom_more`.
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token

from spec.attributes import (
    I64,
    INDEX,
    ArrayAttr,
    Attr,
    DenseArrayAttr,
    FunctionType,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    Type,
    TypeAttr,
    UnitAttr,
    canonical_dense,
)
from spec.diagnostics import DiagnosticError, error
from spec.ir import Region
from spec.syntax.build_base import BuilderBase, PartialOp, UseRef, read_type, segment_sizes
from spec.syntax.op_checks import check_reduction_kind
from spec.syntax.rules_gpu_extra import GX_RULES, GpuExtraRules
from spec.syntax.rules_memref_extra import MX_RULES, MemrefExtraRules
from spec.syntax.rules_scalar import SX_RULES, ScalarRules
from spec.syntax.rules_scf_extra import FX_RULES, ScfExtraRules
from spec.syntax.rules_wide import REDUCE_OPS, enum_error
from spec.syntax.string_literals import unescape

MORE_RULES = (
    frozenset(
        "more_switch_op more_global_op more_reshape_op more_reinterpret_op more_view_op more_all_reduce_op "
        "more_gyield_op more_vextract_op more_vinsert_op more_addressof_op more_llvm_call_op more_llvm_func_op "
        "more_llvm_global_op more_tread_op more_twrite_op".split()
    )
    | GX_RULES
    | SX_RULES
    | MX_RULES
    | FX_RULES
)
"""Rules whose first child is the keyword token naming the op: these, and
those of part 3's groups (`rules_gpu_extra`, `rules_scalar`,
`rules_memref_extra`, `rules_scf_extra`), which `MoreRules` mixes in so that the parser takes
them with this group."""

MORE_KEYWORDS = {rule.removesuffix("_op") + "_kw": rule.removesuffix("_op").upper() + "_KW" for rule in MORE_RULES}
"""Keyword rules (string literals) and the token type each hands on."""

LLVM_LINKAGES = "private internal available_externally linkonce weak common appending extern_weak linkonce_odr weak_odr external".split()
"""`#llvm.linkage<...>` values (MLIR 19's `LLVM::Linkage`)."""

LLVM_FUNC_DEFAULTS: dict[str, Attr] = {
    "CConv": OpaqueAttr("#llvm.cconv<ccc>"),
    "linkage": OpaqueAttr("#llvm.linkage<external>"),
    "unnamed_addr": IntegerAttr(0, I64),
    "visibility_": IntegerAttr(0, I64),
}
LLVM_GLOBAL_DEFAULTS: dict[str, Attr] = {"unnamed_addr": IntegerAttr(0, I64), "visibility_": IntegerAttr(0, I64)}
LLVM_CALL_DEFAULTS: dict[str, Attr] = {
    "CConv": OpaqueAttr("#llvm.cconv<ccc>"),
    "TailCallKind": OpaqueAttr("#llvm.tailcallkind<none>"),
    "fastmathFlags": OpaqueAttr("#llvm.fastmath<none>"),
}


def _split_top(text: str) -> list[str]:
    """`text` split at the commas outside brackets, each part stripped."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<([{":
            depth += 1
        elif c in ">)]}" and not (c == ">" and i and text[i - 1] == "-"):
            depth -= 1
        elif c == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        out.append(text[start:].strip())
    return out


def llvm_inner(t: str) -> str:
    """A type as the LLVM dialect prints it inside its own types
    (`!llvm.ptr` is `ptr` there; builtin types as they are)."""
    return t[len("!llvm.") :] if t.startswith("!llvm.") else t


def llvm_outer(t: str) -> str:
    """The inverse of `llvm_inner`: a type inside `!llvm.func<...>` as
    written elsewhere."""
    if re.match(r"(ptr|struct|array|void|func|vec|target|label|metadata|token|x86_mmx|ppc_fp128)\b", t):
        return "!llvm." + t
    return t


def llvm_func_type(params: list[str], vararg: bool, result: str | None) -> OpaqueAttr:
    inner = [llvm_inner(p) for p in params] + (["..."] if vararg else [])
    return OpaqueAttr(f"!llvm.func<{llvm_inner(result) if result else 'void'} ({', '.join(inner)})>")


def parse_llvm_func_type(text: str) -> tuple[list[str], bool, str | None]:
    """(params, vararg, result or None for void) of `!llvm.func<R (P, ...)>`."""
    m = re.fullmatch(r"!llvm\.func<(.*?) \((.*)\)>", text)
    if m is None:
        raise ValueError(f"not an LLVM function type: {text}")
    params = _split_top(m.group(2))
    vararg = bool(params) and params[-1] == "..."
    if vararg:
        params = params[:-1]
    result = None if m.group(1) == "void" else llvm_outer(m.group(1))
    return [llvm_outer(p) for p in params], vararg, result


def _string_bytes(value: str) -> int:
    """The byte length of a string attribute's value (as MLIR stores it)."""
    return len(value.encode("utf-8", "surrogateescape"))


def memref_to_tensor(t: str) -> str:
    """`memref<4x?xf32, ...>` to `tensor<4x?xf32>` (the type of a global's initial value)."""
    body = t[len("memref<") : -1]
    parts = _split_top(body)
    return f"tensor<{parts[0]}>"


def _symbol_text(tok: Token) -> str:
    text = str(tok)[1:]
    return unescape(text) if text.startswith('"') else text


def shape_dims(t: str) -> list[str]:
    """The dims of a shaped type's text (`memref<4x?xf32>`: `4`, `?`)."""
    body = _split_top(t[t.index("<") + 1 : -1])[0]
    parts = body.split("x")
    return parts[:-1]


def _element(t: str) -> str:
    return _split_top(t[t.index("<") + 1 : -1])[0].split("x")[-1]


def minor_identity(rank: int, k: int) -> str:
    """`affine_map<(d0, ..., d{rank-1}) -> (the last k dims)>`."""
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({', '.join(f'd{i}' for i in range(rank - k, rank))})>"


class MoreRules(GpuExtraRules, ScalarRules, MemrefExtraRules, ScfExtraRules, BuilderBase):
    """The `more_*` rules, and part 3's groups mixed in."""

    def _attrs(self, items: list) -> dict[str, Attr] | None:
        return next((i for i in items if isinstance(i, dict)), None)

    def _more(
        self,
        name: str,
        meta: Any,
        operands: list[UseRef],
        results: list[Type],
        attrs: dict | None,
        props: dict[str, Attr] | None = None,
        **kw: Any,
    ) -> PartialOp:
        props, attrs = self.split_attrs(name, attrs, props or {})
        return self.op(name, meta, operands, results, properties=props, attributes=attrs, **kw)

    # -- cf.switch -------------------------------------------------------------
    def switch_default(self, meta: Any, items: list) -> tuple:
        return ("default", items[0])

    def switch_case(self, meta: Any, items: list) -> tuple:
        return (int(str(items[0]), 0), items[1])

    def more_switch_op(self, meta: Any, items: list) -> PartialOp:
        flag = items[1]
        t = read_type(items[2])
        width = t.int_width if isinstance(t, Type) else None
        if width is None:
            raise DiagnosticError(error(self.loc(meta), "'cf.switch' op flag must be an integer"))
        (_, (d_label, d_ops)), *cases = [i for i in items[3:] if isinstance(i, tuple)]
        mask = (1 << width) - 1
        values = [((v & mask) ^ (1 << (width - 1))) - (1 << (width - 1)) if width > 1 else v & 1 for v, _ in cases]
        props: dict[str, Attr] = {}
        if cases:
            body = ", ".join(str(v) for v in values) if len(values) > 1 else str(values[0])
            text = f"[{body}]" if len(values) > 1 else body
            props["case_values"] = OpaqueAttr(f"dense<{text}> : vector<{len(values)}x{t}>")
        props["case_operand_segments"] = DenseArrayAttr(Type("i32"), tuple(len(ops) for _, (_, ops) in cases))
        props["operandSegmentSizes"] = segment_sizes(1, len(d_ops), sum(len(ops) for _, (_, ops) in cases))
        operands = [self.typed(flag, t), *d_ops, *(u for _, (_, ops) in cases for u in ops)]  # type: ignore[arg-type]  # read_type of a value type: no function type here
        labels = [d_label, *(label for _, (label, _) in cases)]
        return self._more("cf.switch", meta, operands, [], self._attrs(items), props, successors=labels)

    # -- memref ------------------------------------------------------------------
    def global_init(self, meta: Any, items: list) -> Attr:
        it = items[0]
        return UnitAttr() if isinstance(it, Token) and it.type == "UNINITIALIZED" else it

    def more_global_op(self, meta: Any, items: list) -> PartialOp:
        props: dict[str, Attr] = {}
        attrs = None
        t: Type | None = None
        for it in items[1:]:
            if isinstance(it, Token) and it.type == "STRING":
                props["sym_visibility"] = StringAttr(unescape(str(it)))
            elif isinstance(it, Token) and it.type == "GLOBAL_CONSTANT":
                props["constant"] = UnitAttr()
            elif isinstance(it, Token) and it.type == "SYMBOL":
                props["sym_name"] = StringAttr(_symbol_text(it))
            elif isinstance(it, dict):
                attrs = it
            elif t is None and not isinstance(it, Attr):
                t = read_type(it)  # type: ignore[assignment]  # read_type of a value type: no function type here
                props["type"] = TypeAttr(t)  # type: ignore[arg-type]  # read_type of a value type: no function type here
            elif isinstance(it, Attr):
                props["initial_value"] = self._global_value(it, t)
        return self._more("memref.global", meta, [], [], attrs, props)

    def _global_value(self, value: Attr, t: Type | None) -> Attr:
        if isinstance(value, UnitAttr) or t is None or not t.text.startswith("memref<"):
            return value
        tensor = memref_to_tensor(t.text)
        text = str(value)
        if isinstance(value, OpaqueAttr) and text.startswith("dense<") and " : " not in text.rsplit(">", 1)[-1]:
            return OpaqueAttr(f"{canonical_dense(text[len('dense<') : -1], tensor) or text} : {tensor}")
        return value

    def reassoc_group(self, meta: Any, items: list) -> ArrayAttr:
        return ArrayAttr(tuple(IntegerAttr(int(str(i), 0), I64) for i in items if i is not None))

    def reassociation(self, meta: Any, items: list) -> ArrayAttr:
        return ArrayAttr(tuple(i for i in items if i is not None))

    def more_reshape_op(self, meta: Any, items: list) -> PartialOp:
        name = str(items[0])
        src, reassoc = items[1], items[2]
        lists = [i for i in items[3:] if isinstance(i, list)]
        src_t, res_t = read_type(items[-2]), read_type(items[-1])
        props: dict[str, Attr] = {"reassociation": reassoc}
        operands = [self.typed(src, src_t)]  # type: ignore[arg-type]  # read_type of a value type: no function type here
        if name == "memref.expand_shape":
            operands += self.mixed_sizes(lists[0] if lists else [], "static_output_shape", props)
        return self._more(name, meta, operands, [res_t], self._attrs(items), props)  # type: ignore[list-item]  # read_type of a value type: no function type here

    def more_reinterpret_op(self, meta: Any, items: list) -> PartialOp:
        src = self.typed(items[1], read_type(items[-2]))  # type: ignore[arg-type]  # read_type of a value type: no function type here
        props: dict[str, Attr] = {}
        dyn = [
            self.mixed_sizes(lst, key, props)
            for lst, key in zip(items[2:5], ("static_offsets", "static_sizes", "static_strides"))
        ]
        props["operandSegmentSizes"] = segment_sizes(1, *(len(d) for d in dyn))
        operands = [src, *(u for d in dyn for u in d)]
        return self._more("memref.reinterpret_cast", meta, operands, [read_type(items[-1])], self._attrs(items), props)  # type: ignore[list-item]  # read_type of a value type: no function type here

    def more_view_op(self, meta: Any, items: list) -> PartialOp:
        src = self.typed(items[1], read_type(items[-2]))  # type: ignore[arg-type]  # read_type of a value type: no function type here
        shift = self.typed(items[2], INDEX)
        sizes = [self.typed(u, INDEX) for u in (items[3] or [])]
        return self._more("memref.view", meta, [src, shift, *sizes], [read_type(items[-1])], self._attrs(items))  # type: ignore[list-item]  # read_type of a value type: no function type here

    # -- gpu ------------------------------------------------------------------------
    def more_all_reduce_op(self, meta: Any, items: list) -> PartialOp:
        props: dict[str, Attr] = {}
        rest = items[1:]
        if isinstance(rest[0], Token) and rest[0].type == "BARE_ID":
            kind = str(rest[0])
            if kind not in REDUCE_OPS:
                raise DiagnosticError(error(self.tok_loc(rest[0]), "custom op 'gpu.all_reduce' invalid op kind"))
            props["op"] = OpaqueAttr(f"#gpu<all_reduce_op {kind}>")
            rest = rest[1:]
        value = rest[0]
        fn: FunctionType = items[-1]
        region = next(i for i in rest if isinstance(i, Region))
        if any(isinstance(i, Token) and str(i) == "uniform" for i in rest):
            props["uniform"] = UnitAttr()
        if len(fn.inputs) != 1 or len(fn.results) != 1:
            raise DiagnosticError(error(self.loc(meta), "'gpu.all_reduce' op expects one operand and one result"))
        check_reduction_kind(props.get("op"), fn.results[0].text, self.loc(meta))
        return self._more(
            "gpu.all_reduce",
            meta,
            [self.typed(value, fn.inputs[0])],
            [fn.results[0]],
            self._attrs(rest),
            props,
            regions=[region],
        )

    def more_gyield_op(self, meta: Any, items: list) -> PartialOp:
        attrs = items[1] if isinstance(items[1], dict) else None
        uses, types = items[-2], items[-1]
        return self._more("gpu.yield", meta, self._typed_list(uses, types, meta), [], attrs)

    # -- vector ------------------------------------------------------------------------
    def more_vextract_op(self, meta: Any, items: list) -> PartialOp:
        res_t, src_t = read_type(items[-2]), read_type(items[-1])
        props: dict[str, Attr] = {}
        dyn = self.mixed_sizes(items[2], "static_position", props)
        return self._more(
            "vector.extract", meta, [self.typed(items[1], src_t), *dyn], [res_t], self._attrs(items), props  # type: ignore[arg-type, list-item]  # read_type of vector types: no function type
        )

    def more_vinsert_op(self, meta: Any, items: list) -> PartialOp:
        val_t, dst_t = read_type(items[-2]), read_type(items[-1])
        props: dict[str, Attr] = {}
        dyn = self.mixed_sizes(items[3], "static_position", props)
        operands = [self.typed(items[1], val_t), self.typed(items[2], dst_t), *dyn]  # type: ignore[arg-type]  # read_type of a value type: no function type here
        return self._more("vector.insert", meta, operands, [dst_t], self._attrs(items), props)  # type: ignore[list-item]  # read_type of a value type: no function type here

    def _transfer(self, name: str, meta: Any, mem: UseRef, idx: list, vec_t: Type, mem_t: Type, lead: list[UseRef], mask: UseRef | None, attrs: dict | None) -> PartialOp:
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
        sizes = (1, len(idx), 1, int(mask is not None)) if name == "vector.transfer_read" else (1, 1, len(idx), int(mask is not None))
        props["operandSegmentSizes"] = segment_sizes(*sizes)
        return self._more(name, meta, operands, [vec_t] if name == "vector.transfer_read" else [], attrs, props)

    def more_tread_op(self, meta: Any, items: list) -> PartialOp:
        mem_t, vec_t = read_type(items[-2]), read_type(items[-1])
        uses = [i for i in items[3:-2] if isinstance(i, UseRef)]
        mask = uses[1] if len(uses) > 1 else None
        pad = self.typed(uses[0], Type(_element(vec_t.text)))  # type: ignore[union-attr]  # read_type of a shaped type: a Type, no FunctionType
        return self._transfer("vector.transfer_read", meta, items[1], items[2] or [], vec_t, mem_t, [pad], mask, self._attrs(items))  # type: ignore[arg-type]  # read_type of a value type: no function type here

    def more_twrite_op(self, meta: Any, items: list) -> PartialOp:
        vec_t, mem_t = read_type(items[-2]), read_type(items[-1])
        uses = [i for i in items[4:-2] if isinstance(i, UseRef)]
        mask = uses[0] if uses else None
        val = self.typed(items[1], vec_t)  # type: ignore[arg-type]  # read_type of a value type: no function type here
        return self._transfer("vector.transfer_write", meta, items[2], items[3] or [], vec_t, mem_t, [val], mask, self._attrs(items))  # type: ignore[arg-type]  # read_type of a value type: no function type here

    # -- llvm ----------------------------------------------------------------------------
    def more_addressof_op(self, meta: Any, items: list) -> PartialOp:
        sym: SymbolRefAttr = items[1]
        return self._more("llvm.mlir.addressof", meta, [], [read_type(items[-1])], self._attrs(items), {"global_name": sym})  # type: ignore[list-item]  # read_type of a value type: no function type here

    def more_llvm_call_op(self, meta: Any, items: list) -> PartialOp:
        sym: SymbolRefAttr = items[1]
        fn: FunctionType = items[-1]
        props: dict[str, Attr] = {"callee": sym}
        for it in items[3:-1]:
            if isinstance(it, Token):
                props["var_callee_type"] = OpaqueAttr(str(read_type(it)))
        args = self._typed_list(items[2], list(fn.inputs), meta)
        return self._more("llvm.call", meta, args, list(fn.results), self._attrs(items[3:]), props)

    def llvm_params(self, meta: Any, items: list) -> tuple[list[str], bool]:
        vararg = bool(items) and isinstance(items[-1], Token) and items[-1].type == "VARARG"
        types = items[:-1] if vararg else items
        return [str(read_type(t)) for t in types], vararg

    def more_llvm_func_op(self, meta: Any, items: list) -> PartialOp:
        props: dict[str, Attr] = {}
        params: tuple[list[str], bool] = ([], False)
        result: str | None = None
        attrs = None
        seen_params = False
        for it in items[1:]:
            if isinstance(it, Token) and it.type == "BARE_ID":
                if str(it) not in LLVM_LINKAGES:
                    raise enum_error(it, "llvm.func", "linkage", LLVM_LINKAGES, self.tok_loc(it))
                props["linkage"] = OpaqueAttr(f"#llvm.linkage<{it}>")
            elif isinstance(it, Token) and it.type == "SYMBOL":
                props["sym_name"] = StringAttr(_symbol_text(it))
                seen_params = True
            elif isinstance(it, tuple):
                params = it
            elif isinstance(it, dict):
                attrs = it
            elif it is not None and seen_params:
                result = str(read_type(it))
        props["function_type"] = llvm_func_type(params[0], params[1], result)
        return self._more("llvm.func", meta, [], [], attrs, props, regions=[Region()])

    def more_llvm_global_op(self, meta: Any, items: list) -> PartialOp:
        props: dict[str, Attr] = {"linkage": OpaqueAttr("#llvm.linkage<external>")}
        attrs = None
        value: Attr | None = None
        t: Type | None = None
        after_name = False
        for it in items[1:]:
            if isinstance(it, Token) and it.type == "BARE_ID":
                if str(it) not in LLVM_LINKAGES:
                    raise enum_error(it, "llvm.mlir.global", "linkage", LLVM_LINKAGES, self.tok_loc(it))
                props["linkage"] = OpaqueAttr(f"#llvm.linkage<{it}>")
            elif isinstance(it, Token) and it.type == "GLOBAL_CONSTANT":
                props["constant"] = UnitAttr()
            elif isinstance(it, Token) and it.type == "SYMBOL":
                props["sym_name"] = StringAttr(_symbol_text(it))
                after_name = True
            elif isinstance(it, dict):
                attrs = it
            elif isinstance(it, Attr) and after_name and value is None and t is None:
                value = it
            elif it is not None:
                t = read_type(it)  # type: ignore[assignment]  # read_type of a value type: no function type here
        if value is not None:
            props["value"] = value
        if isinstance(value, StringAttr):
            props["global_type"] = TypeAttr(Type(f"!llvm.array<{_string_bytes(value.value)} x i8>"))
        elif t is not None:
            props["global_type"] = TypeAttr(t)
        else:
            raise DiagnosticError(error(self.loc(meta), "type can only be omitted for string globals"))
        props, attrs = self.split_attrs("llvm.mlir.global", attrs, props)
        props.setdefault("addr_space", IntegerAttr(0, Type("i32")))
        return self.op("llvm.mlir.global", meta, [], [], properties=props, attributes=attrs, regions=[Region()])

