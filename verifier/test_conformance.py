"""The conformance gate: `pytest --pyargs verifier [--impl CMD] [--expect-output-of MODE]`.

(`pytest verifier/ ...` in a checkout.) The options, fixtures and Hypothesis
profiles come from the `verifier.pytest_plugin` plugin, installed with the
distribution, so the gate runs from an installed copy in any directory.

Runs the implementation under test (default: the refimpl in reference mode;
`--impl CMD` gets the input path appended and prints the rewrite) on every
program of `verifier/corpus/` and on Hypothesis-generated programs
(`verifier.programs.generators`), and fails on any output that the verifier does not
verify, printing the (shrunk) program, the implementation's output and the
counterexample. An `unknown` verdict (a construct the verifier does not
model yet) or a `bounded` one (proved only up to the loop unroll bound)
skips a corpus file with the reason and is counted, not failed, for
generated programs: the gate never reports either as verified.

An implementation that does not register a dialect the gate uses (LLVM
head's `iree-opt` has no `async`) is run with `--impl-lacks DIALECT`: the
corpus files that use it are skipped with that reason, and the enumerated
and generated programs are made without it (the number left out is part
of the enumerated test's message). Its verdict then covers those programs
only.

Each test is independent and writes only private temporary files, so the
gate runs under pytest-xdist (`-n auto`).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from verifier.harness.exhaustive import run as run_programs
from verifier.harness.exhaustive_results import Result
from verifier.harness.exhaustive_runners import CommandRunner, RefimplRunner
from verifier.harness.gate import FAIL, UNDECIDED, CommandImpl, Implementation, RefimplImpl, judge
from verifier.programs.enumeration import GATE, Alphabet, programs_up_to
from verifier.programs.generators import STRAIGHT, Features, programs
from verifier.pytest_plugin import gate_settings

CORPUS = sorted((Path(__file__).parent / "corpus").glob("*.mlir"))

KNOWN_VERIFIER_ISSUES: dict[str, str] = {}
"""Corpus files the verifier itself gets wrong (not the implementation):
expected to fail, non-strictly, so the fix shows up as XPASS."""


def _corpus_params() -> list[object]:
    return [
        pytest.param(p, id=p.name, marks=[pytest.mark.xfail(reason=KNOWN_VERIFIER_ISSUES[p.name], strict=False)])
        if p.name in KNOWN_VERIFIER_ISSUES
        else pytest.param(p, id=p.name)
        for p in CORPUS
    ]


def _uses(text: str, dialects: frozenset[str]) -> list[str]:
    """The dialects of `dialects` whose ops `text` names."""
    return [d for d in sorted(dialects) if re.search(rf"(?<![\w$.]){re.escape(d)}\.[a-z_]", text)]


@pytest.mark.parametrize("path", _corpus_params())
def test_corpus(path: Path, impl: Implementation, expect_output_of: str | None, impl_lacks: frozenset[str]) -> None:
    text = path.read_text()
    lacking = _uses(text, impl_lacks)
    if lacking:
        pytest.skip(f"{path.name} uses the {', '.join(lacking)} dialect, which the implementation lacks (--impl-lacks)")
    outcome = judge(text, impl, expect_output_of)
    if outcome.status == FAIL:
        pytest.fail(f"{path}:\n{outcome.message(impl)}", pytrace=False)
    if outcome.status == UNDECIDED:
        pytest.skip(f"verifier cannot decide {path.name}: {outcome.detail.strip().splitlines()[-2:]}")


def test_corpus_is_present() -> None:
    # The gate must not pass vacuously on a missing corpus.
    assert len(CORPUS) >= 10


GATE_MAX_SIZE = 4
"""Every program of `enumeration.GATE` up to this size: 670 programs, about
7 s in-process, 15 s through `mlir-opt-19` in runs of 100."""


def gate_alphabet(lacks: frozenset[str]) -> Alphabet:
    """`enumeration.GATE`, without `async.execute` when the implementation lacks `async`."""
    return dataclasses.replace(GATE, execute=False) if "async" in lacks else GATE


def test_every_small_program(impl: Implementation, impl_lacks: frozenset[str]) -> None:
    """Every program of 1..4 ops over `enumeration.GATE` (launches, executes,
    awaits, `scf.if`), smallest first, before the sampled programs: the
    gate finds upstream's loss of a launch past the function's end here,
    without luck. Stops at the first batch with a failure; `unknown` is
    counted, not failed. (`--expect-output-of` does not apply: the
    programs have no expected output.)"""
    runner: CommandRunner | RefimplRunner
    if isinstance(impl, CommandImpl):
        runner = CommandRunner(impl.argv, batch=100, timeout_ms=10_000)
    elif isinstance(impl, RefimplImpl):
        runner = RefimplRunner(impl.mode, timeout_ms=10_000)
    else:
        pytest.skip(f"no batch runner for {impl!r}")
    alphabet = gate_alphabet(impl_lacks)
    expected = 670 if alphabet is GATE else sum(1 for _ in programs_up_to(alphabet, GATE_MAX_SIZE))
    seen, unknown = 0, 0
    failed: list[Result] = []
    for r in run_programs(runner, programs_up_to(alphabet, GATE_MAX_SIZE), jobs=1, chunk=100):
        seen += 1
        unknown += r.verdict in ("unknown", "bounded")
        if r.verdict not in ("verified", "unknown", "bounded"):
            failed.append(r)
        if failed and seen % 100 == 0:
            break
    if failed:
        r = min(failed, key=lambda r: (r.size, r.id))
        pytest.fail(
            f"gate: {r.verdict} on {len(failed)} of the first {seen} enumerated programs ({alphabet.describe()}) "
            f"for implementation {impl}; the smallest (size {r.size}, id {r.id}, {r.signature}):\n"
            f"===== input program =====\n{r.text}===== {r.verdict} =====\n{r.detail}\n"
            f"(see it whole: python -m verifier check FILE --impl CMD)",
            pytrace=False,
        )
    assert seen == expected, f"{seen} programs enumerated, {expected} expected"
    if alphabet is not GATE:
        print(
            f"gate: {670 - expected} of the 670 enumerated programs left out (--impl-lacks {' '.join(sorted(impl_lacks))})"
        )
    assert unknown <= seen // 10, f"{unknown} of {seen} programs undecided by the verifier"


def _features(base: Features, lacks: frozenset[str]) -> Features:
    """`base` without `async.execute` when the implementation lacks `async`."""
    return dataclasses.replace(base, async_exec=False) if "async" in lacks else base


def _gate(text: str, impl: Implementation, expect: str | None) -> None:
    outcome = judge(text, impl, expect)
    event(f"verdict: {outcome.verdict}")
    if outcome.status == FAIL:
        # AssertionError (not pytest.fail) so that Hypothesis shrinks it.
        raise AssertionError(outcome.message(impl))


@gate_settings()
@given(data=st.data())
def test_generated_straight_line(
    data: st.DataObject, impl: Implementation, expect_output_of: str | None, impl_lacks: frozenset[str]
) -> None:
    """Host code without control flow: GPU ops, user tokens, async.execute."""
    program = data.draw(programs(_features(STRAIGHT, impl_lacks)), label="program")
    _gate(program.text, impl, expect_output_of)


@gate_settings()
@given(data=st.data())
def test_generated_programs(
    data: st.DataObject, impl: Implementation, expect_output_of: str | None, impl_lacks: frozenset[str]
) -> None:
    """Everything the generator makes: scf, cf, async, several functions."""
    program = data.draw(programs(_features(Features(), impl_lacks)), label="program")
    _gate(program.text, impl, expect_output_of)
