"""The happens-before graph of one function on one path: the data.

`guarded_builder.build_guarded` (all paths, with
conditions) fill it; the checkers read it. Nodes are points of execution
(a host op's point, a GPU op's issue, start and finish, a thread's begin,
...), numbered in the order they are created; an edge `a -> b` says `a`
happens before `b`. Events are the effectful ops the property is about,
each with its start and end node.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spec.ir import Operation


@dataclass(slots=True)
class Event:
    """An effectful event: its op, its start and end nodes, its thread.
    (Slotted: a function of 100k GPU ops has about 170k events per side.)"""

    op: Operation
    kind: str
    """`gpu`, `host` or `return`; at the function's boundary (docs/design.md
    section 4, rules 9-11) `caller` (GPU work behind an incoming token),
    `receiver` (whoever gets a token that leaves the function, after it
    waits on it) and `end` (the program's end, after the runtime drained
    every `async.execute`)."""
    start: int
    end: int
    thread: int
    occurrence: int = 0
    """Which execution of `op` on this path (ops in loops run several times)."""
    role: str = ""
    """Which event of `op`: "" for the op itself; for boundary events,
    `arg<k>` (the caller's work behind argument k, op = the function),
    `result<k>` (the callee's work behind a call's token result k),
    `operand<k>` (the receiver of a token operand k leaving the function)
    and `end` (op = the function). The same (op, role, occurrence) names
    the same event in the input and the output."""


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
    by_op: dict[tuple[Operation, str], list[Event]] = field(default_factory=dict)
    """Per (op, role), its events on this path in execution order."""
    unsupported: list[tuple[Operation, str]] = field(default_factory=list)
    forward_only: bool = True
    """Every edge goes from a lower node id to a higher one."""
    edge_count: int = 0
    thread_ops: list[Operation | None] = field(default_factory=list)
    """Per thread: the `async.execute` whose body it is (None: the host)."""
    choices: list[int] = field(default_factory=list)
    """The path: the option taken at each decision, in execution order."""
    options: list[int] = field(default_factory=list)
    """How many options each decision had."""
    path: list[str] = field(default_factory=list)
    """The decisions in words (`scf.if at in.mlir:12:5 takes the else branch`)."""
    bounded: bool = False
    """A loop was met: the paths cover at most `unroll` iterations of it."""
    truncated: bool = False
    """This path would run a block more than the bound allows: not checked."""
    loops: set[str] = field(default_factory=set)
    """Kinds of loop met on this path: `scf.for`, `scf.while`, `cf`."""
    iterations: list[tuple[Operation, int, int]] = field(default_factory=list)
    """Per `scf.for` iteration run: the loop, its first node, its end node."""

    def add_event(self, ev: Event) -> None:
        lst = self.by_op.setdefault((ev.op, ev.role), [])
        ev.occurrence = len(lst)
        lst.append(ev)
        self.events.append(ev)

    def event(self, op: Operation, occurrence: int, role: str = "") -> Event | None:
        lst = self.by_op.get((op, role))
        return lst[occurrence] if lst is not None and occurrence < len(lst) else None

    def node(self, kind: str, op: Operation | None, thread: int) -> int:
        self.kinds.append(kind)
        self.ops.append(op)
        self.threads.append(thread)
        self.succ.append([])
        return len(self.kinds) - 1

    def node_after(self, prev: int, kind: str, op: Operation | None, thread: int) -> int:
        """A new node and the edge `prev -> node`: `node` then `edge`, one
        call (a thread's next point; a GPU op's start and finish)."""
        n = self.node(kind, op, thread)
        self.edge(prev, n)
        return n

    def gpu_nodes(self, cur: int | None, op: Operation, thread: int, deps: list[int]) -> int:
        """A GPU op's issue, start and finish (consecutive ids; returns the
        issue) with the edges `cur -> issue` (unless None), `issue -> start`,
        each of `deps -> start`, `start -> finish`: what `node` and `edge`
        make in that order, in one call (once per GPU op)."""
        i = self.node("issue", op, thread) if cur is None else self.node_after(cur, "issue", op, thread)
        s = self.node_after(i, "start", op, thread)
        for d in deps:
            self.edge(d, s)
        self.node_after(s, "finish", op, thread)
        return i

    def edge(self, a: int, b: int) -> None:
        self.succ[a].append(b)
        self.edge_count += 1
        if a >= b:
            self.forward_only = False

    def edge_when(self, a: int, b: int, cond: int) -> None:
        """An edge that holds under condition `cond` (`spec.semantics.
        conditions`): in the graph of one path, every edge made holds."""
        self.edge(a, b)

    def occurrence_of(self, n: int) -> int:
        """Which execution of its op node `n` belongs to on this path (0 the
        first): the number of earlier nodes of the same op and kind. Worked
        out for all nodes on first use (labels are asked for a schedule or
        a drawing, not while building)."""
        occ: list[int] | None = self.__dict__.get("_occ")
        if occ is None or len(occ) != len(self.kinds):
            seen: dict[tuple[int, str], int] = {}
            occ = []
            for op, kind in zip(self.ops, self.kinds):
                key = (id(op), kind)
                occ.append(seen.get(key, 0))
                seen[key] = occ[-1] + 1
            self.__dict__["_occ"] = occ
        return occ[n]

    def label(self, n: int) -> str:
        op = self.ops[n]
        kind = self.kinds[n]
        where = f"{op.name}@{op.loc.line}:{op.loc.col}" if op is not None else "?"
        k = self.occurrence_of(n) if op is not None else 0
        # As `spec explore` counts: `#n` for the (n+1)-th execution of the op.
        where += f"#{k}" if k else ""
        short = {
            "issue": "i",
            "start": "s",
            "finish": "f",
            "point": "t",
            "body": "begin",
            "yield": "yield",
            "iter-end": "end-iteration",
        }
        return f"{short.get(kind, kind)}({where})"

    def preds(self) -> list[list[int]]:
        p: list[list[int]] = [[] for _ in self.kinds]
        for a, bs in enumerate(self.succ):
            for b in bs:
                p[b].append(a)
        return p
