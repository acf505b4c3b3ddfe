"""The environments users run in: every outcome's `--format json` against
the schema shipped in the package, the locale and HOME, odd file names and
inputs that are not files, and byte-identical reports run after run."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import jsonschema
import pytest

import verifier
from spec.syntax.parser import parse_module
from tests.reliability.common import ROOT, SMALL, carried_loops, env, no_traceback, tool
from tests.verifier.test_verifier_bounds import LOOP

SCHEMA = json.loads((ROOT / "verifier" / "schema" / "report.schema.json").read_text())


def _valid(text: str) -> dict:
    report = json.loads(text)
    jsonschema.validate(report, SCHEMA)
    return report


def test_schema_is_itself_valid() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize(
    "case,code",
    [("verified", 0), ("refuted", 1), ("unknown", 3), ("bounded", 4)],
)
def test_every_outcome_matches_the_schema(tmp_path: Path, case: str, code: int) -> None:
    args: list[str]
    if case == "verified":
        (tmp_path / "in.mlir").write_text(SMALL)
        args = [str(tmp_path / "in.mlir")]
    elif case == "refuted":
        args = [str(ROOT / "examples/demo.mlir"), "--after", str(ROOT / "examples/demo-wrong.mlir")]
    elif case == "unknown":
        (tmp_path / "in.mlir").write_text(carried_loops(7))
        args = [str(tmp_path / "in.mlir"), "--budget-s", "1"]
    else:
        (tmp_path / "in.mlir").write_text(LOOP)
        args = [str(tmp_path / "in.mlir")]
    r = tool("check", *args, "--format", "json")
    no_traceback(r)
    assert r.returncode == code, r.stderr
    assert _valid(r.stdout)["verdict"] == case


def test_inconsistent_matches_the_schema() -> None:
    """No real input is inconsistent (it is a bug): a prove step that says so."""
    from verifier.smt.solver import Status

    def disagree(run: object) -> bool:
        run.stop(Status.INCONSISTENT, "the two oracles disagree (made up)")  # type: ignore[attr-defined]
        return False

    m = parse_module(SMALL, "in.mlir")
    report = verifier.check(m, parse_module(SMALL, "out.mlir"), prove_step=disagree)
    assert _valid(report.json_text())["verdict"] == "inconsistent"


@pytest.mark.parametrize("changes", [{"HOME": None}, {"LANG": "C", "LC_ALL": "POSIX"}, {"TMPDIR": "/nonexistent/dir"}])
def test_locale_home_tmpdir(tmp_path: Path, changes: dict) -> None:
    name = tmp_path / "été ünïcode.mlir"
    name.write_text(SMALL.replace("@f", "@f") + "// é\n")
    r = tool("check", str(name), environ=env(**changes))
    no_traceback(r)
    assert r.returncode == 0, r.stderr
    assert "verdict: verified" in r.stdout


@pytest.mark.parametrize("fname", ["with space.mlir", "-leading-dash.mlir", "new\nline.mlir", "ü-non-ascii.mlir"])
def test_odd_file_names(tmp_path: Path, fname: str) -> None:
    (tmp_path / fname).write_text(SMALL)
    arg = "./" + fname if fname.startswith("-") else fname
    r = tool("check", arg, "--dot", "graph " + fname + ".dot", cwd=tmp_path, environ=env(LANG="C", LC_ALL="POSIX"))
    no_traceback(r)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / ("graph " + fname + ".dot")).read_text().startswith("digraph")


@pytest.mark.parametrize("kind", ["directory", "proc", "loop"])
def test_inputs_that_are_not_files(tmp_path: Path, kind: str) -> None:
    if kind == "directory":
        path = tmp_path
    elif kind == "proc":
        path = Path("/proc/self/status")
    else:
        path = tmp_path / "loop"
        os.symlink(tmp_path / "loop", path)
    r = tool("check", str(path), timeout=60)
    no_traceback(r)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "error:" in r.stderr and r.stdout == ""


def test_a_fifo_is_read_as_a_pipe(tmp_path: Path) -> None:
    # As with `cat FIFO` (or a shell's `<(...)`), the open waits for a
    # writer; once one writes the program and closes, it is checked.
    path = tmp_path / "fifo"
    os.mkfifo(path)

    def write() -> None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(SMALL)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    r = tool("check", str(path), timeout=60)
    writer.join(timeout=10)
    no_traceback(r)
    assert r.returncode == 0 and "verdict: verified" in r.stdout, r.stderr


def test_reports_identical_across_runs_and_hash_seeds(tmp_path: Path) -> None:
    """20 runs, each under another PYTHONHASHSEED: the same bytes."""
    args = [str(ROOT / "examples/demo.mlir"), "--after", str(ROOT / "examples/demo-wrong.mlir"), "--format", "json"]
    outs = {tool("check", *args, environ=env(PYTHONHASHSEED=str(seed))).stdout for seed in range(20)}
    assert len(outs) == 1
    _valid(outs.pop())
