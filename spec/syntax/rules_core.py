"""Builder rules of the core syntax: the top level, operations and their
results, regions and blocks, values, types, attributes, and the generic op
form (checked as MLIR's verifier would, see `op_checks`)."""

from __future__ import annotations

import re
from typing import Any

from lark import Token

from spec import registry
from spec.attributes import (
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
    round_to_type,
)
from spec.diagnostics import DiagnosticError, error
from spec.invariant import InternalError
from spec.ir import Block, Location, Operation, Region
from spec.syntax.build_base import (
    BuilderBase,
    PartialOp,
    TokenError,
    UseRef,
    raw_rule,
    symbol_name,
    symbol_ref_attr,
    without_comments,
)
from spec.syntax.dialect_attrs import AttrTextError, ValueParser, gpu_attr_token_text, vector_enum_text
from spec.syntax.op_checks import (
    check_generic_properties,
    check_result_count,
    convert_generic_properties,
    operand_count_message,
)
from spec.syntax.resolve import NOTHING_LATER
from spec.syntax.string_literals import unescape
from spec.syntax.syntax_errors import unknown_op_message


class CoreRules(BuilderBase):
    """Rules for what any op is made of."""

    attr_value_parser: ValueParser
    """Reads one attribute nested in a dialect attribute's token (for
    `spec.syntax.dialect_attrs`): set by the parser, which owns the grammar."""

    # -- top level ----------------------------------------------------------
    def start(self, meta: Any, items: list) -> list[Operation]:
        # The top level is the implicit module's single block: it has no
        # labels, so any successor there is an undefined block. Alias
        # definitions (`#map = ...`) leave a None.
        items = [op for op in items if op is not None]
        for op in items:
            for s in op.successors:
                if isinstance(s, Token):
                    raise DiagnosticError(error(self.tok_loc(s), "reference to an undefined block"))
        return items

    @raw_rule
    def operation(self, items: list) -> Operation:
        names: list[tuple[Token, int]] = []
        body: PartialOp | None = None
        for it in items:
            if isinstance(it, list):
                names = it
            elif isinstance(it, PartialOp):
                body = it
        if body is None:
            raise InternalError("spec.syntax.rules_core: expected body is not None")
        op = body.op
        if body.async_kw is not None and not names:
            raise DiagnosticError(
                error(self.tok_loc(body.async_kw), f"custom op '{op.name}' needs to be named when marked 'async'")
            )
        bound = sum(n for _, n in names)
        if names and bound != len(body.result_types):
            raise DiagnosticError(
                error(
                    self.tok_loc(names[0][0]),
                    f"operation defines {len(body.result_types)} results but was provided {bound} to bind",
                )
            )
        values = [op.add_result(t) for t in body.result_types]
        i = 0
        for tok, n in names:
            for k in range(n):
                values[i].hint = f"{tok}#{k}" if n > 1 else str(tok)
                values[i].loc = self.tok_loc(tok)
                i += 1
        return op

    @raw_rule
    def results(self, items: list) -> list:
        return items

    @raw_rule
    def result_def(self, items: list) -> tuple[Token, int]:
        if len(items) < 2:
            return (items[0], 1)
        count = str(items[1])
        if not count.isdigit() or int(count) < 1:
            raise DiagnosticError(error(self.tok_loc(items[1]), "expected named operation to have at least 1 result"))
        return (items[0], int(count))

    # -- regions ------------------------------------------------------------
    @raw_rule
    def op_list(self, items: list) -> list[Operation]:
        if not items:
            return []
        ops, op = items
        ops.append(op)
        return ops

    def region_open(self, meta: Any, items: list) -> Token:
        return items[0]

    def region(self, meta: Any, items: list) -> Region:
        region = Region()
        brace: Token = items[0]
        entry_ops: list[Operation] = items[1]
        labeled: list[Block] = items[2:]
        if entry_ops or not labeled:
            if entry_ops or labeled:
                block = Block(loc=self.loc(meta))
                for op in entry_ops:
                    block.append(op)
                region.append(block)
        for b in labeled:
            region.append(b)
        if not region.blocks:
            self.empty_regions[id(region)] = self.tok_loc(brace)
        lookup = registry.lookup
        # Whether each op name is a terminator, asked of the registry once
        # per name, not once per op of the block.
        terminator: dict[str, bool] = {}
        with_successors = False
        for block in region.blocks:
            ops = block.ops
            last = len(ops) - 1
            for at, op in enumerate(ops):
                name = op.name
                if op.successors:
                    with_successors = True
                if at == last:
                    break
                is_terminator = terminator.get(name)
                if is_terminator is None:
                    is_terminator = terminator[name] = lookup(name).terminator
                if is_terminator:
                    # The `Terminator` trait: verified after the parse.
                    misplaced = DiagnosticError(
                        error(op.loc, f"'{op.name}' op must be the last operation in the parent block")
                    )
                    self._defer(op, misplaced=misplaced)
        labels: dict[str, Block] = {}
        for b in labeled:
            if b.label in labels:
                raise DiagnosticError(error(b.loc, f"redefinition of block '{b.label}'"))
            labels[b.label] = b
        for block in region.blocks if with_successors else ():
            for op in block.ops:
                if not op.successors:
                    continue  # keeps the shared empty list (`spec.ir.EMPTY_LIST`)
                resolved = []
                for s in op.successors:
                    if isinstance(s, Block):
                        resolved.append(s)
                        continue
                    tok: Token = s
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
        return (items[0], self.value_type(items[1]), self.tok_loc(items[0]))

    # -- values, types, attributes ----------------------------------------------
    @raw_rule
    def value_use(self, items: list) -> UseRef:
        # Once per operand of the file, so lark calls it as it is: it reads
        # only a VALUE_ID token, whose pattern leaves nothing to fail.
        return self.use(items[0])

    @raw_rule
    def value_list(self, items: list) -> list[UseRef]:
        return items

    def type_list(self, meta: Any, items: list) -> list[Type]:
        return [self.value_type(t) for t in items]

    def function_type(self, meta: Any, items: list) -> FunctionType:
        ins = items[0] or []
        return FunctionType(tuple(self.read_type(t) for t in ins), tuple(items[1]))  # type: ignore[misc]  # read_type of a value type: no function type

    def fn_result(self, meta: Any, items: list) -> list[Type]:
        if len(items) == 1 and isinstance(items[0], Token):
            return [self.read_type(items[0])]  # type: ignore[list-item]  # read_type of a value type: no function type
        return items[0] or []

    def symbol_ref(self, meta: Any, items: list) -> SymbolRefAttr:
        names = [symbol_name(str(t)) for t in items]
        return symbol_ref_attr(names[0], tuple(names[1:]))

    def attr_dict(self, meta: Any, items: list) -> dict[str, Attr]:
        out: dict[str, Attr] = {}
        for it in items:
            if it is not None:
                out[it[0]] = it[1]
        return out

    def attr_entry(self, meta: Any, items: list) -> tuple[str, Attr]:
        key = str(items[0])
        if key.startswith('"'):
            key = unescape(key)
        return (key, items[1] if len(items) > 1 else UnitAttr())

    def int_attr(self, meta: Any, items: list) -> Attr:
        text = str(items[0])
        value = int(text, 16) if "0x" in text else int(text)
        t = self.read_type(items[1]) if len(items) > 1 else I64
        if not isinstance(t, Type) or not (t.is_float or t == INDEX or t.int_width is not None):
            # mlir-opt-19 takes an integer literal only for an integer,
            # index or (hexadecimal) float type.
            raise DiagnosticError(error(self.tok_loc(items[0]), "integer literal not valid for specified type"))
        if isinstance(t, Type) and t.is_float:
            import struct

            from spec.attributes import FLOAT_BITS

            bits = value
            code = {"f16": "<e", "f32": "<f", "f64": "<d", "bf16": "<f"}.get(t.text)
            if code is None:
                return FloatAttr(float(value), t)
            # bf16 is the top half of an f32 pattern.
            raw = (
                (bits << 16).to_bytes(4, "little")
                if t.text == "bf16"
                else bits.to_bytes(FLOAT_BITS[t.text] // 8, "little")
            )
            fval = struct.unpack(code, raw)[0]
            if fval != fval:
                return FloatAttr(fval, t, hex_bits=bits)
            return FloatAttr(fval, t)
        width = 64 if t == INDEX else (t.int_width if isinstance(t, Type) else None)
        if width == 0 and value != 0:
            raise DiagnosticError(error(self.tok_loc(items[0]), "integer constant out of range for attribute"))
        if width is not None and width > 0:
            # Ranges as MLIR checks them: signless i8 takes -128..255, si8
            # -128..127, ui8 0..255 (and no minus sign at all).
            unsigned = isinstance(t, Type) and t.text.startswith("u")
            if unsigned and text.startswith("-"):
                loc = self.tok_loc(items[0])
                raise DiagnosticError(
                    error(
                        Location(loc.file, loc.line, loc.col + 1),
                        "negative integer literal not valid for unsigned integer type",
                    )
                )
            signed = isinstance(t, Type) and t.text.startswith("s")
            top = 1 << (width - 1) if signed else 1 << width
            if not -(1 << (width - 1)) <= value < top:
                raise DiagnosticError(error(self.tok_loc(items[0]), "integer constant out of range for attribute"))
            # Stored as a `width`-bit pattern, printed signed (unsigned for
            # `ui` types), as APInt does.
            value &= (1 << width) - 1
            if not unsigned and width > 1 and value >= 1 << (width - 1):
                value -= 1 << width
        return IntegerAttr(value, t)

    def float_attr(self, meta: Any, items: list) -> FloatAttr:
        t = self.read_type(items[1]) if len(items) > 1 else Type("f64")
        value = float(str(items[0]))
        if not isinstance(t, Type) or not t.is_float:
            # mlir-opt-19 says this at the token after the type; here it is
            # at the literal (the builder does not see the next token).
            raise DiagnosticError(error(self.tok_loc(items[0]), "floating point value not valid for specified type"))
        value = round_to_type(value, t)
        return FloatAttr(value, t)

    def bool_attr(self, meta: Any, items: list) -> IntegerAttr:
        return IntegerAttr(1 if str(items[0]) == "true" else 0, I1)

    def string_attr(self, meta: Any, items: list) -> StringAttr:
        return StringAttr(unescape(str(items[0])))

    def unit_attr(self, meta: Any, items: list) -> UnitAttr:
        return UnitAttr()

    def symbol_attr(self, meta: Any, items: list) -> SymbolRefAttr:
        return items[0]

    def type_attr(self, meta: Any, items: list) -> TypeAttr:
        return TypeAttr(self.read_type(items[0]))

    def array_attr(self, meta: Any, items: list) -> ArrayAttr:
        return ArrayAttr(tuple(i for i in items if i is not None))

    def dict_attr(self, meta: Any, items: list) -> DictAttr:
        return DictAttr(tuple(sorted(items[0].items())))

    def dense_array_attr(self, meta: Any, items: list) -> Attr:
        items[0] = without_comments(items[0])
        text = str(items[0])[len("array<") : -1]
        elem, _, rest = text.partition(":")
        t = Type(elem.strip())
        words = [v.strip() for v in rest.split(",") if v.strip()] if rest else []
        try:
            if t.is_float:
                values: tuple = tuple(round_to_type(float(v), t) for v in words)
            else:
                values = tuple(
                    {"true": 1, "false": 0}.get(v, None) if v in ("true", "false") else int(v, 0) for v in words
                )
        except ValueError:
            return OpaqueAttr(canonical_type_text(str(items[0])))
        return DenseArrayAttr(t, values)

    def opaque_attr(self, meta: Any, items: list) -> OpaqueAttr:
        items[0] = without_comments(items[0])
        self.check_dialects(items[0])
        raw = str(items[0])
        if raw.startswith("affine_") or (raw.startswith("#") and "." not in raw and "<" not in raw):
            # An affine map or set, or an alias use (`spec.syntax.affine`).
            from spec.dialects.affine.syntax import attr_text

            text = attr_text(items[0], self.aliases)
            if text is not None:
                return OpaqueAttr(text)
        try:
            vector_text = vector_enum_text(raw)
        except AttrTextError as exc:
            raise TokenError(items[0], exc.offset, exc.message, later=exc.later) from None
        text = vector_text or gpu_attr_token_text(items[0], self.attr_value_parser) or canonical_type_text(raw)
        flags = re.fullmatch(r"#arith\.(overflow|fastmath)<([\w\s,]*)>", raw)
        if flags:
            text = arith_flags_text(flags.group(1), [f.strip() for f in flags.group(2).split(",") if f.strip()]) or text
        if len(items) > 1:
            type_text = str(self.read_type(items[1]))
            if raw.startswith("dense<"):
                text = canonical_dense(raw[len("dense<") : -1], type_text) or text
            text += f" : {type_text}"
        return OpaqueAttr(text)

    def unknown_custom_op(self, meta: Any, items: list) -> PartialOp:
        # Reduced as soon as the name is read, so this is the first error, as
        # in mlir-opt, whatever follows the name.
        raise DiagnosticError(error(self.tok_loc(items[0]), unknown_op_message(str(items[0]))))

    # -- generic form -------------------------------------------------------------
    @raw_rule
    def generic_name(self, items: list) -> Token:
        """The quoted op name, checked for its dialect when the `(` after it
        is read (mlir-opt-19 points there)."""
        tok: Token = items[0]
        name = unescape(str(tok))
        if not self.options.allow_unregistered and not registry.registered_dialect(name):
            loc = Location(self.file, tok.line + self.line_offset, tok.column + len(str(tok)))  # type: ignore[operator]  # lark types line/column Optional; a lexed token has them
            raise DiagnosticError(
                error(
                    loc,
                    "operation being parsed with an unregistered dialect. If this is intended, "
                    "please use -allow-unregistered-dialect with the MLIR tool used",
                )
            )
        return tok

    def generic_op(self, meta: Any, items: list) -> PartialOp:
        name = unescape(str(items[0]))
        # mlir-opt-19 takes any non-empty string as a generic op's name
        # (`"a b"`, `"1a"`, `".x"`: ops of unregistered dialects).
        if not name:
            raise DiagnosticError(error(self.loc(meta), "empty operation name is invalid"))
        operands: list[UseRef] = items[1] or []
        successors: list[Token] = []
        props: dict[str, Attr] = {}
        written: dict[str, Attr] | None = None
        regions: list[Region] = []
        attrs: dict[str, Attr] = {}
        fn: FunctionType = items[-1]
        for it in items[2:-1]:
            if isinstance(it, tuple) and it and it[0] == "successors":
                successors = it[1]
            elif isinstance(it, tuple) and it and it[0] == "props":
                props = written = it[1]
            elif isinstance(it, tuple) and it and it[0] == "regions":
                regions = it[1]
            elif isinstance(it, dict):
                attrs = it
        info = registry.lookup(name)
        if len(fn.inputs) != len(operands):
            raise DiagnosticError(
                error(self.loc(meta), f"expected {len(operands)} operand types but had {len(fn.inputs)}")
            )
        if info.known:
            # Property conversion ends the op's parse, before any verifier.
            props, attrs = convert_generic_properties(name, written, attrs, self.loc(meta))
        for u, t in zip(operands, fn.inputs):
            u.type = t
        lo, hi = info.operand_count
        lo = max(lo, info.fixed_trailing)
        n = len(operands)
        # The verifier's order: result count, operand count, (`HasParent`,
        # after the parse,) then attributes. Its errors wait for the parse.
        counts = properties = None
        if info.known:
            try:
                check_result_count(name, len(fn.results), self.loc(meta))
                if n < lo or (hi is not None and n > hi):
                    raise DiagnosticError(error(self.loc(meta), f"'{name}' op {operand_count_message(lo, hi, n)}"))
            except DiagnosticError as exc:
                counts = exc
            try:
                # Reported after the counts: not needed if they failed.
                if counts is None:
                    check_generic_properties(name, props, attrs, n, fn.results, self.loc(meta), regions)
            except DiagnosticError as exc:
                properties = exc
        hidden = registry.lookup(name).generic_terminator
        if hidden and regions and regions[0].blocks:
            body = regions[0].blocks[-1]
            if body.ops and body.ops[-1].name == hidden:
                body.ops.pop()
        partial = self.op(
            name,
            meta,
            operands,
            list(fn.results),
            properties=props,
            attributes=attrs,
            regions=regions,
            successors=successors,
        )
        if regions:
            self.generic_ops.add(id(partial.op))
        unregistered = self._unregistered(name, partial.op.loc)
        if counts or properties or unregistered:
            self._defer(partial.op, counts=counts, properties=properties, unregistered=unregistered)
        return partial

    @staticmethod
    def _unregistered(name: str, loc: Location) -> DiagnosticError | None:
        """An op a closed dialect does not have: mlir-opt-19 reports it when
        it verifies the module, after the parse and the op's regions."""
        dialect = registry.unregistered_in_dialect(name)
        if dialect is None:
            return None
        return DiagnosticError(
            error(
                loc,
                f"unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations",
            )
        )

    def _defer(self, op: Operation, **failed: DiagnosticError | None) -> None:
        """Record what `op` fails of MLIR's verifier, for `resolve.verify`."""
        self.verify_later[id(op)] = self.verify_later.get(id(op), NOTHING_LATER)._replace(**failed)
        self.deferred_ops.append(op)

    def successor_list(self, meta: Any, items: list) -> tuple:
        return ("successors", list(items))

    def properties(self, meta: Any, items: list) -> tuple:
        return ("props", items[0])

    def region_list(self, meta: Any, items: list) -> tuple:
        return ("regions", list(items))
