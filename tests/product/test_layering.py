"""The packages' import direction, as the docs state it: `spec` (the
language) imports neither `refimpl` nor `verifier`; `refimpl` does not
import `verifier`; `verifier` reaches `refimpl` only through
`verifier/harness/reference_impl.py`, the default implementation under test. Every
import counts, at module level or inside a function, as the source says
it (read with `ast`, nothing is imported)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEAM = ROOT / "verifier" / "harness" / "reference_impl.py"
FORBIDDEN = {"spec": {"refimpl", "verifier"}, "refimpl": {"verifier"}, "verifier": {"refimpl"}}


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


def test_the_check_finds_an_import_against_the_direction(tmp_path: Path) -> None:
    bad = tmp_path / "m.py"
    bad.write_text("def f():\n    from refimpl import rewrite\n    return rewrite\n", encoding="utf-8")
    assert imported(bad) == {"refimpl"}
