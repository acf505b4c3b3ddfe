"""A function with control flow: every path in one proof.

The input's and the output's guarded graphs (`spec/semantics/guarded_graph.py`)
are built once, sharing their decisions; the obligations are taken from the
input's graph (the consecutive pairs of the union of all paths, a superset
of each path's) and each is one Z3 query over all paths
(`encode_guarded.py`). Nothing here enumerates paths, so 50 `scf.if`s cost
50 decisions, not 2^50 graphs.

The second oracle (graph reachability, `reach.py`) works on concrete
graphs, so it is asked on concrete paths: the guarded graphs under one
assignment of the decisions (`guarded_path.on_path`):

- every refuted obligation: the model's path is rebuilt; the input must
  order the pair there and the output must not, and the counterexample's
  path text and schedule come from that concrete graph (as with path
  enumeration);
- proofs: a sample of paths (the all-first-options path, all-second, all
  loops at the bound, and `SAMPLES` seeded random ones); every obligation of
  each sampled path must be ordered by reachability unless the guarded
  query refuted the same pair of ops.

A disagreement is the verdict `inconsistent`.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from spec.invariant import InternalError
from spec.semantics.conditions import Symbols
from spec.semantics.event_graph import Event
from spec.semantics.guarded_builder import build_guarded
from spec.semantics.guarded_graph import MAX_NODES, GuardedGraph
from spec.semantics.guarded_path import FREE_STEP, on_path, path_choices
from verifier.output.report import violation_of
from verifier.proof.obligations import Obligation, obligations
from verifier.proof.reach import reachable
from verifier.proof.replay import Replay
from verifier.proof.run import FunctionRun, unsupported_reason
from verifier.proof.shapes import KnownProof, proof_key
from verifier.smt.encode import Prover
from verifier.smt.encode_guarded import GuardedProver
from verifier.smt.solver import ObligationResult, Status

SAMPLES = 16
"""Random paths on which reachability cross-checks the guarded proofs."""


@dataclass
class AllPaths:
    """The input's and the output's guarded graphs, over shared decisions.
    Without decisions (`one_path`) every guard is true: each graph is the
    function's one path."""

    sym: Symbols
    gin: GuardedGraph
    gout: GuardedGraph

    @property
    def one_path(self) -> bool:
        return not self.sym.decisions


@dataclass
class Undecided:
    """The graphs cannot be proved: the verdict is `unknown`, for `reason`."""

    reason: str


@dataclass
class Refuted:
    """A refuted obligation and the model's path."""

    index: int
    ob: Obligation
    first: Event
    """The obligation's first event in the input's guarded graph."""
    outcome: ObligationResult


@dataclass
class Proofs:
    """The guarded queries' answers, before the cross-checks."""

    refuted: list[Refuted]
    """Per pair of ops the least refuted path, in the order the path-by-path
    reference reports them."""
    not_proved: set[tuple[int, int]]
    """Pairs of ops (ids) some obligation of which is refuted or undecided:
    the sampled cross-check does not hold reachability against them."""


def follows_input(gin: GuardedGraph, gout: GuardedGraph) -> bool:
    """The output meets the input's decisions in the input's order. A
    decision only the output meets is one it took freely (a region op whose
    input counterpart has no effect inside), not a divergence."""
    met = {d for d, _ in gin.met}
    return not gout.mismatch and [d for d, _ in gout.met if d in met] == [d for d, _ in gin.met]


def build_graphs(run: FunctionRun) -> AllPaths | Undecided:
    """The guarded graph of each side, the output's decisions mapped onto
    the input's by the correspondence."""
    fin, fout, tally, unroll = run.fin, run.fout, run.tally, run.options.unroll
    run.budget.at(phase="events")
    t0 = time.perf_counter()
    sym = Symbols()
    gin = build_guarded(fin, sym, None, unroll)
    back = {o: i for i, o in run.corr.to_output.items()}
    gout = build_guarded(fout, sym, back.get, unroll)
    run.time("events", time.perf_counter() - t0)
    tally.paths = gin.path_count
    tally.bounded = gin.bounded
    max_paths = run.options.max_paths
    if gin.unsupported or gout.unsupported:
        return Undecided(unsupported_reason(gin.unsupported or gout.unsupported))
    if not follows_input(gin, gout):
        return Undecided(
            "the output's control flow does not follow the input's" + (f": {gout.mismatch}" if gout.mismatch else "")
        )
    if max_paths is not None and gin.path_count > max_paths:
        return Undecided(f"more than {max_paths} paths (branch choices x trip counts up to {unroll})")
    if not sym.decisions:
        # One path, proved by `one_path.prove_one_path`: no bound on its size.
        return AllPaths(sym, gin, gout)
    if len(gin.kinds) + len(gout.kinds) > MAX_NODES:
        return Undecided(f"the graphs of all paths have more than {MAX_NODES} points")
    if not (gin.forward_but_extern and gout.forward_but_extern):
        return Undecided("a happens-before edge points backwards (a use before its definition?)")
    return AllPaths(sym, gin, gout)


def check_all_paths(run: FunctionRun, graphs: AllPaths) -> bool:
    """Prove every obligation over all paths, then cross-check the answers
    by reachability on concrete paths. False if the verdict is already set
    (inconsistent)."""
    tally = run.tally
    prover = GuardedProver(
        graphs.sym,
        graphs.gin,
        graphs.gout,
        run.options.unroll,
        run.options.solver,
        run.budget,
        run.options.proofs,
        run.options.assignments,
    )
    run.budget.at(phase="z3")
    t1 = time.perf_counter()
    c1 = time.process_time()
    run.lemma.guarded(graphs.gin, graphs.gout, lambda g, a, b: ordered_on_every_path(prover, g, a, b))
    # Past the run's budget nothing is taken from the table: what is left
    # is undecided, as on the plain path.
    table = run.options.shapes if not run.budget.spent() else None
    key = proof_key("all", run, graphs.sym, graphs.gin, graphs.gout) if table is not None else None
    known = table.get(key) if table is not None else None
    if known is not None:
        # A pair of this shape was proved and cross-checked before: the
        # same obligations, each proved, the same sampled paths agreeing.
        run.time("z3", time.perf_counter() - t1)
        tally.z3_checks += prover.checks
        tally.obligations += known.obligations
        tally.proved += known.proved
        tally.sampled_paths += known.sampled_paths
        tally.agreements += tally.obligations - len(run.undecided)
        return True
    before = (tally.obligations, tally.proved, tally.sampled_paths, len(run.undecided), len(tally.violations))
    proofs = prove_obligations(run, graphs, prover)
    done = proofs is not None and all(cross_check_refuted(run, graphs, r) for r in proofs.refuted)
    run.time("z3", time.perf_counter() - t1)
    run.time("z3_cpu", time.process_time() - c1)
    tally.z3_checks += prover.checks
    if not done or proofs is None:
        return False
    run.budget.at(phase="reach")
    t2 = time.perf_counter()
    done = cross_check_samples(run, graphs, proofs.not_proved)
    run.time("reach", time.perf_counter() - t2)
    if done:
        # Every decided obligation passed the cross-check (its own path if
        # refuted, the sampled paths if proved).
        tally.agreements += tally.obligations - len(run.undecided)
        clean = (len(run.undecided), len(tally.violations)) == before[3:] and tally.stopped is None
        if table is not None and clean and not proofs.refuted and not run.budget.spent():
            table.put(
                key,
                KnownProof(
                    tally.obligations - before[0],
                    tally.proved - before[1],
                    0,
                    tally.sampled_paths - before[2],
                ),
            )
    return done


def ordered_on_every_path(prover: GuardedProver, g: GuardedGraph, src: int, dst: int) -> bool:
    """`src` reaches `dst` on every path where `src` is present. First by
    edges present wherever `src` is (no solver), else asked of Z3 (a Z3
    `unknown` counts as not ordered: the lemma is then not claimed)."""
    sym = prover.sym
    mine = sym.conjuncts(g.guards[src])
    seen = {src}
    stack = [src]
    while stack:
        n = stack.pop()
        for m, c in zip(g.succ[n], g.eguards[n]):
            if m == dst and sym.conjuncts(c) <= mine:
                return True
            if m < dst and m not in seen and sym.conjuncts(c) <= mine:
                seen.add(m)
                stack.append(m)
    return prover.ordered_everywhere(g, src, dst) is True


def prove_obligations(run: FunctionRun, graphs: AllPaths, prover: GuardedProver) -> Proofs | None:
    """One guarded query per obligation of the input's graph. None if the
    verdict is set (inconsistent)."""
    tally, gin = run.tally, graphs.gin
    index = {id(ev): i for i, ev in enumerate(gin.events)}
    out_by_key = dict(zip(graphs.gout.keys, graphs.gout.events))
    obls = obligations(gin)
    tally.obligations += len(obls)
    refuted: list[Refuted] = []
    not_proved: set[tuple[int, int]] = set()
    best: dict[tuple[int, int], int] = {}
    for k, ob in enumerate(obls):
        prover.budget.count(k, len(obls))
        if prover.budget.spent():
            # What is left is undecided: the verdict cannot be `verified`.
            run.undecided.extend([prover.budget.reason] * (len(obls) - k))
            break
        ea = gin.by_op[ob.first, ob.first_role][ob.first_occurrence]
        eb = gin.by_op[ob.second, ob.second_role][ob.second_occurrence]
        xa = out_by_key.get(gin.keys[index[id(ea)]])
        xb = out_by_key.get(gin.keys[index[id(eb)]])
        if xa is None or xb is None:
            run.stop(
                Status.INCONSISTENT,
                f"'{ob.first.name}' or '{ob.second.name}' op is an event of the input but not of the output",
            )
            return None
        outcome = prover.prove(ea.end, eb.start, xa.end, xb.start)
        if outcome.status == Status.UNKNOWN:
            run.undecided.append(outcome.reason)
            # Not a proof: the sampled cross-check must not hold reachability
            # against it (a cancelled query once read as "Z3 proved every path").
            not_proved.add((id(ob.first), id(ob.second)))
            continue
        if outcome.status == Status.VERIFIED:
            tally.proved += 1
            continue
        refuted.append(Refuted(k, ob, ea, outcome))
        pair = (id(ob.first), id(ob.second))
        if pair not in best or outcome.choices < refuted[best[pair]].outcome.choices:
            best[pair] = len(refuted) - 1
    not_proved.update((id(r.ob.first), id(r.ob.second)) for r in refuted)
    # Reported as path enumeration would: per pair of ops the least path,
    # in the order of the paths, then of the obligations.
    chosen = sorted((refuted[i] for i in best.values()), key=lambda r: (r.outcome.choices, r.index))
    return Proofs(chosen, not_proved)


def cross_check_refuted(run: FunctionRun, graphs: AllPaths, refuted: Refuted) -> bool:
    """A refuted obligation on its concrete path: cross-checked by
    reachability, then reported with the schedule of that path's graph.
    False if the verdict is set (inconsistent)."""
    corr, tally = run.corr, run.tally
    gin, ob, ea, outcome = graphs.gin, refuted.ob, refuted.first, refuted.outcome
    cin = on_path(gin, graphs.sym, outcome.choices)
    cout = on_path(graphs.gout, graphs.sym, outcome.choices, outcome.free)
    eb = gin.by_op[ob.second, ob.second_role][ob.second_occurrence]

    def occurrence(ev: Event) -> int:
        # Which execution of the op on the model's path: the instances of
        # the op present on it that the guarded graph made before this one.
        return sum(1 for e in gin.by_op[ev.op, ev.role][: ev.occurrence] if e.start in outcome.active)

    oa, ob_ = occurrence(ea), occurrence(eb)
    a_out, b_out = corr.to_output[ob.first], corr.to_output[ob.second]
    ca, cb = cin.event(ob.first, oa, ob.first_role), cin.event(ob.second, ob_, ob.second_role)
    xa, xb = cout.event(a_out, oa, ob.first_role), cout.event(b_out, ob_, ob.second_role)
    if cin.choices != outcome.choices or None in (ca, cb, xa, xb):
        run.stop(Status.INCONSISTENT, f"the Z3 model's path {outcome.choices} is not a path of the function")
        return False
    if not (ca is not None and cb is not None and xa is not None and xb is not None):
        raise InternalError(
            "verifier.proof.every_path: expected ca is not None and cb is not None and xa is not None and xb is not None"
        )
    if not reachable(cin, ca.end, cb.start) or reachable(cout, xa.end, xb.start):
        run.stop(
            Status.INCONSISTENT,
            f"Z3 says violated, reachability on its path says otherwise for '{ob.first.name}' ({ob.first.loc}) "
            f"before '{ob.second.name}' ({ob.second.loc})",
        )
        return False
    sched = Prover(cout, run.options.solver).counterexample(xa.end, xb.start, 0)
    if tally.graph is None or not tally.missing:
        tally.graph, tally.missing = cout, []
    if tally.graph is cout:
        tally.missing.append((xa.end, xb.start))
    own = [step for step in cout.path if step.endswith(FREE_STEP)]
    shown = (
        None
        if tally.violations
        else Replay(False, reason="the path has branch or loop decisions the interpreter would not follow")
    )
    tally.violations.append(violation_of(ob, a_out, b_out, ea.kind == "gpu", cin.path + own, sched.schedule, shown))
    return True


def cross_check_samples(run: FunctionRun, graphs: AllPaths, not_proved: set[tuple[int, int]]) -> bool:
    """Reachability on sampled concrete paths against the guarded answers.
    False if the verdict is set (inconsistent)."""
    corr, tally, unroll = run.corr, run.tally, run.options.unroll
    decisions = len(graphs.gin.met)
    rng = random.Random(run.options.seed)
    n = max(decisions, 1)
    tries = [[], [1] * n, [unroll] * n] + [[rng.randint(0, unroll) for _ in range(n)] for _ in range(SAMPLES)]
    seen: set[tuple[int, ...]] = set()
    tried: set[tuple[int, ...]] = set()
    for choices in tries:
        # Few decisions make the random lists repeat: a list tried before
        # names a path already checked (or skipped).
        if tuple(choices) in tried:
            continue
        tried.add(tuple(choices))
        if path_choices(graphs.gin, graphs.sym, choices) in seen:
            continue  # a path already checked: its graph is not built again
        cin = on_path(graphs.gin, graphs.sym, choices)
        if tuple(cin.choices) in seen or cin.truncated or cin.unsupported:
            continue
        seen.add(tuple(cin.choices))
        tally.sampled_paths += 1
        cout = on_path(graphs.gout, graphs.sym, cin.choices)
        if tally.graph is None:
            tally.graph = cout
        for ob in obligations(cin):
            a_out, b_out = corr.to_output.get(ob.first), corr.to_output.get(ob.second)
            xa = cout.event(a_out, ob.first_occurrence, ob.first_role) if a_out is not None else None
            xb = cout.event(b_out, ob.second_occurrence, ob.second_role) if b_out is not None else None
            ordered = xa is not None and xb is not None and reachable(cout, xa.end, xb.start)
            if not ordered and (id(ob.first), id(ob.second)) not in not_proved:
                run.stop(
                    Status.INCONSISTENT,
                    f"Z3 proved every path, reachability finds '{ob.first.name}' ({ob.first.loc}) unordered before "
                    f"'{ob.second.name}' ({ob.second.loc}) on the path {cin.choices}",
                )
                return False
    return True
