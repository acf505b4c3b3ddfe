"""The Z3 oracle: each obligation proved on the output's happens-before graph.

Encoding (integer difference logic; Z3's Bellman-Ford solver, see
`solver.Logic.DIFFERENCE`): one Int per
node of the graph (a point of a thread, or a GPU op's issue, start or
finish), one constraint `t(u) <= t(v)` per edge. An obligation "`a` ends
before `b` starts" is violated iff the constraints admit
`t(start(b)) < t(end(a))`; `unsat` proves it for every schedule, `sat` gives
a schedule (the model), `unknown` stays unknown.

Z3 gets only a slice per obligation, taken from the graph: the nodes
reachable from `end(a)` that also reach `start(b)`, with the edges among
them (a path between the endpoints lies wholly in that slice, so the answer
is the same as on the whole graph); in a group, with its chain nodes
eliminated (`Prover.reduced_slice`: an exact elimination, the same answer)
and renamed in node order: the obligation's `Query`. Obligations that end
at one node from far before it (GPU work that must be over by a function's
end) take their slices from one reduction of what reaches that node, made
once (`Prover.prepare`), not from the graph each. Equal queries are the
same formula up to renaming, so each distinct one is asked once. One solver
serves every obligation of a function, with push/pop around each
(`Prover.prove_all` asks them in groups: one query per group, handed to
Z3's SMT-LIB parser as text over constants made once per context,
`_Constants`). This stays linear on large inputs,
where asserting the whole graph once is superlinear and one disjunction of
all violations does not finish (docs/design.md section 5).

When a violation is found, the schedule comes from a second query on the
window of nodes between the two endpoints in program order (every node, not
just the slice), so the model places the events around the race too. On
straight-line code any model of that window extends to the whole graph
(nodes before it early, nodes after it late), so the schedule is real.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, Protocol

import z3

from spec.semantics.events import EventGraph
from verifier.output.progress import DISABLED, Progress
from verifier.smt.solver import (
    DEFAULT_SEED,
    DEFAULT_TIMEOUT_MS,
    Logic,
    ObligationResult,
    ProvedQueries,
    SolverSettings,
    Status,
    new_solver,
)

__all__ = ["DEFAULT_SEED", "DEFAULT_TIMEOUT_MS", "IN_TURN", "ObligationResult", "Prover", "Query", "Share"]
DEFAULT_BATCH = 64
"""Obligations asked per Z3 query (see `Prover.prove_all`)."""
RENEW_AFTER = 4096
"""Slice copies asked of one solver before it is replaced by a fresh one."""
FAR = 256
"""An obligation whose endpoints are more than this many nodes apart (on a
forward-only graph) may take its slice from its end's shared reduction
(`Prover.prepare`)."""
SHARED_END = 4
"""Far obligations ending at one node before their slices share a reduction."""
WINDOW_MARGIN = 4
"""Nodes taken before and after the endpoints for a counterexample schedule."""
MAX_SCHEDULE = 40
"""At most this many points are listed in a counterexample schedule."""
INITIAL_CONSTANTS = 64
"""Constants a `_Constants` pool starts with; a group that needs more grows
it (equal queries are asked once, so a long function needs a few dozen:
making 1,024 up front cost 0.03 s)."""


class Share(Protocol):
    """How `Prover.prove_all` shares out its two long steps: making each
    obligation's `Query`, and asking Z3 about groups of them. `IN_TURN` does
    both here, in order; `verifier.proof.second_process.Sharing` gives part
    of each to a second process. Either way the answers are the same."""

    def queries(self, prover: Prover, pairs: list[tuple[int, int]]) -> list[Query]:
        """`prover.query` of each pair, in order."""
        ...

    def proved(self, prover: Prover, groups: list[list[Query]]) -> set[Query]:
        """The queries of `groups` that Z3 proves (`Prover.proved_in_turn`)."""
        ...


class _InTurn:
    """Every step in this process, in order."""

    def queries(self, prover: Prover, pairs: list[tuple[int, int]]) -> list[Query]:
        return [prover.query(src, dst) for src, dst in pairs]

    def proved(self, prover: Prover, groups: list[list[Query]]) -> set[Query]:
        return prover.proved_in_turn(groups)


IN_TURN: Share = _InTurn()
"""`Prover.prove_all`'s default: nothing shared out."""


class Prover:
    """One Z3 solver for the obligations of one function."""

    def __init__(
        self,
        g: EventGraph,
        settings: SolverSettings | None = None,
        proved: ProvedQueries | None = None,
        *,
        share: Share = IN_TURN,
        progress: Progress = DISABLED,
    ) -> None:
        self.g = g
        self.settings = settings or SolverSettings()
        self.proved = proved
        """Queries proved before in this check (`ProvedQueries`), read and
        added to by `prove_all`; None: none shared."""
        self.share = share
        """How `prove_all` shares out its work (`Share`)."""
        self.progress = progress
        """Where the groups asked are counted (a terminal's status line)."""
        self.ctx: z3.Context | None = None
        """The Z3 context of the solvers here: None, Z3's main one, except
        after `start_afresh`."""
        self._solver: z3.Solver | None = None
        self.vars: dict[int, z3.ArithRef] = {}
        self._preds: list[list[int]] | None = None
        self.checks = 0
        self.copies = 0
        """Slices copied by `_group_proved` since the solver was made (`RENEW_AFTER`)."""
        self.helper_cpu = 0.0
        """CPU seconds another process spent on this prover's groups
        (added by its `Share`)."""
        self.constants: _Constants | None = None
        """The constants `_group_proved` names its slices' nodes with (in `ctx`)."""
        self._toward: dict[int, _Toward] = {}
        """Per end node, the graph reduced once for the obligations that
        end there from far before it (`prepare`)."""

    @property
    def solver(self) -> z3.Solver:
        """The solver of this prover's queries, made when first asked: most
        provers of a small function (a region run each) find every query
        proved before (`proved`) and ask Z3 nothing."""
        if self._solver is None:
            self._solver = self._new_solver()
        return self._solver

    @solver.setter
    def solver(self, solver: z3.Solver) -> None:
        self._solver = solver

    def _new_solver(self, ctx: z3.Context | None = None) -> z3.Solver:
        return new_solver(self.settings, Logic.DIFFERENCE, ctx or self.ctx)

    def var(self, n: int) -> z3.ArithRef:
        v = self.vars.get(n)
        if v is None:
            v = self.vars[n] = z3.Int(f"t{n}")
        return v

    def preds(self) -> list[list[int]]:
        if self._preds is None:
            self._preds = self.g.preds()
        return self._preds

    def slice_between(self, src: int, dst: int) -> set[int]:
        """Nodes on some path from `src` to `dst` (both included)."""
        g = self.g
        succ = g.succ
        hi = dst if g.forward_only else len(succ) - 1
        lo = src if g.forward_only else 0
        fwd = {src}
        stack = [src]
        while stack:
            n = stack.pop()
            for m in succ[n]:
                if m <= hi and m not in fwd:
                    fwd.add(m)
                    stack.append(m)
        if dst not in fwd:
            return {src, dst}
        if g.forward_only:
            # Every edge goes to a higher node, so a node of `fwd` reaches
            # `dst` iff one of its successors does (those beyond `dst`
            # cannot, those up to it are in `fwd`): decided from the highest
            # node down, with no predecessor lists (a list per node of the
            # whole graph: 1M of them at 100k GPU ops).
            both = {dst}
            for n in sorted(fwd, reverse=True):
                if n < dst and not both.isdisjoint(succ[n]):
                    both.add(n)
            return both
        preds = self.preds()
        both = {dst}
        stack = [dst]
        while stack:
            n = stack.pop()
            for m in preds[n]:
                if m >= lo and m in fwd and m not in both:
                    both.add(m)
                    stack.append(m)
        return both

    def reduced_slice(self, src: int, dst: int) -> tuple[list[int], set[tuple[int, int]]]:
        """The slice between `src` and `dst` (`slice_between`) with every
        node but the endpoints that has one predecessor or one successor in
        it eliminated, repeatedly: its nodes and edges. A node `x` with one
        predecessor `u` occurs in `t(u) <= t(x)` and in `t(x) <= t(w)` for
        each successor `w`, and `exists x` of those is `t(u) <= t(w)` for
        each `w` (Fourier-Motzkin: one lower bound, so no more constraints
        than before); one successor likewise. So the constraints have a
        model with `t(dst) < t(src)` exactly when the slice's do: Z3's
        answer is the same, for fewer atoms. A chain becomes one edge, and a
        series-parallel slice (a GPU op to the function's end across
        branches and region summaries) a single edge; parallel edges are one
        (a set)."""
        shared = self._toward.get(dst)
        if shared is not None and src in shared.ends:
            return shared.reduced_slice(src)
        nodes = self.slice_between(src, dst)
        succ = self.g.succ
        if len(nodes) == 2:
            # The endpoints alone (a dependency edge, or no path at all).
            return [src, dst], {(src, dst)} if dst in succ[src] else set()
        out: dict[int, set[int]] = {u: {v for v in succ[u] if v in nodes and v != u} for u in nodes}
        return _eliminate(out, {src, dst})

    def prepare(self, pairs: list[tuple[int, int]]) -> None:
        """Get ready to make the queries of `pairs`: where at least
        `SHARED_END` obligations of a forward-only graph end at one node
        `dst` from more than `FAR` nodes before it (GPU work that must be
        complete at a function's end, across the whole function), the part
        of the graph that reaches `dst` is reduced once for all of them
        (`_Toward`), and each of their slices is then taken from that
        reduction instead of from the graph: the cost of those obligations
        is one pass over the function, not one each."""
        g = self.g
        if not g.forward_only:
            return
        far: dict[int, list[int]] = {}
        for src, dst in pairs:
            if dst - src > FAR:
                far.setdefault(dst, []).append(src)
        for dst, srcs in far.items():
            if len(srcs) >= SHARED_END and dst not in self._toward:
                self._toward[dst] = _Toward(g.succ, dst, srcs)

    def window(self, src: int, dst: int) -> set[int]:
        g = self.g
        if not g.forward_only:
            return set(range(len(g.succ)))
        lo = max(min(src, dst) - WINDOW_MARGIN, 0)
        return set(range(lo, min(max(src, dst) + WINDOW_MARGIN, len(g.succ) - 1) + 1))

    def _constraints(
        self, nodes: set[int], var: Callable[[int], z3.ArithRef] | None = None, gap: int = 0
    ) -> list[z3.BoolRef]:
        """One constraint per edge among `nodes`: `t(v) >= t(u) + gap`, with
        `var` giving `t` (default: this solver's variables), in node order."""
        t = var or self.var
        succ = self.g.succ
        out = []
        for u in sorted(nodes):
            tu = t(u) + gap if gap else t(u)
            for v in succ[u]:
                if v in nodes:
                    out.append(t(v) >= tu)
        return out

    def prove(self, src: int, dst: int) -> ObligationResult:
        """Is `t(src) <= t(dst)` in every schedule?"""
        s = self.solver
        nodes = self.slice_between(src, dst)
        s.push()
        try:
            cs = self._constraints(nodes)
            cs.append(self.var(dst) < self.var(src))
            s.add(*cs)
            self.checks += 1
            r = s.check()
        finally:
            s.pop()
        if r == z3.unsat:
            return ObligationResult(Status.VERIFIED, slice_size=len(nodes))
        if r == z3.unknown:
            return ObligationResult(Status.UNKNOWN, reason=f"Z3: {s.reason_unknown()}", slice_size=len(nodes))
        return self.counterexample(src, dst, len(nodes))

    def query(self, src: int, dst: int) -> Query:
        """The query `_group_proved` asks for "`t(src) <= t(dst)`": the
        reduced slice (`reduced_slice`) with its nodes renamed 0, 1, ... in
        node order. Two obligations with equal queries ask Z3 the same
        formula up to the names of its unknowns, so one answer serves both
        (`prove_all`). On long straight-line code nearly every query is one
        of a few shapes (at 10k GPU ops 12,236 of 16,514 are one edge
        `src -> dst`, and 4,278 are one node between them)."""
        nodes, edges = self.reduced_slice(src, dst)
        if len(nodes) == 2:
            # The endpoints alone (most queries): renamed in node order,
            # the lower one is 0. Its edges may be any of the four (a
            # cycle through eliminated nodes leaves a back edge or a loop).
            hi = max(src, dst)
            return Query(
                2, int(src == hi), int(dst == hi), tuple(sorted((int(u == hi), int(v == hi)) for u, v in edges))
            )
        order = sorted(nodes)
        index = {n: i for i, n in enumerate(order)}
        return Query(len(order), index[src], index[dst], tuple(sorted((index[u], index[v]) for u, v in edges)))

    def prove_all(self, pairs: list[tuple[int, int]], batch: int = 0) -> list[ObligationResult]:
        """`prove` for many obligations. Each obligation becomes its `query`
        and each distinct query is asked once; the distinct ones are asked
        in groups of `batch` at once: the disjunction of their violations
        over independent copies of their slices (`_group_proved`); `unsat`
        proves every query of the group (each slice is exact, and a query
        is its obligation's slice renamed). A group that is not proved is
        split in halves down to single queries; a single query not proved
        is asked again, for each of its obligations, exactly as `prove`
        asks it (its own counterexample), so the answers never differ from
        one `prove` per obligation. Batching divides the solver's per-query
        overhead, which dominates on long straight-line functions.
        (Measured: gluing the copies into one chain to avoid the
        disjunction is slower: Z3's difference-logic solver grows with the
        variables of the query.)

        The queries are made, and the groups asked, as `share` says (`Share`):
        all here by default; whoever does part of them, the outcomes are the
        same."""
        batch = batch or DEFAULT_BATCH
        self.prepare(pairs)
        keys, every = self.queries(pairs)
        memo = self.proved
        known = {q for q in every if q in memo} if memo is not None else set()
        distinct = [q for q in every if q not in known]
        proved_queries = self.share.proved(self, _groups(distinct, batch))
        if memo is not None:
            memo.add_all(proved_queries)
        proved_queries |= known
        verified = ObligationResult(Status.VERIFIED)
        # One shared outcome for the proved (read, never changed: an outcome
        # per obligation would be 170k objects at 100k GPU ops); the others
        # asked one by one, each for its own schedule.
        return [verified if q in proved_queries else self.prove(*pair) for pair, q in zip(pairs, keys, strict=True)]

    def queries(self, pairs: list[tuple[int, int]]) -> tuple[list[Query], list[Query]]:
        """Each obligation's `query` (equal ones are one object: at 100k GPU
        ops 166,259 obligations hold 2 distinct queries), and the distinct
        ones in the order they first occur; made as `share` says."""
        first: dict[Query, Query] = {}
        keys = [first.setdefault(q, q) for q in self.share.queries(self, pairs)]
        return keys, list(first)

    def proved_in_turn(self, groups: list[list[Query]], which: range | None = None) -> set[Query]:
        """The queries of `groups` (those at the indices `which`; default:
        all) that Z3 proves, asked here one group after another (each whole,
        or its halves: `proved_queries`), counted on `progress`."""
        out: set[Query] = set()
        for i in which if which is not None else range(len(groups)):
            out.update(self.proved_queries(groups[i]))
            self.progress.count(i + 1, len(groups), "Z3 groups")
        return out

    def start_afresh(self) -> None:
        """A Z3 context and solver of their own from here on, and the counts
        of queries and copies from zero: nothing of the solver state so far
        is shared (what a second process asking part of the groups does
        first: `verifier.proof.second_process`)."""
        self.ctx = z3.Context()
        self.solver = self._new_solver()
        self.constants = None
        self.copies = self.checks = 0

    def groups_proved(self, groups: list[list[Query]]) -> list[bool]:
        """For each group, whether Z3 proves it whole (`_group_proved`)."""
        return [self._group_proved(g) for g in groups]

    def proved_queries(self, group: list[Query]) -> list[Query]:
        """The queries of `group` that Z3 proves: the whole group at once,
        or its halves, down to single queries."""
        if self._group_proved(group):
            return group
        if len(group) == 1:
            return []
        half = len(group) // 2
        return self.proved_queries(group[:half]) + self.proved_queries(group[half:])

    def _group_proved(self, group: list[Query]) -> bool:
        # Each query gets its own copy of its slice's variables: the
        # copies are independent problems, so refuting one disjunct never
        # walks the constraints of the others (with shared variables the
        # union is one long chain and each conflict costs time in the size
        # of the batch). The same encoding as `prove`, handed to Z3's
        # SMT-LIB parser as the text of one assertion over integer
        # constants made once (`_Constants`): building Z3 terms one by one
        # through the Python API costs more than solving, and declaring the
        # constants in the text cost as much as the rest of it.
        if self.copies >= RENEW_AFTER:
            # A fresh solver (same settings) now and then: what a solver
            # keeps across push/pop stays bounded.
            self.solver = self._new_solver()
            self.copies = 0
        s = self.solver
        consts = self.constants
        if consts is None:
            consts = self.constants = _pool(self.ctx)
        need = sum(q.nodes for q in group)
        if need > len(consts.names):
            consts.grow(need)
        names = consts.names
        parts: list[str] = ["(assert (and true"]
        viol: list[str] = []
        k = 0
        for q in group:
            # This copy's constants: the next `q.nodes` ones of the pool.
            parts.extend(f"(<= {names[k + u]} {names[k + v]})" for u, v in q.edges)
            viol.append(f"(< {names[k + q.dst]} {names[k + q.src]})")
            k += q.nodes
        self.copies += len(group)
        parts.append("(or " + " ".join(viol) + ")))")
        formulas = consts.parse(" ".join(parts))
        s.push()
        try:
            s.add(*formulas)
            self.checks += 1
            return s.check() == z3.unsat
        finally:
            s.pop()

    def counterexample(self, src: int, dst: int, slice_size: int) -> ObligationResult:
        # A context and solver of its own, its variables made in node order:
        # the model Z3 picks then depends only on this window and the seed,
        # not on what was asked before, so the schedule is the same however
        # the obligations were batched or shared out (`prove_all`).
        ctx = z3.Context()
        s = self._new_solver(ctx)
        nodes = self.window(src, dst)
        t = {n: z3.Int(f"t{n}", ctx) for n in sorted(nodes)}
        # Strict edges here only make the schedule readable (distinct times
        # along each chain); on an acyclic graph they admit a model exactly
        # when the non-strict ones do.
        s.add(*self._constraints(nodes, t.__getitem__, gap=1))
        s.add(t[dst] < t[src])
        r = s.check()
        if r != z3.sat:
            # The slice had a model, the window must too; anything else is
            # the solver giving up (or a bug, which the caller reports).
            status = Status.UNKNOWN if r == z3.unknown else Status.INCONSISTENT
            return ObligationResult(status, reason=f"Z3 said {r} on the counterexample window", slice_size=slice_size)
        m = s.model()
        times = {n: m.eval(t[n], model_completion=True).as_long() for n in nodes}
        return ObligationResult(
            Status.REFUTED, schedule=_schedule(self.g, times, src, dst), slice_size=slice_size, times=times
        )


class Query(NamedTuple):
    """One obligation's Z3 query, its nodes renamed `0 .. nodes-1`
    (`Prover.query`): is `t(src) <= t(dst)` under `t(u) <= t(v)` for each
    edge? Equal queries have equal answers."""

    nodes: int
    src: int
    dst: int
    edges: tuple[tuple[int, int], ...]


class _Constants:
    """Integer constants `v0`, `v1`, ... of one Z3 context, declared once to
    a parser context of their own (`z3.ParserContext`) and reused by every
    group: a group's text names the first ones of them (`parse`), so the
    text declares nothing and Z3's parser, made once, only looks names up.
    Between groups the solver is popped, so the same constant in two groups
    is two unrelated unknowns, as fresh names would be."""

    def __init__(self, ctx: z3.Context) -> None:
        self.ctx = ctx
        self.names: list[str] = []
        self._consts: list[z3.ArithRef] = []
        self._parser = z3.ParserContext(ctx)
        self.grow(INITIAL_CONSTANTS)

    def grow(self, n: int) -> None:
        """At least `n` constants (doubling, so a run grows them rarely)."""
        size = max(n, 2 * len(self.names))
        for i in range(len(self.names), size):
            c = z3.Int(f"v{i}", self.ctx)
            self._parser.add_decl(c.decl())
            self._consts.append(c)
            self.names.append(f"v{i}")

    def parse(self, text: str) -> z3.AstVector:
        """The assertions of SMT-LIB `text`, which names constants of `names`."""
        return self._parser.from_string(text)


MAX_GROUP_NODES = 4096
"""Nodes (constants) a group of queries may name in all (`_groups`): the
constants pool grows to the largest group, and making a Z3 constant costs
more than the solver spends on it."""


def _eliminate(out: dict[int, set[int]], keep: set[int]) -> tuple[list[int], set[tuple[int, int]]]:
    """The graph `out` (each node's successors, every one a node of `out`;
    changed in place) with every node not in `keep` that has one
    predecessor or one successor eliminated, repeatedly
    (`Prover.reduced_slice` says why the answer stays the same): the nodes
    left and their edges."""
    into: dict[int, set[int]] = {u: set() for u in out}
    for u, vs in out.items():
        for v in vs:
            into[v].add(u)
    work = [u for u in out if u not in keep]
    while work:
        x = work.pop()
        if x not in out or (len(into[x]) != 1 and len(out[x]) != 1):
            continue
        preds, succs = into.pop(x), out.pop(x)
        for u in preds:
            out[u].discard(x)
        for w in succs:
            into[w].discard(x)
        for u in preds:
            for w in succs:
                # A self-loop `t(u) <= t(u)` holds always: dropped.
                if u != w:
                    out[u].add(w)
                    into[w].add(u)
        work.extend(n for n in (*preds, *succs) if n not in keep)
    kept = list(out)
    return kept, {(u, v) for u in kept for v in out[u]}


class _Toward:
    """The part of a forward-only graph that reaches one node `dst`, from
    the lowest of `ends` on, reduced (`_eliminate`) keeping `dst` and the
    `ends`: the start nodes of obligations that end at `dst`. Elimination
    keeps every path between kept nodes (a path through an eliminated node
    becomes an edge), so the slice of an end in this reduction has the
    same answer as its slice in the graph (`Prover.prepare`); and every
    node here reaches `dst`, so that slice is simply what the end reaches."""

    def __init__(self, succ: list[list[int]], dst: int, ends: list[int]) -> None:
        self.dst = dst
        lo = min(ends)
        # Edges go to higher nodes only: a node reaches `dst` iff one of
        # its successors does, decided from `dst` down.
        reach = {dst}
        for n in range(dst - 1, lo - 1, -1):
            if not reach.isdisjoint(succ[n]):
                reach.add(n)
        self.ends = frozenset(e for e in ends if e in reach)
        out = {u: {v for v in succ[u] if v in reach} for u in reach}
        kept, edges = _eliminate(out, {dst, *self.ends})
        self.succ: dict[int, list[int]] = {u: [] for u in kept}
        for u, v in edges:
            self.succ[u].append(v)

    def reduced_slice(self, src: int) -> tuple[list[int], set[tuple[int, int]]]:
        """`Prover.reduced_slice(src, dst)` from this reduction (`src` one
        of `ends`): the nodes `src` reaches here, reduced again."""
        seen = {src}
        stack = [src]
        while stack:
            for m in self.succ[stack.pop()]:
                if m not in seen:
                    seen.add(m)
                    stack.append(m)
        out = {u: {v for v in self.succ[u] if v in seen} for u in seen}
        return _eliminate(out, {src, self.dst})


def _groups(queries: list[Query], batch: int) -> list[list[Query]]:
    """`queries` in order, cut into groups of at most `batch` queries and
    `MAX_GROUP_NODES` nodes (a query larger than that is a group alone)."""
    groups: list[list[Query]] = []
    cur: list[Query] = []
    nodes = 0
    for q in queries:
        if cur and (len(cur) >= batch or nodes + q.nodes > MAX_GROUP_NODES):
            groups.append(cur)
            cur, nodes = [], 0
        cur.append(q)
        nodes += q.nodes
    if cur:
        groups.append(cur)
    return groups


_MAIN_POOL: list[_Constants] = []
"""The constants of Z3's main context, made once per process and shared by
every `Prover` (a region proved apart is a `Prover` of its own: thousands
in one check). A cache: which constants name a group's nodes never changes
an answer."""


def _pool(ctx: z3.Context | None) -> _Constants:
    if ctx is not None:
        return _Constants(ctx)
    if not _MAIN_POOL:
        _MAIN_POOL.append(_Constants(z3.main_ctx()))
    return _MAIN_POOL[0]


def _schedule(g: EventGraph, times: dict[int, int], src: int, dst: int) -> list[tuple[int, str]]:
    """The model's times, normalised to start at 0, keeping the points that
    make a readable story: the two endpoints and the points nearest them."""
    if not times:
        return []
    base = min(times.values())
    order = sorted(times, key=lambda n: (times[n], n))
    if len(order) > MAX_SCHEDULE:
        keep = {src, dst}
        for anchor in (src, dst):
            i = order.index(anchor)
            keep.update(order[max(0, i - MAX_SCHEDULE // 4) : i + MAX_SCHEDULE // 4])
        order = [n for n in order if n in keep]
    return [(times[n] - base, g.label(n)) for n in order if g.kinds[n] != "extern"]
