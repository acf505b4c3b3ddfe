"""`Prover.prove_all` with half of its groups asked by a forked child
(`verifier.proof.second_process.Sharing`) gives the outcomes it gives alone:
the same verdicts, violations, counterexample schedules and query counts."""

from __future__ import annotations

import functools
import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import parallel.fork as fork
import verifier
import verifier.proof.second_process as second
import verifier.smt.encode as encode
from bench.bench_verify import generate
from spec.syntax.parser import parse_module

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork on this platform")

ROOT = Path(__file__).resolve().parents[2]


@functools.lru_cache(maxsize=1)
def _texts() -> tuple[str, str]:
    """A straight-line function of 1,500 GPU ops (well over the 2 groups of
    obligations `_report` sets as `MIN_FORKED_GROUPS`) and its rewrite by the refimpl
    with every fifth blocking wait dropped: proved groups and refuted ones."""
    text = generate(1500, seed=5)
    rewrite = subprocess.run(
        [sys.executable, "-m", "refimpl", "-"], input=text, capture_output=True, text=True, cwd=ROOT, check=True
    )
    waits = itertools.count()
    out = re.sub(r"    gpu.wait \[%\d+\]\n", lambda m: "" if next(waits) % 5 == 0 else m.group(0), rewrite.stdout)
    return text, out


def _report(monkeypatch: pytest.MonkeyPatch, forking: bool) -> dict:
    monkeypatch.setattr("parallel.jobs.can_fork", lambda: forking)
    # Equal queries are asked once (`Prover.query`): this function has only
    # a few distinct ones, so one query per group and a low threshold make
    # several groups, every other one handed to the child.
    monkeypatch.setattr(encode, "DEFAULT_BATCH", 1)
    monkeypatch.setattr(second, "MIN_FORKED_GROUPS", 2)
    text, out = _texts()
    r = verifier.check(parse_module(text, "in.mlir"), parse_module(out, "out.mlir"))
    data = json.loads(r.json_text())
    data.pop("timings", None)
    return {"data": data, "z3": [f.z3_checks for f in r.functions], "proved": [f.proved for f in r.functions]}


def test_forked_groups_give_the_same_report(monkeypatch: pytest.MonkeyPatch) -> None:
    alone = _report(monkeypatch, False)
    real_start = fork.Forked.start.__func__
    children: list[object] = []

    def counted(cls: type, fn: object) -> object:
        children.append(fn)
        return real_start(cls, fn)

    monkeypatch.setattr(fork.Forked, "start", classmethod(counted))
    forked = _report(monkeypatch, True)
    assert children  # the comparison is not vacuous: groups went to a child
    assert alone["data"]["verdict"] == "refuted"
    assert len(alone["data"]["functions"][0]["violations"]) >= 10
    # Schedules included: each comes from a solver of its own.
    assert forked["data"] == alone["data"] and forked["proved"] == alone["proved"]
    # The child's groups it could not prove are asked again here, so Z3
    # answers at most one query more per group handed out: half of the
    # groups, each a distinct query that the parent alone asks at least once.
    assert alone["z3"][0] <= forked["z3"][0] <= alone["z3"][0] + alone["z3"][0] // 2


def test_a_child_that_sends_nothing_leaves_the_work_to_the_parent(monkeypatch: pytest.MonkeyPatch) -> None:
    alone = _report(monkeypatch, False)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("no pickling")

    monkeypatch.setattr(fork.pickle, "dump", broken)
    assert _report(monkeypatch, True) == alone


def test_small_problems_stay_in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[object] = []
    monkeypatch.setattr(fork.Forked, "start", classmethod(lambda cls, fn: started.append(fn)))
    text, out = _texts()
    ma, mb = parse_module(text, "in.mlir"), parse_module(out, "out.mlir")
    monkeypatch.setattr("parallel.jobs.can_fork", lambda: True)
    monkeypatch.setattr(second, "MIN_FORKED_GROUPS", 10**6)
    verifier.check(ma, mb)
    assert started == []
    monkeypatch.setattr(second, "MIN_FORKED_GROUPS", 2)
    monkeypatch.setattr(encode, "DEFAULT_BATCH", 1)
    verifier.check(ma, mb)
    assert started


def test_solvers_renewed_in_the_child_stay_in_its_context(monkeypatch: pytest.MonkeyPatch) -> None:
    # The child replaces its solver every RENEW_AFTER slice copies, in the
    # Z3 context it made, as the parent does in its own.
    monkeypatch.setattr(encode, "RENEW_AFTER", 150)
    alone = _report(monkeypatch, False)
    forked = _report(monkeypatch, True)
    assert forked["data"] == alone["data"] and forked["proved"] == alone["proved"]


def test_verdicts_order_by_how_bad_and_only_against_verdicts() -> None:
    """`inconsistent < refuted < unknown < bounded < verified`; a verdict is
    equal to its word (JSON round trips), but ordering it against a plain
    word is an error: a table that holds verdicts and other words sorts by
    `key=str`, as the judge's running table does."""
    from verifier.harness.gate import Failure
    from verifier.smt.solver import Status

    assert Status.INCONSISTENT < Status.REFUTED < Status.UNKNOWN < Status.BOUNDED < Status.VERIFIED
    assert min(Status.VERIFIED, Status.UNKNOWN) is Status.UNKNOWN and Status.REFUTED == "refuted"
    with pytest.raises(TypeError):
        _ = Status.REFUTED <= "refuted"
    with pytest.raises(TypeError):
        sorted([Status.VERIFIED, Failure.TIMEOUT, Status.REFUTED])
    assert sorted([Status.VERIFIED, Failure.TIMEOUT, Status.REFUTED, Failure.IMPL_FAILED], key=str) == [
        "impl-failed",
        "refuted",
        "timeout",
        "verified",
    ]
