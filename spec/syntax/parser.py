"""Text to IR: lark LALR over `grammar.lark`, building the IR during the parse.

The grammar's transformer (`_Builder`) runs as LALR reduces each rule, so no
parse tree is kept. Operands are first recorded as `_Use` placeholders (name,
result number, expected type, location); once the whole text is read,
`_resolve` walks the regions with MLIR's scoping rules (a nested region sees
the values of the regions around it; names are unique within a function)
and replaces each placeholder with its `Value`, reporting undefined and
redefined names and type mismatches as diagnostics.

Custom syntax is turned into MLIR's generic model here (properties,
`operandSegmentSizes`, implicit terminators), so the generic printer and every
tool see one representation whichever form was written.
"""

from __future__ import annotations

import functools
import gc
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from spec import registry
from spec.attributes import (
    ASYNC_GROUP,
    ASYNC_TOKEN,
    GPU_TOKEN,
    I1,
    I64,
    INDEX,
    ArrayAttr,
    Attr,
    DenseArrayAttr,
    DictAttr,
    FloatAttr,
    FunctionType,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    Type,
    TypeAttr,
    UnitAttr,
    arith_flags_text,
    canonical_dense,
    canonical_type_text,
    format_attr_entries,
    round_to_type,
)
from spec.diagnostics import DiagnosticError, error, note
from spec.ir import Block, Location, Operation, Region, Value, new_module

MAX_NESTING = 1000
"""Regions nested deeper than this are refused with a diagnostic."""
K_DYNAMIC = -9223372036854775808
CMPI_PREDICATES = "eq ne slt sle sgt sge ult ule ugt uge".split()
CMPF_PREDICATES = "false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true".split()
SPLIT_MARKER = "// -----"


@dataclass(slots=True)
class _Use:
    """An operand before name resolution."""

    name: str
    number: int
    loc: Location
    type: Type | None = None


@dataclass(slots=True)
class _Partial:
    """An op body before its results are bound to the names on the left."""

    op: Operation
    result_types: list[Type]
    async_kw: Token | None = None
    """The `async` keyword of a GPU op in custom form (its result must be named)."""


def _unescape(tok: str) -> str:
    body = tok[1:-1]
    out = bytearray()
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if re.fullmatch(r"[0-9a-fA-F]{2}", body[i + 1 : i + 3] or ""):
                out.append(int(body[i + 1 : i + 3], 16))
                i += 3
                continue
            out.extend({"n": b"\n", "t": b"\t"}.get(nxt, nxt.encode()))
            i += 2
            continue
        out.extend(ch.encode())
        i += 1
    return out.decode("utf-8", errors="replace")


def _segments(*sizes: int) -> DenseArrayAttr:
    return DenseArrayAttr(Type("i32"), tuple(sizes))


def _type(tok: Any) -> Type | FunctionType:
    if isinstance(tok, (Type, FunctionType)):
        return tok
    return _type_of_text(str(tok))


@functools.lru_cache(maxsize=4096)
def _type_of_text(text: str) -> Type:
    # Programs repeat a handful of types many times: canonicalise each once.
    return Type(canonical_type_text(text))


def _types(items: Any) -> list[Type]:
    return list(items) if items else []


class _Builder(Transformer):
    """Builds IR objects as the LALR parser reduces rules."""

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
        self.file = "<stdin>"
        self.line_offset = 0

    # -- helpers ----------------------------------------------------------
    def loc(self, meta: Any) -> Location:
        """`meta` is the op's keyword token (or `None` for inner rules)."""
        if isinstance(meta, Token):
            return self.tok_loc(meta)
        return Location(self.file, 0, 0)

    def tok_loc(self, tok: Token) -> Location:
        return Location(self.file, (tok.line or 0) + self.line_offset, tok.column or 0)

    def use(self, tok: Token, type: Type | None = None) -> _Use:
        text = str(tok)
        name, _, num = text.partition("#")
        return _Use(name, int(num) if num else 0, self.tok_loc(tok), type)

    def typed(self, use: _Use, type: Type) -> _Use:
        use.type = type
        return use

    def op(self, name: str, meta: Any, operands: list[_Use] | None = None, result_types: list[Type] | None = None, **kw: Any) -> _Partial:
        op = Operation(name, operands=list(operands or []), loc=self.loc(meta))  # type: ignore[arg-type]
        for key in ("properties", "attributes"):
            if kw.get(key):
                setattr(op, key, dict(kw[key]))
        for region in kw.get("regions", []):
            op.add_region(region)
        if kw.get("successors"):
            op.successors = kw["successors"]
        return _Partial(op, list(result_types or []))

    def split_attrs(self, name: str, attrs: dict[str, Attr] | None, props: dict[str, Attr]) -> tuple[dict, dict]:
        """Move inherent attributes written in an attr-dict into properties,
        as MLIR does, and add the op's default properties."""
        info = registry.lookup(name)
        props = {**info.default_properties, **props}
        rest = {}
        for k, v in (attrs or {}).items():
            if k in info.properties:
                props[k] = v
            else:
                rest[k] = v
        return props, rest

    # -- top level ----------------------------------------------------------
    def start(self, meta: Any, items: list) -> list[Operation]:
        # The top level is the implicit module's single block: it has no
        # labels, so any successor there is an undefined block.
        for op in items:
            for s in op.successors:
                if isinstance(s, Token):
                    raise DiagnosticError(error(self.tok_loc(s), "reference to an undefined block"))
        return items

    def operation(self, meta: Any, items: list) -> Operation:
        names: list[tuple[Token, int]] = []
        body: _Partial | None = None
        for it in items:
            if isinstance(it, list):
                names = it
            elif isinstance(it, _Partial):
                body = it
        assert body is not None
        op = body.op
        if body.async_kw is not None and not names:
            raise DiagnosticError(error(self.tok_loc(body.async_kw), f"custom op '{op.name}' needs to be named when marked 'async'"))
        bound = sum(n for _, n in names)
        if names and bound != len(body.result_types):
            raise DiagnosticError(
                error(self.tok_loc(names[0][0]), f"operation defines {len(body.result_types)} results but was provided {bound} to bind")
            )
        values = [op.add_result(t) for t in body.result_types]
        i = 0
        for tok, n in names:
            for k in range(n):
                values[i].hint = f"{tok}#{k}" if n > 1 else str(tok)
                values[i].loc = self.tok_loc(tok)
                i += 1
        return op

    def results(self, meta: Any, items: list) -> list:
        return items

    def result_def(self, meta: Any, items: list) -> tuple[Token, int]:
        if len(items) < 2:
            return (items[0], 1)
        count = str(items[1])
        if not count.isdigit() or int(count) < 1:
            raise DiagnosticError(error(self.tok_loc(items[1]), "expected named operation to have at least 1 result"))
        return (items[0], int(count))

    # -- regions ------------------------------------------------------------
    def op_list(self, meta: Any, items: list) -> list[Operation]:
        return items

    def region(self, meta: Any, items: list) -> Region:
        region = Region()
        entry_ops: list[Operation] = items[0]
        labeled: list[Block] = items[1:]
        if entry_ops or not labeled:
            if entry_ops or labeled:
                block = Block(loc=self.loc(meta))
                for op in entry_ops:
                    block.append(op)
                region.append(block)
        for b in labeled:
            region.append(b)
        for block in region.blocks:
            for op in block.ops[:-1]:
                if registry.lookup(op.name).terminator:
                    raise DiagnosticError(error(op.loc, f"'{op.name}' op must be the last operation in the parent block"))
        labels: dict[str, Block] = {}
        for b in labeled:
            if b.label in labels:
                raise DiagnosticError(error(b.loc, f"redefinition of block '{b.label}'"))
            labels[b.label] = b
        for block in region.blocks:
            for op in block.ops:
                resolved = []
                for s in op.successors:
                    if isinstance(s, Block):
                        resolved.append(s)
                        continue
                    tok: Token = s  # type: ignore[assignment]
                    if str(tok) not in labels:
                        raise DiagnosticError(error(self.tok_loc(tok), "reference to an undefined block"))
                    resolved.append(labels[str(tok)])
                op.successors = resolved
        return region

    def labeled_block(self, meta: Any, items: list) -> Block:
        label = items[0]
        block = Block(str(label), self.tok_loc(label))
        for it in items[1:]:
            if isinstance(it, list) and (not it or isinstance(it[0], Operation)):
                for op in it:
                    block.append(op)
            elif isinstance(it, list):
                for name, t, loc in it:
                    block.add_arg(t, str(name), loc)
        return block

    def block_arg_list(self, meta: Any, items: list) -> list:
        return [i for i in items if i is not None]

    def block_arg(self, meta: Any, items: list) -> tuple:
        return (items[0], _type(items[1]), self.tok_loc(items[0]))

    # -- values, types, attributes ----------------------------------------------
    def value_use(self, meta: Any, items: list) -> _Use:
        return self.use(items[0])

    def value_list(self, meta: Any, items: list) -> list[_Use]:
        return items

    def type_list(self, meta: Any, items: list) -> list[Type]:
        return [_type(t) for t in items]

    def function_type(self, meta: Any, items: list) -> FunctionType:
        ins = items[0] or []
        return FunctionType(tuple(_type(t) for t in ins), tuple(items[1]))

    def fn_result(self, meta: Any, items: list) -> list[Type]:
        if len(items) == 1 and isinstance(items[0], Token):
            return [_type(items[0])]
        return items[0] or []

    def symbol_ref(self, meta: Any, items: list) -> SymbolRefAttr:
        names = [_symbol_name(str(t)) for t in items]
        return SymbolRefAttr(names[0], tuple(names[1:]))

    def attr_dict(self, meta: Any, items: list) -> dict[str, Attr]:
        out: dict[str, Attr] = {}
        for it in items:
            if it is not None:
                out[it[0]] = it[1]
        return out

    def attr_entry(self, meta: Any, items: list) -> tuple[str, Attr]:
        key = str(items[0])
        if key.startswith('"'):
            key = _unescape(key)
        return (key, items[1] if len(items) > 1 else UnitAttr())

    def int_attr(self, meta: Any, items: list) -> Attr:
        text = str(items[0])
        value = int(text, 16) if "0x" in text else int(text)
        t = _type(items[1]) if len(items) > 1 else I64
        if isinstance(t, Type) and t.is_float:
            import struct

            from spec.attributes import FLOAT_BITS

            bits = value
            code = {"f16": "<e", "f32": "<f", "f64": "<d", "bf16": "<f"}.get(t.text)
            if code is None:
                return FloatAttr(float(value), t)
            # bf16 is the top half of an f32 pattern.
            raw = (bits << 16).to_bytes(4, "little") if t.text == "bf16" else bits.to_bytes(FLOAT_BITS[t.text] // 8, "little")
            fval = struct.unpack(code, raw)[0]
            if fval != fval:
                return FloatAttr(fval, t, hex_bits=bits)
            return FloatAttr(fval, t)
        width = 64 if t == INDEX else (t.int_width if isinstance(t, Type) else None)
        if width is not None and width > 0:
            # Ranges as MLIR checks them: signless i8 takes -128..255, si8
            # -128..127, ui8 0..255 (and no minus sign at all).
            unsigned = isinstance(t, Type) and t.text.startswith("u")
            if unsigned and text.startswith("-"):
                loc = self.tok_loc(items[0])
                raise DiagnosticError(error(Location(loc.file, loc.line, loc.col + 1), "negative integer literal not valid for unsigned integer type"))
            signed = isinstance(t, Type) and t.text.startswith("s")
            top = 1 << (width - 1) if signed else 1 << width
            if not -(1 << (width - 1)) <= value < top:
                raise DiagnosticError(error(self.tok_loc(items[0]), "integer constant out of range for attribute"))
            # Stored as a `width`-bit pattern, printed signed (unsigned for
            # `ui` types), as APInt does.
            value &= (1 << width) - 1
            if not unsigned and width > 1 and value >= 1 << (width - 1):
                value -= 1 << width
        return IntegerAttr(value, t)  # type: ignore[arg-type]

    def float_attr(self, meta: Any, items: list) -> FloatAttr:
        t = _type(items[1]) if len(items) > 1 else Type("f64")
        value = float(str(items[0]))
        if isinstance(t, Type):
            value = round_to_type(value, t)
        return FloatAttr(value, t)  # type: ignore[arg-type]

    def bool_attr(self, meta: Any, items: list) -> IntegerAttr:
        return IntegerAttr(1 if str(items[0]) == "true" else 0, I1)

    def string_attr(self, meta: Any, items: list) -> StringAttr:
        return StringAttr(_unescape(str(items[0])))

    def unit_attr(self, meta: Any, items: list) -> UnitAttr:
        return UnitAttr()

    def symbol_attr(self, meta: Any, items: list) -> SymbolRefAttr:
        return items[0]

    def type_attr(self, meta: Any, items: list) -> TypeAttr:
        return TypeAttr(_type(items[0]))

    def array_attr(self, meta: Any, items: list) -> ArrayAttr:
        return ArrayAttr(tuple(i for i in items if i is not None))

    def dict_attr(self, meta: Any, items: list) -> DictAttr:
        return DictAttr(tuple(sorted(items[0].items())))

    def dense_array_attr(self, meta: Any, items: list) -> Attr:
        text = str(items[0])[len("array<") : -1]
        elem, _, rest = text.partition(":")
        t = Type(elem.strip())
        words = [v.strip() for v in rest.split(",") if v.strip()] if rest else []
        try:
            if t.is_float:
                values: tuple = tuple(round_to_type(float(v), t) for v in words)
            else:
                values = tuple({"true": 1, "false": 0}.get(v, None) if v in ("true", "false") else int(v, 0) for v in words)
        except ValueError:
            return OpaqueAttr(canonical_type_text(str(items[0])))
        return DenseArrayAttr(t, values)

    def opaque_attr(self, meta: Any, items: list) -> OpaqueAttr:
        raw = str(items[0])
        text = canonical_type_text(raw)
        flags = re.fullmatch(r"#arith\.(overflow|fastmath)<([\w\s,]*)>", raw)
        if flags:
            text = arith_flags_text(flags.group(1), [f.strip() for f in flags.group(2).split(",") if f.strip()]) or text
        if len(items) > 1:
            type_text = str(_type(items[1]))
            if raw.startswith("dense<"):
                text = canonical_dense(raw[len("dense<") : -1], type_text) or text
            text += f" : {type_text}"
        return OpaqueAttr(text)

    # -- generic form -------------------------------------------------------------
    def generic_op(self, meta: Any, items: list) -> _Partial:
        name = _unescape(str(items[0]))
        if not re.fullmatch(r"[A-Za-z_][\w$.]*\.[\w$.]+|[A-Za-z_][\w$.]*", name):
            raise DiagnosticError(error(self.loc(meta), f"invalid operation name '{name}'"))
        operands: list[_Use] = items[1] or []
        successors: list[Token] = []
        props: dict[str, Attr] = {}
        regions: list[Region] = []
        attrs: dict[str, Attr] = {}
        fn: FunctionType = items[-1]
        for it in items[2:-1]:
            if isinstance(it, tuple) and it and it[0] == "successors":
                successors = it[1]
            elif isinstance(it, tuple) and it and it[0] == "props":
                props = it[1]
            elif isinstance(it, tuple) and it and it[0] == "regions":
                regions = it[1]
            elif isinstance(it, dict):
                attrs = it
        info = registry.lookup(name)
        if len(fn.inputs) != len(operands):
            raise DiagnosticError(
                error(self.loc(meta), f"expected {len(operands)} operand types but had {len(fn.inputs)}")
            )
        for u, t in zip(operands, fn.inputs):
            u.type = t
        lo, hi = info.operand_count
        lo = max(lo, info.fixed_trailing)
        n = len(operands)
        if info.known and (n < lo or (hi is not None and n > hi)):
            raise DiagnosticError(error(self.loc(meta), f"'{name}' op {_operand_count_message(lo, hi, n)}"))
        # Inherent attributes written in the discardable dict are properties.
        for k in list(attrs):
            if info.known and k in info.properties and k not in props:
                props[k] = attrs.pop(k)
        if info.known:
            _check_generic_properties(name, props, attrs, n, self.loc(meta))
            _check_result_count(name, len(fn.results), self.loc(meta))
        if name == "gpu.module" and regions and regions[0].blocks:
            body = regions[0].blocks[-1]
            if body.ops and body.ops[-1].name == "gpu.module_end":
                body.ops.pop()
        return self.op(name, meta, operands, list(fn.results), properties=props, attributes=attrs, regions=regions, successors=successors)

    def successor_list(self, meta: Any, items: list) -> tuple:
        return ("successors", list(items))

    def properties(self, meta: Any, items: list) -> tuple:
        return ("props", items[0])

    def region_list(self, meta: Any, items: list) -> tuple:
        return ("regions", list(items))

    # -- builtin / func -------------------------------------------------------
    def module_op(self, meta: Any, items: list) -> _Partial:
        props: dict[str, Attr] = {}
        attrs: dict[str, Attr] = {}
        for it in items[1:-1]:
            if isinstance(it, Token):
                props["sym_name"] = StringAttr(_symbol_name(str(it)))
            elif isinstance(it, dict):
                attrs = it
        region: Region = items[-1]
        if not region.blocks:
            region.append(Block())
        props, attrs = self.split_attrs("builtin.module", attrs, props)
        return self.op("builtin.module", meta, properties=props, attributes=attrs, regions=[region])

    def named_arg(self, meta: Any, items: list) -> tuple:
        return ("named", items[0], _type(items[1]), items[2] if len(items) > 2 and isinstance(items[2], dict) else None)

    def type_with_attrs(self, meta: Any, items: list) -> tuple:
        return ("type", None, _type(items[0]), items[1] if len(items) > 1 else None)

    def func_args(self, meta: Any, items: list) -> tuple:
        return ("args", items)

    def func_results(self, meta: Any, items: list) -> tuple:
        out = []
        for it in items:
            if it is None:
                continue
            if isinstance(it, tuple):
                out.append(it)
            else:
                out.append(("type", None, _type(it), None))
        return ("results", out)

    def _function_parts(self, items: list) -> dict[str, Any]:
        parts: dict[str, Any] = {"vis": None, "sym": "", "args": [], "results": [], "attrs": {}, "region": Region(), "attribs": [], "kernel": False}
        for it in items:
            if isinstance(it, Token) and it.type == "VISIBILITY":
                parts["vis"] = str(it)
            elif isinstance(it, Token) and it.type == "SYMBOL":
                parts["sym"] = _symbol_name(str(it))
            elif isinstance(it, Token) and it.type == "KERNEL_KW":
                parts["kernel"] = True
            elif isinstance(it, tuple) and it[0] in ("args", "results"):
                parts[it[0]] = it[1]
            elif isinstance(it, tuple) and it[0] == "attrib":
                parts["attribs"].append(it)
            elif isinstance(it, dict):
                parts["attrs"] = it
            elif isinstance(it, Region):
                parts["region"] = it
        return parts

    def _function_like(self, meta: Any, items: list) -> tuple[dict, dict, Region, FunctionType]:
        p = self._function_parts(items)
        args, results, region = p["args"], p["results"], p["region"]
        fn = FunctionType(tuple(a[2] for a in args), tuple(r[2] for r in results))
        props: dict[str, Attr] = {"sym_name": StringAttr(p["sym"]), "function_type": TypeAttr(fn)}
        if p["vis"]:
            props["sym_visibility"] = StringAttr(p["vis"])
        if any(a[3] for a in args):
            props["arg_attrs"] = ArrayAttr(tuple(DictAttr(tuple(sorted((a[3] or {}).items()))) for a in args))
        if any(r[3] for r in results):
            props["res_attrs"] = ArrayAttr(tuple(DictAttr(tuple(sorted((r[3] or {}).items()))) for r in results))
        if region.blocks:
            if any(a[0] != "named" for a in args):
                raise DiagnosticError(error(self.loc(meta), "expected SSA identifier"))
            self._entry_args(region, [(a[1], a[2]) for a in args])
        elif any(a[0] == "named" for a in args):
            raise DiagnosticError(error(self.loc(meta), "expected '{' in function body"))
        return props, p["attrs"], region, fn

    def func_op(self, meta: Any, items: list) -> _Partial:
        props, attrs, region, _ = self._function_like(meta, items)
        props, attrs = self.split_attrs("func.func", attrs, props)
        return self.op("func.func", meta, properties=props, attributes=attrs, regions=[region])

    def call_op(self, meta: Any, items: list) -> _Partial:
        callee: Token = items[1]
        fn: FunctionType = items[-1]
        operands = [self.typed(u, t) for u, t in zip(items[2] or [], fn.inputs)]
        if len(items[2] or []) != len(fn.inputs):
            raise DiagnosticError(error(self.loc(meta), f"expected {len(items[2] or [])} operand types but had {len(fn.inputs)}"))
        attrs = items[3] if len(items) > 4 else None
        props, attrs = self.split_attrs("func.call", attrs, {"callee": SymbolRefAttr(_symbol_name(str(callee)))})
        return self.op("func.call", meta, operands, list(fn.results), properties=props, attributes=attrs)

    def return_op(self, meta: Any, items: list) -> _Partial:
        return self.op("func.return", meta, self._typed_list(items[1], items[2], meta))

    def _typed_list(self, uses: list[_Use] | None, types: list[Type] | None, meta: Any) -> list[_Use]:
        uses = uses or []
        types = types or []
        if len(uses) != len(types):
            raise DiagnosticError(error(self.loc(meta), f"{len(uses)} operands present, but expected {len(types)}"))
        return [self.typed(u, t) for u, t in zip(uses, types)]

    # -- gpu ------------------------------------------------------------------
    def gpu_module_op(self, meta: Any, items: list) -> _Partial:
        region: Region = items[-1]
        if not region.blocks:
            region.append(Block())
        attrs = next((it for it in items if isinstance(it, dict)), None)
        props, attrs = self.split_attrs("gpu.module", attrs, {"sym_name": StringAttr(_symbol_name(str(items[0])))})
        return self.op("gpu.module", meta, properties=props, attributes=attrs, regions=[region])

    def gpu_attributions(self, meta: Any, items: list) -> tuple:
        return ("attrib", str(items[0]), [i for i in items[1:] if i is not None])

    def gpu_func_op(self, meta: Any, items: list) -> _Partial:
        p = self._function_parts(items)
        args, results, region = p["args"], p["results"], p["region"]
        fn = FunctionType(tuple(a[2] for a in args), tuple(r[2] for r in results))
        workgroup = [a for kind, lst in ((x[1], x[2]) for x in p["attribs"]) if kind == "workgroup" for a in lst]
        private = [a for kind, lst in ((x[1], x[2]) for x in p["attribs"]) if kind == "private" for a in lst]
        all_args = [*args, *workgroup, *private]
        if any(a[1] is None for a in all_args):
            raise DiagnosticError(error(self.loc(meta), "expected SSA identifier"))
        self._entry_args(region, [(a[1], a[2]) for a in all_args])
        props, attrs = self.split_attrs("gpu.func", p["attrs"], {"function_type": TypeAttr(fn)})
        attrs = {**attrs, "sym_name": StringAttr(p["sym"]), "workgroup_attributions": IntegerAttr(len(workgroup), I64)}
        if p["kernel"]:
            attrs["gpu.kernel"] = UnitAttr()
        return self.op("gpu.func", meta, properties=props, attributes=attrs, regions=[region])

    def gpu_return_op(self, meta: Any, items: list) -> _Partial:
        return self.op("gpu.return", meta, self._typed_list(items[0], items[1], meta))

    def gpu_barrier_op(self, meta: Any, items: list) -> _Partial:
        return self.op("gpu.barrier", meta, attributes=items[0] if items else None)

    def gpu_terminator_op(self, meta: Any, items: list) -> _Partial:
        return self.op("gpu.terminator", meta, attributes=items[0] if items else None)

    def gpu_dim_op(self, meta: Any, items: list) -> _Partial:
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

    def async_deps(self, meta: Any, items: list) -> tuple[Token | None, list[_Use]]:
        # The `async` keyword itself (truthy), kept for its location.
        is_async = next((i for i in items if isinstance(i, Token) and i.type == "ASYNC_KW"), None)
        deps: list[_Use] = []
        for it in items:
            if isinstance(it, list):
                deps = it
        return is_async, [self.typed(d, GPU_TOKEN) for d in deps]

    def _async_kw(self, kw: Token | None, partial: _Partial) -> _Partial:
        partial.async_kw = kw
        return partial

    def triple(self, meta: Any, items: list) -> list[_Use]:
        return [self.typed(u, INDEX) for u in items]

    def launch_args(self, meta: Any, items: list) -> list[_Use]:
        return [i for i in items if i is not None]

    def launch_arg(self, meta: Any, items: list) -> _Use:
        return self.typed(items[0], _type(items[1]))  # type: ignore[arg-type]

    def launch_func_op(self, meta: Any, items: list) -> _Partial:
        is_async, deps = items[0]
        kernel: SymbolRefAttr = items[1]
        grid, block = items[2], items[3]
        cluster: list[_Use] = []
        dsm: list[_Use] = []
        args: list[_Use] = []
        attrs = None
        for it in items[4:]:
            if isinstance(it, list) and len(it) == 3 and not cluster and it is not items[-1] and all(u.type == INDEX for u in it) and not args:
                cluster = it
            if isinstance(it, _Use):
                dsm = [self.typed(it, Type("i32"))]
            elif isinstance(it, list) and it is not cluster:
                args = it
            elif isinstance(it, dict):
                attrs = it
        sizes = (len(deps), 1, 1, 1, 1, 1, 1, *(1, 1, 1)[: len(cluster)], *(0, 0, 0)[len(cluster) :], len(dsm), len(args), 0)
        props, attrs = self.split_attrs("gpu.launch_func", attrs, {"kernel": kernel, "operandSegmentSizes": _segments(*sizes)})
        results = [GPU_TOKEN] if is_async else []
        return self._async_kw(is_async, self.op("gpu.launch_func", meta, [*deps, *grid, *block, *cluster, *dsm, *args], results, properties=props, attributes=attrs))

    def _copy_like(self, name: str, meta: Any, items: list) -> _Partial:
        is_async, deps = items[0]
        a, b = items[1], items[2]
        attrs = items[3] if len(items) > 5 else None
        t1, t2 = _type(items[-2]), _type(items[-1])
        props, attrs = self.split_attrs(name, attrs, {})
        return self._async_kw(is_async, self.op(name, meta, [*deps, self.typed(a, t1), self.typed(b, t2)], [GPU_TOKEN] if is_async else [], properties=props, attributes=attrs))  # type: ignore[arg-type]

    def memcpy_op(self, meta: Any, items: list) -> _Partial:
        return self._copy_like("gpu.memcpy", meta, items)

    def memset_op(self, meta: Any, items: list) -> _Partial:
        return self._copy_like("gpu.memset", meta, items)

    def gpu_alloc_op(self, meta: Any, items: list) -> _Partial:
        is_async, deps = items[0]
        host_shared = False
        lists: list[list[_Use]] = []
        attrs = None
        for it in items[1:-1]:
            if isinstance(it, Token) and it.type == "HOST_SHARED":
                host_shared = True
            elif isinstance(it, list) or it is None:
                lists.append(it or [])
            elif isinstance(it, dict):
                attrs = it
        t = _type(items[-1])
        dyn = [self.typed(u, INDEX) for u in (lists[0] if lists else [])]
        syms = [self.typed(u, INDEX) for u in (lists[1] if len(lists) > 1 else [])]
        props: dict[str, Attr] = {"operandSegmentSizes": _segments(len(deps), len(dyn), len(syms))}
        if host_shared:
            props["hostShared"] = UnitAttr()
        props, attrs = self.split_attrs("gpu.alloc", attrs, props)
        results = [t, GPU_TOKEN] if is_async else [t]
        return self._async_kw(is_async, self.op("gpu.alloc", meta, [*deps, *dyn, *syms], results, properties=props, attributes=attrs))  # type: ignore[list-item]

    def gpu_dealloc_op(self, meta: Any, items: list) -> _Partial:
        is_async, deps = items[0]
        attrs = items[2] if len(items) > 3 else None
        return self._async_kw(is_async, self.op("gpu.dealloc", meta, [*deps, self.typed(items[1], _type(items[-1]))], [GPU_TOKEN] if is_async else [], attributes=attrs))  # type: ignore[arg-type]

    def gpu_wait_op(self, meta: Any, items: list) -> _Partial:
        is_async, deps = items[0]
        attrs = items[1] if len(items) > 1 else None
        return self._async_kw(is_async, self.op("gpu.wait", meta, deps, [GPU_TOKEN] if is_async else [], attributes=attrs))

    def launch_ids(self, meta: Any, items: list) -> tuple:
        ids = items[1:4]
        sizes = [(items[i], self.typed(items[i + 1], INDEX)) for i in (4, 6, 8)]
        return (ids, sizes)

    def gpu_launch_op(self, meta: Any, items: list) -> _Partial:
        is_async, deps = items[0]
        (bids, gsizes), (tids, bsizes) = items[1], items[2]
        dsm: list[_Use] = []
        region: Region = Region()
        attrs = None
        for it in items[3:]:
            if isinstance(it, _Use):
                dsm = [self.typed(it, Type("i32"))]
            elif isinstance(it, Region):
                region = it
            elif isinstance(it, dict):
                attrs = it
        if not region.blocks:
            region.append(Block())
        entry = region.blocks[0]
        names = [*bids, *tids, *(n for n, _ in gsizes), *(n for n, _ in bsizes)]
        for i, tok in enumerate(names):
            entry.args.insert(i, Value(INDEX, entry, i, str(tok), self.tok_loc(tok)))
        for i, v in enumerate(entry.args):
            v.index = i
        operands = [*deps, *(u for _, u in gsizes), *(u for _, u in bsizes), *dsm]
        props = {"operandSegmentSizes": _segments(len(deps), 1, 1, 1, 1, 1, 1, 0, 0, 0, len(dsm))}
        props, attrs = self.split_attrs("gpu.launch", attrs, props)
        attrs = {"workgroup_attributions": IntegerAttr(0, I64), **attrs}
        return self._async_kw(is_async, self.op("gpu.launch", meta, operands, [GPU_TOKEN] if is_async else [], properties=props, attributes=attrs, regions=[region]))

    # -- arith ----------------------------------------------------------------
    def arith_constant_op(self, meta: Any, items: list) -> _Partial:
        value: Attr = items[-1]
        if isinstance(value, (IntegerAttr, FloatAttr)):
            t = value.type
        elif isinstance(value, OpaqueAttr) and " : " in value.text:
            t = Type(value.text.rsplit(" : ", 1)[1])
        else:
            raise DiagnosticError(error(self.loc(meta), "'arith.constant' op value must be a typed attribute"))
        return self.op("arith.constant", meta, [], [t], properties={"value": value})

    def arith_flags(self, meta: Any, items: list) -> tuple[str, Attr]:
        kind = str(items[0])
        key = {"overflow": "overflowFlags", "fastmath": "fastmath"}.get(kind)
        if key is None:
            raise DiagnosticError(error(self.tok_loc(items[0]), f"expected 'overflow' or 'fastmath', got '{kind}'"))
        text = arith_flags_text(kind, [str(i) for i in items[1:] if i is not None])
        if text is None:
            raise DiagnosticError(error(self.tok_loc(items[0]), f"invalid {kind} flags"))
        return (key, OpaqueAttr(text))

    def _arith(self, name: str, meta: Any, operands: list[_Use], result: Type, rest: list, extra: dict | None = None) -> _Partial:
        props: dict[str, Attr] = dict(extra or {})
        attrs = None
        for it in rest:
            if isinstance(it, tuple):
                props[it[0]] = it[1]
            elif isinstance(it, dict):
                attrs = it
        props, attrs = self.split_attrs(name, attrs, props)
        return self.op(name, meta, operands, [result], properties=props, attributes=attrs)

    def arith_binary_op(self, meta: Any, items: list) -> _Partial:
        t = _type(items[-1])
        return self._arith(str(items[0]), meta, [self.typed(items[1], t), self.typed(items[2], t)], t, items[3:-1])  # type: ignore[arg-type]

    def arith_unary_op(self, meta: Any, items: list) -> _Partial:
        t = _type(items[-1])
        return self._arith("arith.negf", meta, [self.typed(items[0], t)], t, items[1:-1])  # type: ignore[arg-type]

    def arith_cast_op(self, meta: Any, items: list) -> _Partial:
        src, dst = _type(items[-2]), _type(items[-1])
        return self._arith(str(items[0]), meta, [self.typed(items[1], src)], dst, items[2:-2])  # type: ignore[arg-type]

    def arith_cmp_op(self, meta: Any, items: list) -> _Partial:
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
        t = _type(items[-1])
        pa = {"predicate": IntegerAttr(table.index(pred), I64)}
        return self._arith(name, meta, [self.typed(items[2], t), self.typed(items[3], t)], I1, items[4:-1], pa)  # type: ignore[arg-type]

    def arith_select_op(self, meta: Any, items: list) -> _Partial:
        types = [_type(t) for t in items[3:] if not isinstance(t, dict) and t is not None]
        t = types[-1]
        cond_t = types[0] if len(types) == 2 else I1
        attrs = next((i for i in items[3:] if isinstance(i, dict)), None)
        ops = [self.typed(items[0], cond_t), self.typed(items[1], t), self.typed(items[2], t)]  # type: ignore[arg-type]
        return self.op("arith.select", meta, ops, [t], attributes=attrs)  # type: ignore[list-item]

    # -- memref -----------------------------------------------------------------
    def memref_alloc_op(self, meta: Any, items: list) -> _Partial:
        name = str(items[0])
        lists: list[list[_Use]] = []
        attrs = None
        for it in items[1:-1]:
            if isinstance(it, list) or it is None:
                lists.append(it or [])
            elif isinstance(it, dict):
                attrs = it
        dyn = [self.typed(u, INDEX) for u in (lists[0] if lists else [])]
        syms = [self.typed(u, INDEX) for u in (lists[1] if len(lists) > 1 else [])]
        props, attrs = self.split_attrs(name, attrs, {"operandSegmentSizes": _segments(len(dyn), len(syms))})
        return self.op(name, meta, [*dyn, *syms], [_type(items[-1])], properties=props, attributes=attrs)  # type: ignore[list-item]

    def memref_dealloc_op(self, meta: Any, items: list) -> _Partial:
        return self.op("memref.dealloc", meta, [self.typed(items[0], _type(items[-1]))], attributes=items[1] if len(items) > 2 else None)  # type: ignore[arg-type]

    def memref_load_op(self, meta: Any, items: list) -> _Partial:
        t = _type(items[-1])
        idx = [self.typed(u, INDEX) for u in (items[1] or [])]
        attrs = items[2] if len(items) > 3 else None
        props, attrs = self.split_attrs("memref.load", attrs, {})
        elem = Type(_memref_element(t.text))  # type: ignore[union-attr]
        return self.op("memref.load", meta, [self.typed(items[0], t), *idx], [elem], properties=props, attributes=attrs)  # type: ignore[arg-type]

    def memref_store_op(self, meta: Any, items: list) -> _Partial:
        t = _type(items[-1])
        idx = [self.typed(u, INDEX) for u in (items[2] or [])]
        attrs = items[3] if len(items) > 4 else None
        props, attrs = self.split_attrs("memref.store", attrs, {})
        elem = Type(_memref_element(t.text))  # type: ignore[union-attr]
        return self.op("memref.store", meta, [self.typed(items[0], elem), self.typed(items[1], t), *idx], [], properties=props, attributes=attrs)  # type: ignore[arg-type]

    def memref_dim_op(self, meta: Any, items: list) -> _Partial:
        t = _type(items[-1])
        attrs = items[2] if len(items) > 3 else None
        return self.op("memref.dim", meta, [self.typed(items[0], t), self.typed(items[1], INDEX)], [INDEX], attributes=attrs)  # type: ignore[arg-type]

    def memref_cast_op(self, meta: Any, items: list) -> _Partial:
        attrs = items[1] if len(items) > 3 else None
        return self.op("memref.cast", meta, [self.typed(items[0], _type(items[-2]))], [_type(items[-1])], attributes=attrs)  # type: ignore[arg-type,list-item]

    def memref_copy_op(self, meta: Any, items: list) -> _Partial:
        attrs = items[2] if len(items) > 4 else None
        return self.op("memref.copy", meta, [self.typed(items[0], _type(items[-2])), self.typed(items[1], _type(items[-1]))], attributes=attrs)  # type: ignore[arg-type]

    def mixed_list(self, meta: Any, items: list) -> list:
        return [i for i in items if i is not None]

    def memref_subview_op(self, meta: Any, items: list) -> _Partial:
        src = self.typed(items[0], _type(items[-2]))  # type: ignore[arg-type]
        attrs = items[4] if len(items) > 6 else None
        props: dict[str, Attr] = {}
        dyn_lists: list[list[_Use]] = []
        for key, entries in zip(("static_offsets", "static_sizes", "static_strides"), items[1:4]):
            statics: list[int] = []
            dyn: list[_Use] = []
            for e in entries:
                if isinstance(e, _Use):
                    statics.append(K_DYNAMIC)
                    dyn.append(self.typed(e, INDEX))
                else:
                    statics.append(int(str(e)))
            props[key] = DenseArrayAttr(I64, tuple(statics))
            dyn_lists.append(dyn)
        props["operandSegmentSizes"] = _segments(1, *(len(d) for d in dyn_lists))
        props, attrs = self.split_attrs("memref.subview", attrs, props)
        operands = [src, *(u for d in dyn_lists for u in d)]
        return self.op("memref.subview", meta, operands, [_type(items[-1])], properties=props, attributes=attrs)  # type: ignore[list-item]

    # -- scf --------------------------------------------------------------------
    def iter_args(self, meta: Any, items: list) -> tuple:
        pairs = [i for i in items[:-1] if i is not None]
        types = items[-1] or []
        if len(pairs) != len(types):
            raise DiagnosticError(error(self.loc(meta), "mismatch in number of loop-carried values and defined values"))
        return ("iter", pairs, types)

    def iter_arg(self, meta: Any, items: list) -> tuple:
        return (items[0], items[1])

    def _ensure_terminator(self, region: Region, name: str, loc: Location) -> None:
        if not region.blocks:
            region.append(Block())
        block = region.blocks[-1]
        if not block.ops or not registry.lookup(block.ops[-1].name).terminator:
            block.append(Operation(name, loc=loc))

    def _entry_args(self, region: Region, args: list[tuple[Token, Type]]) -> None:
        if not region.blocks:
            region.append(Block())
        entry = region.blocks[0]
        for i, (tok, t) in enumerate(args):
            entry.args.insert(i, Value(t, entry, i, str(tok), self.tok_loc(tok)))
        for i, v in enumerate(entry.args):
            v.index = i

    def scf_for_op(self, meta: Any, items: list) -> _Partial:
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
                iv_type = _type(it)  # type: ignore[assignment]
        bounds = [self.typed(u, iv_type) for u in items[1:4]]
        inits = [self.typed(u, t) for (_, u), t in zip(pairs, types)]
        self._entry_args(region, [(iv, iv_type), *((tok, t) for (tok, _), t in zip(pairs, types))])
        self._ensure_terminator(region, "scf.yield", self.loc(meta))
        return self.op("scf.for", meta, [*bounds, *inits], types, attributes=attrs, regions=[region])

    def scf_if_op(self, meta: Any, items: list) -> _Partial:
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

    def scf_while_op(self, meta: Any, items: list) -> _Partial:
        pairs = [i for i in items if isinstance(i, tuple)]
        fn: FunctionType = next(i for i in items if isinstance(i, FunctionType))
        regions = [i for i in items if isinstance(i, Region)]
        attrs = next((i for i in items if isinstance(i, dict)), None)
        if len(pairs) != len(fn.inputs):
            raise DiagnosticError(error(self.loc(meta), "expected as many input types as operands"))
        inits = [self.typed(u, t) for (_, u), t in zip(pairs, fn.inputs)]
        self._entry_args(regions[0], [(tok, t) for (tok, _), t in zip(pairs, fn.inputs)])
        return self.op("scf.while", meta, inits, list(fn.results), attributes=attrs, regions=regions)

    def scf_parallel_op(self, meta: Any, items: list) -> _Partial:
        ivs = [i for i in items if isinstance(i, Token)]
        lists = [i for i in items if isinstance(i, list) and (not i or isinstance(i[0], _Use))]
        type_lists = [i for i in items if isinstance(i, list) and i and isinstance(i[0], Type)]
        region = next(i for i in items if isinstance(i, Region))
        attrs = next((i for i in items if isinstance(i, dict)), None)
        lbs, ubs, steps = ([self.typed(u, INDEX) for u in lst] for lst in lists[:3])
        types = type_lists[0] if type_lists else []
        inits = [self.typed(u, t) for u, t in zip(lists[3] if len(lists) > 3 else [], types)]
        self._entry_args(region, [(tok, INDEX) for tok in ivs])
        self._ensure_terminator(region, "scf.reduce", self.loc(meta))
        props = {"operandSegmentSizes": _segments(len(lbs), len(ubs), len(steps), len(inits))}
        return self.op("scf.parallel", meta, [*lbs, *ubs, *steps, *inits], types, properties=props, attributes=attrs, regions=[region])

    def scf_yield_op(self, meta: Any, items: list) -> _Partial:
        attrs = items[0] if items and isinstance(items[0], dict) else None
        rest = items[1:] if items and (attrs is not None or items[0] is None) else items
        return self.op("scf.yield", meta, self._typed_list(rest[0] if rest else None, rest[1] if len(rest) > 1 else None, meta), attributes=attrs)

    def scf_condition_op(self, meta: Any, items: list) -> _Partial:
        cond = self.typed(items[0], I1)
        rest = [i for i in items[1:] if not isinstance(i, dict)]
        attrs = next((i for i in items[1:] if isinstance(i, dict)), None)
        ops = self._typed_list(rest[0] if rest else None, rest[1] if len(rest) > 1 else None, meta)
        return self.op("scf.condition", meta, [cond, *ops], attributes=attrs)

    def scf_reduce_op(self, meta: Any, items: list) -> _Partial:
        uses = next((i for i in items if isinstance(i, list) and i and isinstance(i[0], _Use)), [])
        types = next((i for i in items if isinstance(i, list) and i and isinstance(i[0], Type)), [])
        regions = [i for i in items if isinstance(i, Region)]
        attrs = next((i for i in items if isinstance(i, dict)), None)
        return self.op("scf.reduce", meta, self._typed_list(uses, types, meta), attributes=attrs, regions=regions)

    def scf_reduce_return_op(self, meta: Any, items: list) -> _Partial:
        return self.op("scf.reduce.return", meta, [self.typed(items[0], _type(items[-1]))], attributes=items[1] if len(items) > 2 else None)  # type: ignore[arg-type]

    def arrow_types(self, meta: Any, items: list) -> list[Type]:
        if len(items) == 1 and isinstance(items[0], Token):
            return [_type(items[0])]  # type: ignore[list-item]
        return items[0] or []

    def scf_execute_region_op(self, meta: Any, items: list) -> _Partial:
        types = next((i for i in items if isinstance(i, list)), [])
        region = next(i for i in items if isinstance(i, Region))
        attrs = next((i for i in items if isinstance(i, dict)), None)
        return self.op("scf.execute_region", meta, [], types, attributes=attrs, regions=[region])

    # -- cf ---------------------------------------------------------------------
    def successor(self, meta: Any, items: list) -> tuple:
        uses = items[1] if len(items) > 1 else []
        types = items[2] if len(items) > 2 else []
        return (items[0], self._typed_list(uses, types, meta))

    def cf_br_op(self, meta: Any, items: list) -> _Partial:
        label, ops = items[0]
        return self.op("cf.br", meta, ops, attributes=items[1] if len(items) > 1 else None, successors=[label])

    def cf_cond_br_op(self, meta: Any, items: list) -> _Partial:
        cond = self.typed(items[0], I1)
        succ = [i for i in items[1:] if isinstance(i, tuple)]
        weights = [int(str(i)) for i in items[1:] if isinstance(i, Token)]
        attrs = next((i for i in items[1:] if isinstance(i, dict)), None)
        (t_label, t_ops), (f_label, f_ops) = succ
        props: dict[str, Attr] = {"operandSegmentSizes": _segments(1, len(t_ops), len(f_ops))}
        if weights:
            props["branch_weights"] = DenseArrayAttr(Type("i32"), tuple(weights))
        props, attrs = self.split_attrs("cf.cond_br", attrs, props)
        return self.op("cf.cond_br", meta, [cond, *t_ops, *f_ops], properties=props, attributes=attrs, successors=[t_label, f_label])

    def cf_assert_op(self, meta: Any, items: list) -> _Partial:
        props, attrs = self.split_attrs("cf.assert", items[2] if len(items) > 2 else None, {"msg": StringAttr(_unescape(str(items[1])))})
        return self.op("cf.assert", meta, [self.typed(items[0], I1)], properties=props, attributes=attrs)

    # -- async ------------------------------------------------------------------
    def exec_operand(self, meta: Any, items: list) -> tuple:
        t = _type(items[2])
        return (self.typed(items[0], t), items[1], t)  # type: ignore[arg-type]

    def async_execute_op(self, meta: Any, items: list) -> _Partial:
        deps: list[_Use] = []
        operands: list[tuple] = []
        types: list[Type] = []
        attrs = None
        region: Region = items[-1]
        for it in items[:-1]:
            if isinstance(it, tuple):
                operands.append(it)
            elif isinstance(it, list) and it and isinstance(it[0], _Use):
                deps = it
            elif isinstance(it, list) and it and isinstance(it[0], Type):
                types = it
            elif isinstance(it, Token):
                types = [_type(it)]  # type: ignore[list-item]
            elif isinstance(it, FunctionType):
                types = [it]  # type: ignore[list-item]
            elif isinstance(it, dict):
                attrs = it
        deps = [self.typed(d, ASYNC_TOKEN) for d in deps]
        inner = []
        for _, tok, t in operands:
            if not t.is_async_value:
                raise DiagnosticError(error(self.loc(meta), f"expected !async.value type for body operand, got '{t}'"))
            inner.append((tok, t.async_value_inner))
        self._entry_args(region, inner)
        props = {"operandSegmentSizes": _segments(len(deps), len(operands))}
        props, attrs = self.split_attrs("async.execute", attrs, props)
        return self.op("async.execute", meta, [*deps, *(u for u, _, _ in operands)], [ASYNC_TOKEN, *types], properties=props, attributes=attrs, regions=[region])

    def async_await_op(self, meta: Any, items: list) -> _Partial:
        t = _type(items[-1])
        attrs = items[1] if len(items) > 2 else None
        result = [t.async_value_inner] if isinstance(t, Type) and t.is_async_value else []
        return self.op("async.await", meta, [self.typed(items[0], t)], result, attributes=attrs)  # type: ignore[arg-type]

    def async_yield_op(self, meta: Any, items: list) -> _Partial:
        attrs = items[0] if items and isinstance(items[0], dict) else None
        rest = items[1:] if items and (attrs is not None or items[0] is None) else items
        return self.op("async.yield", meta, self._typed_list(rest[0] if rest else None, rest[1] if len(rest) > 1 else None, meta), attributes=attrs)

    def async_create_group_op(self, meta: Any, items: list) -> _Partial:
        attrs = items[1] if len(items) > 2 else None
        return self.op("async.create_group", meta, [self.typed(items[0], INDEX)], [ASYNC_GROUP], attributes=attrs)

    def async_add_to_group_op(self, meta: Any, items: list) -> _Partial:
        t = _type(items[-1])
        attrs = items[2] if len(items) > 3 else None
        return self.op("async.add_to_group", meta, [self.typed(items[0], t), self.typed(items[1], ASYNC_GROUP)], [INDEX], attributes=attrs)  # type: ignore[arg-type]

    def async_await_all_op(self, meta: Any, items: list) -> _Partial:
        return self.op("async.await_all", meta, [self.typed(items[0], ASYNC_GROUP)], attributes=items[1] if len(items) > 1 else None)


_KEYWORD_FIRST = set(
    "func_op gpu_module_op gpu_func_op gpu_return_op gpu_barrier_op gpu_terminator_op launch_func_op memcpy_op "
    "memset_op gpu_alloc_op gpu_dealloc_op gpu_wait_op gpu_launch_op arith_constant_op arith_unary_op "
    "arith_select_op memref_dealloc_op memref_load_op memref_store_op memref_dim_op memref_cast_op memref_copy_op "
    "memref_subview_op scf_for_op scf_if_op scf_while_op scf_parallel_op scf_yield_op scf_condition_op "
    "scf_reduce_op scf_reduce_return_op scf_execute_region_op cf_br_op cf_cond_br_op cf_assert_op "
    "async_execute_op async_await_op async_yield_op async_create_group_op async_add_to_group_op "
    "async_await_all_op".split()
)
"""Rules whose first child is the op keyword: it is the op's location and is
dropped from the children the callback sees."""
_NAME_FIRST = set("module_op call_op return_op gpu_dim_op arith_binary_op arith_cast_op arith_cmp_op memref_alloc_op generic_op".split())
"""Rules whose first child is a token naming the op: kept, and the location."""


_KEYWORD_RULES = {
    "module_kw": "MODULE_KW",
    "visibility": "VISIBILITY",
    "call_kw": "CALL_KW",
    "return_kw": "RETURN_KW",
    "attribution_kw": "ATTRIBUTION_KW",
    "gpu_dim_kw": "GPU_DIM_KW",
    "dim": "DIM",
    "launch_kw": "LAUNCH_KW",
    "arith_binary": "ARITH_BINARY",
    "arith_cast": "ARITH_CAST",
    "arith_cmp": "ARITH_CMP",
    "memref_alloc": "MEMREF_ALLOC",
    "bool_kw": "BOOL",
}
"""Keyword choices written as rules of string literals rather than one regex
terminal: lark's lexer prefers `BARE_ID` over a regex terminal matching the
same text (so `return` after `async.await_all %g` lexed as an identifier), but
turns a `BARE_ID` match into a string terminal when that is acceptable. Each
callback hands on the keyword as a token of the old terminal type."""


def _keyword(kind: str) -> Any:
    return lambda self, meta, items: Token.new_borrow_pos(kind, str(items[0]), items[0])


for _rule, _kind in _KEYWORD_RULES.items():
    setattr(_Builder, _rule, _keyword(_kind))


def _wrap(fn: Any, rule: str) -> Any:
    # lark's inline transformer passes only the children; give every callback
    # (meta, items) where meta is the token that locates the construct, and
    # turn any failure of a builder into a located diagnostic.
    # The shape is chosen once per rule, not per call: this runs for every
    # reduction of the parse.
    if rule in _KEYWORD_FIRST:

        def invoke(self: _Builder, items: list) -> Any:
            return fn(self, items[0], items[1:])

    elif rule in _NAME_FIRST:

        def invoke(self: _Builder, items: list) -> Any:
            return fn(self, items[0], items)

    else:

        def invoke(self: _Builder, items: list) -> Any:
            for item in items:
                if type(item) is Token:
                    return fn(self, item, items)
            return fn(self, None, items)

    def call(self: _Builder, items: list) -> Any:
        try:
            return invoke(self, items)
        except DiagnosticError:
            raise
        except Exception as exc:  # noqa: BLE001 - malformed input the grammar admits
            loc = _first_location(items, self.file, self.line_offset)
            raise DiagnosticError(error(loc, f"malformed '{rule.removesuffix('_op')}': {exc}")) from None

    return call


for _name, _fn in list(vars(_Builder).items()):
    if not _name.startswith("_") and callable(_fn) and _name not in ("loc", "tok_loc", "use", "typed", "op", "split_attrs"):
        setattr(_Builder, _name, _wrap(_fn, _name))


_REQUIRED_ATTRIBUTES = {
    "func.func": ("sym_name", "function_type"),
    "func.call": ("callee",),
    "gpu.module": ("sym_name",),
    "gpu.func": ("function_type",),
    "gpu.launch_func": ("kernel",),
    "arith.constant": ("value",),
    "arith.cmpi": ("predicate",),
    "arith.cmpf": ("predicate",),
    "cf.assert": ("msg",),
    "memref.subview": ("static_offsets", "static_sizes", "static_strides"),
    **{f"gpu.{d}": ("dimension",) for d in ("thread_id", "block_id", "block_dim", "grid_dim", "cluster_id", "cluster_dim")},
}
"""Inherent attributes an op's verifier requires (the custom forms print them)."""


_ZERO_RESULTS = frozenset(
    "builtin.module func.func func.return gpu.module gpu.module_end gpu.func gpu.return gpu.terminator gpu.barrier "
    "scf.yield scf.condition scf.reduce scf.reduce.return cf.br cf.cond_br cf.assert memref.store memref.dealloc "
    "memref.copy async.yield async.await_all".split()
)
_ONE_RESULT_PREFIXES = ("arith.", "gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim", "gpu.cluster_")
_ONE_RESULT = frozenset(
    "memref.alloc memref.alloca memref.load memref.dim memref.cast memref.subview async.create_group async.add_to_group".split()
)


def _check_result_count(name: str, n: int, loc: Location) -> None:
    """The `ZeroResults` / `OneResult` traits of the known ops, whose custom
    forms could not show another count."""
    if name in _ZERO_RESULTS and n:
        raise DiagnosticError(error(loc, f"'{name}' op requires zero results"))
    if (name in _ONE_RESULT or name.startswith(_ONE_RESULT_PREFIXES)) and n != 1:
        raise DiagnosticError(error(loc, f"'{name}' op requires one result"))


_PROPERTY_SHAPES = {
    "dimension": r"#gpu<dim [xyz]>",
    "overflowFlags": r"#arith\.overflow<[\w ,]*>",
    "fastmath": r"#arith\.fastmath<[\w,]*>",
    "predicate": r"\d+ : i64",
}
"""Properties the custom forms read: their printed shape, as the op's
property conversion accepts it."""
_FREE_SHAPED: set[tuple[str, str]] = set()


def _check_generic_properties(name: str, props: dict[str, Attr], attrs: dict[str, Attr], n: int, loc: Location) -> None:
    """What MLIR's verifier checks of a known op written generically, as far
    as its custom form depends on it: required attributes and operand
    segments consistent with the operands."""
    for key in _REQUIRED_ATTRIBUTES.get(name, ()):
        if key not in props and not (name == "gpu.func" and key in attrs):
            raise DiagnosticError(error(loc, f"'{name}' op requires attribute '{key}'"))
    if name == "gpu.func" and "sym_name" not in attrs:
        raise DiagnosticError(error(loc, f"'{name}' op requires attribute 'sym_name'"))
    for key, pattern in _PROPERTY_SHAPES.items():
        value = props.get(key)
        in_range = key != "predicate" or not isinstance(value, IntegerAttr) or value.value < len(CMPI_PREDICATES if name == "arith.cmpi" else CMPF_PREDICATES)
        if value is not None and (name, key) not in _FREE_SHAPED and (not re.fullmatch(pattern, str(value)) or not in_range):
            entries = format_attr_entries(props)
            raise DiagnosticError(
                error(loc, f"invalid properties {{{entries}}} for op {name}: Invalid attribute `{key}` in property conversion: {value}")
            )
    segments = registry.lookup(name).segments
    if not segments:
        return
    sizes = props.get("operandSegmentSizes")
    values = sizes.values if isinstance(sizes, DenseArrayAttr) else ()
    if sizes is not None and len(values) != len(segments):
        raise DiagnosticError(
            error(loc, f"'{name}' op 'operandSegmentSizes' attribute for specifying operand segments must have {len(segments)} elements, but got {len(values)}")
        )
    if sum(values) != n or any(v < 0 for v in values):
        raise DiagnosticError(
            error(loc, f"'{name}' op operand count ({n}) does not match with the total size ({sum(values)}) specified in attribute 'operandSegmentSizes'")
        )


def _operand_count_message(lo: int, hi: int | None, n: int) -> str:
    """The verifier's wording for a wrong operand count (op traits
    `ZeroOperands`, `OneOperand`, `NOperands<N>`, `AtLeastNOperands<N>`)."""
    if lo == hi == 0:
        return "requires zero operands"
    if lo == hi == 1:
        return "requires a single operand"
    if lo == hi or (hi is not None and n > hi):
        return f"expected {hi} operands, but found {n}"
    return f"expected {lo} or more operands, but found {n}"


def _symbol_name(tok: str) -> str:
    body = tok[1:]
    return _unescape(body) if body.startswith('"') else body


def _memref_element(text: str) -> str:
    m = re.match(r"memref<(?:(?:\d+|\?)x)*([^,>]+(?:<[^>]*>)?)", text)
    return m.group(1).strip() if m else text


_GRAMMAR = Path(__file__).with_name("grammar.lark")


@functools.lru_cache(maxsize=1)
def _lark() -> tuple[Lark, _Builder]:
    builder = _Builder()
    parser = Lark(
        _GRAMMAR.read_text(),
        parser="lalr",
        lexer="contextual",
        # Locations come from the tokens the callbacks see; lark's own
        # position propagation would only add work to every reduction.
        propagate_positions=False,
        maybe_placeholders=True,
        transformer=builder,
        # The LALR tables are cached in the temp dir, keyed by a hash of the
        # grammar and options: building them costs seconds per process.
        cache=True,
    )
    return parser, builder


MLIR_OPT_DIALECTS = frozenset(
    "acc affine amdgpu amx arith arm_neon arm_sme arm_sve async bufferization builtin cf complex dlti emitc func gpu "
    "index irdl linalg llvm math memref mesh ml_program mpi nvgpu nvvm omp pdl pdl_interp polynomial ptr quant rocdl "
    "scf shape sparse_tensor spirv tensor test test_dyn tosa transform ub vector x86vector xegpu".split()
)
"""Dialects mlir-opt-19 registers: a custom op of any other dialect is
reported as a missing dialect rather than an unknown op."""

_TERMINAL_WORDS = {
    "VALUE_ID": "SSA value",
    "SYMBOL": "symbol",
    "BLOCK_ID": "block label",
    "BARE_ID": "identifier",
    "STRING": "string",
    "INT": "integer",
    "FLOAT": "float",
    "SHAPED_TYPE": "type",
    "SIMPLE_TYPE": "type",
    "DIALECT_TYPE": "type",
    "LOC": "location",
    "DENSE_ARRAY": "attribute",
    "BRACKETED_ATTR": "attribute",
    "HASH_ATTR": "attribute",
    "$END": "end of file",
}


def _expected_words(names: set[str]) -> list[str]:
    """Expected terminals as a reader knows them: `':'` for literals, `type`,
    `SSA value`... for token classes."""
    parser, _ = _lark()
    literal = {t.name: t.pattern.value for t in parser.terminals if t.pattern.type == "str"}
    words: list[str] = []
    for name in sorted(names):
        word = f"'{literal[name]}'" if name in literal else _TERMINAL_WORDS.get(name, name.lower())
        if word not in words:
            words.append(word)
    return words


def _wrong_token_position(text: str, pos: int) -> tuple[int, int]:
    """Where mlir-opt reports a wrong token (`Parser::emitWrongTokenError`):
    just past the previous token, skipping back over blanks, line breaks and
    `//` comments. (1-based line and column within `text`.)"""
    head = text[:pos]
    while True:
        head = head.rstrip(" \t")
        if not head or head[-1] not in "\r\n":
            break
        head = head[:-1]
        start = max(head.rfind("\n"), head.rfind("\r")) + 1
        comment = head.find("//", start)
        if comment != -1:
            head = head[:comment]
    line = head.count("\n") + 1
    return line, len(head) - (head.rfind("\n") + 1) + 1


def _syntax_error(exc: UnexpectedInput, file: str, line_offset: int, text: str = "") -> DiagnosticError:
    line = (getattr(exc, "line", 0) or 0) + line_offset
    col = getattr(exc, "column", 0) or 0
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        pos = len(text) if tok.type == "$END" else tok.start_pos
        unknown_op = tok.type == "BARE_ID" and "." in str(tok)
        if text and pos is not None and not unknown_op:
            line, col = _wrong_token_position(text, pos)
            line += line_offset
        if tok.type == "$END":
            return DiagnosticError(error(Location(file, max(line, 1), max(col, 1)), "unexpected end of file"))
        text = str(tok)
        dialect = text.split(".", 1)[0]
        if tok.type == "BARE_ID" and "." in text and dialect not in MLIR_OPT_DIALECTS:
            msg = f"Dialect `{dialect}' not found for custom op '{text}' "
        elif tok.type == "BARE_ID" and "." in text:
            msg = f"custom op '{text}' is unknown"
        else:
            words = _expected_words({e for e in exc.expected if not e.startswith("__")})
            if len(words) == 1:
                msg = f"expected {words[0]}"
            elif words:
                msg = f"unexpected '{text}', expected one of: {', '.join(words[:8])}{', ...' if len(words) > 8 else ''}"
            else:
                msg = f"unexpected '{text}'"
        return DiagnosticError(error(Location(file, line, col), msg))
    if isinstance(exc, UnexpectedCharacters):
        ch = exc.char if hasattr(exc, "char") else "?"
        if text:
            line, col = _wrong_token_position(text, exc.pos_in_stream)
            line += line_offset
        return DiagnosticError(error(Location(file, line, col), f"unexpected character '{ch}'"))
    if isinstance(exc, UnexpectedEOF):
        return DiagnosticError(error(Location(file, max(line, 1), max(col, 1)), "unexpected end of file"))
    return DiagnosticError(error(Location(file, line, col), str(exc).splitlines()[0]))


def parse_ops(text: str, file: str = "<stdin>", line_offset: int = 0) -> list[Operation]:
    """Parse top-level ops, resolving names; raises `DiagnosticError`."""
    parser, builder = _lark()
    builder.file = file
    builder.line_offset = line_offset
    # The parse allocates millions of objects and frees almost none: the
    # cyclic collector would only rescan them (25-35% of the time, and
    # superlinear), so it is paused until the IR is built.
    collecting = gc.isenabled()
    gc.disable()
    try:
        try:
            ops: list[Operation] = parser.parse(text)
        except UnexpectedInput as exc:
            raise _syntax_error(exc, file, line_offset, text) from None
        _check_nesting(ops)
        _resolve(ops)
    finally:
        if collecting:
            gc.enable()
    return ops


def parse_module(text: str, file: str = "<stdin>", line_offset: int = 0) -> Operation:
    """Parse one module: a lone top-level `module` is the module itself;
    anything else is wrapped in an implicit `module { ... }`, as mlir-opt does."""
    ops = parse_ops(text, file, line_offset)
    if len(ops) == 1 and ops[0].name == "builtin.module" and not ops[0].results:
        ops[0].parent = None
        return ops[0]
    module = new_module(Location(file, 1 + line_offset, 1))
    body = module.regions[0].blocks[0]
    for op in ops:
        body.append(op)
    return module


def split_input(text: str) -> list[tuple[str, int]]:
    """Split on `// -----` as mlir-opt-19's `--split-input-file` does: each
    chunk with the 0-based line it starts at, so diagnostics keep the
    original line numbers.

    LLVM splits on `// ---` anywhere (not only at the start of a line) and
    accepts a split when `--` and one more character other than `-` follow;
    otherwise (`// ------`, a marker at the very end) the text stays in the
    chunk. Empty chunks are dropped, and a leading empty chunk makes the next
    piece a chunk unchecked (so `// -----` alone is a chunk `--`). A chunk
    that starts mid-line is padded with blanks so columns stay right too."""
    pieces = text.split(SPLIT_MARKER[:-2])
    chunks: list[tuple[int, int]] = []
    start, end = 0, len(pieces[0])
    for piece in pieces[1:]:
        piece_start = end + len(SPLIT_MARKER) - 2
        if start == end:
            start, end = piece_start, piece_start + len(piece)
            continue
        if piece.startswith("--") and len(piece) > 2 and piece[2] != "-":
            chunks.append((start, end))
            start, end = piece_start + 2, piece_start + len(piece)
        else:
            end = piece_start + len(piece)
    if start != end:
        chunks.append((start, end))
    out: list[tuple[str, int]] = []
    for a, b in chunks:
        line = text.count("\n", 0, a)
        col = a - (text.rfind("\n", 0, a) + 1)
        out.append((" " * col + text[a:b], line))
    return out


def _first_location(obj: Any, file: str, line_offset: int) -> Location:
    stack = [obj]
    while stack:
        item = stack.pop(0)
        if isinstance(item, Token) and item.line is not None:
            return Location(file, item.line + line_offset, item.column or 1)
        if isinstance(item, (list, tuple)):
            stack[:0] = list(item)
        elif isinstance(item, _Use):
            return item.loc
    return Location(file, 1 + line_offset, 1)


def _check_nesting(ops: list[Operation]) -> None:
    """Structural checks over the whole parse, without recursion: nesting
    depth, no terminator at the top level (the module body has none), and a
    function's entry block arguments typed as its signature says."""
    for op in ops:
        if registry.lookup(op.name).terminator:
            raise DiagnosticError(error(op.loc, f"'{op.name}' op is a terminator and cannot appear at the top level of a module"))
    stack = [(op, 1) for op in ops]
    while stack:
        op, depth = stack.pop()
        if depth > MAX_NESTING:
            raise DiagnosticError(error(op.loc, f"regions nested deeper than {MAX_NESTING} levels are not supported"))
        if op.name in ("func.func", "gpu.func"):
            _check_signature(op)
        for region in op.regions:
            for block in region.blocks:
                stack.extend((o, depth + 1) for o in block.ops)


def _check_signature(op: Operation) -> None:
    fn = op.properties.get("function_type")
    if not isinstance(fn, TypeAttr) or not isinstance(fn.type, FunctionType) or not op.regions or not op.regions[0].blocks:
        return
    args = op.regions[0].blocks[0].args
    for i, (want, arg) in enumerate(zip(fn.type.inputs, args)):
        if arg.type != want:
            raise DiagnosticError(
                error(
                    op.loc,
                    f"'{op.name}' op type of entry block argument #{i}('{arg.type}') must match the type of the "
                    f"corresponding argument in function signature('{want}')",
                )
            )


def _resolve(top: list[Operation]) -> None:
    """Replace `_Use` placeholders by values, in text order, with MLIR's
    scoping: a value is visible from its definition on, in its region and the
    regions nested in it; a name may not be redefined while visible (sibling
    regions, and the enclosing region after a nested one closes, may reuse
    it). An op's results are defined once its regions are read; a use before
    the definition is a forward reference, resolved when the name is defined
    and an error if it never is."""
    scope: dict[str, Value] = {}
    # Forward references waiting for a definition: name -> [(op, index, use)].
    pending: dict[str, list[tuple[Operation, int, _Use]]] = {}
    # Each op travels with the name list of its region (dropped when the
    # region closes); top-level names are never dropped.
    top_names: list[str] = []
    work: list[tuple[str, Any]] = [("op", (op, top_names)) for op in reversed(top)]
    while work:
        kind, item = work.pop()
        if kind == "leave":
            for name in item:
                scope.pop(name, None)
        elif kind == "block":
            block, defined = item
            for v in block.args:
                _define(scope, v, defined, pending)
            work.extend(("op", (op, defined)) for op in reversed(block.ops))
        elif kind == "define":
            op, defined = item
            for v in op.results:
                _define(scope, v, defined, pending)
        else:
            op, defined = item
            for i, u in enumerate(op.operands):
                if isinstance(u, _Use):
                    v = _lookup(scope, u, forward_ok=True)
                    if v is None:
                        pending.setdefault(_key(u), []).append((op, i, u))
                    else:
                        op.operands[i] = v
            work.append(("define", (op, defined)))
            for region in reversed(op.regions):
                names: list[str] = []
                work.append(("leave", names))
                work.extend(("block", (b, names)) for b in reversed(region.blocks))
    for uses in pending.values():
        raise DiagnosticError(error(uses[0][2].loc, "use of undeclared SSA value name"))


def _key(u: _Use) -> str:
    return f"{u.name}#{u.number}" if u.number else u.name


def _define(scope: dict[str, Value], v: Value, defined: list[str], pending: dict[str, list]) -> None:
    names = [v.hint]
    if "#" in v.hint and v.hint.endswith("#0"):
        names.append(v.hint[:-2])
    for name in names:
        if not name:
            continue
        if name in scope:
            prev = scope[name]
            raise DiagnosticError(
                error(v.loc, f"redefinition of SSA value '{name}'", note(prev.loc, "previously defined here"))
            )
        scope[name] = v
        defined.append(name)
        for op, i, u in pending.pop(name, []):
            op.operands[i] = _lookup(scope, u)  # type: ignore[assignment]


def _lookup(scope: dict[str, Value], u: _Use, forward_ok: bool = False) -> Value | None:
    key = _key(u)
    v = scope.get(key)
    if v is None and u.number == 0:
        v = scope.get(f"{u.name}#0")
    if v is None and u.number and (u.name in scope or f"{u.name}#0" in scope):
        raise DiagnosticError(error(u.loc, "reference to invalid result number"))
    if v is None:
        if forward_ok:
            return None
        raise DiagnosticError(error(u.loc, "use of undeclared SSA value name"))
    if u.type is not None and v.type != u.type:
        raise DiagnosticError(
            error(
                u.loc,
                f"use of value '{key}' expects different type than prior uses: '{u.type}' vs '{v.type}'",
                note(v.loc, "prior use here"),
            )
        )
    return v
