"""The IR of the MLIR subset: modules, operations, regions, blocks and values.

The model is MLIR's own, kept generic so that any operation fits: an
`Operation` has a name, operands, results, inherent properties, discardable
attributes, regions and successors. Op-specific knowledge (which operand
segments a GPU op has, which attributes are inherent) lives in
`spec.registry`; typed helpers for the ops the pass and verifier need live in
`spec.gpu_async`.

Values are identified by object identity, never by name: names are a printing
concern (`spec.syntax.printer`). Use-def information is computed on demand
(`uses`), so it never goes stale while a pass edits the IR.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple, NoReturn

from spec import registry
from spec.attributes import Attr, Type


class Location(NamedTuple):
    """Where an operation (or value) was written: 1-based line and column.

    A named tuple rather than a frozen dataclass: the parser makes one per
    op and per operand, and a tuple is made three times as fast."""

    file: str
    """The file name as given on the command line (`<stdin>` for stdin)."""
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


UNKNOWN_LOC = Location("<unknown>", 0, 0)

_new_tuple = tuple.__new__
"""Makes a `Location` from a tuple without the named tuple's Python-level
`__new__` (unpickling makes one per op and value)."""


class Value:
    """An SSA value: an operation result or a block argument."""

    __slots__ = ("type", "owner", "index", "hint", "loc")

    def __init__(
        self,
        type: Type,
        owner: Operation | Block | None,
        index: int,
        hint: str = "",
        loc: Location = UNKNOWN_LOC,
    ) -> None:
        self.type = type
        self.owner = owner
        self.index = index
        self.hint = hint
        """The name it had in the source text (diagnostics only)."""
        self.loc = loc

    # Pickling (a forked parser sends a module back): the state as one
    # flat tuple, the location unpacked, instead of the default dict of
    # slots and a named tuple rebuilt by a Python `__getnewargs__` call per
    # location: about 2x faster to dump and 3x to load.
    def __getstate__(self) -> tuple[object, ...]:
        loc = self.loc
        return (self.type, self.owner, self.index, self.hint, loc[0], loc[1], loc[2])

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.type, self.owner, self.index, self.hint, file, line, col = state
        self.loc = _new_tuple(Location, (file, line, col))

    @property
    def defining_op(self) -> Operation | None:
        return self.owner if isinstance(self.owner, Operation) else None

    @property
    def is_block_arg(self) -> bool:
        return isinstance(self.owner, Block)

    def __repr__(self) -> str:
        return f"<Value {self.hint or '?'}: {self.type}>"


class Block:
    """A list of operations with arguments; the last op is its terminator."""

    __slots__ = ("args", "ops", "parent", "label", "loc")

    def __init__(self, label: str = "", loc: Location = UNKNOWN_LOC) -> None:
        self.args: list[Value] = []
        self.ops: list[Operation] = []
        self.parent: Region | None = None
        self.label = label
        self.loc = loc

    def add_arg(self, type: Type, hint: str = "", loc: Location = UNKNOWN_LOC) -> Value:
        v = Value(type, self, len(self.args), hint, loc)
        self.args.append(v)
        return v

    def append(self, op: Operation) -> Operation:
        op.parent = self
        self.ops.append(op)
        return op

    def insert(self, index: int, op: Operation) -> Operation:
        op.parent = self
        self.ops.insert(index, op)
        return op

    @property
    def parent_op(self) -> Operation | None:
        return self.parent.parent if self.parent is not None else None

    def successors(self) -> list[Block]:
        return self.ops[-1].successors if self.ops else []


class Region:
    """A list of blocks; the first is the entry block."""

    __slots__ = ("blocks", "parent")

    def __init__(self, blocks: list[Block] | None = None) -> None:
        self.blocks: list[Block] = []
        self.parent: Operation | None = None
        for b in blocks or []:
            self.append(b)

    def append(self, block: Block) -> Block:
        block.parent = self
        self.blocks.append(block)
        return block

    @property
    def entry(self) -> Block | None:
        return self.blocks[0] if self.blocks else None


class _FrozenEmptyList(list[Any]):
    """The one empty list an op shares for each of its empty list fields
    (most ops have no regions and no successors). It refuses every change:
    a pass that gives an op a region or a successor assigns a new list
    (`Operation.add_region`), so no op can change another's."""

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("an Operation's shared empty list cannot change: assign a new list")

    append = extend = insert = pop = remove = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse

    def __hash__(self) -> int:  # type: ignore[override]  # list's is None; this one is immutable, so hashable (and a valid dataclass default)
        return 0

    def __reduce__(self) -> str:
        return "EMPTY_LIST"  # pickled by name: an unpickled op shares it too

    def __copy__(self) -> _FrozenEmptyList:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> _FrozenEmptyList:
        return self


class _FrozenEmptyDict(dict[Any, Any]):
    """The one empty dict an op shares for empty properties or attributes
    (nearly every op has no discardable attribute). It refuses every change:
    code that adds a key to an op assigns a new dict."""

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("an Operation's shared empty dict cannot change: assign a new dict")

    __setitem__ = __delitem__ = __ior__ = update = setdefault = pop = popitem = clear = _refuse

    def __hash__(self) -> int:  # type: ignore[override]  # dict's __hash__ is None; this dict cannot change
        return 0

    def __reduce__(self) -> str:
        return "EMPTY_DICT"

    def __copy__(self) -> _FrozenEmptyDict:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> _FrozenEmptyDict:
        return self


EMPTY_LIST: list[Any] = _FrozenEmptyList()
"""Shared by every op whose regions or successors are empty, unless it was
given a list of its own (operands and results always get their own). On a
100k-GPU-op function this saves two lists per op."""
EMPTY_DICT: dict[Any, Any] = _FrozenEmptyDict()
"""Shared by every op whose properties or attributes are empty."""


@dataclass(eq=False, slots=True)
class Operation:
    """One operation, in MLIR's generic model.

    Empty `properties`, `attributes`, `regions` and `successors` default to
    the shared, unchangeable `EMPTY_DICT`/`EMPTY_LIST`: to add an entry,
    assign a new container (`op.attributes = {**op.attributes, k: v}`) or
    use `add_region`. `operands` and `results` get a list of their own."""

    name: str
    """The full op name, e.g. `gpu.launch_func`."""
    operands: list[Value] = field(default_factory=list)
    results: list[Value] = field(default_factory=list)
    properties: dict[str, Attr] = EMPTY_DICT
    """Inherent attributes, printed as `<{...}>` in the generic form."""
    attributes: dict[str, Attr] = EMPTY_DICT
    """Discardable attributes, printed as `{...}`."""
    regions: list[Region] = EMPTY_LIST
    successors: list[Block] = EMPTY_LIST
    loc: Location = UNKNOWN_LOC
    parent: Block | None = None

    def __getstate__(self) -> tuple[object, ...]:
        # As `Value.__getstate__`: one flat tuple, the location unpacked.
        loc = self.loc
        return (
            self.name,
            self.operands,
            self.results,
            self.properties,
            self.attributes,
            self.regions,
            self.successors,
            loc[0],
            loc[1],
            loc[2],
            self.parent,
        )

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        (
            self.name,
            self.operands,
            self.results,
            self.properties,
            self.attributes,
            self.regions,
            self.successors,
            file,
            line,
            col,
            self.parent,
        ) = state
        self.loc = _new_tuple(Location, (file, line, col))

    def add_result(self, type: Type, hint: str = "") -> Value:
        v = Value(type, self, len(self.results), hint, self.loc)
        self.results.append(v)
        return v

    def add_region(self, region: Region) -> Region:
        region.parent = self
        if self.regions is EMPTY_LIST:
            self.regions = [region]
        else:
            self.regions.append(region)
        return region

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def parent_op(self) -> Operation | None:
        return self.parent.parent_op if self.parent is not None else None

    def walk(self) -> Iterator[Operation]:
        """Pre-order walk of this op and every op nested in its regions
        (iterative, so deep nesting cannot overflow the Python stack)."""
        stack: list[Operation] = [self]
        while stack:
            op = stack.pop()
            yield op
            for region in reversed(op.regions):
                for block in reversed(region.blocks):
                    stack.extend(reversed(block.ops))

    def post_order(self) -> list[Operation]:
        """This op and every op nested in it, each after the ops nested in
        it (MLIR's default walk order), computed without recursion."""
        order: list[Operation] = []
        stack: list[tuple[Operation, bool]] = [(self, False)]
        while stack:
            op, done = stack.pop()
            if done:
                order.append(op)
                continue
            stack.append((op, True))
            for region in reversed(op.regions):
                for block in reversed(region.blocks):
                    stack.extend((o, False) for o in reversed(block.ops))
        return order

    def nested_ops(self) -> Iterator[Operation]:
        """Every op inside this op's regions (not the op itself)."""
        it = self.walk()
        next(it)
        return it

    def __repr__(self) -> str:
        return f"<Operation {self.name} at {self.loc}>"


def release(root: Operation) -> None:
    """Drop the parent and owner links of `root` and everything inside it,
    when nothing will use it again, so that reference counting frees it at
    once. Those links make every op, block and value a cycle; left to the
    cyclic collector, a program's IR costs more to collect (the collector
    walks it, and what is alive, several times) than to make. (The walk
    written out: no generator step per op.)"""
    stack = [root]
    while stack:
        op = stack.pop()
        op.parent = None
        for v in op.results:
            v.owner = None
        for region in op.regions:
            region.parent = None
            for block in region.blocks:
                block.parent = None
                for arg in block.args:
                    arg.owner = None
                stack.extend(block.ops)


def uses(root: Operation) -> dict[Value, list[Operation]]:
    """Map every value used under `root` to the ops using it, in walk order."""
    result: dict[Value, list[Operation]] = {}
    for op in root.walk():
        for v in op.operands:
            result.setdefault(v, []).append(op)
    return result


def symbol_name(op: Operation) -> str:
    """The op's `sym_name` as written (`f` for `@f`), or "" if it has none."""
    sym = op.properties.get("sym_name") if op.properties else None
    if sym is None and op.attributes:
        sym = op.attributes.get("sym_name")
    if sym is None:
        return ""
    return getattr(sym, "value", None) or str(sym).strip('"')


def outermost(op: Operation) -> Operation:
    """The op `op` is nested in that no op holds (the top-level module)."""
    while op.parent_op is not None:
        op = op.parent_op
    return op


def symbol_path(op: Operation) -> str:
    """Where `op` sits among the symbol tables around it, as MLIR writes a
    nested symbol reference: `f` at the top, `A::@f` in `module @A`. An
    unnamed nested module is named by its position among its parent's ops
    (`#0` for the first unnamed op of its kind there), so two functions of one name in different modules never share
    a path, and a function moved to another module changes its path."""
    parts: list[str] = []
    cur: Operation | None = op
    while cur is not None:
        block = cur.parent
        region = block.parent if block is not None else None
        owner = region.parent if region is not None else None
        if owner is None:
            break  # `cur` is the outermost op: its own name is no part of the path
        name = symbol_name(cur)
        if not name and block is not None:
            # The k-th unnamed op of its name in the block: a rewrite adds
            # waits around it, which would shift a plain position.
            same = [o for o in block.ops if o.name == cur.name and not symbol_name(o)]
            name = f"#{same.index(cur)}"
        parts.append(name)
        cur = owner
    return "::@".join(reversed(parts))


def module_body(module: Operation) -> Block:
    """The single block of a `builtin.module` (created if missing)."""
    if not module.regions:
        module.add_region(Region())
    region = module.regions[0]
    if not region.blocks:
        region.append(Block())
    return region.blocks[0]


def new_module(loc: Location = UNKNOWN_LOC) -> Operation:
    module = Operation("builtin.module", loc=loc)
    module.add_region(Region([Block()]))
    return module


def structurally_equal(a: Operation, b: Operation) -> bool:
    """Equality of two op trees up to value identity and locations: same
    names, attributes, types, region/block shape, and the same use-def
    wiring (values matched by position of definition). A property equal to
    its default (`registry.OpInfo.elided_defaults`) is the same as none."""
    pairs: dict[Value, Value] = {}
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if (x.name, x.attributes) != (y.name, y.attributes):
            return False
        if x.properties != y.properties and registry.without_defaults(
            x.name, x.properties
        ) != registry.without_defaults(y.name, y.properties):
            return False
        if len(x.results) != len(y.results) or len(x.operands) != len(y.operands):
            return False
        if len(x.regions) != len(y.regions) or len(x.successors) != len(y.successors):
            return False
        for u, v in zip(x.results, y.results):
            if u.type != v.type:
                return False
            pairs[u] = v
        for u, v in zip(x.operands, y.operands):
            if pairs.get(u) is not v:
                return False
        for ra, rb in zip(x.regions, y.regions):
            if len(ra.blocks) != len(rb.blocks):
                return False
            for ba, bb in zip(ra.blocks, rb.blocks):
                if len(ba.args) != len(bb.args) or len(ba.ops) != len(bb.ops):
                    return False
                for u, v in zip(ba.args, bb.args):
                    if u.type != v.type:
                        return False
                    pairs[u] = v
            # Regions are compared after their block arguments are paired;
            # ops in order so definitions precede uses within a block.
            for ba, bb in zip(reversed(ra.blocks), reversed(rb.blocks)):
                stack.extend(zip(reversed(ba.ops), reversed(bb.ops)))
        for sa, sb in zip(x.successors, y.successors):
            if (sa.parent.blocks.index(sa) if sa.parent else -1) != (sb.parent.blocks.index(sb) if sb.parent else -1):
                return False
    return True
