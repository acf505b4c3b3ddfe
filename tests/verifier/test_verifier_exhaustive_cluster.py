"""`exhaustive --cluster`: a local Dask cluster of two workers gives the
in-process run's totals and smallest programs, also when a worker is
killed mid-run (its chunks are run again), and every program once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from verifier.harness.exhaustive_runners import RefimplRunner
from verifier.harness.exhaustive_summary import Summary
from verifier.programs.enumeration import WHOLE, batched, programs_up_to

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]


def _outcome(s: Summary) -> dict:
    return {
        "sizes": {n: {k: v for k, v in row.items() if k != "time_s"} for n, row in s.sorted_rows().items()},
        "bugs": {sig: (g.count, g.smallest.id) for sig, g in s.bugs.items()},
        "failures": {m: (g.count, g.smallest.id) for m, g in s.failures.items()},
    }


@pytest.mark.parametrize("mode", ["reference", "seed"])
def test_local_cluster_with_a_worker_killed(mode: str) -> None:
    from verifier.harness.cluster import run_on_cluster

    runner = RefimplRunner(mode, 10_000)
    want = Summary.of((r for b in batched(programs_up_to(WHOLE, 2), 64) for r in runner.run(b)), 0.0)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        got, ids = Summary(), []
        results = run_on_cluster(runner, programs_up_to(WHOLE, 2), chunk=5, client=client)
        first = next(results)
        got.add(first)
        ids.append(first.id)
        victim = next(iter(client.run(os.getpid).values()))
        os.kill(victim, signal.SIGKILL)
        after = 0
        for r in results:
            got.add(r)
            ids.append(r.id)
            after += 1
    assert after > 0
    assert sorted(ids) == sorted(p.id for p in programs_up_to(WHOLE, 2))
    assert _outcome(got) == _outcome(want)
    if mode == "seed":
        assert got.bugs  # the comparison covers bugs and their smallest programs


def test_cli_cluster_resumes_a_results_file(tmp_path: Path) -> None:
    res = tmp_path / "r.jsonl"
    args = [
        sys.executable,
        "-m",
        "verifier",
        "exhaustive",
        "--alphabet",
        "whole",
        "--max-size",
        "2",
        "--format",
        "json",
        "--results",
        str(res),
    ]
    plain = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=300, check=False)
    lines = res.read_text().splitlines(keepends=True)
    res.write_text("".join(lines[:150]))
    clustered = subprocess.run(
        [*args, "--cluster", "--jobs", "2"], capture_output=True, text=True, cwd=ROOT, timeout=300, check=False
    )
    assert clustered.returncode == plain.returncode, clustered.stderr
    a, b = json.loads(plain.stdout), json.loads(clustered.stdout)
    assert {k: v for k, v in a["totals"].items() if k != "time_s"} == {
        k: v for k, v in b["totals"].items() if k != "time_s"
    }
    ids = [json.loads(line)["id"] for line in res.read_text().splitlines()[1:]]
    assert sorted(ids) == sorted(p.id for p in programs_up_to(WHOLE, 2))
