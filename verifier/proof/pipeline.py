"""The check pipeline: from two modules to a verdict, one step after another.

    pair_functions     functions of the input and the output, by symbol
                       path (`A::@f` in `module @A`): a function moved to
                       another module has no counterpart
    correspond         output ops onto input ops (`correspondence.py`), the
                       output well formed (`wellformed.py`), the waits it
                       adds never blocking forever (`blocking.py`)
    build_graphs       one guarded event graph per side over all paths
                       (`every_path.build_graphs`, the only event builder);
                       a function without decisions has every guard true:
                       its one path, a concrete graph
    prove              closed region ops first, each region run proved apart
                       and summarised as one point (`compose.py`); if that
                       does not prove the function, it is proved whole:
                       obligations of the input's graph (`obligations.py`),
                       each proved by Z3 on the output's graph (guarded:
                       `every_path.check_all_paths`; one path: the same
                       graph in difference logic, `one_path.prove_one_path`)
                       and cross-checked by reachability (`reach.py`)
    conclude           dropped ops, the loop lemma, the function's verdict;
                       `bounded` because loops carry tokens: each such loop
                       proved by induction on its iterations (`induction.py`)
    match_module       nothing changed outside the functions

The result is a `report.Report`. Options travel as one `CheckOptions`, with
the run's `Jobs` (which steps a second process may share:
`second_process.py`) and its `Progress` (a terminal's status line), so that
nothing of the process's state steers a check.
`check(..., prove_step=...)` replaces the `prove` step: the tests' path-by-path
reference (`tests/support/path_reference.py`) plugs in there.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import z3

from parallel import DEFAULT_JOBS, Jobs
from spec import registry
from spec.ir import Operation, symbol_path
from verifier.match.correspondence import Correspondence, Mismatch, match
from verifier.match.module_match import match_module
from verifier.output.progress import DISABLED
from verifier.output.report import Endpoint, FunctionReport, Report, Violation
from verifier.proof import induction
from verifier.proof.blocking import added_waits
from verifier.proof.budget import Budget
from verifier.proof.compose import prove_composed
from verifier.proof.every_path import Undecided, build_graphs, check_all_paths
from verifier.proof.lemma import LoopLemma
from verifier.proof.one_path import prove_one_path
from verifier.proof.pairs import function_key
from verifier.proof.run import CheckOptions, FunctionRun, Tally
from verifier.proof.second_process import well_formed_while
from verifier.smt.solver import Status

__all__ = ["CheckOptions", "FunctionPair", "check", "check_function", "correspond", "functions_of", "pair_functions"]


def functions_of(module: Operation) -> list[Operation]:
    """Every `func.func` with a body, in walk order (nested modules too).
    The walk steps only onto ops that have regions: an op without one
    holds no function, and a function body's ops are mostly such ops (at
    100k GPU ops a whole walk of both modules was 0.2 s)."""
    found: list[Operation] = []
    stack = [module]
    while stack:
        op = stack.pop()
        if registry.is_host_function(op.name) and op.regions and op.regions[0].blocks:
            found.append(op)
        for region in reversed(op.regions):
            for block in reversed(region.blocks):
                stack.extend([o for o in reversed(block.ops) if o.regions])
    return found


def function_name(func: Operation) -> str:
    """The name a function is reported by: its symbol path (`f`, `A::@f`)."""
    return symbol_path(func)


def _selected(name: str, only: str | None) -> bool:
    """`--func NAME`: the function of that path, or of that leaf name."""
    return only is None or name == only or name.rsplit("::@", 1)[-1] == only


def mismatch_violation(m: Mismatch) -> Violation:
    """A correspondence or well-formedness problem, as a violation."""
    first_op = m.in_op.name if m.in_op is not None else (m.out_op.name if m.out_op else "?")
    second_op = m.out_op.name if m.out_op is not None else first_op
    return Violation(m.kind, Endpoint(first_op, m.in_loc, None), Endpoint(second_op, None, m.out_loc), m.message)


ProveStep = Callable[[FunctionRun], bool]
"""The `prove` step: obligations proved and cross-checked, into the run's
report; False if that decided the verdict (unknown, inconsistent)."""


def check(
    input_module: Operation,
    output_module: Operation,
    options: CheckOptions | None = None,
    *,
    prove_step: ProveStep | None = None,
    **keywords: Any,
) -> Report:
    """Validate that `output_module` is a correct rewrite of `input_module`.

    `options`, or the same as keywords (`check(a, b, timeout_ms=..., unroll=...)`,
    the fields of `CheckOptions`). `prove_step`: instead of `prove` (tests)."""
    opts = replace(options or CheckOptions(), **keywords)
    # The work allocates many small objects and frees few: the cyclic
    # garbage collector's passes over the parsed modules would only cost time.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        budget = Budget(opts.budget_s, progress=opts.progress or DISABLED).watch(opts.on_overrun)
        try:
            report = _check_modules(input_module, output_module, opts, budget, prove_step or prove)
        finally:
            budget.close()
        functions = budget.mark(report.functions)
        if opts.require_unbounded:
            functions = tuple(map(_unbounded_required, functions))
        return replace(report, functions=functions, accept_bounded=opts.accept_bounded)
    finally:
        if was_enabled:
            gc.enable()


def _unbounded_required(fr: FunctionReport) -> FunctionReport:
    """`--require-unbounded`: a `bounded` function is `unknown`."""
    if fr.verdict != Status.BOUNDED:
        return fr
    why = f"proved only up to {fr.unroll} loop iterations and --require-unbounded was given" + (
        f" ({fr.lemma})" if fr.lemma else ""
    )
    return replace(fr, verdict=Status.UNKNOWN, reason=why)


@dataclass
class FunctionPair:
    """A function of the input and its counterpart in the output (None: it
    has none), or an output function with no input counterpart."""

    name: str
    fin: Operation | None
    fout: Operation | None


def pair_functions(input_module: Operation, output_module: Operation, only: str | None) -> list[FunctionPair]:
    """Functions paired by symbol path, in order: the input's (each with the
    first unpaired output function of its path), then the output's left
    over. A path is unique in valid IR (symbol tables), so a function that
    moved between modules is one missing and one added."""
    outs: dict[str, list[Operation]] = {}
    for f in functions_of(output_module):
        outs.setdefault(function_name(f), []).append(f)
    pairs: list[FunctionPair] = []
    for fin in functions_of(input_module):
        name = function_name(fin)
        if not _selected(name, only):
            continue
        candidates = outs.get(name, [])
        pairs.append(FunctionPair(name, fin, candidates.pop(0) if candidates else None))
    for name, rest in outs.items():
        if _selected(name, only):
            pairs.extend(FunctionPair(name, None, fout) for fout in rest)
    return pairs


def _check_modules(
    input_module: Operation, output_module: Operation, opts: CheckOptions, budget: Budget, step: ProveStep
) -> Report:
    functions: list[FunctionReport] = []
    timings = {"match": 0.0, "events": 0.0, "reach": 0.0, "z3": 0.0}
    pairs = pair_functions(input_module, output_module, opts.func)
    budget.track(functions, [p.name for p in pairs])
    for pair in pairs:
        budget.at(pair.name, "match")
        if pair.fin is None:
            added = Mismatch("mismatch", f"function @{pair.name} has no counterpart in the input", pair.fout, None)
            fr = FunctionReport(pair.name, Status.REFUTED, violations=(mismatch_violation(added),))
        elif budget.spent():
            fr = FunctionReport(pair.name, Status.UNKNOWN, reason=budget.reason)
        elif pair.fout is None:
            leaf = pair.name.rsplit("::@", 1)[-1]
            moved = [p.name for p in pairs if p.fin is None and p.name.rsplit("::@", 1)[-1] == leaf]
            where = (
                f" (a function of its name is at @{moved[0]}: functions may not move between modules)" if moved else ""
            )
            gone = Mismatch("mismatch", f"function @{pair.name} is missing from the output{where}", None, pair.fin)
            fr = FunctionReport(pair.name, Status.REFUTED, violations=(mismatch_violation(gone),))
        else:
            fr = check_function(pair.fin, pair.fout, opts, budget, timings, step)
        functions.append(fr)
    # Outside function bodies nothing may change (kernels, module attributes, declarations).
    outside = match_module(input_module, output_module)
    if outside:
        functions.append(
            FunctionReport("(module)", Status.REFUTED, violations=tuple(mismatch_violation(m) for m in outside))
        )
    return Report(tuple(functions), timings=timings)


def correspond(fin: Operation, fout: Operation, jobs: Jobs = DEFAULT_JOBS) -> tuple[Correspondence, list[Mismatch]]:
    """The correspondence of the output's ops to the input's, and what makes
    the output no rewrite of the input (mismatches, ill-formed IR). On a
    large output, and where `jobs` allow it, a second process checks
    well-formedness while this one matches (`second_process`)."""
    corr, problems = well_formed_while(fout, jobs, lambda: match(fin, fout))
    return corr, corr.mismatches + problems


def check_function(
    fin: Operation,
    fout: Operation,
    opts: CheckOptions,
    budget: Budget,
    timings: dict[str, float],
    step: ProveStep | None = None,
) -> FunctionReport:
    """The pipeline for one pair of functions."""
    name = function_name(fin)
    t0 = time.perf_counter()
    corr, problems = correspond(fin, fout, opts.jobs)
    timings["match"] = timings.get("match", 0.0) + time.perf_counter() - t0
    blocking = added_waits(fin, fout, corr)
    problems = problems + blocking.refuted
    if problems:
        return FunctionReport(name, Status.REFUTED, violations=tuple(mismatch_violation(m) for m in problems))
    run = FunctionRun(fin, fout, corr, Tally(name, unroll=opts.unroll), opts, budget, timings, LoopLemma(opts.unroll))
    if opts.path_proofs is not None:
        run.proved = opts.path_proofs
    try:
        proved = (step or prove)(run)
    except z3.Z3Exception:
        # The budget's watchdog interrupted Z3 between two of its calls
        # (a `pop` after the cancelled query raises "canceled").
        if budget.expired_at is None:
            raise
        run.stop(Status.UNKNOWN, budget.expired_reason)
        proved = False
    if proved:
        run.undecided.extend(blocking.undecided)
    fr = conclude(run)
    if proved and fr.verdict == Status.BOUNDED and opts.induction:
        return _prove_by_induction(run, fr, step)
    return fr


def _prove_by_induction(run: FunctionRun, fr: FunctionReport, step: ProveStep | None) -> FunctionReport:
    """A `bounded` function whose loops carry tokens: proved for every trip
    count if each loop's step and its context are (`induction.py`)."""
    opts = run.options
    # Only the pipeline's own proof (a test's `prove_step` proves otherwise).
    table = opts.verified_pairs if step in (None, prove) else None

    def check_pair(a: Operation, b: Operation) -> FunctionReport:
        if table is None:
            return check_function(a, b, opts, run.budget, run.timings, step)
        # A pair verified before (`pairs.py`): the same IR, the same options.
        ka, kb = function_key(a), function_key(b)
        key = None if ka is None or kb is None else (_pair_options(opts), ka, kb)
        if key is not None and not run.budget.spent() and key in table:
            return FunctionReport(function_name(a), Status.VERIFIED)
        fr = check_function(a, b, opts, run.budget, run.timings, step)
        if key is not None and fr.verdict == Status.VERIFIED and not run.budget.spent():
            table.add(key)
        return fr

    lemma = induction.prove(run.fin, run.fout, run.corr, check_pair)
    if lemma is not None and not run.budget.spent():
        return replace(fr, verdict=Status.VERIFIED, bounded=False, lemma=lemma)
    return fr


def _pair_options(opts: CheckOptions) -> tuple[object, ...]:
    """The options a function pair's verdict depends on (`pairs.py`)."""
    return (
        opts.func,
        opts.timeout_ms,
        opts.seed,
        opts.rlimit,
        opts.unroll,
        opts.max_paths,
        opts.compose,
        opts.induction,
        opts.assignments,
    )


def prove(run: FunctionRun) -> bool:
    """Prove the obligations and cross-check the answers. False if that
    already decided the verdict (unknown or inconsistent)."""
    if run.options.compose and prove_composed(run):
        return True
    graphs = build_graphs(run)
    if isinstance(graphs, Undecided):
        run.stop(Status.UNKNOWN, graphs.reason)
        return False
    if graphs.one_path:
        return prove_one_path(run, graphs)
    return check_all_paths(run, graphs)


def conclude(run: FunctionRun) -> FunctionReport:
    """The function's verdict and report, made once from what the proof
    counted (its `Tally`): stopped early, refuted, unknown, bounded or
    verified, in that order of precedence."""
    tally, corr = run.tally, run.corr
    if tally.stopped is not None:
        return _report(tally, *tally.stopped, lemma="")
    # An input op the rewrite may remove (a `gpu.wait`: phase 2 moves waits
    # out of `async.execute` bodies): what it ordered is the proof's
    # business. Any other dropped op is a mismatch even when the orderings
    # survive.
    dropped = [op for op in corr.dropped if not registry.is_gpu_wait(op.name)]
    if not tally.violations and not run.undecided and dropped:
        tally.violations.extend(
            mismatch_violation(
                Mismatch("mismatch", f"'{op.name}' op of the input is missing from the output", run.fout, op)
            )
            for op in dropped
        )
    bounded, lemma = tally.bounded, ""
    if bounded:
        if run.lemma.holds:
            bounded, lemma = False, "loop iterations are independent: the bound covers every trip count"
        else:
            lemma = run.lemma.why
    if tally.violations:
        return _report(tally, Status.REFUTED, "", lemma, bounded)
    if run.undecided:
        why = f"{len(run.undecided)} obligation(s) not decided: {run.undecided[0]}"
        return _report(tally, Status.UNKNOWN, why, lemma, bounded)
    return _report(tally, Status.BOUNDED if bounded else Status.VERIFIED, "", lemma, bounded)


def _report(tally: Tally, verdict: Status, reason: str, lemma: str, bounded: bool | None = None) -> FunctionReport:
    """The frozen record of a function's check."""
    return FunctionReport(
        tally.name,
        verdict,
        obligations=tally.obligations,
        proved=tally.proved,
        agreements=tally.agreements,
        violations=tuple(tally.violations),
        reason=reason,
        bounded=tally.bounded if bounded is None else bounded,
        unroll=tally.unroll,
        z3_checks=tally.z3_checks,
        paths=tally.paths,
        sampled_paths=tally.sampled_paths,
        lemma=lemma,
        graph=tally.graph,
        missing=tuple(tally.missing),
        regions=tally.regions,
    )
