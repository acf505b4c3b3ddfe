"""Verdict honesty: `verified` only when Z3 proved every obligation and
reachability agrees; Z3's `unknown` stays unknown; a disagreement between the
two oracles is `inconsistent`, never a verdict either way."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import z3

import verifier
import verifier.proof.one_path
import verifier.smt.encode
from refimpl import rewrite
from spec.syntax.parser import parse_module
from tests.support.rewrites import GOOD, SYNC
from verifier.output.report import INCONSISTENT, UNKNOWN, VERIFIED

ROOT = Path(__file__).resolve().parents[2]


def parsed() -> tuple:
    return parse_module(SYNC, "in.mlir"), parse_module(GOOD, "out.mlir")


def test_resource_limit_gives_unknown() -> None:
    # Queries that need a search: loops that carry tokens, proved whole by
    # the guarded encoding (a series-parallel slice of the straight-line
    # encoding reduces to one edge, which Z3's simplifier decides unsat
    # before it spends a unit).
    src = (ROOT / "tests" / "corpus" / "scf_for_forms.mlir").read_text()
    out = parse_module(src, "out.mlir")
    rewrite(out)
    r = verifier.check(parse_module(src, "in.mlir"), out, rlimit=1)
    assert r.verdict == UNKNOWN
    assert r.exit_code == 3
    assert "not decided" in r.functions[0].reason
    assert "verified" not in r.text().replace("verdict: unknown", "")


def test_solver_unknown_is_never_verified(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(z3.Solver, "check", lambda self, *a: z3.unknown)
    monkeypatch.setattr(z3.Solver, "reason_unknown", lambda self: "timeout")
    r = verifier.check(*parsed())
    assert r.verdict == UNKNOWN
    assert r.functions[0].proved == 0
    assert "Z3: timeout" in r.functions[0].reason


def test_oracle_disagreement_is_inconsistent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verifier.proof.one_path, "reachable", lambda g, a, b: False)
    r = verifier.check(*parsed())
    assert r.verdict == INCONSISTENT
    assert r.exit_code == 3
    assert "reachability says unordered" in r.functions[0].reason


def test_oracles_agree_on_the_right_rewrite() -> None:
    r = verifier.check(*parsed())
    f = r.functions[0]
    # Four orderings inside, and the return before the program's end.
    assert r.verdict == VERIFIED and f.agreements == f.obligations == f.proved == 5


def test_cli_unknown_exit_3(tmp_path: Path) -> None:
    # As above: slices that need a search, and the rewrite from the refimpl's CLI.
    (tmp_path / "in.mlir").write_text((ROOT / "tests" / "corpus" / "scf_for_forms.mlir").read_text())
    subprocess.run(
        [sys.executable, "-m", "refimpl", str(tmp_path / "in.mlir"), "-o", str(tmp_path / "out.mlir")],
        check=True,
        cwd=ROOT,
    )
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "verifier",
            "check",
            str(tmp_path / "in.mlir"),
            "--after",
            str(tmp_path / "out.mlir"),
            "--rlimit",
            "1",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 3
    assert "verdict: unknown" in r.stdout and "verified" not in r.stdout
