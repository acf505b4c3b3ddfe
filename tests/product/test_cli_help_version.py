"""Every CLI and subcommand: `--help` ends with an example that runs, and
`--version` prints the distribution's version.

The example is what a new user copies first, so it is run here from an
empty scratch directory (outputs like `-o out.mlir` land in the working
directory): the files it names are the installed corpus's, which exist
wherever the distribution is installed, and it must end as its tool says
it does. The version comes from the installed metadata (`make` installs the
project editable); `tests/product/test_installed_gate.py` checks it from a wheel.
"""

from __future__ import annotations

import importlib.metadata
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import refimpl.__main__
import spec.__main__
import verifier.__main__
from spec import tool
from tests.mlir_tools import MLIR_OPT_19

REPO = Path(__file__).resolve().parents[2]
VERSION = importlib.metadata.version(tool.DISTRIBUTION)

MAINS: dict[str, Callable[[list[str]], int]] = {
    "spec": spec.__main__.main,
    "refimpl": refimpl.__main__.main,
    "verifier": verifier.__main__.main,
}
COMMANDS = [
    ("spec", []),
    ("spec", ["print"]),
    ("spec", ["run"]),
    ("spec", ["explore"]),
    ("refimpl", []),
    ("verifier", []),
    ("verifier", ["check"]),
    ("verifier", ["exhaustive"]),
]
EXPECTED_EXIT = {("verifier", ("check",)): 1}
"""The `check` example is upstream's deferred wait (`--mode mlir19`) on the
corpus program where it races: refuted, exit 1."""


def _ids(cmd: tuple[str, list[str]]) -> str:
    return " ".join([cmd[0], *cmd[1]])


def _call(module: str, argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run the tool's `main` in-process; `--help`/`--version` exit 0."""
    with pytest.raises(SystemExit) as exc:
        MAINS[module](argv)
    out, err = capsys.readouterr()
    assert exc.value.code in (0, None), err
    return out


@pytest.mark.parametrize("cmd", COMMANDS, ids=_ids)
def test_help_ends_with_an_example(cmd: tuple[str, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    module, sub = cmd
    out = _call(module, [*sub, "--help"], capsys)
    tail = out.rstrip().splitlines()
    assert tail[-2] == "example:", out
    assert tail[-1].strip().startswith(f"python -m {module} {' '.join(sub)}".rstrip()), out
    assert "--version" in out


@pytest.mark.parametrize("cmd", COMMANDS, ids=_ids)
def test_version(cmd: tuple[str, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    module, sub = cmd
    assert _call(module, [*sub, "--version"], capsys) == f"python -m {module} {VERSION}\n"


@pytest.mark.parametrize("cmd", COMMANDS, ids=_ids)
def test_help_example_runs(
    cmd: tuple[str, list[str]], capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module, sub = cmd
    monkeypatch.chdir(tmp_path)  # `--help` asked from a directory of the user's, not the checkout
    example = _call(module, [*sub, "--help"], capsys).rstrip().splitlines()[-1].strip()
    argv = shlex.split(example)
    assert argv[:3] == ["python", "-m", module], example
    named = [a for i, a in enumerate(argv) if a.endswith(".mlir") and argv[i - 1] != "-o"]  # the inputs
    assert named or sub == ["exhaustive"], example
    assert all(Path(a).is_absolute() and Path(a).is_file() for a in named), example
    assert all(Path(a).parent == Path(verifier.__file__).parent / "corpus" for a in named), example
    if "mlir-opt-19" in example and MLIR_OPT_19 is None:
        pytest.skip("the example runs mlir-opt-19, which is not installed")
    proc = subprocess.run([sys.executable, *argv[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == EXPECTED_EXIT.get((module, tuple(sub)), 0), proc.stderr
    assert proc.stdout or any(tmp_path.iterdir()), "the example printed and wrote nothing"


@pytest.mark.parametrize("module", sorted(MAINS))
def test_version_as_a_process(module: str) -> None:
    """Through `run_tool`, which turns argparse's exit into the process's."""
    proc = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, f"python -m {module} {VERSION}\n", "")


def test_version_without_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkout that was never installed reports the `pyproject.toml`
    version, marked as such, rather than failing or guessing."""

    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert tool.package_version() == f"{VERSION} (source tree, not installed)"
