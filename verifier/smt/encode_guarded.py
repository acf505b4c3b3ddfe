"""Z3 over every path at once: obligations on guarded graphs.

The input and the output are each one `GuardedGraph`
(`spec/semantics/guarded_graph.py`): the union of the graphs of all paths, every
node and edge guarded by a condition over the decisions (a Bool per two-way
decision occurrence, the flags "iteration j runs" per loop occurrence),
with the output's decisions the input's. An obligation "`a` ends before `b`
starts", taken from the input, must hold on every path where the input
orders them. Its violation is one query, over all paths:

    path constraints                    loop flags monotone, truncated paths excluded
  ∧ the input orders a before b,        r(end a) ∧ r(start b), r(v) ⇒ ∨ (r(u) ∧ guard(u, v)),
    no effectful event between          r(v) false at other events' starts
  ∧ the output's guarded edges          guard(u, v) ⇒ t(u) <= t(v)
  ∧ t(start b') < t(end a')             on the output's copies a', b'

The input's ordering is reachability, encoded positively by Bools `r(v)`
(only paths between the two that pass no other event count, so the pair is
consecutive on the chosen path as `obligations` takes pairs path by path;
the others follow by transitivity):
the input graph is acyclic (node ids grow along every edge but those leaving
a node without predecessors), so `r(start b)` forces a chain of present
edges back to `end a`. The output's ordering is refuted as in `encode.py`:
difference constraints admit `t(b') < t(a')` iff no present path leads from
`a'` to `b'`. `unsat` proves the obligation on every path up to the loop
bound; a model names a path (the decisions) and the checker rebuilds it
concretely for the schedule and the cross-check.

Both sides get only their slice (nodes on some union-graph path between the
endpoints): a path present on one concrete path is a path of the union
graph, so it lies in the slice and the answer is the same as on the whole
graph.

The number of queries is one per obligation plus, per refuted obligation,
a few to choose the path path-by-path enumeration would report first (the
least in its order: decisions in execution order, smallest option first);
it does not depend on the number of paths.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable

import z3

from spec.semantics.conditions import TRUE, Symbols
from spec.semantics.guarded_graph import GuardedGraph
from verifier.proof.budget import UNLIMITED, Budget
from verifier.smt.solver import Logic, ObligationResult, ProvedQueries, SolverSettings, Status, new_solver

MAX_MINIMISE = 64
"""Refuted obligations whose path is made least; later ones keep the model's."""

MAX_ASSIGNMENTS = 64
"""`GuardedProver(assignments=True)`: a query whose decisions have at most
this many assignments is decided by trying each (`_by_assignments`);
larger ones are asked of Z3."""


class GuardedProver:
    """One Z3 solver for the obligations of one function, all paths at once."""

    def __init__(
        self,
        sym: Symbols,
        gin: GuardedGraph,
        gout: GuardedGraph,
        unroll: int,
        settings: SolverSettings,
        budget: Budget = UNLIMITED,
        proofs: ProvedQueries | None = None,
        assignments: bool = False,
    ) -> None:
        self.sym, self.gin, self.gout, self.unroll = sym, gin, gout, unroll
        self.settings = settings
        self.proofs = proofs
        """Guarded queries proved by earlier checks of the same caller, read
        and added to by `prove` (`CheckOptions.proofs`); None: every query
        asked afresh."""
        self.assignments = assignments
        """A query of few decisions is decided without Z3, by trying every
        assignment of its decisions (`_by_assignments`,
        `CheckOptions.assignments`); False: every query not in `proofs` is
        asked of Z3."""
        self.decided = 0
        """Queries decided by `_by_assignments` (not counted in `checks`)."""
        self._atoms: dict[int, frozenset[int] | None] = {}
        self._solver: z3.Solver | None = None
        self.timeout_ms = int(settings.timeout_ms)
        self._timeout_set = self.timeout_ms
        """The solver's timeout now (`new_solver` sets `timeout_ms`)."""
        self.budget = budget
        """The run's budget: each query's timeout is cut to what is left."""
        self.checks = 0
        self.minimised = 0
        self._z: dict[int, z3.BoolRef] = {}
        self._preds: dict[int, list[list[tuple[int, int]]]] = {}
        self._blocked: dict[int, frozenset[int]] = {}
        self._ck: dict[int, tuple[object, ...]] = {}
        self._base_key = (
            tuple((d, dec.options) for d, dec in enumerate(sym.decisions) if dec.on_trip_count or dec.options > 2),
            tuple(self.cond_key(c) for c in gin.excluded),
        )

    @property
    def solver(self) -> z3.Solver:
        """The solver with the path constraints, made at the first query
        that is asked (a function whose every query was proved before asks
        none)."""
        if self._solver is None:
            self._solver = new_solver(self.settings, Logic.GUARDED)
            base: list[z3.BoolRef] = []
            for d, dec in enumerate(self.sym.decisions):
                if dec.on_trip_count:
                    base.extend(z3.Implies(self.runs(d, j), self.runs(d, j - 1)) for j in range(2, dec.options))
                elif dec.options > 2:
                    # One option of a many-way decision (`cf.switch`,
                    # `scf.index_switch`): exactly one of its flags.
                    flags = [self.pick(d, o) for o in range(dec.options)]
                    base.append(z3.Or(*flags))
                    base.extend(z3.Not(z3.And(a, b)) for i, a in enumerate(flags) for b in flags[i + 1 :])
            base.extend(z3.Not(self.z(c)) for c in self.gin.excluded)
            self._solver.add(*base)
        return self._solver

    # -- conditions as Z3 terms --------------------------------------------------

    def runs(self, d: int, j: int) -> z3.BoolRef:
        return z3.Bool(f"d{d}_runs{j}")

    def pick(self, d: int, o: int) -> z3.BoolRef:
        """Many-way decision `d` took option `o` (one flag per option)."""
        return z3.Bool(f"d{d}_is{o}")

    def _many(self, d: int) -> bool:
        dec = self.sym.decisions[d]
        return not dec.on_trip_count and dec.options > 2

    def z(self, c: int) -> z3.BoolRef:
        """The Z3 term of condition `c` (see `Symbols`)."""
        hit = self._z.get(c)
        if hit is not None:
            return hit
        term = self.sym.conds[c]
        kind = term[0]
        if kind == "true":
            out = z3.BoolVal(True)
        elif kind == "opt" and self._many(term[1]):
            out = self.pick(term[1], term[2])
        elif kind == "opt":
            # One Bool per two-way decision: true means the second option.
            b = z3.Bool(f"d{term[1]}")
            out = b if term[2] == 1 else z3.Not(b)
        elif kind == "runs":
            out = self.runs(term[1], term[2])
        elif kind == "and":
            out = z3.And(self.z(term[1]), self.z(term[2]))
        elif kind == "or":
            out = z3.Or(*[self.z(x) for x in term[1]])
        else:
            out = z3.Not(self.z(term[1]))
        self._z[c] = out
        return out

    def cond_key(self, c: int) -> tuple[object, ...]:
        """Condition `c` as a value: the structure `z` turns into a Z3 term,
        with the decisions' numbers (equal keys, equal terms)."""
        hit = self._ck.get(c)
        if hit is not None:
            return hit
        term = self.sym.conds[c]
        kind = term[0]
        if kind == "true":
            out: tuple[object, ...] = ("true",)
        elif kind == "opt":
            out = ("opt", term[1], term[2] if self._many(term[1]) else term[2] == 1)
        elif kind == "runs":
            out = ("runs", term[1], term[2])
        elif kind == "and":
            out = ("and", self.cond_key(term[1]), self.cond_key(term[2]))
        elif kind == "or":
            out = ("or", tuple(self.cond_key(x) for x in term[1]))
        else:
            out = ("not", self.cond_key(term[1]))
        self._ck[c] = out
        return out

    # -- slices --------------------------------------------------------------------

    def preds(self, g: GuardedGraph) -> list[list[tuple[int, int]]]:
        p = self._preds.get(id(g))
        if p is None:
            p = [[] for _ in g.kinds]
            for u, vs in enumerate(g.succ):
                for v, c in zip(vs, g.eguards[u]):
                    p[v].append((u, c))
            self._preds[id(g)] = p
        return p

    def slice_between(self, g: GuardedGraph, src: int, dst: int, blocked: frozenset[int] = frozenset()) -> set[int]:
        """Nodes on some path of the union graph from `src` to `dst`, not
        passing through a `blocked` node."""
        hi = dst if g.forward_but_extern else len(g.succ) - 1
        fwd = {src}
        stack = [src]
        while stack:
            n = stack.pop()
            for m in g.succ[n]:
                if m <= hi and m not in fwd:
                    fwd.add(m)
                    if m not in blocked:
                        stack.append(m)
        if dst not in fwd:
            return set()
        both = {dst}
        stack = [dst]
        preds = self.preds(g)
        while stack:
            n = stack.pop()
            for m, _ in preds[n]:
                if m in fwd and m not in both and (m == src or m not in blocked):
                    both.add(m)
                    stack.append(m)
        return both

    def _starts(self, g: GuardedGraph) -> frozenset[int]:
        hit = self._blocked.get(id(g))
        if hit is None:
            hit = self._blocked[id(g)] = frozenset(ev.start for ev in g.events)
        return hit

    def _guard(self, c: int, then: z3.BoolRef) -> z3.BoolRef:
        return then if c == TRUE else z3.Implies(self.z(c), then)

    def ordered_slice(self, g: GuardedGraph, src: int, dst: int) -> set[int]:
        """The nodes `ordered_constraints` speaks of."""
        return self.slice_between(g, src, dst, self._starts(g))

    def ordered_constraints(
        self, g: GuardedGraph, src: int, dst: int, tag: str, nodes: set[int] | None = None
    ) -> list[z3.BoolRef]:
        """On the chosen path `g` orders `src` before `dst` with no
        effectful event between (reachability through present edges not
        passing an event's start; `g` acyclic): the pair is one of the
        path's consecutive pairs, as `obligations` takes them. `nodes`:
        `ordered_slice`, if already made."""
        if nodes is None:
            nodes = self.ordered_slice(g, src, dst)
        if not nodes:
            return [z3.BoolVal(False)]
        preds = self.preds(g)

        def r(n: int) -> z3.BoolRef:
            return z3.BoolVal(True) if n == src else z3.Bool(f"{tag}{n}")

        out = [r(dst), self.z(g.guards[src])]
        for v in nodes:
            if v == src:
                continue
            ways = [r(u) if c == TRUE else z3.And(r(u), self.z(c)) for u, c in preds[v] if u in nodes]
            out.append(z3.Implies(r(v), z3.Or(*ways)) if ways else z3.Not(r(v)))
        return out

    def unordered_constraints(
        self, g: GuardedGraph, src: int, dst: int, tag: str, nodes: set[int] | None = None
    ) -> list[z3.BoolRef]:
        """`g` leaves `dst` free to happen before `src` on the chosen path.
        `nodes`: `slice_between(g, src, dst)`, if already made."""
        if nodes is None:
            nodes = self.slice_between(g, src, dst)

        def t(n: int) -> z3.ArithRef:
            return z3.Int(f"{tag}{n}")

        out = [t(dst) < t(src)]
        for u in nodes:
            for v, c in zip(g.succ[u], g.eguards[u]):
                if v in nodes:
                    out.append(self._guard(c, t(u) <= t(v)))
        return out

    # -- deciding by assignments ---------------------------------------------------

    def _decisions_of(self, c: int) -> frozenset[int] | None:
        """The decisions condition `c` speaks of; None if one of its atoms
        is not one `_holds` reads as `z` encodes it (an option or a trip
        flag outside the decision's range, an option of a loop, a flag of a
        non-loop: each a free Bool for Z3)."""
        if c in self._atoms:
            return self._atoms[c]
        term = self.sym.conds[c]
        kind = term[0]
        out: frozenset[int] | None
        if kind == "true":
            out = frozenset()
        elif kind in ("opt", "runs"):
            dec = self.sym.decisions[term[1]]
            if kind == "opt":
                ok = not dec.on_trip_count and (not self._many(term[1]) or 0 <= term[2] < dec.options)
            else:
                ok = dec.on_trip_count and 1 <= term[2] < dec.options
            out = frozenset((term[1],)) if ok else None
        else:
            parts = [term[1], term[2]] if kind == "and" else list(term[1]) if kind == "or" else [term[1]]
            found = [self._decisions_of(x) for x in parts]
            out = None if any(f is None for f in found) else frozenset().union(*found)  # type: ignore[arg-type]
        self._atoms[c] = out
        return out

    def _holds(self, c: int, values: dict[int, int], memo: dict[int, bool]) -> bool:
        """Condition `c` under `values` (per decision: its option, for a
        loop its trip count), read as `z` encodes it: a two-way decision is
        one Bool (option 1 true), a many-way one a flag per option, a loop's
        "iteration j runs" true for j up to the trip count."""
        hit = memo.get(c)
        if hit is not None:
            return hit
        term = self.sym.conds[c]
        kind = term[0]
        if kind == "true":
            out = True
        elif kind == "opt":
            v = values[term[1]]
            out = v == term[2] if self._many(term[1]) else (v == 1) == (term[2] == 1)
        elif kind == "runs":
            out = values[term[1]] >= term[2]
        elif kind == "and":
            out = self._holds(term[1], values, memo) and self._holds(term[2], values, memo)
        elif kind == "or":
            out = any(self._holds(x, values, memo) for x in term[1])
        else:
            out = not self._holds(term[1], values, memo)
        memo[c] = out
        return out

    def _by_assignments(self, conds: Iterable[int], violated: Callable[[Callable[[int], bool]], bool]) -> bool | None:
        """A query decided without Z3: True if some assignment of the
        decisions `conds` (and the input's excluded conditions) speak of
        makes `violated` (given how each condition reads under it) true,
        False if none does, None if not tried (`assignments` off, the
        budget spent, an atom `_holds` does not read, more than
        `MAX_ASSIGNMENTS` assignments).

        Exact for the formulas of `prove` and `ordered_everywhere`: the
        base constraints (`solver`) say that a loop's flags are monotone
        (a trip count 0..options-1), a many-way decision takes exactly one
        option and no excluded condition holds; a decision no condition of
        the query speaks of can take any value, and does not change the
        answer. Under one assignment every guard is a constant, and what
        is left is reachability: the input's `r` chain holds iff a present
        path of the slice leads from the first event to the second (the
        input graph is acyclic), and the output's difference constraints
        with `t(b') < t(a')` are satisfiable iff no present path leads from
        `a'` to `b'`. So the formula is satisfiable iff some assignment has
        `violated` true, the answer Z3 gives short of its timeout."""
        if not self.assignments or self.budget.spent():
            # Past the run's budget every query is Z3's, with what is left
            # of it, as on the plain path.
            return None
        decisions: set[int] = set()
        for c in itertools.chain(conds, self.gin.excluded):
            found = self._decisions_of(c)
            if found is None:
                return None
            decisions |= found
        order = sorted(decisions)
        domains = [
            range(self.sym.decisions[d].options if self._many(d) or self.sym.decisions[d].on_trip_count else 2)
            for d in order
        ]
        count = 1
        for dom in domains:
            count *= len(dom)
        if count > MAX_ASSIGNMENTS:
            return None
        self.decided += 1
        excluded = self.gin.excluded
        for combo in itertools.product(*domains):
            values = dict(zip(order, combo, strict=True))
            memo: dict[int, bool] = {}

            def holds(c: int, values: dict[int, int] = values, memo: dict[int, bool] = memo) -> bool:
                return self._holds(c, values, memo)

            if any(holds(c) for c in excluded):
                continue
            if violated(holds):
                return True
        return False

    @staticmethod
    def _reaches(g: GuardedGraph, src: int, dst: int, nodes: set[int], holds: Callable[[int], bool]) -> bool:
        """A path of present edges (`holds` their condition) from `src` to
        `dst` through `nodes` (`src == dst`: the empty path)."""
        if src == dst:
            return True
        seen = {src}
        stack = [src]
        while stack:
            n = stack.pop()
            for m, c in zip(g.succ[n], g.eguards[n]):
                if m in nodes and m not in seen and holds(c):
                    if m == dst:
                        return True
                    seen.add(m)
                    stack.append(m)
        return False

    def _edge_conditions(self, g: GuardedGraph, nodes: set[int]) -> set[int]:
        """The conditions of the edges between `nodes`."""
        return {c for u in nodes for v, c in zip(g.succ[u], g.eguards[u]) if v in nodes}

    # -- queries -------------------------------------------------------------------

    def _check(self, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
        self.checks += 1
        solver = self.solver
        if self.budget.seconds is not None:
            # Set only when the cap changes it: setting a parameter costs
            # Z3 more than a small query (its solver is rebuilt).
            cap = self.budget.cap_ms(self.timeout_ms)
            if cap != self._timeout_set:
                solver.set("timeout", cap)
                self._timeout_set = cap
        return solver.check(*assumptions)

    def prove(self, a_in: int, b_in: int, a_out: int, b_out: int, minimise: bool = True) -> ObligationResult:
        """Is `end a` (node `a_out`) before `start b` (node `b_out`) in the
        output on every path where the input orders `a_in` before `b_in`?"""
        nodes_in = self.ordered_slice(self.gin, a_in, b_in)
        nodes_out = self.slice_between(self.gout, a_out, b_out)
        key = self.query_key(a_in, b_in, nodes_in, a_out, b_out, nodes_out)
        proofs = self.proofs
        if proofs is not None and key in proofs:
            return ObligationResult(Status.VERIFIED)
        if self.assignments and self._violated_somewhere(a_in, b_in, nodes_in, a_out, b_out, nodes_out) is False:
            if proofs is not None:
                proofs.add(key)
            return ObligationResult(Status.VERIFIED)
        s = self.solver
        s.push()
        try:
            s.add(*self.ordered_constraints(self.gin, a_in, b_in, "r", nodes_in))
            s.add(*self.unordered_constraints(self.gout, a_out, b_out, "t", nodes_out))
            r = self._check()
            if r == z3.unsat:
                if proofs is not None:
                    proofs.add(key)
                return ObligationResult(Status.VERIFIED)
            if r == z3.unknown:
                return ObligationResult(Status.UNKNOWN, reason=f"Z3: {s.reason_unknown()}")
            if minimise and self.minimised < MAX_MINIMISE:
                self.minimised += 1
                m = self._least_path(s.model())
                if m is None:
                    return ObligationResult(Status.UNKNOWN, reason=f"Z3: {s.reason_unknown()} (choosing the path)")
            else:
                m = s.model()
            refuted = ObligationResult(
                Status.REFUTED, choices=self.choices(m), active=self.active(m, self.gin), free=self.free(m)
            )
            if self.budget.expired_at is not None:
                # The watchdog's interrupt cancels model evaluation too: a
                # model read after it may name a path that is no path.
                return ObligationResult(
                    Status.UNKNOWN, reason="Z3: canceled (the budget was spent while the model was read)"
                )
            return refuted
        finally:
            s.pop()

    def _violated_somewhere(
        self, a_in: int, b_in: int, nodes_in: set[int], a_out: int, b_out: int, nodes_out: set[int]
    ) -> bool | None:
        """`prove`'s query decided by `_by_assignments`: True if some path
        has the input ordering the pair and the output not, False if none
        has, None if not tried (then Z3 is asked, and a violation is always
        Z3's, with its model and least path)."""
        gin, gout = self.gin, self.gout
        if not nodes_in:
            return False  # the input orders the pair on no path: `ordered_constraints` is False
        if any(v <= u for u in nodes_in for v in gin.succ[u] if v in nodes_in):
            return None  # not acyclic by numbering: leave the `r` chain to Z3
        guard = gin.guards[a_in]
        conds = {guard} | self._edge_conditions(gin, nodes_in) | self._edge_conditions(gout, nodes_out)

        def violated(holds: Callable[[int], bool]) -> bool:
            return (
                holds(guard)
                and self._reaches(gin, a_in, b_in, nodes_in, holds)
                and not self._reaches(gout, a_out, b_out, nodes_out, holds)
            )

        return self._by_assignments(conds, violated)

    def query_key(
        self, a_in: int, b_in: int, nodes_in: set[int], a_out: int, b_out: int, nodes_out: set[int]
    ) -> tuple[object, ...]:
        """`prove`'s query as a value: everything its formula is made of
        (the base constraints, the input's slice with its predecessors and
        guards, the output's slice with its guarded edges), each side's
        nodes numbered in order, so that equal keys are the same formula
        up to the names of the node variables, and have the same answer."""
        gin, gout, ck = self.gin, self.gout, self.cond_key
        if nodes_in:
            ren = {n: k for k, n in enumerate(sorted(nodes_in | {a_in, b_in}))}
            preds = self.preds(gin)
            side_in: tuple[object, ...] = (
                ren[a_in], ren[b_in], ck(gin.guards[a_in]),
                tuple((ren[v], tuple((ren[u], ck(c)) for u, c in preds[v] if u in nodes_in)) for v in sorted(nodes_in) if v != a_in),
            )  # fmt: skip
        else:
            side_in = ("empty",)
        ren = {n: k for k, n in enumerate(sorted(nodes_out | {a_out, b_out}))}
        edges = sorted(
            (ren[u], ren[v], ck(c)) for u in nodes_out for v, c in zip(gout.succ[u], gout.eguards[u]) if v in nodes_out
        )  # fmt: skip
        side_out = (ren[a_out], ren[b_out], tuple(edges))
        return (self._base_key, side_in, side_out)

    def ordered_everywhere(self, g: GuardedGraph, src: int, dst: int) -> bool | None:
        """Does `g` order `src` before `dst` on every path where `src` is?
        (None: Z3 gave up.)"""
        if self.assignments:
            nodes = self.slice_between(g, src, dst)
            guard = g.guards[src]

            def unordered(holds: Callable[[int], bool]) -> bool:
                return holds(guard) and not self._reaches(g, src, dst, nodes, holds)

            found = self._by_assignments({guard} | self._edge_conditions(g, nodes), unordered)
            if found is not None:
                return not found
        s = self.solver
        s.push()
        try:
            s.add(self.z(g.guards[src]), *self.unordered_constraints(g, src, dst, "t"))
            r = self._check()
        finally:
            s.pop()
        return None if r == z3.unknown else r == z3.unsat

    # -- paths from models ---------------------------------------------------------

    def option_of(self, m: z3.ModelRef, d: int) -> int:
        dec = self.sym.decisions[d]
        if dec.on_trip_count:
            n = 0
            while n + 1 < dec.options and z3.is_true(m.eval(self.runs(d, n + 1), model_completion=True)):
                n += 1
            return n
        if self._many(d):
            return next(
                (o for o in range(dec.options) if z3.is_true(m.eval(self.pick(d, o), model_completion=True))), 0
            )
        return 1 if z3.is_true(m.eval(z3.Bool(f"d{d}"), model_completion=True)) else 0

    def option_term(self, d: int, o: int) -> z3.BoolRef:
        return self.z(self.sym.option(d, o))

    def choices(self, m: z3.ModelRef) -> list[int]:
        """The decisions of the model's path, in the order a path
        makes them (the order the input's guarded graph met them)."""
        return [self.option_of(m, d) for d, pc in self.gin.met if z3.is_true(m.eval(self.z(pc), model_completion=True))]

    def free(self, m: z3.ModelRef) -> dict[int, int]:
        """The options of the decisions the output takes alone (`Decision.free`)."""
        return {d: self.option_of(m, d) for d, _ in self.gout.met if self.sym.decisions[d].free}

    def active(self, m: z3.ModelRef, g: GuardedGraph) -> set[int]:
        # Far fewer conditions than nodes: each is evaluated once.
        holds = {c: z3.is_true(m.eval(self.z(c), model_completion=True)) for c in set(g.guards)}
        return {n for n, c in enumerate(g.guards) if holds[c]}

    def _least_path(self, m: z3.ModelRef) -> z3.ModelRef | None:
        """Among the violating paths, the least in enumeration order:
        each decision met on the path, in turn, takes its smallest option
        that still admits a violation."""
        fixed: list[z3.BoolRef] = []
        for d, pc in self.gin.met:
            here = self.z(pc)
            if not z3.is_true(m.eval(here, model_completion=True)):
                fixed.append(z3.Not(here))
                continue
            fixed.append(here)
            best = self.option_of(m, d)
            for o in range(best):
                r = self._check(*fixed, self.option_term(d, o))
                if r == z3.sat:
                    m, best = self.solver.model(), o
                    break
                if r == z3.unknown:
                    return None
            fixed.append(self.option_term(d, best))
        return m
