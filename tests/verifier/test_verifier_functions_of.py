"""`pipeline.functions_of` steps only onto ops with regions: it must find
exactly the functions a whole walk finds, in the same order."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec.diagnostics import DiagnosticError
from spec.ir import Operation
from spec.syntax.parser import parse_module
from verifier.proof.pipeline import functions_of

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted([*ROOT.glob("verifier/corpus/*.mlir"), *ROOT.glob("examples/*.mlir"), *ROOT.glob("tests/**/*.mlir")])


def _parsed(path: Path) -> Operation | None:
    try:
        return parse_module(path.read_text(), str(path), allow_unregistered=True)
    except DiagnosticError:
        return None  # a diagnostics test's input: not valid IR


MODULES = {path: m for path in FILES if (m := _parsed(path)) is not None}

NESTED = """module {
  func.func private @decl(i32)
  func.func @a() {
    return
  }
  module @inner {
    func.func @b() {
      return
    }
    module @deeper {
      func.func @c() {
        return
      }
    }
  }
  func.func @d() {
    return
  }
}
"""


def _by_walk(module: Operation) -> list[Operation]:
    return [op for op in module.walk() if op.name == "func.func" and op.regions and op.regions[0].blocks]


def test_nested_modules_in_walk_order() -> None:
    m = parse_module(NESTED, "nested.mlir")
    got = functions_of(m)
    assert [f.properties["sym_name"].value for f in got] == ["a", "b", "c", "d"]  # type: ignore[attr-defined]
    assert got == _by_walk(m)


def test_enough_files_parse() -> None:
    assert len(MODULES) >= 100


@pytest.mark.parametrize("path", sorted(MODULES), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_same_functions_as_a_whole_walk(path: Path) -> None:
    m = MODULES[path]
    assert functions_of(m) == _by_walk(m)
