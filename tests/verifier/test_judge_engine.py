"""`bench/judge.py` on worker processes and on a Dask cluster judges the pairs a serial run judges.

The same seed draws the same pairs (Hypothesis runs in a thread of its own
and hands them over one at a time); `--jobs 2` and `--cluster` judge them
elsewhere and merge the rows in the order drawn, so the whole report but
its timings is the serial run's. And a pair's time limit holds in a
thread that is not the main one (a Dask worker runs its tasks in one).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import ModuleType

import pytest

from verifier.harness.cluster import available

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--pairs", "10", "--seed", "5", "--sources", "identity,refimpl", "--pair-seconds", "600"]
"""Small pairs, and a time limit far past what they take on a loaded
machine: a pair stopped by the wall clock in one run and not in another
would be a difference of load, not of where the pairs ran."""


def _judge_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("judge_bench", ROOT / "bench" / "judge.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["judge_bench"] = module
    spec.loader.exec_module(module)
    return module


def _report(*extra: str) -> list[str]:
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "judge.py"), *ARGS, *extra],
        capture_output=True, text=True, cwd=ROOT, timeout=600, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    # Everything but the wall time and the CPU times.
    return [ln for ln in run.stdout.splitlines() if " pairs in " not in ln and not ln.startswith("CPU seconds")]


@pytest.mark.slow
def test_jobs_and_cluster_judge_as_the_serial_run() -> None:
    serial = _report()
    assert any(ln.startswith("| verified |") for ln in serial), serial
    assert _report("--jobs", "2") == serial
    if available():
        assert _report("--cluster", "--jobs", "2") == serial


def test_the_pairs_drawn_are_the_seeds_in_order() -> None:
    judge = _judge_script()
    from verifier.programs.boundary_programs import ALL

    first = list(judge.drawn_pairs(6, 11, ALL, ["identity"], lambda: False))
    again = list(judge.drawn_pairs(6, 11, ALL, ["identity"], lambda: False))
    assert len(first) == 6 and first == again
    # Stopped early: a prefix, and the drawing thread ends.
    taken = []
    for pair in judge.drawn_pairs(6, 11, ALL, ["identity"], lambda: len(taken) >= 2):
        taken.append(pair)
    assert taken == first[:2]


@pytest.mark.parametrize("in_thread", [False, True])
def test_a_pair_over_its_time_is_stopped(in_thread: bool) -> None:
    judge = _judge_script()
    outcome: list[str] = []

    def slow() -> None:
        started = time.monotonic()
        try:
            with judge._deadline(0.2):
                while time.monotonic() - started < 10:
                    sum(range(1000))
            outcome.append("finished")
        except judge._Slow:
            outcome.append(f"stopped after {time.monotonic() - started:.1f} s")

    if in_thread:
        t = threading.Thread(target=slow)
        t.start()
        t.join(20)
    else:
        slow()
    assert len(outcome) == 1 and outcome[0].startswith("stopped after 0."), outcome
    # Nothing fires after the block: a pair that ends in time is not stopped.
    with judge._deadline(0.1):
        pass
    time.sleep(0.3)
