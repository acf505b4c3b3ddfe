"""The static event model of docs/design.md section 4: events and happens-before.

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
events around them. A region op whose regions hold no GPU op, no async op,
no token and no effectful op is one host point (its inner events all lie
between the thread's previous and next points, so nothing is lost).

Control flow (rule 8): an execution follows one path. The decisions
(`scf.if`: then/else; `scf.for`/`scf.while`/`scf.parallel`: trip count
0..unroll; `cf.cond_br`: true/false successor; `arith.select` on tokens)
are the guarded builder's (`guarded_builder.py`, a subclass of `EventBuilder`):
one graph over every path, each node and edge guarded by the paths it is
on. One path is that graph under one assignment of the decisions
(`guarded_path.on_path`); a function without decisions is its graph with
every guard true. (The path-by-path construction the guarded graph is
tested against lives in the tests: `tests/support/path_builder.py`.)

`scf.parallel`: its iterations may run at once, so each of the 0..unroll
iterations is a thread of its own, begun where the op is met, and the op
ends when all of them have.

What the model cannot follow (an `scf.parallel` with reductions, an unknown
region op holding GPU or async ops, async groups, `gpu.launch`) is recorded in
`EventGraph.unsupported` with the reason, so a checker can answer `unknown`
instead of guessing.

Node ids are allocated in execution order along each path, so every edge of
a well-formed function points from a lower id to a higher one
(`EventGraph.forward_only`), which lets checkers bound their searches.
"""

from __future__ import annotations

from spec import registry
from spec.attributes import GPU_TOKEN, DenseArrayAttr, Type
from spec.ir import Block, Operation, Value
from spec.semantics.conditions import TRUE
from spec.semantics.event_graph import Event as Event  # re-exported: importers take both from here
from spec.semantics.event_graph import EventGraph as EventGraph

SYNC_OPS = frozenset(n for n in registry.known_ops() if registry.sync_kind(n))
"""Synchronization ops (the registry's `sync` facts): they order events but
are not events of the property."""

UNMODELLED_OPS = {
    **{
        n: f"{n} (with a body) is not modelled; the pass rejects it"
        for n in registry.known_ops()
        if registry.launches_inline_kernel(n)
    },
    **{
        n: f"{n} (an async function run beside the caller, maybe with GPU work) is not modelled"
        for n in registry.known_ops()
        if registry.lookup(n).callee and registry.function_kind(registry.lookup(n).callee) == "async"
    },
}
"""Op name -> why the model does not follow it (the registry's inline
kernel launches, and calls of async functions)."""

GPU_TOKEN_VALUE = "!async.value<!gpu.async.token>"
GPU_TOKEN_TEXT = GPU_TOKEN.text
"""The text `Type.is_gpu_token` compares, in a local constant for the hot loops."""

MAX_THREAD_NESTING = 200
"""`async.execute` bodies nested deeper than this are reported unsupported."""


_TOKEN_TEXTS = frozenset({"!gpu.async.token", "!async.token", "!async.group"})


def is_token_type(t: Type) -> bool:
    """Types that carry completion: GPU tokens, async tokens and values,
    groups. (On the type's text: asked for every operand and result of the
    function, it is one of the event builder's hottest tests.)"""
    text = t.text
    return text in _TOKEN_TEXTS or text.startswith("!async.value<")


def gpu_deps(op: Operation) -> list[Value]:
    """The `[deps]` of a GPU async op (the operand layout is the registry's)."""
    start, end = registry.async_dependency_span(op)
    return op.operands[start:end]


def execute_segments(op: Operation) -> tuple[list[Value], list[Value]]:
    """(`[deps]`, body operands) of an `async.execute`."""
    sizes = op.properties.get("operandSegmentSizes")
    if isinstance(sizes, DenseArrayAttr) and len(sizes.values) == 2:
        n = sizes.ints[0]
        return op.operands[:n], op.operands[n:]
    deps = [v for v in op.operands if v.type.is_async_token]
    return deps, [v for v in op.operands if not v.type.is_async_token]


def is_effectful(op: Operation) -> bool:
    """Whether `op` is an effectful event of the property (docs/design.md 4):
    GPU ops but `gpu.wait`, host ops with memory effects or unknown effects,
    `func.return`; region ops iff something inside is."""
    name = op.name
    by_name = _EFFECTFUL.get(name, _UNSET)
    if by_name is _UNSET:
        by_name = _EFFECTFUL[name] = _effectful_by_name(name)
    if by_name is not None:
        return by_name  # type: ignore[return-value]  # _UNSET was replaced above: a bool
    return any(is_effectful(o) for r in op.regions for b in r.blocks for o in b.ops)


_UNSET = object()
_EFFECTFUL: dict[str, bool | None] = {}
"""Op name -> `_effectful_by_name` (asked once per op of both functions:
the registry's facts are fixed once it is imported)."""


def _effectful_by_name(name: str) -> bool | None:
    """`is_effectful` as far as the op's name decides it; None for an op
    whose regions decide (the registry's `recursive` effects)."""
    if name in SYNC_OPS:
        return False
    if registry.is_function_return(name):
        return True
    info = registry.lookup(name)
    if info.gpu_async:
        return True
    if info.terminator and info.known:
        return False
    if info.recursive:
        return None
    return info.effects is None or bool(info.effects)


def defining_block(v: Value) -> Block | None:
    """The block whose run gives `v` its value (a block argument's block,
    an op result's block)."""
    if isinstance(v.owner, Block):
        return v.owner
    op = v.defining_op
    return op.parent if op is not None else None


def enclosing_blocks(op: Operation) -> list[Block]:
    """The blocks `op` runs inside, innermost first."""
    out: list[Block] = []
    block = op.parent
    while block is not None:
        out.append(block)
        region = block.parent
        owner = region.parent if region is not None else None
        block = owner.parent if owner is not None else None
    return out


def defining_block_around(op: Operation, v: Value) -> Block | None:
    """`v`'s defining block if `op` runs inside it (so the value `op` sees
    is the one of the block's current run), else None."""
    block = defining_block(v)
    return block if block is not None and any(b is block for b in enclosing_blocks(op)) else None


def defining_block_before(op: Operation, v: Value) -> Block | None:
    """`v`'s defining block if `op` runs in (or inside) a later block of the
    same region: a block of a CFG that the definition dominates, so the value
    `op` sees is the one of the defining block's latest run. Else None."""
    block = defining_block(v)
    region = block.parent if block is not None else None
    if block is None or region is None:
        return None
    return block if any(b is not block and b.parent is region for b in enclosing_blocks(op)) else None


def _takes_token(op: Operation) -> bool:
    """Whether `op` has an operand or a result of a token type (a loop,
    not generators, and type texts already seen not to be tokens skipped
    by set membership: this runs once per host op of the function)."""
    plain = _NOT_TOKEN_TEXTS
    for vs in (op.operands, op.results):
        for v in vs:
            text = v.type.text
            if text in plain:
                continue
            if is_token_type(v.type):
                return True
            plain.add(text)
    return False


_NOT_TOKEN_TEXTS: set[str] = set()
"""Type texts `is_token_type` said no to (a program has few distinct types).
A cache: the answer depends on the text alone."""


_GPU = "gpu"
_UNMODELLED = "unmodelled"
_HOST = "host"
_QUIET = "quiet"
_OTHER = "other"
_DISPATCH: dict[str, str] = {}
"""Op name -> how `EventBuilder.thread` first tells it apart: `_GPU`,
`_UNMODELLED`, `_HOST` (an op without regions is a `host_op` with no
token use), `_QUIET` (the same, and not effectful by its name), else
`_OTHER` (by its name and regions, the general chain).
From the registry once per name instead of once per op (a cache: the
registry is fixed once it is imported)."""

_THREAD_OPS = frozenset(
    n for n in registry.known_ops() if registry.begins_thread(n) or registry.ends_thread(n) or registry.awaits_one(n)
)
"""The ops `EventBuilder.thread` models one by one: `async.execute`,
`async.await`, `async.yield`."""


def constant_int(v: Value) -> int | None:
    """The value of `v` if an `arith.constant` / `index.constant` makes it."""
    op = v.owner
    if not isinstance(op, Operation) or not registry.is_constant(op.name):
        return None
    value = op.properties.get("value")
    n = getattr(value, "value", None)
    return n if isinstance(n, int) and not isinstance(n, bool) else None


def group_plan(create: Operation) -> str:
    """Why the model cannot follow the group `create` makes, or "".

    `async.create_group %n` declares how many tokens the group will hold:
    `async.await_all` returns once it holds `%n` tokens and `%n` of them are
    available, which may wait for tokens added after it (from another
    thread). The model follows a group exactly when that is the same as
    "every token added to it": `%n` is a constant, and the group gets
    exactly `%n` `add_to_group`s on every path, i.e. that many ops, none
    in a loop or a branch between the group's block and the op (bodies of
    `async.execute` run once). A group nobody waits on (no `await_all`,
    never handed out) orders nothing, whatever its size. Anything else (an
    unknown size, adds in a loop or a branch, a group used by another op)
    is not followed."""
    if not create.results or not create.operands:
        return "'async.create_group' op without size or result"
    size = constant_int(create.operands[0])
    if size is None:
        return "'async.create_group' op of a size that is not a constant: the model cannot tell when 'async.await_all' returns"
    group = create.results[0]
    block = create.parent
    if block is None:
        return "'async.create_group' op outside a block"
    root = create
    while root.parent is not None and root.parent.parent is not None and root.parent.parent.parent is not None:
        root = root.parent.parent.parent
    users = _users(root, group)
    if all(registry.group_role(u.name) == "add" and u.operands[-1] is group for u in users):
        return ""
    adds = 0
    for user in users:
        if registry.group_role(user.name) == "add":
            if user.operands[-1] is not group:
                return "a group added to another group is not followed"
            where = _branch_between(user, block)
            if where is user:
                return "'async.add_to_group' op in another block than its group's: how many tokens the group gets is not known"
            if where is not None:
                return f"'async.add_to_group' op inside '{where.name}': how many tokens the group gets is not known"
            adds += 1
        elif registry.group_role(user.name) != "await" and not registry.token_use(user.name) == "escape":
            return f"a group used by '{user.name}' is not followed"
    if adds != size:
        return f"'async.create_group' op of size {size} gets {adds} 'async.add_to_group' ops: the model cannot tell when 'async.await_all' returns"
    return ""


def _users(root: Operation, v: Value) -> list[Operation]:
    """The ops under `root` (the function) that use `v`."""
    return [op for op in root.walk() if any(x is v for x in op.operands)]


def _branch_between(op: Operation, block: Block) -> Operation | None:
    """The first op between `op` and `block` that may run its regions a
    number of times other than once (a loop, a branch; anything but an
    `async.execute`, whose body runs once), or `op` itself if it is not
    under `block` at all (another block of a `cf` region)."""
    cur = op.parent
    while cur is not block:
        region = cur.parent if cur is not None else None
        owner = region.parent if region is not None else None
        if owner is None or region is None:
            return op
        if not registry.begins_thread(owner.name) or len(region.blocks) != 1:
            return owner
        cur = owner.parent
    return None


def _dispatch_kind(name: str) -> str:
    """`_DISPATCH`'s entry for op name `name` (an unmodelled op is reported
    even if the registry calls it a GPU async op, as `thread` always did)."""
    if name in UNMODELLED_OPS:
        return _UNMODELLED
    if registry.lookup(name).gpu_async:
        return _GPU
    if name in _THREAD_OPS or registry.is_group_op(name) or registry.token_use(name):
        return _OTHER
    return _QUIET if _effectful_by_name(name) is False else _HOST


class EventBuilder:
    """What every op but control flow makes of the graph: the op-level rules
    1-7 and the boundary (9-11). The control flow (rule 8) is the guarded
    builder's (`guarded_builder.py`): `control` and `select` are its."""

    def __init__(self, func: Operation, unroll: int) -> None:
        self.g = EventGraph(func)
        self.unroll = unroll
        self.completion: dict[Value, int] = {}
        """GPU token -> the node at which it is complete."""
        self.available: dict[Value, int] = {}
        """`!async.token` / `!async.value` -> the node at which it is available."""
        self.inner: dict[Value, int] = {}
        """`!async.value<!gpu.async.token>` -> completion of the token inside."""
        self.groups: dict[Value, list[tuple[int, int]]] = {}
        """`!async.group` -> (condition, availability) of each token added so far."""
        self.group_waiters: dict[Value, list[tuple[int, int]]] = {}
        """`!async.group` made here -> (condition, node) of each point that
        waits for the whole group (an `await_all`, a receiver): a token
        added later is waited for too, since the group is complete only
        once it holds its declared size (`group_plan`)."""
        self.refused_groups: set[Value] = set()
        """Groups whose `create_group` the model does not follow (`group_plan`)."""
        self.completions: list[tuple[int, int]] = []
        """(condition, end of body) of every `async.execute` met: the
        program's end comes after each (rule 11)."""

    def here(self) -> int:
        """The condition under which nodes are being made: on one path, every
        node made is present."""
        return TRUE

    def both(self, a: int, b: int) -> int:
        """The conjunction of two conditions (on one path, both hold)."""
        return TRUE

    def _extern(self, v: Value, table: dict[Value, int]) -> int:
        # A token bound to nothing the model follows (arguments and call
        # results are bound to caller work, so what is left is a use the
        # builder did not see defined, or an await of a value whose GPU token
        # is not known). Its node has no predecessors, so a wait on it would
        # order nothing: never silently, the verdict is unknown.
        owner = v.defining_op or (v.owner.parent_op if isinstance(v.owner, Block) else None) or self.g.func
        self.unsupported(owner, "a token whose completion the model cannot follow")
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

    def control(self, op: Operation, cur: int | None, tid: int, depth: int) -> int | None:
        """A region op holding GPU, async, token or effectful ops (what
        `opaque_region_op` refuses) that no control-flow rule follows:
        unsupported (a subclass handles the ones it models)."""
        self.unsupported(
            op,
            f"'{op.name}' op holds GPU, async or effectful ops in its regions; this construct is not modelled",
        )
        return cur

    def select(self, op: Operation, tid: int) -> None:
        """`arith.select` on tokens: a decision (the subclass's)."""
        raise NotImplementedError

    def thread(self, block: Block, cur: int | None, tid: int, depth: int) -> tuple[int | None, Operation | None]:
        """Walk `block` as thread `tid` from node `cur`; returns the last
        node and the `async.yield` met, if any."""
        g = self.g
        yielded: Operation | None = None
        dispatch = _DISPATCH
        for op in block.ops:
            name = op.name
            kind = dispatch.get(name)
            if kind is None:
                kind = dispatch[name] = _dispatch_kind(name)
            if kind is _GPU:
                cur = self.gpu_op(op, cur, tid)
                continue
            if kind is _QUIET and not op.regions:
                # A host op with no effect and no token use: `host_op` would
                # only look for a token to report.
                if _takes_token(op):
                    cur = self.host_op(op, cur, tid, "")
                continue
            if kind is _HOST and not op.regions:
                # Where the chain below takes it: its last branch.
                cur = self.host_op(op, cur, tid, "")
                continue
            if kind is _UNMODELLED:
                self.unsupported(op, UNMODELLED_OPS[name])
                continue
            if registry.begins_thread(name):
                cur = self.execute(op, cur, tid, depth)
            elif registry.awaits_one(name):
                n = g.node("point", op, tid)
                if cur is not None:
                    g.edge(cur, n)
                x = op.operands[0] if op.operands else None
                if x is not None:
                    g.edge(self.available_of(x), n)
                    if op.results and op.results[0].type.is_gpu_token:
                        inner = self.inner.get(x)
                        self.completion[op.results[0]] = (
                            inner if inner is not None else self._extern(op.results[0], self.completion)
                        )
                cur = n
            elif registry.ends_thread(name):
                n = g.node("yield", op, tid)
                if cur is not None:
                    g.edge(cur, n)
                cur = n
                yielded = op
            elif op.regions and not self.opaque_region_op(op):
                cur = self.control(op, cur, tid, depth)
            elif registry.is_group_op(name):
                cur = self.group_op(op, cur, tid)
            elif registry.token_use(name) == "select" and op.results and is_token_type(op.results[0].type):
                self.select(op, tid)
            else:
                cur = self.host_op(op, cur, tid, registry.token_use(name))
        return cur, yielded

    def host_op(self, op: Operation, cur: int | None, tid: int, use: str) -> int | None:
        """Any other op, `use` its `registry.token_use`: a point of the
        thread if it is effectful (rule 1), else nothing."""
        name = op.name
        if use not in ("pass", "escape") and _takes_token(op):
            # Never silently: a token the model does not follow
            # would complete at an unconstrained point (rule 10).
            self.unsupported(op, f"'{name}' op takes or produces a token the model cannot follow")
        if is_effectful(op):
            g = self.g
            n = g.node("point", op, tid) if cur is None else g.node_after(cur, "point", op, tid)
            g.add_event(Event(op, "return" if registry.is_function_return(name) else "host", n, n, tid))
            if use == "escape":
                self.escape(op, n)
            if registry.calls_function(name):
                self.call_results(op, n)
            return n
        return cur

    # -- the function's boundary (rules 9-11) ----------------------------------

    def boundary_thread(self, op: Operation) -> int:
        """A thread of its own for a boundary event: it is ordered with the
        function's events only by the edges given."""
        self.g.thread_ops.append(op)
        return len(self.g.thread_ops) - 1

    def caller_work(self, op: Operation, role: str, after: int | None) -> int:
        """GPU work the function cannot see (the caller's behind an incoming
        token, or a callee's behind a call's token result): an effectful
        event that may touch any memory, after `after` (None: it may have
        begun before the function). Returns its finish."""
        g = self.g
        tid = self.boundary_thread(op)
        s = g.node("caller-start", op, tid)
        if after is not None:
            g.edge(after, s)
        f = g.node("caller-finish", op, tid)
        g.edge(s, f)
        g.add_event(Event(op, "caller", s, f, tid, role=role))
        return f

    def bind_outside(self, v: Value, op: Operation, role: str, after: int | None) -> None:
        """Bind a token-typed value that comes from outside the function
        (an argument, a call's result) to the work it stands for."""
        t = v.type
        if t.is_gpu_token:
            self.completion[v] = self.caller_work(op, role, after)
        elif t.is_async_token or t.is_async_value:
            self.available[v] = self.caller_work(op, role, after)
            if t.text == GPU_TOKEN_VALUE:
                # Awaiting the value and waiting on the token inside are two
                # synchronisations: each has work of its own behind it.
                self.inner[v] = self.caller_work(op, role + ".gpu", after)
        elif t.text == "!async.group":
            self.groups[v] = [(self.here(), self.caller_work(op, role, after))]

    def incoming(self, func: Operation) -> None:
        """Rule 9: every token argument stands for the caller's work."""
        if not func.regions or not func.regions[0].blocks:
            return
        for k, a in enumerate(func.regions[0].blocks[0].args):
            self.bind_outside(a, func, f"arg{k}", None)

    def call_results(self, op: Operation, point: int) -> None:
        """A call's token results stand for work the callee started."""
        for k, r in enumerate(op.results):
            if is_token_type(r.type):
                self.bind_outside(r, op, f"result{k}", point)

    def waits_of(self, v: Value) -> list[tuple[int, int]] | None:
        """(condition, node) pairs after all of which whoever holds `v` may
        act having waited on it; None if unknown."""
        t = v.type
        here = self.here()
        if t.is_gpu_token:
            return [(here, self.completion_of(v))]
        if t.is_async_token or t.is_async_value:
            out = [(here, self.available_of(v))]
            inner = self.inner.get(v)
            if inner is not None:
                out.append((here, inner))
            return out
        if t.text == "!async.group" and v in self.groups:
            return [(self.both(here, c), n) for c, n in self.groups[v]]
        return None

    def escape(self, op: Operation, point: int) -> None:
        """Rule 10: a token that leaves the function is a promise; its
        receiver waits on it after `point` and may then touch memory."""
        g = self.g
        for k, v in enumerate(op.operands):
            if not is_token_type(v.type):
                continue
            waits = self.waits_of(v)
            if waits is None:
                self.unsupported(op, f"'{op.name}' op hands out a token the model cannot follow")
                continue
            tid = self.boundary_thread(op)
            n = g.node("receiver", op, tid)
            g.edge(point, n)
            for c, w in waits:
                g.edge_when(w, n, c)
            if v in self.group_waiters:
                self.group_waiters[v].append((self.here(), n))
            g.add_event(Event(op, "receiver", n, n, tid, role=f"operand{k}"))

    def program_end(self, func: Operation, last: int | None) -> None:
        """Rule 11: after the function returns, the runtime drains every
        `async.execute`: an effectful `end` after the return and after
        every execute's completion."""
        g = self.g
        if last is None and not self.completions:
            return
        tid = self.boundary_thread(func)
        n = g.node("end", func, tid)
        if last is not None:
            g.edge(last, n)
        for c, e in self.completions:
            g.edge_when(e, n, c)
        g.add_event(Event(func, "end", n, n, tid, role="end"))

    def group_op(self, op: Operation, cur: int | None, tid: int) -> int | None:
        """`async.create_group` starts an empty group; `async.add_to_group`
        adds a token's availability to it; `async.await_all` blocks its
        thread until every token added so far is available."""
        g = self.g
        if registry.group_role(op.name) == "create":
            reason = group_plan(op)
            if reason:
                self.unsupported(op, reason)
                if op.results:
                    self.refused_groups.add(op.results[0])
            elif op.results:
                self.groups[op.results[0]] = []
                self.group_waiters[op.results[0]] = []
            return cur
        group = op.operands[-1] if op.operands else None
        if group is None or group not in self.groups:
            if group not in self.refused_groups:  # else its `create_group` said why
                self.unsupported(op, f"'{op.name}' op uses a group the model cannot follow")
            return cur
        if registry.group_role(op.name) == "add":
            here, avail = self.here(), self.available_of(op.operands[0])
            self.groups[group].append((here, avail))
            for c, w in self.group_waiters.get(group, ()):
                g.edge_when(avail, w, self.both(here, c))
            return cur
        n = g.node("point", op, tid)
        if cur is not None:
            g.edge(cur, n)
        self.wait_for_group(group, n)
        return n

    def wait_for_group(self, group: Value, n: int) -> None:
        """Node `n` waits for every token of `group`: those added so far, and
        (a group made here) those added later."""
        here = self.here()
        for c, a in self.groups[group]:
            self.g.edge_when(a, n, self.both(here, c))
        if group in self.group_waiters:
            self.group_waiters[group].append((here, n))

    def iteration_thread(self, op: Operation, cur: int | None, depth: int) -> int:
        """One iteration of `scf.parallel` `op` as a new thread begun after
        `cur`; returns its last point."""
        g = self.g
        body_tid = len(g.thread_ops)
        g.thread_ops.append(op)
        b = g.node("body", op, body_tid)
        if cur is not None:
            g.edge(cur, b)
        last, _ = self.thread(op.regions[0].blocks[0], b, body_tid, depth + 1)
        return last if last is not None else b

    def parallel_end(self, op: Operation, cur: int | None, tid: int, ends: list[tuple[int, int]]) -> int | None:
        """The point where `scf.parallel` `op` returns, after `cur` and after
        the last point of every iteration (`(condition, point)`: the
        iteration runs under the condition; `TRUE` on one path)."""
        if not ends:
            return cur
        g = self.g
        done = g.node("point", op, tid)
        if cur is not None:
            g.edge(cur, done)
        for c, e in ends:
            g.edge_when(e, done, c)
        return done

    def opaque_region_op(self, op: Operation) -> bool:
        """A region op with nothing the event model needs to see inside: no
        GPU, async or token op, and no effectful op either, so that an input
        region holding a host effect and its rewrite, which may add a wait
        beside that effect, are both followed path by path."""
        for inner in op.nested_ops():
            if registry.lookup(inner.name).gpu_async or inner.dialect == "async" or inner.name in UNMODELLED_OPS:
                return False
            if is_effectful(inner):
                return False
            if any(is_token_type(v.type) for v in inner.results) or any(is_token_type(v.type) for v in inner.operands):
                return False
        for region in op.regions:
            for block in region.blocks:
                if any(is_token_type(a.type) for a in block.args):
                    return False
        return True

    def gpu_op(self, op: Operation, cur: int | None, tid: int) -> int:
        """A GPU async op: issue on the thread, start after its `[deps]`
        complete (rule 2), finish; returns the issue if the op gives a
        token (the thread goes on), else the finish (rule 3: it blocks).
        (Bound methods and type texts in locals: this runs once per GPU op.)"""
        g = self.g
        completion = self.completion
        waits: list[int] | None = []
        start, end = registry.async_dependency_span(op)  # `gpu_deps`, one call less
        for d in op.operands[start:end]:
            if d.type.text == GPU_TOKEN_TEXT:
                c = completion.get(d)
                if c is None:
                    waits = None
                    break
                waits.append(c)  # type: ignore[union-attr]  # a list: None only on the way out (break)
        if waits is not None:
            # Every dependency's completion known (the common case): the
            # nodes and edges of the general way below, in one call.
            i = g.gpu_nodes(cur, op, tid, waits)
            s, f = i + 1, i + 2
        else:
            # A dependency the model cannot follow: its `extern` node is
            # made between the start and the finish.
            i = g.node("issue", op, tid) if cur is None else g.node_after(cur, "issue", op, tid)
            s = g.node_after(i, "start", op, tid)
            for d in gpu_deps(op):
                if d.type.text == GPU_TOKEN_TEXT:
                    g.edge(self.completion_of(d), s)
            f = g.node_after(s, "finish", op, tid)
        if not registry.is_gpu_wait(op.name):
            g.add_event(Event(op, "gpu", s, f, tid))
        # The op's token: its last GPU token result (well-formedness asks
        # that it be the last result; the model does not rely on that).
        for r in reversed(op.results):
            if r.type.text == GPU_TOKEN_TEXT:
                completion[r] = f
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
        self.completions.append((self.here(), end))
        for r in op.results:
            self.available[r] = end
        if yielded is not None:
            values = [r for r in op.results if r.type.is_async_value]
            for r, y in zip(values, yielded.operands):
                if y.type.is_gpu_token:
                    self.inner[r] = self.completion_of(y)
        return p


DEFAULT_UNROLL = 2
"""Loop iterations considered by default: 0, 1 and 2 trips cover a loop that
does not run, one that runs once, and a value carried from one iteration to
the next."""
