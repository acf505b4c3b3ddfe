"""The gate as another project gets it: built as a wheel, installed, run from an empty directory.

Other implementations' projects install this distribution rather than clone
it, so the gate must work without anything of the repository: no root
`conftest.py`, no source tree on `sys.path`, no editable install. These
tests build the wheel from a copy of the sources, install it into a fresh
virtual environment and run `python -m pytest --pyargs verifier` from an
empty temporary directory, as a user would.

How the environment is made, and why:

- **The wheel**: `pip wheel --no-deps --no-build-isolation` on a copy of the
  sources (setuptools writes `build/` and `*.egg-info` into the tree it
  builds; the repository's stays clean). Without build isolation pip uses
  the setuptools of this environment (the `test` extra asks for a version
  that builds wheels by itself) instead of downloading one: the same
  backend, offline, in about 3 s.
- **The virtual environment**: `python -m venv --without-pip`, not
  `--system-site-packages`; the wheel is installed with this environment's
  pip (`pip --python NEW install --no-deps --no-index WHEEL`), which installs
  its files, metadata and `pytest11` entry point exactly as `pip install`
  from an index would.
- **Its dependencies** are not downloaded (slow, and a test must not need
  the network): the new environment gets a `.pth` file naming a directory of
  links to the installed files of this distribution's declared dependencies
  and theirs (`lark`, `z3-solver`, `hypothesis`, `pytest`, ... as
  `Requires-Dist` says, with the `gate` extra), found through
  `importlib.metadata`. Only those: not pytest-xdist, not the test extra,
  and above all not this environment's editable install of the project, so
  every `spec`, `refimpl` and `verifier` module and the entry point come
  from the wheel (checked), and a dependency the wheel forgets to declare
  shows up as an `ImportError` here. `pip check` confirms the declared
  requirements are met by what the `.pth` provides. What this leaves
  untested is pip resolving the requirements from an index, which is pip's.

Under pytest-xdist the environment is built once per run and shared by the
workers (a lock in the run's base temporary directory); otherwise once per
module. Each gate run takes tens of seconds on a loaded 2-core machine, so
the module is marked `slow`; `make test` (plain `pytest`) still runs it.
"""

from __future__ import annotations

import fcntl
import functools
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
DIST = "gpu-async-region-reference"
CORPUS_SIZE = len(list((REPO / "verifier" / "corpus").glob("*.mlir")))
GATE_TESTS = CORPUS_SIZE + 4
"""test_corpus per file, test_corpus_is_present and the two generated-program tests."""


@dataclass(frozen=True)
class Installed:
    """A fresh virtual environment with the wheel installed."""

    python: Path
    site_packages: Path
    wheel: Path
    root: Path

    def run(self, *args: str, cwd: Path | None = None, timeout: float = 900) -> subprocess.CompletedProcess[str]:
        """Run the environment's Python in an empty directory (a new one per
        call unless `cwd`), with nothing of the caller's Python or pytest
        set-up in the environment."""
        if cwd is None:
            cwd = self.root / f"empty-{len(list(self.root.glob('empty-*')))}"
            cwd.mkdir()
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("PYTEST_", "PYTHON", "HYPOTHESIS_")) and k not in ("CI", "VIRTUAL_ENV")
        }
        return subprocess.run(
            [str(self.python), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
        )


def _dependency_dists() -> list[importlib.metadata.Distribution]:
    """This distribution's requirements with the `gate` extra (pytest and
    Hypothesis, which the gate needs and `check` does not), transitively."""
    seen: dict[str, importlib.metadata.Distribution] = {}
    todo = [req for req in importlib.metadata.requires(DIST) or []]
    while todo:
        req = Requirement(todo.pop())
        if req.marker is not None and not req.marker.evaluate({"extra": "gate"}):
            continue
        name = canonicalize_name(req.name)
        if name in seen:
            continue
        dist = importlib.metadata.distribution(name)
        assert dist.version in req.specifier, f"{name} {dist.version} does not meet {req}"
        seen[name] = dist
        todo.extend(dist.requires or [])
    return list(seen.values())


def _link_dependencies(into: Path) -> None:
    """Links in `into` to every top-level file or package of the dependencies."""
    into.mkdir()
    for dist in _dependency_dists():
        base = Path(dist.locate_file(""))
        tops = {Path(f).parts[0] for f in dist.files or [] if not str(f).startswith("..")}
        for top in tops - {"__pycache__"}:
            if not (into / top).exists():
                (into / top).symlink_to(base / top)


def _build(root: Path) -> Installed:
    src = root / "src"
    src.mkdir()
    shutil.copy2(REPO / "pyproject.toml", src)
    shutil.copy2(REPO / "README.md", src)  # the wheel's long description (`readme`)
    for package in ("spec", "refimpl", "verifier", "parallel"):
        shutil.copytree(REPO / package, src / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(root / "wheel"), str(src)],
        check=True,
        capture_output=True,
        text=True,
    )
    (wheel,) = (root / "wheel").glob("*.whl")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / "venv")], check=True)
    python = root / "venv" / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    _link_dependencies(root / "deps")
    (Path(site) / "_gate_test_dependencies.pth").write_text(f"{root / 'deps'}\n")
    subprocess.run([*pip, "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)], check=True)
    subprocess.run([*pip, "--python", str(python), "check"], check=True, capture_output=True)
    return Installed(python, Path(site), wheel, root)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The environment; under xdist built by the first worker that asks."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return _build(tmp_path_factory.mktemp("installed-gate"))
    shared = tmp_path_factory.getbasetemp().parent  # this run's, common to its workers
    with open(shared / "installed-gate.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        root = shared / "installed-gate"
        if not (root / "done").exists():
            shutil.rmtree(root, ignore_errors=True)
            root.mkdir()
            built = _build(root)
            (root / "done").write_text(str(built.wheel))
        python = root / "venv" / "bin" / "python"
        site = next((root / "venv" / "lib").glob("python*/site-packages"))
        return Installed(python, site, Path((root / "done").read_text()), root)


def _counts(summary: str) -> dict[str, int]:
    """pytest's last line, `20 passed, 1 failed in 3.2s`, as a dict."""
    return {
        word: int(n)
        for n, word in re.findall(r"(\d+) (passed|failed|error|errors|skipped|xfailed|xpassed|deselected)", summary)
    }


@functools.cache
def undecided_corpus() -> int:
    """Corpus programs whose reference rewrite the gate skips (verdict
    `unknown` or `bounded`), asked in-process of the checkout."""
    from verifier.harness.gate import UNDECIDED, RefimplImpl, judge

    impl = RefimplImpl("reference")
    return sum(judge(p.read_text(), impl).status == UNDECIDED for p in (REPO / "verifier" / "corpus").glob("*.mlir"))


def _expected(**counts: int) -> dict[str, int]:
    return {k: n for k, n in counts.items() if n}


def _outcome(proc: subprocess.CompletedProcess[str]) -> str:
    return f"exit {proc.returncode}\n--- stdout\n{proc.stdout[-6000:]}\n--- stderr\n{proc.stderr[-3000:]}"


def test_wheel_holds_the_gate(installed: Installed) -> None:
    """The corpus (package data), the plugin and its entry point are in the
    wheel, and the project's modules come from it, not from the checkout."""
    assert len(list((installed.site_packages / "verifier" / "corpus").glob("*.mlir"))) == CORPUS_SIZE
    assert not (installed.site_packages / "verifier" / "conftest.py").exists()
    (dist_info,) = installed.site_packages.glob("gpu_async_region_reference-*.dist-info")
    assert "verifier.pytest_plugin = verifier.pytest_plugin" in (dist_info / "entry_points.txt").read_text()
    proc = installed.run(
        "-c",
        "import spec, refimpl, parallel, verifier.pytest_plugin as p;"
        " print(spec.__file__, refimpl.__file__, parallel.__file__, p.__file__)",
    )
    assert proc.returncode == 0, _outcome(proc)
    for path in proc.stdout.split():
        assert Path(path).is_relative_to(installed.site_packages), path


def test_installed_gate_passes_the_refimpl(installed: Installed) -> None:
    """The whole gate, default implementation (the refimpl in-process), from
    an empty directory: every corpus program and generated program passes,
    but those the verifier proves only up to the loop bound (skipped)."""
    proc = installed.run(
        "-m", "pytest", "--pyargs", "verifier", "-q", "-p", "no:cacheprovider", "--hypothesis-profile", "ci"
    )
    assert proc.returncode == 0, _outcome(proc)
    skipped = undecided_corpus()
    assert _counts(proc.stdout.strip().splitlines()[-1]) == _expected(passed=GATE_TESTS - skipped, skipped=skipped), (
        _outcome(proc)
    )


def test_installed_gate_refutes_mlir19_mode(installed: Installed) -> None:
    """`--impl CMD` from the installed plugin: the refimpl's mlir19 mode, run
    as a command, fails exactly on the corpus program where upstream's
    phase 2 loses an ordering (`async_value_consumers.mlir`), refuted. The
    corpus only: a failing generated program would be shrunk through
    hundreds of subprocess runs."""
    impl = f"{installed.python} -m refimpl --mode mlir19"
    proc = installed.run(
        "-m", "pytest", "--pyargs", "verifier", "-q", "-p", "no:cacheprovider", "-k", "corpus", "--impl", impl
    )
    assert proc.returncode == 1, _outcome(proc)
    # The other corpus programs and test_corpus_is_present pass.
    skipped = undecided_corpus()
    expected = _expected(
        passed=CORPUS_SIZE - skipped, failed=1, skipped=skipped, deselected=GATE_TESTS - CORPUS_SIZE - 1
    )
    assert _counts(proc.stdout.strip().splitlines()[-1]) == expected, _outcome(proc)
    assert re.search(
        r"^FAILED \S*test_conformance\.py::test_corpus\[async_value_consumers\.mlir\]", proc.stdout, re.M
    ), _outcome(proc)
    assert "gate: refuted for implementation" in proc.stdout, _outcome(proc)


def test_installed_gate_enumeration_refutes_mlir19_mode(installed: Installed) -> None:
    """The gate's enumerated prefix (every program of 1..4 ops over
    `enumeration.GATE`), the mlir19 mode run as a command with
    `--split-input-file`: it fails on upstream's launch left running past
    the end, with no luck involved."""
    impl = f"{installed.python} -m refimpl --mode mlir19"
    proc = installed.run(
        "-m", "pytest", "--pyargs", "verifier", "-q", "-p", "no:cacheprovider", "-k", "small_program", "--impl", impl
    )
    assert proc.returncode == 1, _outcome(proc)
    assert _counts(proc.stdout.strip().splitlines()[-1]) == {"failed": 1, "deselected": GATE_TESTS - 1}, _outcome(proc)
    assert "before-end: gpu.launch_func -> func.func (cross-thread)" in proc.stdout, _outcome(proc)


@pytest.mark.parametrize("profile", ["dev", "thorough"])
def test_installed_gate_profiles(installed: Installed, profile: str) -> None:
    """The gate's own Hypothesis profiles are selectable in a project that
    registered none of them (collection only: Hypothesis loads the profile
    at configuration; `ci` is Hypothesis' own and the full run uses it)."""
    proc = installed.run(
        "-m", "pytest", "--pyargs", "verifier", "-q", "-p", "no:cacheprovider", "--co", "--hypothesis-profile", profile
    )
    assert proc.returncode == 0, _outcome(proc)
    assert f"{GATE_TESTS} tests collected" in proc.stdout, _outcome(proc)


def test_installed_verifier_cli(installed: Installed) -> None:
    """`python -m verifier check` on a corpus file of the installed package,
    and `--version` from the installed metadata."""
    program = installed.site_packages / "verifier" / "corpus" / "straight_line.mlir"
    proc = installed.run("-m", "verifier", "check", str(program))
    assert proc.returncode == 0, _outcome(proc)
    assert "verified" in proc.stdout
    for module in ("spec", "refimpl", "verifier"):
        proc = installed.run("-m", module, "--version")
        assert (proc.returncode, proc.stdout) == (0, f"python -m {module} {importlib.metadata.version(DIST)}\n"), (
            _outcome(proc)
        )
