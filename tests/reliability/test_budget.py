"""Default budgets: a small program never holds `check` (or the gate) for
minutes; a spent budget is `unknown` with the reason and the figures reached,
never `verified`, never a hang; `--budget-s 0` is no budget."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import verifier
from refimpl import rewrite
from spec.syntax.parser import parse_module
from tests.reliability.common import SMALL, carried_loops, env, nested_loops, no_traceback, tool
from verifier.harness.gate import UNDECIDED, RefimplImpl, judge
from verifier.proof import budget


def test_help_documents_the_default_formula() -> None:
    r = tool("check", "--help")
    assert r.returncode == 0
    text = " ".join(r.stdout.split())
    assert "default 30 s + 1 ms per input op; 0: no limit" in text


def test_default_scales_with_the_input() -> None:
    small = parse_module(SMALL, "small.mlir")
    assert budget.default_seconds(small) == 30.0 + 0.001 * budget.op_count(small)
    assert budget.op_count(small) == 3  # func.func, gpu.memset, func.return
    big = parse_module(nested_loops(40), "big.mlir")
    assert budget.default_seconds(big) > budget.default_seconds(small)


def test_op_count_is_the_walks_count() -> None:
    # Counted a block at a time, as many as `nested_ops` walks: on nested
    # regions, on several blocks (`cf`) and on every program of `whole` to size 2.
    from verifier.programs.enumeration import ALPHABETS, programs_up_to
    from verifier.programs.program_ir import program_ir

    modules = [parse_module(SMALL, "small.mlir"), parse_module(nested_loops(40), "big.mlir")]
    modules += [m for p in programs_up_to(ALPHABETS["whole"], 2) if (m := program_ir(p, "<input>")) is not None]
    assert len(modules) > 400
    for m in modules:
        assert budget.op_count(m) == sum(1 for _ in m.nested_ops())


def test_budget_zero_is_unbounded_and_negative_refused(tmp_path: Path) -> None:
    src = tmp_path / "small.mlir"
    src.write_text(SMALL)
    r = tool("check", str(src), "--budget-s", "0")
    assert r.returncode == 0, r.stderr
    assert "verdict: verified" in r.stdout
    r = tool("check", str(src), "--budget-s", "-1")
    assert r.returncode == 2 and "--budget-s >= 0" in r.stderr
    no_traceback(r)


def test_spent_budget_is_unknown_with_figures(tmp_path: Path) -> None:
    src = tmp_path / "nest7.mlir"
    src.write_text(carried_loops(7))
    r = tool("check", str(src), "--budget-s", "2", "--format", "json")
    no_traceback(r)
    assert r.returncode == 3, r.stderr
    report = json.loads(r.stdout)
    assert report["verdict"] == "unknown"
    (f,) = report["functions"]
    assert "the run's time budget of 2 s (--budget-s) was spent: after " in f["reason"]
    assert "in @f (" in f["reason"] and "obligations decided" in f["reason"]
    # Within the budget, the grace and a Python start-up or two.
    assert r.seconds < 2 + budget.GRACE_S + 5, r.seconds


def test_watchdog_interrupts_a_long_z3_query() -> None:
    """One query with a timeout far past the budget: the watchdog's
    interrupt ends it near the budget, not at the query's timeout."""
    fin = parse_module(carried_loops(7), "in.mlir")
    fout = rewrite(parse_module(carried_loops(7), "in.mlir"), "reference").module
    t0 = time.monotonic()
    report = verifier.check(fin, fout, budget_s=1.5, timeout_ms=600_000)
    took = time.monotonic() - t0
    assert report.verdict == "unknown"
    assert "--budget-s" in report.functions[0].reason
    assert took < 1.5 + budget.GRACE_S, took


def test_a_run_that_does_not_stop_is_ended_with_unknown(tmp_path: Path) -> None:
    """A step the watchdog cannot interrupt (here: a prover that sleeps):
    `GRACE_S` after the budget the command line prints `unknown` with the
    budget's reason and exits 3, nothing half-written."""
    src = tmp_path / "small.mlir"
    src.write_text(SMALL)
    script = textwrap.dedent(
        f"""
        import sys, time
        from spec.tool import run_tool
        from verifier.proof import budget, pipeline
        from verifier.__main__ import main
        budget.GRACE_S = 0.5
        def stuck(run):
            time.sleep(1000)
        pipeline.prove = stuck
        run_tool(lambda: main(["check", {str(src)!r}, "--budget-s", "1", "--format", "json"]), io_failure=2)
        """
    )
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env(), timeout=60)
    took = time.monotonic() - t0
    assert p.returncode == 3, p.stderr
    assert "Traceback" not in p.stderr
    report = json.loads(p.stdout)
    assert report["verdict"] == "unknown"
    assert "was spent" in report["functions"][0]["reason"] and "stopped 0.5 s later" in report["functions"][0]["reason"]
    assert took < 15, took


def test_gate_judge_has_a_default_budget() -> None:
    """The gate judges with the default budget; a tiny one is undecided
    (skipped or counted), never a pass."""
    text = carried_loops(7)
    out = judge(text, RefimplImpl("reference"), budget_s=0.5)
    assert out.status == UNDECIDED and out.verdict == "unknown"
    assert "--budget-s" in out.detail
