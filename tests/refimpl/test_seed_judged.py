"""The reviewer's question of 2020 ("is this correct if the region has cycles
or diamond control flow?"), answered by the verifier for the seed and for
today's upstream algorithm (refimpl --mode mlir19) on the README's examples."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _check(example: str, mode: str) -> dict:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "verifier",
            "check",
            str(REPO / "examples" / example),
            "--mode",
            mode,
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    report = json.loads(proc.stdout)
    report["exit"] = proc.returncode
    return report


@pytest.mark.parametrize(
    ("example", "path_text"),
    [("seed_diamond.mlir", "takes the else branch"), ("seed_loop.mlir", "runs 0 times")],
)
def test_seed_is_refuted_on_the_path_that_skips_its_wait(example: str, path_text: str) -> None:
    report = _check(example, "seed")
    assert (report["verdict"], report["exit"]) == ("refuted", 1)
    (violation,) = report["functions"][0]["violations"]
    assert violation["first"]["op"] == "gpu.launch_func" and violation["second"]["op"] == "func.call"
    assert any(path_text in step for step in violation["path"]), violation["path"]


@pytest.mark.parametrize("example", ["seed_diamond.mlir", "seed_loop.mlir"])
def test_upstream_algorithm_verifies_on_the_same_programs(example: str) -> None:
    report = _check(example, "mlir19")
    assert (report["verdict"], report["exit"]) == ("verified", 0)
