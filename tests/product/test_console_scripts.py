"""The installed commands: `gpu-async-opt` and `gpu-async-verify`.

They are console scripts of the distribution (`[project.scripts]`), so
these tests run the scripts pip wrote next to this interpreter, as a user
types them, and compare them with `python -m refimpl` / `python -m verifier`.
Also here: `--pass-pipeline` as mlir-opt spells the pass, `check
--save-output`, and that loading the gate's pytest plugin (which every
pytest run of an environment with the distribution does) loads neither Z3
nor the project's modules.
"""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spec import tool

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
DEMO = str(REPO / "examples" / "demo.mlir")
LATE = str(REPO / "examples" / "demo-late-wait.mlir")


def _script(name: str) -> Path:
    path = BIN / name
    if not path.exists():
        pytest.skip(f"{name} is not installed next to {sys.executable} (pip install -e . writes it)")
    return path


def _run(*argv: str | Path, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_entry_points_name_the_mains() -> None:
    scripts = {
        ep.name: ep.value
        for ep in importlib.metadata.distribution(tool.DISTRIBUTION).entry_points
        if ep.group == "console_scripts"
    }
    assert scripts == {
        "gpu-async-opt": "refimpl.__main__:console_main",
        "gpu-async-verify": "verifier.__main__:console_main",
    }


def test_gpu_async_opt_is_the_refimpl() -> None:
    opt = _script("gpu-async-opt")
    res = _run(opt, DEMO)
    ref = _run(sys.executable, "-m", "refimpl", DEMO)
    assert res.returncode == 0 == ref.returncode, res.stderr
    assert res.stdout == ref.stdout and "gpu.wait async" in res.stdout
    version = _run(opt, "--version")
    assert version.stdout.strip() == f"gpu-async-opt {importlib.metadata.version(tool.DISTRIBUTION)}"
    assert _run(opt, "--help").stdout.startswith("usage: gpu-async-opt")


def test_gpu_async_verify_checks_and_refutes() -> None:
    verify = _script("gpu-async-verify")
    ok = _run(verify, "check", DEMO)
    assert ok.returncode == 0 and ok.stdout.endswith("verdict: verified\n"), ok.stderr
    bad = _run(verify, "check", DEMO, "--after", LATE)
    assert bad.returncode == 1 and "verdict: refuted" in bad.stdout
    assert "the output's outcome differs from the input's" in bad.stdout  # the race shows in the values
    assert _run(verify, "check", "--help").stdout.startswith("usage: gpu-async-verify check")
    exhaustive = _run(verify, "exhaustive", "--help")
    assert exhaustive.returncode == 0 and "example:" in exhaustive.stdout
    assert _run(verify, "exhaustive", "--version").stdout.startswith("gpu-async-verify ")


@pytest.mark.parametrize(
    "pipeline",
    [
        "builtin.module(func.func(gpu-async-region))",
        "builtin.module( func.func( gpu-async-region ) )",
        "builtin.module(gpu-async-region)",
    ],
)
def test_pass_pipeline_names_the_pass(pipeline: str) -> None:
    res = _run(sys.executable, "-m", "refimpl", f"--pass-pipeline={pipeline}", DEMO)
    plain = _run(sys.executable, "-m", "refimpl", "-gpu-async-region", DEMO)
    assert res.returncode == 0, res.stderr
    assert res.stdout == plain.stdout


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--pass-pipeline=builtin.module(func.func(cse))"], "unknown pass pipeline"),
        (
            ["--pass-pipeline=builtin.module(func.func(gpu-async-region))", "-gpu-async-region"],
            "can't be used with individual pass options",
        ),
    ],
)
def test_other_pipelines_are_usage_errors(argv: list[str], message: str) -> None:
    res = _run(sys.executable, "-m", "refimpl", *argv, DEMO)
    assert res.returncode == 2 and res.stdout == ""
    assert message in res.stderr and "Traceback" not in res.stderr


def test_save_output_keeps_the_rewrite_and_names_it(tmp_path: Path) -> None:
    seed = str(REPO / "examples" / "seed_diamond.mlir")
    res = _run(
        sys.executable,
        "-m",
        "verifier",
        "check",
        seed,
        "--mode",
        "seed",
        "--save-output",
        "seed-out.mlir",
        cwd=tmp_path,
    )
    assert res.returncode == 1, res.stderr
    saved = (tmp_path / "seed-out.mlir").read_text()
    assert saved == _run(sys.executable, "-m", "refimpl", "--mode", "seed", seed).stdout
    # Every location of the output in the report names the saved file.
    assert res.stdout.startswith("seed-out.mlir:16:5: error:")
    assert "<refimpl" not in res.stdout
    assert "line:column in seed-out.mlir" in res.stdout  # the schedule's legend


def test_save_output_with_after_is_a_usage_error(tmp_path: Path) -> None:
    res = _run(
        sys.executable, "-m", "verifier", "check", DEMO, "--after", LATE, "--save-output", str(tmp_path / "x.mlir")
    )
    assert res.returncode == 2 and res.stdout == "" and "--save-output" in res.stderr
    assert not (tmp_path / "x.mlir").exists()


def test_loading_the_gate_plugin_is_light() -> None:
    """Every pytest run of an environment with the distribution imports the
    plugin: it must not load Z3, Hypothesis or the project's modules."""
    code = (
        "import sys, verifier.pytest_plugin\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in {'z3', 'hypothesis', 'spec', 'refimpl', 'lark'}"
        " or (m.startswith('verifier.') and m != 'verifier.pytest_plugin'))\n"
        "print(heavy)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=REPO)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"
    # ... and the API is still there on first use.
    api = subprocess.run(
        [sys.executable, "-c", "import verifier; print(verifier.check.__module__)"],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert api.stdout.strip() == "verifier.proof.pipeline"


def test_gate_reads_its_implementation_from_pytest_ini(tmp_path: Path) -> None:
    """`gpu_async_impl` in a project's pytest.ini is the gate's `--impl`;
    the command line (`--impl` or its namespaced `--gpu-async-impl`) wins."""
    (tmp_path / "pytest.ini").write_text(f"[pytest]\ngpu_async_impl = {sys.executable} -m refimpl --mode mlir19\n")
    gate = [
        sys.executable,
        "-m",
        "pytest",
        "--pyargs",
        "verifier",
        "-p",
        "no:cacheprovider",
        "-q",
        "-k",
        "async_value_consumers",
    ]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    from_ini = subprocess.run(gate, cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)
    # upstream's phase-2 race in this corpus file: mlir19 mode is refuted
    assert from_ini.returncode == 1 and "1 failed" in from_ini.stdout, from_ini.stdout
    overridden = subprocess.run(
        [*gate, "--gpu-async-impl", f"{sys.executable} -m refimpl"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert overridden.returncode == 0 and "1 passed" in overridden.stdout, overridden.stdout
