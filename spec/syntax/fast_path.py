"""A fast path for the op shapes that fill large files, beside the LALR parse.

A generated 10k-GPU-op function and mlir-opt-19's output of it are about
60,000 one-line ops of a dozen shapes (`%a = arith.addi %b, %c : index`,
`memref.load`/`store`, `%t = gpu.memcpy async [%d] ...`, `call @f(...)`,
`gpu.launch_func ...`). The fused lexer+LALR loop (`lark_fast`) spends
about ten table-driven steps and ten regex matches on each; here one
compiled regex per shape (`fast_shapes`) reads the whole op, and the `Operation`, its
result `Value`s and its operands' `UseRef`s are built directly, as the
grammar's rule callbacks (`_Builder.memcpy_op`, `async_deps`, `operation`,
`BuilderBase.split_attrs`, ...) would build them: same IR, same value
names, same line:col of every op, result and operand, the same properties
and attributes in the same order, types and attributes shared as the
callbacks share them. (It used to hand the callbacks fake tokens and
`PartialOp`s: half of the parse went into those temporaries.) Types are
read once per text (`read_type`, cached here by text: the shapes' types
have no alias, layout or dialect type, so the text alone decides), and an
`arith.constant`'s value once per literal and type (`int_attr`, which
checks the literal fits).

Where it runs, and why the parse stays lark's (`FastPath.op`):

- only where the LALR parser is about to read an operation: the fused loop
  has lexed the op's first token (a result name or the op keyword) with the
  state's own lexer, done the reductions lark's table dictates for it, and
  the state has a shift on it and a goto on `operation`. The op then goes
  on the stack as that nonterminal, as if its tokens had been shifted and
  reduced one by one;
- the whole op on one line, and the next token (after blanks, newlines and
  comments) one that cannot continue it: another op's start (`%`, a dotted
  name, `call`, `return`, a generic op's `"`), `}`, `^` or the end. So
  a trailing `loc(...)`, an attr-dict or anything else these shapes do not
  spell leaves the op to the LALR loop;
- every token of a shape is matched as the grammar's terminal would match
  it (whole words for keywords, the `SIMPLE_TYPE` lookahead, greedy value
  names), else no match;
- anything the rules would refuse (a wrong operand or result count, an
  unknown predicate, a literal out of range, `async` without a result
  name, ...) hands the op to the LALR loop, which raises the error in its
  own order: a diagnostic is always the full parser's. Nothing is recorded
  on the builder before the op is complete (only a dialect-less `call`
  goes on `bare_names`, once it is).

A parse takes this path unless its options say not to
(`spec.syntax.options.ParseOptions.fast_path`, which the fused loop reads
from the builder). `tests/syntax/test_syntax_fast_path.py` checks the two
paths give the same printed IR, generic and custom, and the
same locations of every op and value, the same properties and attributes
(in order, by value and class) and the same `bare_names`, on every `.mlir` file of the
repository and on generated programs, and the same diagnostic on broken
variants of them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any

from lark import Token

from spec import registry
from spec.attributes import GPU_TOKEN, I1, I64, INDEX, Attr, IntegerAttr, Type, shared_type
from spec.ir import EMPTY_DICT, EMPTY_LIST, Location, Operation, Value
from spec.syntax import fast_shapes as shapes
from spec.syntax.build_base import (
    CMPI_PREDICATES,
    UseRef,
    memref_element,
    segment_sizes,
    symbol_ref_attr,
)
from spec.syntax.fast_shapes import ARITH_BINARY

_new_str = str.__new__
_new_location = tuple.__new__


def make_token(kind: str, value: str, begin: int, line: int, line_start: int) -> Token:
    """`Token(kind, value, begin, line, column)` without lark's deprecation
    shim in `Token.__new__`, as the fused loop (`lark_fast`) and the shapes'
    callbacks build their tokens. Only the start is set: no callback reads
    where a token ends."""
    tok = _new_str(Token, value)
    tok.type = kind
    tok.value = value
    tok.start_pos = begin
    tok.line = line
    tok.column = begin - line_start + 1
    tok.end_line = tok.end_column = tok.end_pos = None
    return tok


_MAX_CONSTANTS = 4096
"""How many distinct `arith.constant` values `FastPath.constants` keeps."""

_OP_FIELDS = ("name", "operands", "results", "properties", "attributes", "regions", "successors", "loc", "parent")
_object_new = object.__new__


def _op_by_init(name: str, operands: list, properties: dict[str, Attr], loc: Location) -> Operation:
    return Operation(name, operands, properties=properties, loc=loc)


def _op_by_slots(name: str, operands: list, properties: dict[str, Attr], loc: Location) -> Operation:
    # What `Operation(name, operands, properties=..., loc=...)` makes, without
    # the dataclass `__init__` and its two default factories (a third of
    # the cost of building a small op). Used only while `Operation` has
    # exactly these fields and nothing runs after its `__init__`.
    op = _object_new(Operation)
    op.name = name
    op.operands = operands
    op.results = []
    op.properties = properties
    op.attributes = EMPTY_DICT
    op.regions = EMPTY_LIST
    op.successors = EMPTY_LIST
    op.loc = loc
    op.parent = None
    return op


_op = (
    _op_by_slots
    if tuple(f.name for f in dataclasses.fields(Operation)) == _OP_FIELDS
    and not hasattr(Operation, "__post_init__")
    and Operation.__dataclass_fields__["parent"].default is None
    else _op_by_init
)
"""How the shapes make their op (`_op_by_slots` unless `spec.ir.Operation`
changed shape: then its own constructor)."""


class FastPath:
    """Reads one op of a common shape at a time and builds its `Operation`
    directly (see module doc). `op` is called by the fused loop
    (`lark_fast.FusedLALRParser`) with the parts of the op's first token."""

    def __init__(self, builder: Any) -> None:
        self.builder = builder
        self.by_name: dict[str, Callable[..., Any]] = {
            "arith.constant": self._constant,
            "arith.cmpi": self._cmp,
            "memref.load": self._load,
            "memref.store": self._store,
            "memref.dim": self._dim,
            "gpu.memcpy": self._memcpy,
            "gpu.memset": self._memset,
            "gpu.wait": self._wait,
            "gpu.alloc": self._alloc,
            "gpu.dealloc": self._dealloc,
            "gpu.launch_func": self._launch,
            "call": self._call,
            "func.call": self._call,
            "scf.yield": self._return_like,
            "async.yield": self._return_like,
            "scf.condition": self._condition,
            "async.await": self._await,
        }
        for name in ARITH_BINARY:
            self.by_name[f"arith.{name}"] = self._binary
        self.defaults: dict[str, dict[str, Attr]] = {
            name: registry.lookup("func.call" if name == "call" else name).default_properties for name in self.by_name
        }
        """Each op's default properties (`BuilderBase.split_attrs` puts them
        first in every op's properties); the registry's own dicts, not copies."""
        self.types: dict[str, Type] = {}
        """Type text -> the type `read_type` gives for it (the same shared
        object). The shapes' types have no alias, layout or dialect type, so
        what a text reads as never depends on the parse or its options."""
        self.elements: dict[str, Type] = {}
        """memref type text -> its element type (`memref.load`'s result)."""
        self.constants: dict[tuple[str, str], Attr] = {}
        """(literal, type text) -> `arith.constant`'s value attribute."""
        self.predicates = {p: IntegerAttr(i, I64) for i, p in enumerate(CMPI_PREDICATES)}
        self.tables: dict[int, tuple[list, dict[str, Value]]] = {}
        """Per block being read (its `op_list`, by `id`, kept alive so the id
        is not reused), the results of the ops built here, by name."""
        self.block: list | None = None
        self.scope: dict[str, Value] = {}
        """`tables`' entry of `block`, the block of the last op built."""

    def reset(self) -> None:
        """Forget the blocks of the last parse (the parser calls it before
        and after each)."""
        self.tables = {}
        self.block = None
        self.scope = {}

    # -- the entry point ----------------------------------------------------
    def op(
        self,
        text: str,
        pos: int,
        end: int,
        kind: str,
        value: str,
        begin: int,
        line: int,
        line_start: int,
        block: list | None = None,
    ) -> tuple[Operation, int] | None:
        """The op whose first token the loop has just read (of terminal
        `kind`, text `value`, at `begin` on the text's line `line` that
        starts at `line_start`; ending at `pos`), and where it ends; None to
        leave it to the LALR loop.
        `block` is the list of the ops read so far in the op's block (None
        where the op is not in a block's op list).

        A use of the name of a result of an op built here earlier in the
        same block, of the very type the op's rule gives the use, is bound
        to that value at once, without a `UseRef`: that definition is the
        one name resolution would find (it is visible from there to the end
        of the block, and a second definition of the name while it is
        visible is an error `resolve_ops` reports before reaching the use),
        it dominates the use, and the types agree (types are shared, see
        `spec.attributes.shared_type`). Anything else (block arguments, results
        of ops the LALR loop built, `%a#1`, another type, a forward
        reference) stays a `UseRef` for `resolve_ops`."""
        if block is not self.block:
            self._enter(block)
        b = self.builder
        file, line = b.file, line + b.line_offset
        column = begin - line_start + 1
        names: list[tuple[str, Location]] | None = None
        if kind == "VALUE_ID":
            head = shapes.head(text, pos, end)
            if head is None:
                return None
            name = head.group(2)
            build = self.by_name.get(name)
            if build is None:
                return None
            hint = value
            kw_at, pos = head.span(2)
            if head.end(1) > head.start(1):
                # `%a, %b = ...`: a name per result.
                col = 1 - line_start
                names = [(hint, _new_location(Location, (file, line, column)))]
                names += [
                    (m.group(), _new_location(Location, (file, line, m.start() + col)))
                    for m in shapes.VALUE_RE.finditer(text, head.start(1), head.end(1))
                ]
        elif kind in shapes.NAMES:
            # A name lexed as a word, not as the op's keyword: not an op
            # this state reads as one of these shapes.
            return None
        else:
            name = value
            build = self.by_name.get(name)
            if build is None:
                return None
            hint, kw_at = None, begin
        loc = _new_location(Location, (file, line, kw_at - line_start + 1))
        try:
            built = build(text, pos, end, name, loc, line_start)
        except Exception:
            return None
        if built is None:
            return None
        op, types, is_async, stop = built
        # `operation`'s checks and binding of the result names.
        results = op.results
        if names is None and hint is not None:
            # One name, the common case.
            if len(types) != 1:
                return None
            v = Value(types[0], op, 0, hint, _new_location(Location, (file, line, column)))
            results.append(v)
            if "#" not in hint:
                self.scope[hint] = v
        elif names is not None:
            if len(names) != len(types):
                return None
            scope = self.scope
            for i, t in enumerate(types):
                hint, at = names[i]
                v = Value(t, op, i, hint, at)
                results.append(v)
                if "#" not in hint:
                    scope[hint] = v
        elif is_async:
            return None
        else:
            for i, t in enumerate(types):
                results.append(Value(t, op, i, "", loc))
        if name == "call":
            # `call` without its dialect: which one it is depends on the ops
            # around it (`resolve.check_default_dialects`).
            b.bare_names.append((op, loc, name))
        return op, stop

    def _enter(self, block: list | None) -> None:
        # The table of the block `block` (an empty, unused one for no block).
        self.block = block
        if block is None:
            self.scope = {}
            return
        entry = self.tables.get(id(block))
        if entry is None or entry[0] is not block:
            entry = self.tables[id(block)] = (block, {})
        self.scope = entry[1]

    # -- operands and types --------------------------------------------------
    def _use(self, m: re.Match, group: int, loc: Location, ls: int, type: Type) -> UseRef | Value:
        # `value_use`'s `UseRef`, with the type the op's rule gives it; or the
        # value itself (see `op`).
        name = m.group(group)
        v = self.scope.get(name)
        if v is not None and v.type is type:
            return v
        at = _new_location(Location, (loc[0], loc[1], m.start(group) - ls + 1))
        if "#" in name:
            name, _, num = name.partition("#")
            return UseRef(name, int(num), at, type)
        return UseRef(name, 0, at, type)

    def _uses(self, text: str, start: int, stop: int, loc: Location, ls: int, type: Type) -> list[UseRef | Value]:
        # A `value_list` (possibly empty), each use of type `type`. The
        # list's text is names, commas and blanks only (`shapes.LIST`), so it is
        # split on commas rather than matched again name by name.
        if stop == start:
            return []
        file, line = loc[0], loc[1]
        if text.find(",", start, stop) < 0:
            # One value (a GPU op's one dependency, a 1-d index).
            names = [text[start:stop]]
            cols = [start - ls + 1]
        else:
            names, cols = [], []
            at = start - ls + 1
            for part in text[start:stop].split(","):
                name = part.lstrip(" \t")
                names.append(name.rstrip(" \t"))
                cols.append(at + len(part) - len(name))
                at += len(part) + 1
        out: list[UseRef | Value] = []
        scope = self.scope
        for name, col in zip(names, cols):
            v = scope.get(name)
            if v is not None and v.type is type:
                out.append(v)
                continue
            where = _new_location(Location, (file, line, col))
            if "#" in name:
                name, _, num = name.partition("#")
                out.append(UseRef(name, int(num), where, type))
            else:
                out.append(UseRef(name, 0, where, type))
        return out

    def _type(self, text: str) -> Type:
        t = self.types.get(text)
        if t is None:
            t = self.builder.read_type(text)  # raises on a type the full parser refuses; a FunctionType just below
            if not isinstance(t, Type):
                raise TypeError(text)
            self.types[text] = t
        return t

    def _deps(self, text: str, m: re.Match, loc: Location, ls: int) -> tuple[bool, list[UseRef | Value]]:
        """`async_deps` from groups 1-3 of a shape that starts with `shapes.DEPS`:
        whether `async` is written, and the dependencies."""
        deps = self._uses(text, m.start(2), m.end(2), loc, ls, GPU_TOKEN) if m.start(3) >= 0 else []
        return m.start(1) >= 0, deps

    # -- the shapes: each returns (op, result types, async?, where it ends) ---
    def _binary(self, text: str, pos: int, end: int, name: str, loc: Location, ls: int) -> tuple | None:
        m = shapes.BINARY(text, pos, end)
        if m is None:
            return None
        t = self._type(m.group(3))
        defaults = self.defaults[name]
        op = _op(
            name,
            [self._use(m, 1, loc, ls, t), self._use(m, 2, loc, ls, t)],
            {**defaults} if defaults else EMPTY_DICT,
            loc,
        )
        return op, [t], False, m.end()

    def _cmp(self, text: str, pos: int, end: int, name: str, loc: Location, ls: int) -> tuple | None:
        m = shapes.CMP(text, pos, end)
        if m is None:
            return None
        predicate = self.predicates.get(m.group(1))
        if predicate is None:
            return None
        t = self._type(m.group(4))
        props = {**self.defaults[name], "predicate": predicate}
        op = _op(name, [self._use(m, 2, loc, ls, t), self._use(m, 3, loc, ls, t)], props, loc)
        return op, [I1], False, m.end()

    def _constant(self, text: str, pos: int, end: int, name: str, loc: Location, ls: int) -> tuple | None:
        m = shapes.CONSTANT(text, pos, end)
        if m is None:
            return None
        key = (m.group(1), m.group(2))
        value = self.constants.get(key)
        if value is None:
            # `int_attr` of the two tokens (it checks the literal fits).
            b = self.builder
            line = loc.line - b.line_offset
            value = b.int_attr(
                [
                    make_token("INT", key[0], m.start(1), line, ls),
                    make_token("SIMPLE_TYPE", key[1], m.start(2), line, ls),
                ]
            )
            if len(self.constants) >= _MAX_CONSTANTS:
                self.constants.clear()
            self.constants[key] = value
        op = _op(name, [], {**self.defaults[name], "value": value}, loc)
        return op, [value.type], False, m.end()  # type: ignore[union-attr]  # int_attr's result, an IntegerAttr

    def _element(self, t: Type) -> Type:
        elem = self.elements.get(t.text)
        if elem is None:
            elem = self.elements[t.text] = shared_type(Type(memref_element(t.text)))
        return elem

    def _load(self, text: str, pos: int, end: int, name: str, loc: Location, ls: int) -> tuple | None:
        m = shapes.LOAD(text, pos, end)
        if m is None:
            return None
        t = self._type(m.group(3))
        operands = [self._use(m, 1, loc, ls, t)]
        if m.end(2) > m.start(2):
            operands += self._uses(text, m.start(2), m.end(2), loc, ls, INDEX)
        defaults = self.defaults[name]
        op = _op(name, operands, {**defaults} if defaults else EMPTY_DICT, loc)
        return op, [self._element(t)], False, m.end()

    def _store(self, text: str, pos: int, end: int, name: str, loc: Location, ls: int) -> tuple | None:
        m = shapes.STORE(text, pos, end)
        if m is None:
            return None
        t = self._type(m.group(4))
        operands = [self._use(m, 1, loc, ls, self._element(t)), self._use(m, 2, loc, ls, t)]
        if m.end(3) > m.start(3):
            operands += self._uses(text, m.start(3), m.end(3), loc, ls, INDEX)
        defaults = self.defaults[name]
        op = _op(name, operands, {**defaults} if defaults else EMPTY_DICT, loc)
        return op, [], False, m.end()

    def _dim(self, text: str, pos: int, end: int, name: str, loc: Location, ls: int) -> tuple | None:
        # `memref_dim_op` takes no default properties (it has none).
        m = shapes.DIM(text, pos, end)
        if m is None:
            return None
        t = self._type(m.group(3))
        op = _op(name, [self._use(m, 1, loc, ls, t), self._use(m, 2, loc, ls, INDEX)], EMPTY_DICT, loc)
        return op, [INDEX], False, m.end()

    def _copy(self, text: str, pos: int, end: int, name: str, loc: Location, ls: int) -> tuple | None:
        # `gpu.memcpy` and `gpu.memset` (`_copy_like`).
        m = shapes.COPY(text, pos, end)
        if m is None:
            return None
        is_async, operands = self._deps(text, m, loc, ls)
        t1, t2 = self._type(m.group(6)), self._type(m.group(7))
        if t1.text.startswith("memref<*") or t2.text.startswith("memref<*"):
            return None  # refused by the grammar's rule, with its message
        operands.append(self._use(m, 4, loc, ls, t1))
        operands.append(self._use(m, 5, loc, ls, t2))
        defaults = self.defaults[name]
        op = _op(name, operands, {**defaults} if defaults else EMPTY_DICT, loc)
        return op, [GPU_TOKEN] if is_async else [], is_async, m.end()

    _memcpy = _memset = _copy

    def _wait(self, text: str, pos: int, end: int, name: str, loc: Location, ls: int) -> tuple | None:
        m = shapes.WAIT(text, pos, end)
        if m is None:
            return None
        is_async, operands = self._deps(text, m, loc, ls)
        return _op(name, operands, EMPTY_DICT, loc), [GPU_TOKEN] if is_async else [], is_async, m.end()

    def _typed_uses(self, text: str, m: re.Match, group: int, loc: Location, ls: int) -> list[UseRef | Value] | None:
        # The values of `group` and their types (the next group), one type
        # each; None if the counts differ (the rule's callback reports it).
        if m.start(group + 1) < 0:
            return [] if m.end(group) <= m.start(group) else None
        types = [self._type(t.group()) for t in shapes.ANY_TYPE_RE.finditer(text, m.start(group + 1), m.end(group + 1))]
        start, stop = m.start(group), m.end(group)
        if stop == start:
            return None
        file, line, col = loc[0], loc[1], 1 - ls
        uses = list(shapes.VALUE_RE.finditer(text, start, stop))
        if len(uses) != len(types):
            return None
        out: list[UseRef | Value] = []
        scope = self.scope
        for u, t in zip(uses, types):
            used = u.group()
            v = scope.get(used)
            if v is not None and v.type is t:
                out.append(v)
                continue
            at = _new_location(Location, (file, line, u.start() + col))
            if "#" in used:
                used, _, num = used.partition("#")
                out.append(UseRef(used, int(num), at, t))
            else:
                out.append(UseRef(used, 0, at, t))
        return out

    def _return_like(self, text: str, pos: int, end: int, name: str, loc: Location, ls: int) -> tuple | None:
        # `scf.yield`, `async.yield` (their rules take no default properties).
        m = shapes.RETURN_LIKE(text, pos, end)
        if m is None:
            return None
        operands = self._typed_uses(text, m, 1, loc, ls)
        if operands is None:
            return None
        return _op(name, operands, EMPTY_DICT, loc), [], False, m.end()

    def _condition(self, text: str, pos: int, end: int, name: str, loc: Location, ls: int) -> tuple | None:
        m = shapes.CONDITION(text, pos, end)
        if m is None:
            return None
        operands = self._typed_uses(text, m, 2, loc, ls)
        if operands is None:
            return None
        return _op(name, [self._use(m, 1, loc, ls, I1), *operands], EMPTY_DICT, loc), [], False, m.end()

    def _await(self, text: str, pos: int, end: int, name: str, loc: Location, ls: int) -> tuple | None:
        m = shapes.AWAIT(text, pos, end)
        if m is None:
            return None
        return _op(name, [self._use(m, 1, loc, ls, self._type(m.group(2)))], EMPTY_DICT, loc), [], False, m.end()

    def _alloc(self, text: str, pos: int, end: int, name: str, loc: Location, ls: int) -> tuple | None:
        m = shapes.ALLOC(text, pos, end)
        if m is None:
            return None
        is_async, operands = self._deps(text, m, loc, ls)
        t = self._type(m.group(4))
        props = {**self.defaults[name], "operandSegmentSizes": segment_sizes(len(operands), 0, 0)}
        op = _op(name, operands, props, loc)
        return op, [t, GPU_TOKEN] if is_async else [t], is_async, m.end()

    def _dealloc(self, text: str, pos: int, end: int, name: str, loc: Location, ls: int) -> tuple | None:
        # `gpu_dealloc_op` takes no default properties (it has none).
        m = shapes.DEALLOC(text, pos, end)
        if m is None:
            return None
        is_async, operands = self._deps(text, m, loc, ls)
        operands.append(self._use(m, 4, loc, ls, self._type(m.group(5))))
        return _op(name, operands, EMPTY_DICT, loc), [GPU_TOKEN] if is_async else [], is_async, m.end()

    def _launch(self, text: str, pos: int, end: int, name: str, loc: Location, ls: int) -> tuple | None:
        m = shapes.LAUNCH(text, pos, end)
        if m is None:
            return None
        is_async, operands = self._deps(text, m, loc, ls)
        n_deps = len(operands)
        nested = (m.group(5)[1:],) if m.start(5) >= 0 else ()
        kernel = symbol_ref_attr(m.group(4)[1:], nested)
        use = self._use
        operands += [use(m, g, loc, ls, INDEX) for g in (6, 7, 8, 9, 10, 11)]
        n_args = 0
        if m.end(13) > m.start(13):
            file, line, col = loc.file, loc.line, 1 - ls
            for a in shapes.ARG_RE.finditer(text, m.start(13), m.end(13)):
                arg = a.group(1)
                t = self._type(a.group(2))
                n_args += 1
                v = self.scope.get(arg)
                if v is not None and v.type is t:
                    operands.append(v)
                    continue
                at = _new_location(Location, (file, line, a.start(1) + col))
                if "#" in arg:
                    arg, _, num = arg.partition("#")
                    operands.append(UseRef(arg, int(num), at, t))
                else:
                    operands.append(UseRef(arg, 0, at, t))
        sizes = segment_sizes(n_deps, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, n_args, 0)
        props = {**self.defaults[name], "kernel": kernel, "operandSegmentSizes": sizes}
        op = _op(name, operands, props, loc)
        return op, [GPU_TOKEN] if is_async else [], is_async, m.end()

    def _call(self, text: str, pos: int, end: int, name: str, loc: Location, ls: int) -> tuple | None:
        m = shapes.CALL(text, pos, end)
        if m is None:
            return None
        ins = (
            [self._type(t.group(1)) for t in shapes.TYPES_RE.finditer(text, m.start(3), m.end(3))]
            if m.end(3) > m.start(3)
            else []
        )
        results = [self._type(m.group(4))] if m.start(4) >= 0 else []
        operands: list[UseRef | Value] = []
        if m.end(2) > m.start(2):
            # Each use with its own type: one at a time.
            file, line, col = loc[0], loc[1], 1 - ls
            uses = list(shapes.VALUE_RE.finditer(text, m.start(2), m.end(2)))
            if len(uses) != len(ins):
                return None
            scope = self.scope
            for u, t in zip(uses, ins):
                used = u.group()
                v = scope.get(used)
                if v is not None and v.type is t:
                    operands.append(v)
                    continue
                at = _new_location(Location, (file, line, u.start() + col))
                if "#" in used:
                    used, _, num = used.partition("#")
                    operands.append(UseRef(used, int(num), at, t))
                else:
                    operands.append(UseRef(used, 0, at, t))
        elif ins:
            return None
        props = {**self.defaults[name], "callee": symbol_ref_attr(m.group(1)[1:])}
        op = _op("func.call", operands, props, loc)
        return op, results, False, m.end()
