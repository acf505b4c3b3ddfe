"""The static event model of DESIGN.md section 4: events and happens-before.

From one `func.func` this builds a graph whose nodes are the points of
execution and whose edges are the happens-before rules 1-8, so that one
definition serves the program before the rewrite and after it:

- a host op `h` is one point `t(h)` of its thread (rule 1: thread order);
- a GPU op `g` is three points: issue `i(g)` on its thread, start `s(g)` and
  finish `f(g)`, with `i -> s -> f`; every token in `[deps]` finishes before
  `s(g)` (rule 2); without `async` the thread's next point comes after `f(g)`
  (rule 3), which makes a blocking `gpu.wait [ds]` wait for its tokens
  (rule 4); nothing else orders GPU ops (rule 5);
- `async.execute` is an issue point; its body is a thread of its own that
  starts after the issue, its `[deps]` and its operands are available, and
  its token and values become available at the body's `async.yield`;
  `async.await x` is a point after `x` is available (rule 6);
- tokens are values: a token's completion node follows it through
  `!async.value<!gpu.async.token>`, `async.yield`, body arguments and
  `async.await` (rule 7).

Effectful events (the ones the property talks about) are classified with
`spec.registry`: GPU ops other than `gpu.wait`; host ops with declared or
unknown memory effects; the function's `func.return`. Synchronization ops
(`gpu.wait`, `async.await`, `async.execute`, `async.yield`) only order the
events around them. A region op whose regions hold no GPU op, no async op and
no token is one host point (its inner events all lie between the thread's
previous and next points, so nothing is lost); it is effectful iff something
in it is.

What the model cannot follow yet (rule 8: branches, loops, multi-block
functions holding GPU or async ops; async groups; `gpu.launch`) is recorded in
`EventGraph.unsupported` with the reason, so a checker can answer `unknown`
instead of guessing.

Node ids are allocated in program order and every edge of a well-formed
straight-line function points from a lower id to a higher one
(`EventGraph.forward_only`), which lets checkers bound their searches.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spec import registry
from spec.attributes import DenseArrayAttr, Type
from spec.ir import Block, Operation, Value

SYNC_OPS = frozenset({"gpu.wait", "async.await", "async.execute", "async.yield"})
"""Synchronization ops: they order events but are not events of the property."""

UNMODELLED_OPS = {
    "async.add_to_group": "async groups are not modelled",
    "async.await_all": "async groups are not modelled",
    "gpu.launch": "gpu.launch (with a body) is not modelled; the pass rejects it",
}

MAX_THREAD_NESTING = 200
"""`async.execute` bodies nested deeper than this are reported unsupported."""


def is_token_type(t: Type) -> bool:
    """Types that carry completion: GPU tokens, async tokens and values,
    groups."""
    return t.is_gpu_token or t.is_async_token or t.is_async_value or t.text == "!async.group"


def gpu_deps(op: Operation) -> list[Value]:
    """The `[deps]` of a GPU async op (the operand layout is the registry's)."""
    info = registry.lookup(op.name)
    if info.deps_segment is not None:
        sizes = op.properties.get("operandSegmentSizes")
        if not isinstance(sizes, DenseArrayAttr):
            return []
        start = sum(sizes.values[: info.deps_segment])
        return op.operands[start : start + sizes.values[info.deps_segment]]
    return op.operands[: max(len(op.operands) - info.fixed_trailing, 0)]


def execute_segments(op: Operation) -> tuple[list[Value], list[Value]]:
    """(`[deps]`, body operands) of an `async.execute`."""
    sizes = op.properties.get("operandSegmentSizes")
    if isinstance(sizes, DenseArrayAttr) and len(sizes.values) == 2:
        n = sizes.values[0]
        return op.operands[:n], op.operands[n:]
    deps = [v for v in op.operands if v.type.is_async_token]
    return deps, [v for v in op.operands if not v.type.is_async_token]


def is_effectful(op: Operation) -> bool:
    """Whether `op` is an effectful event of the property (DESIGN.md 4):
    GPU ops but `gpu.wait`, host ops with memory effects or unknown effects,
    `func.return`; region ops iff something inside is."""
    if op.name in SYNC_OPS:
        return False
    if op.name == "func.return":
        return True
    info = registry.lookup(op.name)
    if info.gpu_async:
        return True
    if info.terminator and info.known:
        return False
    if info.recursive:
        return any(is_effectful(o) for r in op.regions for b in r.blocks for o in b.ops)
    return info.effects is None or bool(info.effects)


@dataclass
class Event:
    """An effectful event: its op, its start and end nodes, its thread."""

    op: Operation
    kind: str
    """`gpu`, `host` or `return`."""
    start: int
    end: int
    thread: int


@dataclass
class EventGraph:
    """The happens-before graph of one function (one path of it)."""

    func: Operation
    kinds: list[str] = field(default_factory=list)
    """Per node: `point`, `issue`, `start`, `finish`, `body`, `yield`, `extern`."""
    ops: list[Operation | None] = field(default_factory=list)
    threads: list[int] = field(default_factory=list)
    succ: list[list[int]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    by_op: dict[Operation, Event] = field(default_factory=dict)
    unsupported: list[tuple[Operation, str]] = field(default_factory=list)
    forward_only: bool = True
    """Every edge goes from a lower node id to a higher one."""
    edge_count: int = 0
    thread_ops: list[Operation | None] = field(default_factory=list)
    """Per thread: the `async.execute` whose body it is (None: the host)."""

    def node(self, kind: str, op: Operation | None, thread: int) -> int:
        self.kinds.append(kind)
        self.ops.append(op)
        self.threads.append(thread)
        self.succ.append([])
        return len(self.kinds) - 1

    def edge(self, a: int, b: int) -> None:
        self.succ[a].append(b)
        self.edge_count += 1
        if a >= b:
            self.forward_only = False

    def label(self, n: int) -> str:
        op = self.ops[n]
        kind = self.kinds[n]
        where = f"{op.name}@{op.loc.line}:{op.loc.col}" if op is not None else "?"
        short = {"issue": "i", "start": "s", "finish": "f", "point": "t", "body": "begin", "yield": "yield"}
        return f"{short.get(kind, kind)}({where})"

    def preds(self) -> list[list[int]]:
        p: list[list[int]] = [[] for _ in self.kinds]
        for a, bs in enumerate(self.succ):
            for b in bs:
                p[b].append(a)
        return p


class _Builder:
    def __init__(self, func: Operation) -> None:
        self.g = EventGraph(func)
        self.completion: dict[Value, int] = {}
        """GPU token -> the node at which it is complete."""
        self.available: dict[Value, int] = {}
        """`!async.token` / `!async.value` -> the node at which it is available."""
        self.inner: dict[Value, int] = {}
        """`!async.value<!gpu.async.token>` -> completion of the token inside."""

    def _extern(self, v: Value, table: dict[Value, int]) -> int:
        # A token the function did not produce (an argument, the result of an
        # opaque op, a use before its definition): nothing is known about when
        # it completes, so its node gets no predecessors.
        n = self.g.node("extern", v.defining_op, 0)
        table[v] = n
        return n

    def completion_of(self, v: Value) -> int:
        n = self.completion.get(v)
        return n if n is not None else self._extern(v, self.completion)

    def available_of(self, v: Value) -> int:
        n = self.available.get(v)
        return n if n is not None else self._extern(v, self.available)

    def unsupported(self, op: Operation, reason: str) -> None:
        self.g.unsupported.append((op, reason))

    def thread(self, block: Block, cur: int | None, tid: int, depth: int) -> tuple[int | None, Operation | None]:
        """Walk `block` as thread `tid` from node `cur`; returns the last
        node and the `async.yield` met, if any."""
        g = self.g
        yielded: Operation | None = None
        for op in block.ops:
            name = op.name
            info = registry.lookup(name)
            if name in UNMODELLED_OPS:
                self.unsupported(op, UNMODELLED_OPS[name])
                continue
            if info.gpu_async:
                cur = self.gpu_op(op, cur, tid)
            elif name == "async.execute":
                cur = self.execute(op, cur, tid, depth)
            elif name == "async.await":
                n = g.node("point", op, tid)
                if cur is not None:
                    g.edge(cur, n)
                x = op.operands[0] if op.operands else None
                if x is not None:
                    g.edge(self.available_of(x), n)
                    if op.results and op.results[0].type.is_gpu_token:
                        inner = self.inner.get(x)
                        self.completion[op.results[0]] = inner if inner is not None else self._extern(op.results[0], self.completion)
                cur = n
            elif name == "async.yield":
                n = g.node("yield", op, tid)
                if cur is not None:
                    g.edge(cur, n)
                cur = n
                yielded = op
            elif op.regions and not self.opaque_region_op(op):
                self.unsupported(op, f"'{name}' op holds GPU or async ops in its regions (control flow is not modelled)")
            else:
                if any(is_token_type(v.type) for v in op.operands) or any(is_token_type(v.type) for v in op.results):
                    if not info.known or info.effects is None:
                        self.unsupported(op, f"'{name}' op takes or produces a token the model cannot follow")
                if is_effectful(op):
                    n = g.node("point", op, tid)
                    if cur is not None:
                        g.edge(cur, n)
                    cur = n
                    ev = Event(op, "return" if name == "func.return" else "host", n, n, tid)
                    g.events.append(ev)
                    g.by_op[op] = ev
        return cur, yielded

    def opaque_region_op(self, op: Operation) -> bool:
        """A region op with nothing the event model needs to see inside."""
        for inner in op.nested_ops():
            if registry.lookup(inner.name).gpu_async or inner.dialect == "async" or inner.name in UNMODELLED_OPS:
                return False
            if any(is_token_type(v.type) for v in inner.results) or any(is_token_type(v.type) for v in inner.operands):
                return False
        for region in op.regions:
            for block in region.blocks:
                if any(is_token_type(a.type) for a in block.args):
                    return False
        return True

    def gpu_op(self, op: Operation, cur: int | None, tid: int) -> int:
        g = self.g
        i = g.node("issue", op, tid)
        if cur is not None:
            g.edge(cur, i)
        s = g.node("start", op, tid)
        g.edge(i, s)
        for d in gpu_deps(op):
            if d.type.is_gpu_token:
                g.edge(self.completion_of(d), s)
        f = g.node("finish", op, tid)
        g.edge(s, f)
        token = next((r for r in reversed(op.results) if r.type.is_gpu_token), None)
        if op.name != "gpu.wait":
            ev = Event(op, "gpu", s, f, tid)
            g.events.append(ev)
            g.by_op[op] = ev
        if token is not None:
            self.completion[token] = f
            return i
        return f

    def execute(self, op: Operation, cur: int | None, tid: int, depth: int) -> int:
        g = self.g
        p = g.node("issue", op, tid)
        if cur is not None:
            g.edge(cur, p)
        if depth >= MAX_THREAD_NESTING or not op.regions or len(op.regions[0].blocks) != 1:
            self.unsupported(op, "'async.execute' body is not a single block (or is nested too deep)")
            return p
        body_tid = len(g.thread_ops)
        g.thread_ops.append(op)
        b = g.node("body", op, body_tid)
        g.edge(p, b)
        deps, operands = execute_segments(op)
        for d in deps:
            g.edge(self.available_of(d), b)
        block = op.regions[0].blocks[0]
        for k, v in enumerate(operands):
            g.edge(self.available_of(v), b)
            if k < len(block.args) and block.args[k].type.is_gpu_token:
                inner = self.inner.get(v)
                if inner is not None:
                    self.completion[block.args[k]] = inner
        last, yielded = self.thread(block, b, body_tid, depth + 1)
        end = last if last is not None else b
        for r in op.results:
            self.available[r] = end
        if yielded is not None:
            values = [r for r in op.results if r.type.is_async_value]
            for r, y in zip(values, yielded.operands):
                if y.type.is_gpu_token:
                    self.inner[r] = self.completion_of(y)
        return p


def build(func: Operation) -> EventGraph:
    """The happens-before graph of `func` (a `func.func` with a body)."""
    b = _Builder(func)
    g = b.g
    g.thread_ops.append(None)
    if not func.regions or not func.regions[0].blocks:
        return g
    blocks = func.regions[0].blocks
    if len(blocks) > 1:
        has_gpu = any(
            registry.lookup(o.name).gpu_async or o.dialect == "async" for blk in blocks for op in blk.ops for o in op.walk()
        )
        if has_gpu:
            b.unsupported(func, "function with several blocks holding GPU or async ops (control flow is not modelled)")
            return g
        # No GPU work anywhere: every path is the input's own host code;
        # model the blocks in order (each effectful op is still an event).
    start = g.node("point", func, 0)
    cur: int | None = start
    for block in blocks:
        cur, _ = b.thread(block, cur, 0, 0)
    return g
