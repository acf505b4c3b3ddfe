"""Translation validation of `-gpu-async-region` rewrites.

`check(input_module, output_module)` pairs the functions of the two modules,
matches the output's ops onto the input's (`correspondence`), derives the
obligations from the input's happens-before (`obligations`), and proves each
on the output's happens-before twice: with Z3 (`encode`) and by graph
reachability (`reach`). A function with branches or loops is proved over
all its paths at once, one guarded Z3 query per obligation, with
reachability cross-checking on concrete paths (`guarded`). The verdicts are
in `report`; the command line is `python -m verifier check`.
"""

from __future__ import annotations

import gc
import time

from spec.ir import Operation
from spec.semantics import events
from verifier import progress
from verifier.budget import Budget
from verifier.correspondence import Correspondence, Mismatch, match
from verifier.encode import DEFAULT_SEED, DEFAULT_TIMEOUT_MS, Prover
from verifier.guarded import SKIP, STOP, check_guarded
from verifier.lemma import LoopLemma
from verifier.module_match import match_module
from verifier.obligations import obligations
from verifier.reach import reachable
from verifier.replay import Replay, replay
from verifier.report import (
    INCONSISTENT,
    REFUTED,
    UNKNOWN,
    VERIFIED,
    Endpoint,
    FunctionReport,
    Report,
    Violation,
    violation_of,
)
from verifier.wellformed import well_formed

__all__ = ["check", "Report", "FunctionReport", "Violation", "functions_of"]

MAX_REASONS = 3


def functions_of(module: Operation) -> list[Operation]:
    """Every `func.func` with a body, in walk order (nested modules too)."""
    return [op for op in module.walk() if op.name == "func.func" and op.regions and op.regions[0].blocks]


def _name(func: Operation) -> str:
    sym = func.properties.get("sym_name")
    return getattr(sym, "value", None) or str(sym).strip('"')


def _mismatch_violation(m: Mismatch) -> Violation:
    first_op = m.in_op.name if m.in_op is not None else (m.out_op.name if m.out_op else "?")
    second_op = m.out_op.name if m.out_op is not None else first_op
    return Violation(
        m.kind,
        Endpoint(first_op, m.in_loc, None),
        Endpoint(second_op, None, m.out_loc),
        m.message,
    )


def check(
    input_module: Operation,
    output_module: Operation,
    *,
    func: str | None = None,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    seed: int = DEFAULT_SEED,
    rlimit: int | None = None,
    unroll: int = events.DEFAULT_UNROLL,
    max_paths: int | None = None,
    guarded: bool = True,
    budget_s: float | None = None,
    require_unbounded: bool = False,
) -> Report:
    """Validate that `output_module` is a correct rewrite of `input_module`.

    Control flow is proved over all paths at once (`guarded`); with
    `guarded=False` path by path (`events.paths`), kept as the reference the
    guarded proof is tested against. `max_paths` bounds the number of paths
    of a function (counted, not enumerated, by the guarded proof): None is no
    limit for the guarded proof and `events.MAX_PATHS` path by path.
    `budget_s` bounds the whole run (None: no bound); once spent, what is
    not decided makes the verdict `unknown`. With `require_unbounded`, a
    verdict that holds only up to the loop bound is `unknown` too."""
    # The work allocates many small objects and frees few: the cyclic
    # garbage collector's passes over the parsed modules would only cost time.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        report = _check(input_module, output_module, func, timeout_ms, seed, rlimit, unroll, max_paths, guarded, Budget(budget_s))
        if require_unbounded:
            for fr in report.functions:
                if fr.verdict == VERIFIED and fr.bounded:
                    fr.verdict = UNKNOWN
                    fr.reason = (
                        f"verified only up to {fr.unroll} loop iterations and --require-unbounded was given"
                        + (f" ({fr.lemma})" if fr.lemma else "")
                    )
        return report
    finally:
        if was_enabled:
            gc.enable()


def _check(
    input_module: Operation,
    output_module: Operation,
    func: str | None,
    timeout_ms: int,
    seed: int,
    rlimit: int | None,
    unroll: int,
    max_paths: int | None,
    guarded: bool,
    budget: Budget,
) -> Report:
    report = Report()
    t = {"match": 0.0, "events": 0.0, "reach": 0.0, "z3": 0.0}
    outs: dict[str, list[Operation]] = {}
    for f in functions_of(output_module):
        outs.setdefault(_name(f), []).append(f)
    for fin in functions_of(input_module):
        name = _name(fin)
        if func is not None and name != func:
            continue
        candidates = outs.get(name, [])
        progress.current().phase("check", f"@{name}")
        fr = FunctionReport(name)
        report.functions.append(fr)
        if budget.spent():
            fr.verdict, fr.reason = UNKNOWN, budget.reason
            continue
        if not candidates:
            fr.verdict = REFUTED
            fr.violations.append(_mismatch_violation(Mismatch("mismatch", f"function @{name} is missing from the output", None, fin)))
            continue
        _check_function(fin, candidates.pop(0), fr, t, timeout_ms, seed, rlimit, unroll, max_paths, guarded, budget)
    for name, rest in outs.items():
        if func is not None and name != func:
            continue
        for fout in rest:
            fr = FunctionReport(name, REFUTED)
            fr.violations.append(_mismatch_violation(Mismatch("mismatch", f"function @{name} has no counterpart in the input", fout, None)))
            report.functions.append(fr)
    # Outside function bodies nothing may change (kernels, module attributes, declarations).
    outside = match_module(input_module, output_module)
    if outside:
        report.functions.append(FunctionReport("(module)", REFUTED, violations=[_mismatch_violation(m) for m in outside]))
    report.timings = t
    return report


def _reason(unsupported: list) -> str:
    reasons = sorted({f"{r} ({op.loc})" for op, r in unsupported})
    more = f"; and {len(reasons) - MAX_REASONS} more" if len(reasons) > MAX_REASONS else ""
    return "; ".join(reasons[:MAX_REASONS]) + more


def _check_function(
    fin: Operation,
    fout: Operation,
    fr: FunctionReport,
    t: dict[str, float],
    timeout_ms: int,
    seed: int,
    rlimit: int | None,
    unroll: int,
    max_paths: int | None,
    guarded: bool,
    budget: Budget,
) -> None:
    t0 = time.perf_counter()
    corr = match(fin, fout)
    problems = corr.mismatches + well_formed(fout)
    t["match"] += time.perf_counter() - t0
    if problems:
        fr.verdict = REFUTED
        fr.violations.extend(_mismatch_violation(m) for m in problems)
        return
    unknown_reasons: list[str] = []
    reported: set[tuple[int, int]] = set()
    fr.unroll = unroll
    lemma = LoopLemma(unroll)
    status = SKIP
    if guarded:
        status = check_guarded(fin, fout, corr, fr, t, unknown_reasons, lemma, timeout_ms, seed, rlimit, unroll, max_paths, budget)
    if status == STOP:
        return
    try:
        t0 = time.perf_counter()
        # Without decisions there is one path: checked as before, with the
        # slice batching of `encode.Prover` that long straight-line code needs.
        for gin in events.paths(fin, unroll, max_paths if max_paths is not None else events.MAX_PATHS) if status == SKIP else []:
            fr.paths += 1
            fr.bounded = fr.bounded or gin.bounded
            if gin.unsupported:
                fr.verdict, fr.reason = UNKNOWN, _reason(gin.unsupported)
                return
            if gin.truncated:
                continue
            if budget.spent():
                unknown_reasons.append(budget.reason)
                break
            gout = events.build(fout, gin.choices, unroll)
            t["events"] += time.perf_counter() - t0
            if gout.unsupported:
                fr.verdict, fr.reason = UNKNOWN, _reason(gout.unsupported)
                return
            if gout.options != gin.options or gout.truncated:
                fr.verdict, fr.reason = UNKNOWN, "the output's control flow does not follow the input's"
                return
            lemma.path(gin, gout)
            if fr.graph is None or fr.missing == []:
                fr.graph = gout
            if not _check_path(gin, gout, corr, fr, t, reported, unknown_reasons, timeout_ms, seed, rlimit):
                return
            t0 = time.perf_counter()
    except events.TooManyPaths as exc:
        fr.verdict, fr.reason = UNKNOWN, str(exc)
        return
    # A `gpu.wait` of the input may go (phase 2 moves waits out of
    # `async.execute` bodies): what it ordered is the proof's business. Any
    # other dropped op is a mismatch even when the orderings survive.
    dropped = [op for op in corr.dropped if op.name != "gpu.wait"]
    if not fr.violations and not unknown_reasons and dropped:
        fr.violations.extend(
            _mismatch_violation(Mismatch("mismatch", f"'{op.name}' op of the input is missing from the output", fout, op))
            for op in dropped
        )
    if fr.bounded:
        if lemma.holds:
            fr.bounded = False
            fr.lemma = "loop iterations are independent: the bound covers every trip count"
        else:
            fr.lemma = lemma.why
    if fr.violations:
        fr.verdict = REFUTED
    elif unknown_reasons:
        fr.verdict = UNKNOWN
        fr.reason = f"{len(unknown_reasons)} obligation(s) not decided: {unknown_reasons[0]}"
    else:
        fr.verdict = VERIFIED


def _check_path(
    gin: events.EventGraph,
    gout: events.EventGraph,
    corr: Correspondence,
    fr: FunctionReport,
    t: dict[str, float],
    reported: set[tuple[int, int]],
    unknown_reasons: list[str],
    timeout_ms: int,
    seed: int,
    rlimit: int | None,
) -> bool:
    """Prove the obligations of one path; False if the function is done
    (inconsistent)."""
    obls = obligations(gin)
    fr.obligations += len(obls)
    prover = Prover(gout, timeout_ms, seed, rlimit)
    ends: list[tuple[events.Event, events.Event, Operation, Operation]] = []
    for ob in obls:
        a_out = corr.to_output.get(ob.first)
        b_out = corr.to_output.get(ob.second)
        ea = gout.event(a_out, ob.first_occurrence, ob.first_role) if a_out is not None else None
        eb = gout.event(b_out, ob.second_occurrence, ob.second_role) if b_out is not None else None
        if ea is None or eb is None or a_out is None or b_out is None:
            fr.verdict = INCONSISTENT
            fr.reason = f"'{ob.first.name}' or '{ob.second.name}' op is an event of the input but not of the output"
            return False
        ends.append((ea, eb, a_out, b_out))
    t0 = time.perf_counter()
    reach = [reachable(gout, ea.end, eb.start) for ea, eb, _, _ in ends]
    t1 = time.perf_counter()
    c1 = time.process_time()
    outcomes = prover.prove_all([(ea.end, eb.start) for ea, eb, _, _ in ends])
    t["reach"] += t1 - t0
    t["z3"] += time.perf_counter() - t1
    # CPU time too (a forked child's included): on a loaded machine it is
    # the steadier figure.
    t["z3_cpu"] = t.get("z3_cpu", 0.0) + time.process_time() - c1 + prover.forked_cpu
    fr.z3_checks += prover.checks
    for ob, (ea, eb, a_out, b_out), holds, outcome in zip(obls, ends, reach, outcomes):
        if outcome.status == "unknown":
            unknown_reasons.append(outcome.reason)
            continue
        if outcome.status == "inconsistent" or (outcome.status == "proved") != holds:
            fr.verdict = INCONSISTENT
            fr.reason = (
                f"Z3 says {outcome.status}, reachability says {'ordered' if holds else 'unordered'} "
                f"for '{ob.first.name}' ({ob.first.loc}) before '{ob.second.name}' ({ob.second.loc})"
            )
            return False
        fr.agreements += 1
        if outcome.status == "proved":
            fr.proved += 1
            continue
        key = (id(ob.first), id(ob.second))
        if key in reported:
            continue
        reported.add(key)
        if fr.graph is not gout:
            fr.graph, fr.missing = gout, []
        fr.missing.append((ea.end, eb.start))
        v = violation_of(ob, a_out, b_out, ea.kind == "gpu", gin.path, outcome.schedule)
        if not fr.violations:
            # One replay per function, the first counterexample. The
            # interpreter picks branches and trip counts from concrete
            # arguments, so only a path without decisions is replayed.
            if gin.choices:
                v.replay = Replay(False, reason="the path has branch or loop decisions the interpreter would not follow")
            else:
                v.replay = replay(gin.func, gout.func, gout, outcome.times, corr.to_output)
        fr.violations.append(v)
    return True
