"""Checking a function with control flow: every path in one proof.

The input's and the output's guarded graphs (`spec/semantics/guarded.py`)
are built once, sharing their decisions; the obligations are taken from the
input's graph (the consecutive pairs of the union of all paths, a superset
of each path's) and each is one Z3 query over all paths
(`encode_guarded.py`). Nothing here enumerates paths, so 50 `scf.if`s cost
50 decisions, not 2^50 graphs.

The second oracle (graph reachability, `reach.py`) works on concrete
graphs, so it is asked on concrete paths built with `events.build`:

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

from spec.ir import Operation
from spec.semantics import events
from spec.semantics.conditions import Symbols
from spec.semantics.guarded import MAX_NODES, GuardedGraph, build_guarded, may_decide
from verifier.budget import UNLIMITED, Budget
from verifier.correspondence import Correspondence
from verifier.encode import Prover
from verifier.encode_guarded import GuardedOutcome, GuardedProver
from verifier.lemma import LoopLemma
from verifier.obligations import Obligation, obligations
from verifier.reach import reachable
from verifier.replay import Replay
from verifier.report import INCONSISTENT, UNKNOWN, FunctionReport, violation_of

SAMPLES = 16
"""Random paths on which reachability cross-checks the guarded proofs."""

SKIP, STOP, DONE = "skip", "stop", "done"
"""`check_guarded` results: no decisions (check the one path as before), the
verdict is set (unknown or inconsistent), or the obligations are decided."""


def check_guarded(
    fin: Operation,
    fout: Operation,
    corr: Correspondence,
    fr: FunctionReport,
    t: dict[str, float],
    unknown_reasons: list[str],
    lemma: LoopLemma,
    timeout_ms: int,
    seed: int,
    rlimit: int | None,
    unroll: int,
    max_paths: int | None,
    budget: Budget = UNLIMITED,
) -> str:
    if not may_decide(fin):
        return SKIP
    t0 = time.perf_counter()
    sym = Symbols()
    gin = build_guarded(fin, sym, None, unroll)
    if not sym.decisions and not gin.unsupported:
        return SKIP
    back = {o: i for i, o in corr.to_output.items()}
    gout = build_guarded(fout, sym, back.get, unroll)
    t["events"] += time.perf_counter() - t0
    fr.paths = gin.path_count
    fr.bounded = gin.bounded
    if gin.unsupported or gout.unsupported:
        fr.verdict, fr.reason = UNKNOWN, _reason(gin.unsupported or gout.unsupported)
        return STOP
    if gout.mismatch or [d for d, _ in gout.met] != [d for d, _ in gin.met]:
        fr.verdict, fr.reason = UNKNOWN, "the output's control flow does not follow the input's" + (f": {gout.mismatch}" if gout.mismatch else "")
        return STOP
    if max_paths is not None and gin.path_count > max_paths:
        fr.verdict, fr.reason = UNKNOWN, f"more than {max_paths} paths (branch choices x trip counts up to {unroll})"
        return STOP
    if len(gin.kinds) + len(gout.kinds) > MAX_NODES:
        fr.verdict, fr.reason = UNKNOWN, f"the graphs of all paths have more than {MAX_NODES} points"
        return STOP
    if not (gin.forward_but_extern and gout.forward_but_extern):
        fr.verdict, fr.reason = UNKNOWN, "a happens-before edge points backwards (a use before its definition?)"
        return STOP
    prover = GuardedProver(sym, gin, gout, unroll, timeout_ms, seed, rlimit)
    prover.budget = budget
    t1 = time.perf_counter()
    c1 = time.process_time()
    lemma.guarded(gin, gout, lambda g, a, b: _ordered(prover, g, a, b))
    refuted: set[tuple[int, int]] = set()
    status = _prove(fin, fout, corr, fr, gin, gout, prover, unknown_reasons, refuted, timeout_ms, seed, rlimit, unroll)
    t["z3"] += time.perf_counter() - t1
    t["z3_cpu"] = t.get("z3_cpu", 0.0) + time.process_time() - c1
    fr.z3_checks += prover.checks
    if status != DONE:
        return status
    t2 = time.perf_counter()
    status = _sample(fin, fout, corr, fr, refuted, len(gin.met), seed, unroll)
    t["reach"] += time.perf_counter() - t2
    if status == DONE:
        # Every decided obligation passed the cross-check (its own path if
        # refuted, the sampled paths if proved).
        fr.agreements += fr.obligations - len(unknown_reasons)
    return status


def _reason(unsupported: list) -> str:
    reasons = sorted({f"{r} ({op.loc})" for op, r in unsupported})
    more = f"; and {len(reasons) - 3} more" if len(reasons) > 3 else ""
    return "; ".join(reasons[:3]) + more


def _ordered(prover: GuardedProver, g: GuardedGraph, src: int, dst: int) -> bool:
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


def _prove(
    fin: Operation,
    fout: Operation,
    corr: Correspondence,
    fr: FunctionReport,
    gin: GuardedGraph,
    gout: GuardedGraph,
    prover: GuardedProver,
    unknown_reasons: list[str],
    refuted_pairs: set[tuple[int, int]],
    timeout_ms: int,
    seed: int,
    rlimit: int | None,
    unroll: int,
) -> str:
    index = {id(ev): i for i, ev in enumerate(gin.events)}
    out_by_key = dict(zip(gout.keys, gout.events))
    obls = obligations(gin)
    fr.obligations += len(obls)
    refuted: list[tuple[int, Obligation, events.Event, GuardedOutcome]] = []
    best: dict[tuple[int, int], int] = {}
    for k, ob in enumerate(obls):
        if prover.budget.spent():
            # What is left is undecided: the verdict cannot be `verified`.
            unknown_reasons.extend([prover.budget.reason] * (len(obls) - k))
            break
        ea = gin.by_op[ob.first, ob.first_role][ob.first_occurrence]
        eb = gin.by_op[ob.second, ob.second_role][ob.second_occurrence]
        xa = out_by_key.get(gin.keys[index[id(ea)]])
        xb = out_by_key.get(gin.keys[index[id(eb)]])
        if xa is None or xb is None:
            fr.verdict = INCONSISTENT
            fr.reason = f"'{ob.first.name}' or '{ob.second.name}' op is an event of the input but not of the output"
            return STOP
        outcome = prover.prove(ea.end, eb.start, xa.end, xb.start)
        if outcome.status == "unknown":
            unknown_reasons.append(outcome.reason)
            # Not a proof: the sampled cross-check must not hold reachability
            # against it (a cancelled query once read as "Z3 proved every path").
            refuted_pairs.add((id(ob.first), id(ob.second)))
            continue
        if outcome.status == "proved":
            fr.proved += 1
            continue
        refuted.append((k, ob, ea, outcome))
        pair = (id(ob.first), id(ob.second))
        if pair not in best or outcome.choices < refuted[best[pair]][3].choices:
            best[pair] = len(refuted) - 1
    refuted_pairs.update((id(ob.first), id(ob.second)) for _, ob, _, _ in refuted)
    # Reported as path enumeration would: per pair of ops the least path,
    # in the order of the paths, then of the obligations.
    chosen = sorted((refuted[i] for i in best.values()), key=lambda r: (r[3].choices, r[0]))
    for _, ob, ea, outcome in chosen:
        if not _report(fin, fout, corr, fr, gin, ob, ea, outcome, timeout_ms, seed, rlimit, unroll):
            return STOP
    return DONE


def _report(
    fin: Operation,
    fout: Operation,
    corr: Correspondence,
    fr: FunctionReport,
    gin: GuardedGraph,
    ob: Obligation,
    ea: events.Event,
    outcome: GuardedOutcome,
    timeout_ms: int,
    seed: int,
    rlimit: int | None,
    unroll: int,
) -> bool:
    """A refuted obligation on its concrete path: cross-checked by
    reachability, then reported with the schedule of that path's graph."""
    cin = events.build(fin, outcome.choices, unroll)
    cout = events.build(fout, outcome.choices, unroll)
    eb = gin.by_op[ob.second, ob.second_role][ob.second_occurrence]

    def occurrence(ev: events.Event) -> int:
        # Which execution of the op on the model's path: the instances of
        # the op present on it that the guarded graph made before this one.
        return sum(1 for e in gin.by_op[ev.op, ev.role][: ev.occurrence] if e.start in outcome.active)

    oa, ob_ = occurrence(ea), occurrence(eb)
    a_out, b_out = corr.to_output[ob.first], corr.to_output[ob.second]
    ca, cb = cin.event(ob.first, oa, ob.first_role), cin.event(ob.second, ob_, ob.second_role)
    xa, xb = cout.event(a_out, oa, ob.first_role), cout.event(b_out, ob_, ob.second_role)
    if cin.choices != outcome.choices or None in (ca, cb, xa, xb):
        fr.verdict, fr.reason = INCONSISTENT, f"the Z3 model's path {outcome.choices} is not a path of the function"
        return False
    assert ca is not None and cb is not None and xa is not None and xb is not None
    if not reachable(cin, ca.end, cb.start) or reachable(cout, xa.end, xb.start):
        fr.verdict = INCONSISTENT
        fr.reason = (
            f"Z3 says violated, reachability on its path says otherwise for '{ob.first.name}' ({ob.first.loc}) "
            f"before '{ob.second.name}' ({ob.second.loc})"
        )
        return False
    sched = Prover(cout, timeout_ms, seed, rlimit).counterexample(xa.end, xb.start, 0)
    if fr.graph is None or not fr.missing:
        fr.graph, fr.missing = cout, []
    if fr.graph is cout:
        fr.missing.append((xa.end, xb.start))
    v = violation_of(ob, a_out, b_out, ea.kind == "gpu", cin.path, sched.schedule)
    if not fr.violations:
        v.replay = Replay(False, reason="the path has branch or loop decisions the interpreter would not follow")
    fr.violations.append(v)
    return True


def _sample(
    fin: Operation, fout: Operation, corr: Correspondence, fr: FunctionReport, refuted: set[tuple[int, int]], decisions: int, seed: int, unroll: int
) -> str:
    """Reachability on sampled concrete paths against the guarded answers."""
    rng = random.Random(seed)
    n = max(decisions, 1)
    tries = [[], [1] * n, [unroll] * n] + [[rng.randint(0, unroll) for _ in range(n)] for _ in range(SAMPLES)]
    seen: set[tuple[int, ...]] = set()
    for choices in tries:
        cin = events.build(fin, choices, unroll)
        if tuple(cin.choices) in seen or cin.truncated or cin.unsupported:
            continue
        seen.add(tuple(cin.choices))
        fr.sampled_paths += 1
        cout = events.build(fout, cin.choices, unroll)
        if fr.graph is None:
            fr.graph = cout
        for ob in obligations(cin):
            a_out, b_out = corr.to_output.get(ob.first), corr.to_output.get(ob.second)
            xa = cout.event(a_out, ob.first_occurrence, ob.first_role) if a_out is not None else None
            xb = cout.event(b_out, ob.second_occurrence, ob.second_role) if b_out is not None else None
            ordered = xa is not None and xb is not None and reachable(cout, xa.end, xb.start)
            if not ordered and (id(ob.first), id(ob.second)) not in refuted:
                fr.verdict = INCONSISTENT
                fr.reason = (
                    f"Z3 proved every path, reachability finds '{ob.first.name}' ({ob.first.loc}) unordered before "
                    f"'{ob.second.name}' ({ob.second.loc}) on the path {cin.choices}"
                )
                return STOP
    return DONE
