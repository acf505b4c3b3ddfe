"""Two oracles: the Z3 verdict equals the verdict of exhaustive schedule
exploration in the executable semantics.

On small generated programs (one function, straight-line host code with GPU
ops, user tokens and waits, `async.execute` with tokens and values, awaits;
no `scf`/`cf`, whose paths the explorer would need concrete flags for) and on
their rewrites, both correct (the refimpl)
and broken (every mutant of `verifier.programs.mutants`):

- oracle 1 is `verifier.check` (Z3 over the happens-before graph);
- oracle 2 runs `spec.semantics.schedule.explore` exhaustively on the input
  and on the rewrite and calls the rewrite refuted iff two effectful events
  (of any threads) that are ordered in every run of the input (not in the
  input's `concurrent` pairs) may overlap in some run of the rewrite; events
  are paired through the verifier's op correspondence.

Rewrites the verifier rejects as not being a rewrite at all (a mismatch or
ill-formed IR) and programs either oracle cannot handle (unknown verdict,
unsupported op) are left out and counted. The agreement count is printed.
"""

from __future__ import annotations

import functools
import re

import pytest
from hypothesis import HealthCheck, given, settings

import verifier
from spec.diagnostics import DiagnosticError
from spec.ir import Operation
from spec.semantics import interp, schedule
from spec.syntax.parser import parse_module
from tests.support.profiles import examples
from verifier.harness.gate import ImplFailed, RefimplImpl
from verifier.match.correspondence import match
from verifier.programs.generators import Features, programs
from verifier.programs.mutants import MUTANTS, MutantImpl

ORACLE_FEATURES = Features(scf=False, cf=False, async_exec=True, max_functions=1, max_ops=5, max_depth=1)
EXAMPLES = examples(12)
BOUND = 5000
"""Schedules per exploration; an exploration cut short is left out."""

TALLY = {"agree": 0, "agree-verified": 0, "agree-refuted": 0, "left-out": 0}


def _func(module: Operation) -> Operation:
    return next(op for op in module.walk() if op.name == "func.func" and op.regions and op.regions[0].blocks)


_KEY = re.compile(r"^[\w.]+@(<\w+>:\d+:\d+)")


def _concurrent(func: Operation) -> set[frozenset[str]] | None:
    """Pairs of locations of effectful events that happens-before leaves
    unordered in some run (any threads); None if the exploration is
    unsupported or was cut short."""
    try:
        ex = schedule.explore(func, interp.default_args(func), exhaustive=True, bound=BOUND, pairs=True)
    except (DiagnosticError, interp.Fault, schedule.ReplayError):
        return None
    if not ex.complete:
        return None
    out = set()
    for a, b in ex.concurrent:
        ma, mb = _KEY.match(a), _KEY.match(b)
        if ma is None or mb is None:
            return None
        out.add(frozenset((ma.group(1), mb.group(1))))
    return out


def exploration_verdict(fin: Operation, fout: Operation) -> str | None:
    """`verified`/`refuted` by schedule exploration, None when undecided:
    refuted iff two events that are ordered in every run of the input may
    overlap in some run of the rewrite."""
    before = _concurrent(fin)
    after = _concurrent(fout)
    if before is None or after is None:
        return None
    corr = match(fin, fout)
    to_input = {str(o.loc): str(i.loc) for i, o in corr.to_output.items()}
    for pair in after:
        a, b = tuple(pair) if len(pair) == 2 else (next(iter(pair)),) * 2
        if a in to_input and b in to_input and frozenset((to_input[a], to_input[b])) not in before:
            return "refuted"
    return "verified"


@functools.cache
def _rewrite(text: str, impl_name: str) -> str | None:
    impl = RefimplImpl("reference") if impl_name == "reference" else MutantImpl(impl_name)
    try:
        return impl(text)
    except ImplFailed:
        return None


def _compare(text: str) -> list[str]:
    """Disagreements on `text` over the correct rewrite and every mutant."""
    problems = []
    for impl_name in ["reference", *MUTANTS]:
        out = _rewrite(text, impl_name)
        if out is None:
            TALLY["left-out"] += 1
            continue
        fin = _func(parse_module(text, "<input>"))
        fout = _func(parse_module(out, "<output>"))
        report = verifier.check(fin.parent_op, fout.parent_op)  # type: ignore[arg-type]
        fr = report.functions[0]
        z3_verdict = fr.verdict
        if z3_verdict not in ("verified", "refuted") or any(
            v.kind in ("mismatch", "ill-formed") for v in fr.violations
        ):
            TALLY["left-out"] += 1
            continue
        explored = exploration_verdict(fin, fout)
        if explored is None:
            TALLY["left-out"] += 1
            continue
        if explored == z3_verdict:
            TALLY["agree"] += 1
            TALLY[f"agree-{explored}"] += 1
        else:
            problems.append(f"{impl_name}: Z3 says {z3_verdict}, exploration says {explored}\n{out}")
    return problems


@settings(
    max_examples=EXAMPLES, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck)
)
@given(program=programs(ORACLE_FEATURES))
def test_z3_agrees_with_exhaustive_exploration(program) -> None:
    problems = _compare(program.text)
    assert not problems, "the two oracles disagree on:\n" + program.text + "\n".join(problems)


def test_print_agreement() -> None:
    # Runs after the property (file order): report the tally (captured:
    # `pytest -rP` shows it); something must have been compared, and
    # refutations must be among the agreements.
    print(
        f"two oracles: {TALLY['agree']} agreements ({TALLY['agree-verified']} verified, "
        f"{TALLY['agree-refuted']} refuted), {TALLY['left-out']} rewrites left out"
    )
    if TALLY["agree"] == 0:
        pytest.skip("run with the property test to get a tally")
    assert TALLY["agree-refuted"] > 0 and TALLY["agree-verified"] > 0
