"""Building the guarded graph (`guarded_graph.py`): every path's control flow at once.

The op-level model is `events.EventBuilder`'s: this builder adds the
control flow to it, each node and edge made under the condition of the
paths it is on, for a whole function (`build_guarded`), one run of a
region (`build_region`) or one run of a block (`build_block`). Where paths
meet again it makes the `join` nodes `guarded_graph.py` describes.

Decisions (rule 8), one per occurrence (an `scf.if` inside an unrolled loop
iteration is one decision per iteration):

- `scf.if`, `cf.cond_br`: two options (then/else, true/false successor);
  `scf.index_switch`, `cf.switch`: one option per region or successor
  (the default first);
- `scf.for`, `scf.while`: a trip count 0..unroll, as the flags "iteration j
  runs" (j = 1..unroll); iteration j's events are guarded by its flag, and
  a decoder keeps the flags monotone (iteration j+1 runs only if j does);
- a `cf` region is followed block by block with a visit count per block on
  a cycle of the CFG (blocks off every cycle run at most once, so their
  count is not part of the state: diamonds merge instead of multiplying).
  A state that would enter a block more than unroll+1 times is a path
  the path builder marks `truncated` and the checker skips: its condition is
  recorded in `GuardedGraph.excluded`. The states themselves (a CFG
  question) come from `block_states.py`.

The input's graph is built first and makes the decisions; the output's,
its ops matched onto the input's through `canon`, looks them up (one the
input lacks sets `GuardedGraph.mismatch`). It is apart from the graph so
that what reads a graph does not depend on how the control flow is
followed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NoReturn

from spec import registry
from spec.attributes import DenseArrayAttr
from spec.ir import Block, Operation, Region, Value
from spec.semantics.block_states import MAX_CF_STATES, block_states
from spec.semantics.conditions import Decision, Symbols
from spec.semantics.events import (
    DEFAULT_UNROLL,
    Event,
    EventBuilder,
    constant_int,
    defining_block_around,
    defining_block_before,
    enclosing_blocks,
)
from spec.semantics.guarded_graph import GuardedGraph, same_op

_Snap = tuple[int | None, int | None, int | None]
"""What a passed value carries: (completion, availability, inner completion)."""
_Tables = tuple[dict[Value, int], dict[Value, int], dict[Value, int]]


class _GuardedBuilder(EventBuilder):
    def __init__(
        self,
        func: Operation,
        sym: Symbols,
        canon: Callable[[Operation], Operation | None],
        unroll: int,
        is_input: bool,
        summarised: Mapping[Operation, bool] | None = None,
    ) -> None:
        super().__init__(func, unroll)
        self.g: GuardedGraph = GuardedGraph(func, canon=canon)
        self.sym = sym
        self.is_input = is_input
        self.mult = 1
        """Paths through what has been built of the current region run."""
        self.summarised: Mapping[Operation, bool] = summarised or {}
        """Region ops proved on their own (`verifier/proof/compose.py`), each a
        single point here; True: the point is a host event standing for
        every effect inside."""

    def summary_point(self, op: Operation, cur: int | None, tid: int) -> int:
        """A summarised region op: one point of the thread, where its
        regions begin and end (what happens inside is proved apart, and
        nothing inside is left pending at its end)."""
        g = self.g
        n = g.node("point", op, tid) if cur is None else g.node_after(cur, "point", op, tid)
        if self.summarised[op]:
            g.add_event(Event(op, "host", n, n, tid))
        return n

    def here(self) -> int:
        return self.g.cond

    def both(self, a: int, b: int) -> int:
        return self.sym.conj(a, b)

    # -- decisions -------------------------------------------------------------

    def condition_key(self, op: Operation, cond: Value) -> tuple | None:
        """`events._Builder.same_condition` on all paths: the value (named
        through the input's ops) and the part of the context that says which
        run of its defining block this is (the loop iterations and `cf`
        states around that block, not those between it and `op`)."""
        g = self.g
        block = defining_block_around(op, cond) or defining_block_before(op, cond)
        if block is None:
            return None
        owner = cond.defining_op
        if owner is not None:
            src = g.canon(owner)
            if src is None:
                return None
            name: tuple = ("result", src, cond.index)
        else:
            parent = block.parent.parent if block.parent is not None else None
            src = g.canon(parent) if parent is not None else None
            if src is None or parent is None or block.parent is None:  # (parent is None makes src None)
                return None
            name = ("arg", src, _index(parent.regions, block.parent), _index(block.parent.blocks, block), cond.index)
        # Which (region, block) of each op around the defining block it lies in.
        around: dict[Operation, tuple[int, int]] = {}
        for b in [block, *enclosing_blocks_of(block)]:
            region = b.parent
            o = region.parent if region is not None else None
            if o is None or region is None:
                continue
            c = g.canon(o)
            if c is not None:
                around[c] = (_index(o.regions, region), _index(region.blocks, b))
        kept = []
        for entry in g.ctx:
            where = around.get(entry[1])
            if where is None:
                continue
            if entry[0] == "cf" and (entry[2], entry[3]) != where:
                # `op` in a later block of the defining block's region: the
                # same run of it while no block on a cycle has been entered
                # (each block runs once). Past a cycle the decisions stay
                # apart: the same one again would leave only paths that go
                # round forever, which the bound cuts with what they do.
                if entry[2] != where[0] or entry[4]:
                    return None
                entry = ("cf", entry[1], entry[2], where[1], ())
            kept.append(entry)
        return ("same-condition", name, tuple(kept))

    def decide_at(self, op: Operation, kind: str, options: int) -> int | None:
        g = self.g
        src = g.canon(op)
        if src is None:
            g.mismatch = g.mismatch or f"'{op.name}' at {op.loc} has no counterpart in the input"
            return None
        same = None
        if kind in ("scf.if", "cf.cond_br", "cf.switch", "arith.select") and op.operands:
            same = self.condition_key(op, op.operands[0])
            if same is not None and registry.jump_kind(kind) == "cases":
                # Option k is the k-th case: the same option of two
                # switches on one value is the same case only if their
                # case lists are equal.
                same = (*same, str(op.properties.get("case_values")))
        key = same if same is not None else (src, g.ctx)
        # An output region op whose input counterpart has no effect inside
        # (the input walks past it without deciding) decides freely: the
        # input's events are the same whichever way it goes, so the output
        # must keep them on every option. Not a loop: its trip counts past
        # the bound would go unmarked, the input's graph being unbounded.
        free = not self.is_input and bool(src.regions) and not registry.is_loop(kind) and self.opaque_region_op(src)
        made = (lambda: Decision(kind, src, options, free)) if self.is_input or free else None
        d = self.sym.decision(key, made)
        if d is None or self.sym.decisions[d].options != options:
            g.mismatch = g.mismatch or f"'{op.name}' at {op.loc} does not decide as the input does"
            return None
        g.met.append((d, g.cond))
        g.met_ops.append(src)
        return d

    # -- values across path joins ------------------------------------------------

    def snap(self, vs: list[Value]) -> list[_Snap]:
        out: list[_Snap] = []
        for v in vs:
            comp = self.completion_of(v) if v.type.is_gpu_token else None
            avail = self.available_of(v) if (v.type.is_async_token or v.type.is_async_value) else None
            out.append((comp, avail, self.inner.get(v)))
        return out

    def join(self, pairs: Sequence[tuple[int, int | None]], tid: int) -> int | None:
        """One node reached from each alternative's node under its condition."""
        nodes = {n for _, n in pairs if n is not None}
        if not nodes:
            return None
        if len(nodes) == 1:
            return nodes.pop()
        g = self.g
        j = g.node("join", None, tid)
        for c, n in pairs:
            if n is not None:
                g.edge_when(n, j, c)
        return j

    def join_bind(self, dsts: list[Value], alts: Sequence[tuple[int, list[_Snap] | None]], tid: int) -> None:
        """Bind `dsts` to what each alternative passes (None: passes nothing
        known, as a path that leaves the values unbound)."""
        for k, d in enumerate(dsts):
            picks: list[tuple[int, int | None]] = []
            inner: list[tuple[int, int | None]] = []
            for c, snaps in alts:
                s = snaps[k] if snaps is not None and k < len(snaps) else None
                if d.type.is_gpu_token:
                    picks.append((c, s[0] if s is not None else self.g.node("extern", None, 0)))
                elif d.type.is_async_token or d.type.is_async_value:
                    picks.append((c, s[1] if s is not None else self.g.node("extern", None, 0)))
                    inner.append((c, s[2] if s is not None else None))
            if d.type.is_gpu_token:
                self.completion[d] = self.join(picks, tid)  # type: ignore[assignment]  # None if no path passes a node: readers (completion_of) take None as unbound
            elif d.type.is_async_token or d.type.is_async_value:
                self.available[d] = self.join(picks, tid)  # type: ignore[assignment]  # as above: None reads as unbound
                if any(n is not None for _, n in inner):
                    # A path passing no inner token leaves the await's result
                    # unknown, as one path does with an extern node.
                    filled = [(c, n if n is not None else self.g.node("extern", None, 0)) for c, n in inner]
                    self.inner[d] = self.join(filled, tid)  # type: ignore[assignment]  # as above: None reads as unbound
                else:
                    self.inner.pop(d, None)

    def tables(self) -> _Tables:
        return dict(self.completion), dict(self.available), dict(self.inner)

    def merge_tables(self, alts: list[tuple[int, _Tables]], tid: int) -> None:
        """The bindings after paths meet: a value bound to different nodes
        on different paths is bound to a join of them."""
        if len(alts) == 1:
            self.completion, self.available, self.inner = (dict(t) for t in alts[0][1])
            return
        merged: list[dict[Value, int]] = []
        for k in range(3):
            out: dict[Value, int] = {}
            # A value bound on some paths only does not dominate the meeting
            # point: a well-formed function cannot use it there.
            keys = [v for v in alts[0][1][k] if all(v in t[k] for _, t in alts[1:])]
            for v in keys:
                nodes = [(c, t[k][v]) for c, t in alts]
                first = nodes[0][1]
                if all(n == first for _, n in nodes):
                    out[v] = first
                else:
                    out[v] = self.join(nodes, tid)  # type: ignore[assignment]  # two or more nodes, so a node
            merged.append(out)
        self.completion, self.available, self.inner = merged

    # -- control flow ------------------------------------------------------------

    def region(self, region: Region, args: list[Value], cur: int | None, tid: int, depth: int) -> NoReturn:
        raise AssertionError("the guarded builder runs regions with gregion")

    def gregion(
        self, region: Region, cur: int | None, tid: int, depth: int
    ) -> tuple[int | None, list[tuple[int, int | None, Operation, list[_Snap]]]]:
        """Run `region` (entry block arguments already bound) under the
        current condition. Returns the joined last node and the exits:
        (condition, last node, terminator, what its operands carry)."""
        g = self.g
        if not region.blocks:
            return cur, []
        block = region.blocks[0]
        if not _branches(region):
            cur, _ = self.thread(block, cur, tid, depth)
            term = block.ops[-1] if block.ops else None
            if term is None:
                return cur, []
            return cur, [(g.cond, cur, term, self.snap(term.operands))]
        return self.cf_region(region, cur, tid, depth)

    def cf_region(
        self, region: Region, cur: int | None, tid: int, depth: int
    ) -> tuple[int | None, list[tuple[int, int | None, Operation, list[_Snap]]]]:
        g, sym = self.g, self.sym
        states = block_states(region, self.unroll)
        if states is None:
            self.unsupported(region.parent or g.func, f"more than {MAX_CF_STATES} block states in one region")
            return cur, []
        start, order, succs, limit = states.start, states.order, states.succs, states.limit
        parent, ctx0, mult0 = g.cond, g.ctx, self.mult
        # Per state: incoming (condition, last node, snaps for the block arguments, paths).
        into: dict[tuple, list[tuple[int, int | None, list[_Snap] | None, int, _Tables]]] = {
            start: [(parent, cur, None, 1, self.tables())]
        }
        exits: list[tuple[int, int | None, Operation, list[_Snap]]] = []
        total = 0
        leaving: list[tuple[int, _Tables]] = []
        owner = region.parent
        region_key = (
            g.canon(owner) if owner is not None else None,
            next((i for i, r in enumerate(owner.regions) if r is region), 0) if owner else 0,
        )
        for st in order:
            ins = into.get(st, [])
            if not ins:
                continue
            bi, visits = st
            block = region.blocks[bi]
            g.cond = sym.disj([i[0] for i in ins])
            g.ctx = (*ctx0, ("cf", *region_key, bi, visits))
            if any(v > 1 for _, v in visits):
                g.bounded = True
                g.loops.add("cf")
            ways = sum(i[3] for i in ins)
            # Values bound on the way in differ per path (a block run in
            # several states): each state starts from its predecessors'
            # bindings, merged under their conditions.
            self.merge_tables([(i[0], i[4]) for i in ins], tid)
            node = self.join([(i[0], i[1]) for i in ins], tid)
            if st != start:
                self.join_bind(block.args, [(i[0], i[2]) for i in ins], tid)
            self.mult = 1
            node, _ = self.thread(block, node, tid, depth)
            ways *= self.mult
            term = block.ops[-1] if block.ops else None
            if term is None or term.name not in registry.BRANCH_OPS:
                if term is not None and term.successors:
                    self.unsupported(term, f"'{term.name}' op branches in a way the model cannot follow")
                    continue
                if term is not None:
                    exits.append((g.cond, node, term, self.snap(term.operands)))
                    leaving.append((g.cond, self.tables()))
                total += ways
                continue
            jump = registry.jump_kind(term.name)
            if jump == "always":
                outs = [(g.cond, succs[st][0], term.operands)]
            elif jump == "cases":
                d = self.decide_at(term, term.name, len(term.successors))
                if d is None:
                    continue
                passed = registry.switch_successor_operands(term)
                outs = [
                    (sym.conj(g.cond, sym.option(d, k)), succs[st][k], passed[k]) for k in range(len(term.successors))
                ]
            else:
                d = self.decide_at(term, term.name, 2)
                if d is None:
                    continue
                sizes = term.properties.get("operandSegmentSizes")
                n_true = sizes.ints[1] if isinstance(sizes, DenseArrayAttr) else 0
                outs = [
                    (sym.conj(g.cond, sym.option(d, 0)), succs[st][0], term.operands[1 : 1 + n_true]),
                    (sym.conj(g.cond, sym.option(d, 1)), succs[st][1], term.operands[1 + n_true :]),
                ]
            for c, s2, operands in outs:
                if max((v for _, v in s2[1]), default=0) > limit:
                    # A block entered again: bounded, as the path says
                    # on the truncated path too.
                    g.bounded = True
                    g.loops.add("cf")
                    g.excluded.append(c)
                    total += ways
                    continue
                into.setdefault(s2, []).append((c, node, self.snap(operands), ways, self.tables()))
        g.cond, g.ctx = parent, ctx0
        self.mult = mult0 * max(total, 1)
        if leaving:
            self.merge_tables(leaving, tid)
        return self.join([(c, n) for c, n, _, _ in exits], tid), exits

    def control(self, op: Operation, cur: int | None, tid: int, depth: int) -> int | None:
        if op in self.summarised:
            return self.summary_point(op, cur, tid)
        flow = registry.region_flow(op.name)
        if flow in ("then_else", "cases"):
            return self.scf_if(op, cur, tid, depth)
        if flow == "once":
            cur, exits = self.gregion(op.regions[0], cur, tid, depth)
            self.join_bind(op.results, [(c, s) for c, _, _, s in exits], tid)
            return cur
        if flow == "counted":
            return self.scf_for(op, cur, tid, depth)
        if flow == "while":
            return self.scf_while(op, cur, tid, depth)
        if flow == "parallel":
            return self.guarded_parallel(op, cur, tid, depth)
        return super().control(op, cur, tid, depth)

    def guarded_parallel(self, op: Operation, cur: int | None, tid: int, depth: int) -> int | None:
        """`events._Builder.scf_parallel` on all paths: iteration j is a
        thread that exists under "iteration j runs"; the op's end is reached
        from each iteration's last point under that condition."""
        g, sym = self.g, self.sym
        if op.results or len(op.regions[0].blocks) != 1:
            self.unsupported(op, "'scf.parallel' with reductions or several blocks is not modelled")
            return cur
        d = self._loop_decision(op)
        if d is None:
            return cur
        parent, ctx0, mult0 = g.cond, g.ctx, self.mult
        ends: list[tuple[int, int]] = []
        total, prod = 1, 1
        for j in range(1, self.unroll + 1):
            g.cond = sym.conj(parent, sym.cond(("runs", d, j)))
            g.ctx = (*ctx0, ("iter", g.canon(op), j))
            self.mult = 1
            ends.append((g.cond, self.iteration_thread(op, cur, depth)))
            prod *= self.mult
            total += prod
        g.cond, g.ctx = parent, ctx0
        self.mult = mult0 * total
        if not ends:
            return cur
        # The op's end point exists where an iteration ran (with none, the
        # thread goes on from `cur`, as on the path of 0 iterations).
        g.cond = sym.conj(parent, sym.cond(("runs", d, 1)))
        done = self.parallel_end(op, cur, tid, ends)
        g.cond = parent
        return self.join(
            [(sym.conj(parent, sym.option(d, 0)), cur), (sym.conj(parent, sym.cond(("runs", d, 1))), done)], tid
        )

    def scf_if(self, op: Operation, cur: int | None, tid: int, depth: int) -> int | None:
        """`scf.if`/`affine.if` (then, else: an empty else region runs
        nothing) and `scf.index_switch` (its default region, then one per
        case): one decision with an option per region."""
        g, sym = self.g, self.sym
        options = len(op.regions) if registry.region_flow(op.name) == "cases" else 2
        d = self.decide_at(op, op.name, options)
        if d is None:
            return cur
        # A decision met before (the same condition): every path takes the
        # branch it took there, so the branches do not add paths.
        shared = any(m == d for m, _ in g.met[:-1])
        parent, mult0 = g.cond, self.mult
        ends: list[tuple[int, int | None]] = []
        alts: list[tuple[int, list[_Snap] | None]] = []
        total = 0
        for c in range(options):
            g.cond = sym.conj(parent, sym.option(d, c))
            self.mult = 1
            if c < len(op.regions) and op.regions[c].blocks:
                end, exits = self.gregion(op.regions[c], cur, tid, depth)
                ends.extend((cc, n) for cc, n, _, _ in exits)
                alts.extend((cc, s) for cc, _, _, s in exits)
            else:
                ends.append((g.cond, cur))
                alts.append((g.cond, None))
            total = max(total, self.mult) if shared else total + self.mult
        g.cond = parent
        self.mult = mult0 * total
        self.join_bind(op.results, alts, tid)
        return self.join(ends, tid)

    def select(self, op: Operation, tid: int) -> None:
        g, sym = self.g, self.sym
        d = self.decide_at(op, op.name, 2)
        if d is None:
            return
        if not any(m == d for m, _ in g.met[:-1]):
            self.mult *= 2
        alts = [(sym.conj(g.cond, sym.option(d, c)), self.snap([op.operands[1 + c]])) for c in (0, 1)]
        self.join_bind(op.results, alts, tid)

    def _loop_decision(self, op: Operation) -> int | None:
        self.g.bounded = True
        self.g.loops.add(op.name)
        return self.decide_at(op, op.name, self.unroll + 1)

    def scf_for(self, op: Operation, cur: int | None, tid: int, depth: int) -> int | None:
        g, sym = self.g, self.sym
        d = self._loop_decision(op)
        if d is None:
            return cur
        region = op.regions[0]
        if len(region.blocks) != 1:
            self.unsupported(region.parent or g.func, "'scf.for' body with several blocks is not modelled")
            return cur
        block = region.blocks[0]
        parent, ctx0, mult0 = g.cond, g.ctx, self.mult
        trips = constant_trip_count(op)
        if trips is not None:
            # The loop runs `trips` times on every path: the other trip
            # counts (up to the bound) are no path of the function.
            keep = min(trips, self.unroll)
            g.excluded.extend(sym.conj(parent, sym.option(d, j)) for j in range(self.unroll + 1) if j != keep)
        carried = self.snap(registry.loop_init_operands(op))
        leave: list[tuple[int, int | None, list[_Snap] | None]] = [(sym.conj(parent, sym.option(d, 0)), cur, carried)]
        total, prod = 1, 1
        for j in range(1, self.unroll + 1):
            g.cond = sym.conj(parent, sym.cond(("runs", d, j)))
            g.ctx = (*ctx0, ("iter", g.canon(op), j))
            first = len(g.kinds)
            self.join_bind(block.args[1:], [(g.cond, carried)], tid)
            self.mult = 1
            cur, _ = self.thread(block, cur, tid, depth)
            term = block.ops[-1] if block.ops else None
            carried = self.snap(term.operands) if term is not None else []
            end = g.node("iter-end", op, tid)
            if cur is not None:
                g.edge(cur, end)
            cur = end
            g.iterations.append((op, first, end))
            prod *= self.mult
            total += prod
            leave.append((sym.conj(parent, sym.option(d, j)), end, carried))
        g.cond, g.ctx = parent, ctx0
        self.mult = mult0 * total
        self.join_bind(op.results, [(c, s) for c, _, s in leave], tid)
        return self.join([(c, n) for c, n, _ in leave], tid)

    def scf_while(self, op: Operation, cur: int | None, tid: int, depth: int) -> int | None:
        g, sym = self.g, self.sym
        d = self._loop_decision(op)
        if d is None:
            return cur
        before, after = op.regions[0], op.regions[1]
        parent, ctx0, mult0 = g.cond, g.ctx, self.mult
        leave: list[tuple[int, int | None, list[_Snap] | None]] = []
        entry: list[tuple[int, list[_Snap] | None]] = [(parent, self.snap(op.operands))]
        total, prod = 0, 1
        for j in range(0, self.unroll + 1):
            if j > 0:
                g.cond = sym.conj(parent, sym.cond(("runs", d, j)))
                g.ctx = (*ctx0, ("after", g.canon(op), j))
                if not after.blocks:
                    break
                passed = entry
                self.join_bind(after.blocks[0].args, passed, tid)
                self.mult = 1
                cur, exits = self.gregion(after, cur, tid, depth)
                prod *= self.mult
                entry = [(c, s) for c, _, _, s in exits]
            g.ctx = (*ctx0, ("before", g.canon(op), j))
            if not before.blocks:
                break
            self.join_bind(before.blocks[0].args, entry, tid)
            self.mult = 1
            cur, exits = self.gregion(before, cur, tid, depth)
            prod *= self.mult
            total += prod
            # The `scf.condition` passes its operands after the flag on to
            # the results (leaving) or to the after region (another trip).
            entry = [(c, s[1:]) for c, _, _, s in exits]
            stay = sym.option(d, j)
            leave.extend((sym.conj(c, stay), n, s[1:]) for c, n, _, s in exits)
        g.cond, g.ctx = parent, ctx0
        self.mult = mult0 * max(total, 1)
        self.join_bind(op.results, [(c, s) for c, _, s in leave], tid)
        return self.join([(c, n) for c, n, _ in leave], tid)


def _index(items: list, item: object) -> int:
    return next(i for i, x in enumerate(items) if x is item)


def constant_trip_count(op: Operation) -> int | None:
    """How many times an `scf.for` whose bounds and step are constants runs
    (None for any other loop, or a step that is not positive)."""
    bounds = registry.loop_bound_operands(op)
    if bounds is None:
        return None
    lb, ub, step = (constant_int(v) for v in bounds)
    if lb is None or ub is None or step is None or step <= 0:
        return None
    return max(0, -(-(ub - lb) // step))


def enclosing_blocks_of(block: Block) -> list[Block]:
    """The blocks around `block`'s region's op, innermost first."""
    region = block.parent
    owner = region.parent if region is not None else None
    return enclosing_blocks(owner) if owner is not None else []


def _branches(region: Region) -> bool:
    """`region` (not empty) is followed block by block (`cf_region`): it has
    several blocks, or its one block ends in a branch."""
    block = region.blocks[0]
    return len(region.blocks) > 1 or bool(block.ops and block.ops[-1].successors)


def build_guarded(
    func: Operation,
    sym: Symbols,
    canon: Callable[[Operation], Operation | None] | None = None,
    unroll: int = DEFAULT_UNROLL,
    summarised: Mapping[Operation, bool] | None = None,
) -> GuardedGraph:
    """The guarded graph of `func`. Build the input first with `canon` None
    (its decisions are made); then the output with `canon` mapping its ops
    onto the input's (its decisions are looked up: one the input lacks sets
    `GuardedGraph.mismatch`). `summarised`: region ops made single points
    (`_GuardedBuilder.summary_point`)."""
    b = _GuardedBuilder(func, sym, canon or same_op, unroll, canon is None, summarised)
    g = b.g
    g.thread_ops.append(None)
    if not func.regions or not func.regions[0].blocks:
        return g
    start = g.node("point", func, 0)
    b.incoming(func)
    last, exits = b.gregion(func.regions[0], start, 0, 0)
    if exits:
        b.program_end(func, last)
    g.path_count = b.mult
    return g


@dataclass
class RegionGraph:
    """One run of a region on its own (`build_region`)."""

    g: GuardedGraph
    exit: int
    """The point after the region's terminator: where its op goes on."""
    completions: list[tuple[int, int]]
    """(condition, end) of every `async.execute` body begun in the region."""


def build_region(
    func: Operation,
    owner: Operation,
    region: Region,
    sym: Symbols,
    canon: Callable[[Operation], Operation | None] | None = None,
    unroll: int = DEFAULT_UNROLL,
    summarised: Mapping[Operation, bool] | None = None,
) -> RegionGraph:
    """The guarded graph of one run of `region` of `owner` (in function
    `func`), from a point where nothing is pending to the point after its
    terminator: one iteration of a loop body, one branch of an `scf.if`.
    For a region op no token crosses the boundary of (`verifier/proof/compose.py`
    checks that), what happens inside depends on nothing outside but the
    host thread reaching it. Input first, as with `build_guarded`."""
    return _build_run(func, owner, sym, canon, unroll, summarised, lambda b, start: b.gregion(region, start, 0, 0)[0])


def build_block(
    func: Operation,
    block: Block,
    sym: Symbols,
    canon: Callable[[Operation], Operation | None] | None = None,
    unroll: int = DEFAULT_UNROLL,
    summarised: Mapping[Operation, bool] | None = None,
) -> RegionGraph:
    """The guarded graph of one run of `block`, a block of `func`'s body,
    from its entry to the point after its terminator (where a branch goes
    on to a successor: the branch itself decides nothing here). For a body
    no token crosses the blocks of (`verifier/proof/compose.py` checks that), what
    a block does depends on nothing outside but the host thread reaching
    it. Input first, as with `build_guarded`."""
    return _build_run(func, func, sym, canon, unroll, summarised, lambda b, start: b.thread(block, start, 0, 0)[0])


def _build_run(
    func: Operation,
    owner: Operation,
    sym: Symbols,
    canon: Callable[[Operation], Operation | None] | None,
    unroll: int,
    summarised: Mapping[Operation, bool] | None,
    walk: Callable[[_GuardedBuilder, int], int | None],
) -> RegionGraph:
    """One run on its own: a point of `owner`, what `walk` builds from it
    on the host thread, and a last point after it (`build_region`,
    `build_block`)."""
    b = _GuardedBuilder(func, sym, canon or same_op, unroll, canon is None, summarised)
    g = b.g
    g.thread_ops.append(None)
    start = g.node("point", owner, 0)
    last = walk(b, start)
    end = g.node("point", owner, 0)
    g.edge(last if last is not None else start, end)
    g.path_count = b.mult
    return RegionGraph(g, end, b.completions)
