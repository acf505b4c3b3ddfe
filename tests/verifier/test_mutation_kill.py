"""Mutation testing of the gate: every broken pass in `verifier.programs.mutants` must
be caught.

Each mutant is run through the gate (`verifier.harness.gate.judge`) on the corpus of
`verifier/corpus/` and on a deterministic sample of generated programs. A
program kills a mutant only if the correct rewrite of that program verifies
and the mutant's rewrite fails; a program the verifier cannot verify even
when rewritten correctly proves nothing about the mutant. When neither the
corpus nor the sample kills a mutant, Hypothesis searches generated programs
for a killer (and shrinks it). The kill table is printed (always, even
without `-s`) and every mutant must be killed.

`GATE_KILL_SAMPLE` sets the number of sampled generated programs (default 12).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, find, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from verifier.harness.gate import FAIL, PASS, RefimplImpl, judge
from verifier.programs.generators import STRAIGHT, Features, program_texts
from verifier.programs.mutants import MUTANTS, MutantImpl

CORPUS = sorted((Path(__file__).parents[2] / "verifier" / "corpus").glob("*.mlir"))
SAMPLE = int(os.environ.get("GATE_KILL_SAMPLE", "12"))
SEARCH = settings(
    max_examples=60, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck)
)


@functools.cache
def programs() -> list[tuple[str, str]]:
    """(label, text): the corpus, then a deterministic generated sample."""
    out = [(p.name, p.read_text()) for p in CORPUS]
    sample: list[str] = []

    # A fixed seed rather than `derandomize`: as deterministic, but the
    # derandomized search spends its first examples on near-copies of one tiny
    # program.
    @seed(20261129)
    @settings(max_examples=SAMPLE, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.one_of(program_texts(STRAIGHT), program_texts(Features())))
    def collect(text: str) -> None:
        sample.append(text)

    collect()
    out += [(f"generated#{k}", t) for k, t in enumerate(sample)]
    return out


@functools.cache
def reference_verifies(text: str) -> bool:
    """The reference's rewrite is proved (`bounded` too: a program whose
    loops carry tokens is proved up to the bound, and a mutant refuted on
    it is refuted on a concrete path)."""
    outcome = judge(text, RefimplImpl("reference"))
    return outcome.status == PASS or outcome.verdict == "bounded"


@functools.cache
def kills(name: str) -> tuple[list[str], str | None]:
    """Labels of the programs that kill mutant `name`; and a shrunk
    generated killer when none of them does."""
    killers = [
        label for label, text in programs() if reference_verifies(text) and judge(text, MutantImpl(name)).status == FAIL
    ]
    if killers:
        return killers, None
    try:
        found = find(
            program_texts(Features()),
            lambda t: reference_verifies(t) and judge(t, MutantImpl(name)).status == FAIL,
            settings=SEARCH,
        )
    except NoSuchExample:
        return [], None
    return ["searched"], found


def kill_table() -> str:
    total = len(programs())
    n_gen = total - len(CORPUS)
    rows = [f"{'mutant':24} {'corpus':>7} {'generated':>9}  first killer", "-" * 72]
    killed = 0
    for name in MUTANTS:
        killers, found = kills(name)
        killed += bool(killers)
        first = killers[0] if killers else "SURVIVED"
        gen = sum(k.startswith("generated#") for k in killers)
        corpus = len(killers) - gen
        if found:
            rows.append(f"{name:24} {'0':>7} {'search':>9}  shrunk: {found!r}")
        else:
            rows.append(f"{name:24} {f'{corpus}/{len(CORPUS)}':>7} {f'{gen}/{n_gen}':>9}  {first}")
    rows.append(f"kill rate: {killed}/{len(MUTANTS)} mutants ({len(CORPUS)} corpus programs, {n_gen} generated)")
    return "\n".join(rows)


def test_there_are_at_least_ten_mutants() -> None:
    assert len(MUTANTS) >= 10


@pytest.mark.parametrize("name", list(MUTANTS))
def test_mutant_changes_some_rewrite(name: str) -> None:
    # A mutant that never edits anything would be "survived" for a dull reason.
    changed = any(MutantImpl(name)(text) != RefimplImpl("reference")(text) for _, text in programs())
    assert changed, f"mutant {name} edits no rewrite of the corpus or the sample"


@pytest.mark.parametrize("name", list(MUTANTS))
def test_mutant_is_killed(name: str) -> None:
    killers, found = kills(name)
    assert killers, f"mutant {name} ({MUTANTS[name].description}) survives the gate"


def test_print_kill_table() -> None:
    table = kill_table()
    print(table)  # captured: `pytest -rP` shows it
    assert "SURVIVED" not in table, table
