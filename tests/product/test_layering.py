"""The packages' import direction, as the docs state it: `spec` (the
language) imports neither `refimpl` nor `verifier`; `refimpl` does not
import `verifier`; `verifier` reaches `refimpl` only through
`verifier/harness/reference_impl.py`, the default implementation under test.
`parallel` (work shared with a forked process) imports only the standard
library, and the others call it only from their seams: where work is shared
out, where a run's processes and threads are kept, and where a run's `Jobs`
is chosen and carried; no other module calls `os.fork` (the exhaustive
runner's worker pool is `multiprocessing`'s). Every import counts, at module
level or inside a function, as the source says it (read with `ast`, nothing
is imported)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEAM = ROOT / "verifier" / "harness" / "reference_impl.py"
FORBIDDEN = {
    "spec": {"refimpl", "verifier"},
    "refimpl": {"verifier"},
    "verifier": {"refimpl"},
    "parallel": {"spec", "refimpl", "verifier"},
}
PARALLEL_SEAMS = {
    # where work is shared out
    "spec/syntax/parse_many.py",
    "verifier/proof/second_process.py",
    # where a run's child processes and waiting threads are kept
    "spec/tool.py",
    "verifier/output/progress.py",
    # where the run's `Jobs` is chosen (`--jobs`) and carried to the steps
    "verifier/__main__.py",
    "verifier/proof/run.py",
    "verifier/proof/pipeline.py",
}
"""The modules outside `parallel` that import it."""


def imported(path: Path) -> set[str]:
    """The top-level packages `path` imports anywhere in its source."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_module_imports_against_the_direction(package: str) -> None:
    wrong = {
        str(p.relative_to(ROOT)): sorted(imported(p) & FORBIDDEN[package])
        for p in sorted((ROOT / package).rglob("*.py"))
        if p != SEAM and imported(p) & FORBIDDEN[package]
    }
    assert wrong == {}


def test_the_seam_is_where_the_verifier_meets_the_refimpl() -> None:
    assert imported(SEAM) & {"refimpl"} == {"refimpl"}


def test_parallel_needs_only_the_standard_library() -> None:
    outside = {
        str(p.relative_to(ROOT)): sorted(imported(p) - sys.stdlib_module_names - {"__future__", "parallel"})
        for p in sorted((ROOT / "parallel").rglob("*.py"))
    }
    assert {k: v for k, v in outside.items() if v} == {}


def test_parallel_is_called_from_the_seams_only() -> None:
    callers = {
        str(p.relative_to(ROOT))
        for package in ("spec", "refimpl", "verifier")
        for p in (ROOT / package).rglob("*.py")
        if "parallel" in imported(p)
    }
    assert callers == PARALLEL_SEAMS


def test_only_parallel_forks() -> None:
    forking = {
        str(p.relative_to(ROOT))
        for package in ("spec", "refimpl", "verifier")
        for p in (ROOT / package).rglob("*.py")
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"), str(p)))
        if isinstance(node, ast.Attribute) and node.attr == "fork" and ast.unparse(node.value) == "os"
    }
    assert forking == set()


def test_the_check_finds_an_import_against_the_direction(tmp_path: Path) -> None:
    bad = tmp_path / "m.py"
    bad.write_text("def f():\n    from refimpl import rewrite\n    return rewrite\n", encoding="utf-8")
    assert imported(bad) == {"refimpl"}
