"""The event model of every path at once: one graph, guarded by path conditions.

The event graph of one path would unroll a list of decisions into a
straight-line graph; enumerating paths that way is exponential in the
number of branches. The guarded graph is the union of all those graphs,
built once (`guarded_builder.py`), the verifier's only event graph: every node and every edge carries a
*condition*, the set of paths on which it exists. A concrete path's graph is
the guarded graph restricted to the nodes and edges whose condition holds,
its `join` nodes (see below) contracted: `guarded_path.on_path`, tested node for node
against the path-by-path reference of the tests
(`tests/support/path_builder.py`, `tests/semantics/test_semantics_on_path.py`). So
reachability on a path, and with it the property of docs/design.md section
4, can be asked of all paths in one query by a solver that chooses the
decisions; a function without decisions has every guard true.

Where paths meet again (after an `scf.if`, a loop, a `cf` join block) the
thread's last point and every token passed on are merged by a `join` node:
one incoming edge per alternative, guarded by it. On one path exactly one of
them is present, so reachability through a join is reachability through the
node it stands for. If every alternative is the same node, no join is made.

Conditions are hash-consed in a `Symbols` table (`conditions.py`) shared by the input's and
the output's graph, so the output's control flow, matched onto the input's
through `canon` (output op -> input op), uses the same decisions. The
conditions are plain data (and, or, literals); turning them into solver
terms is the checker's business (`verifier/smt/encode_guarded.py`).

This module holds the graph alone, `GuardedGraph`, the data between its
writer and its readers: the builder (`guarded_builder.py`: which decisions
there are and how the control flow is followed) fills it; one path taken
out of it (`guarded_path.py`), the solver's encoding and the proof's
lemmas and shapes read it without depending on how it is built.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from spec.ir import Operation
from spec.semantics.conditions import TRUE
from spec.semantics.events import Event, EventGraph

ALWAYS = itertools.repeat(TRUE)
"""The edge conditions of a node whose edges all hold (`GuardedGraph.eguards`)."""

MAX_NODES = 200_000
"""Guarded graphs larger than this are not built (the checker answers `unknown`)."""


def same_op(op: Operation) -> Operation:
    """The input's `canon`: each op is itself (`add_event` skips the call)."""
    return op


@dataclass
class GuardedGraph(EventGraph):
    """The union of the graphs of every path, each node and edge guarded."""

    guards: list[int] = field(default_factory=list)
    """Per node, its condition."""
    eguards: list[list[int] | itertools.repeat[int]] = field(default_factory=list)
    """Per node, the condition of each edge in `succ` (same order), read with
    `zip(g.succ[n], g.eguards[n])`. A node whose edges all have the
    condition TRUE has the shared `ALWAYS` (TRUE without end) instead of a
    list of its own: on straight-line code that is every node (a million lists saved
    at 100k GPU ops); the first edge with another condition gives the node
    its list."""
    cond: int = TRUE
    """The condition under which nodes and edges are being made."""
    ctx: tuple = ()
    """The occurrence being built: enclosing loop iterations and cf states."""
    keys: list[tuple] = field(default_factory=list)
    """Per event, (input op, role, context): the same key names the same
    occurrence in the input and the output."""
    canon: Callable[[Operation], Operation | None] = same_op
    met: list[tuple[int, int]] = field(default_factory=list)
    """(decision, condition under which it is made), in the order made: on
    any one path, the decisions made are met in this order."""
    met_ops: list[Operation] = field(default_factory=list)
    """Per entry of `met`, the (input) op deciding there: a decision on a
    condition met before is the same decision at another op."""
    excluded: list[int] = field(default_factory=list)
    """Conditions of truncated paths (a block entered too often): not checked."""
    path_count: int = 1
    """Paths of the function (as path enumeration would count them)."""
    mismatch: str = ""
    """Why the control flow does not follow the input's (output only)."""
    forward_but_extern: bool = True
    """Every edge not leaving an `extern` node goes to a higher node id."""

    # `EventGraph.node` and `edge` with the guards, written out: the builder
    # calls them for every node and edge (a million each at 100k GPU ops).

    def node(self, kind: str, op: Operation | None, thread: int) -> int:
        self.guards.append(self.cond)
        self.eguards.append(ALWAYS)
        kinds = self.kinds
        kinds.append(kind)
        self.ops.append(op)
        self.threads.append(thread)
        self.succ.append([])
        return len(kinds) - 1

    def gpu_nodes(self, cur: int | None, op: Operation, thread: int, deps: list[int]) -> int:
        # `EventGraph.gpu_nodes` with the three nodes appended at once (once
        # per GPU op). Their two inner edges leave nodes made here, so each
        # has that one edge, under the current condition; they go forward
        # and change no `forward_*` flag. The edges from `cur` and `deps`
        # are made by `edge`.
        cond = self.cond
        kinds = self.kinds
        i = len(kinds)
        s, f = i + 1, i + 2
        if cur is not None:
            self.edge(cur, i)  # touches only `cur`'s lists: `i` may come after
        kinds += ("issue", "start", "finish")
        self.ops += (op, op, op)
        self.threads += (thread, thread, thread)
        self.guards += (cond, cond, cond)
        self.succ += ([s], [f], [])
        self.edge_count += 2
        if cond == TRUE:
            self.eguards += (ALWAYS, ALWAYS, ALWAYS)
        else:
            self.eguards += ([cond], [cond], ALWAYS)
        for d in deps:
            self.edge(d, s)
        return i

    def edge(self, a: int, b: int) -> None:
        self.edge_when(a, b, self.cond)

    def edge_when(self, a: int, b: int, cond: int) -> None:
        out = self.succ[a]
        out.append(b)
        self.edge_count += 1
        if a >= b:
            self.forward_only = False
            if self.kinds[a] != "extern":
                self.forward_but_extern = False
        conds = self.eguards[a]
        if conds is ALWAYS:
            if cond == TRUE:
                return
            conds = self.eguards[a] = [TRUE] * (len(out) - 1)
        conds.append(cond)  # type: ignore[union-attr]  # not ALWAYS (replaced just above), so a list

    def add_event(self, ev: Event) -> None:
        super().add_event(ev)
        op, canon = ev.op, self.canon
        self.keys.append((op if canon is same_op else canon(op), ev.role, self.ctx))
