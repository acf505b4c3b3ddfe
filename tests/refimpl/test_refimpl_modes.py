"""`refimpl.modes`: a mode is a value the phases ask, looked up by name only
at the boundary (`refimpl.rewrite`, `--mode`)."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from refimpl import MODES, rewrite
from refimpl.modes import BY_NAME, MLIR19, REFERENCE, SEED, Mode, mode_named
from spec.syntax.parser import parse_module
from spec.syntax.printing import print_op

ROOT = Path(__file__).resolve().parents[2]

DEMO = (ROOT / "examples" / "demo.mlir").read_text()


def test_names_and_lookup() -> None:
    assert MODES == ("reference", "mlir19", "seed")
    assert [mode_named(n) for n in MODES] == [REFERENCE, MLIR19, SEED]
    assert mode_named(MLIR19) is MLIR19
    assert all(BY_NAME[m.name] is m for m in (REFERENCE, MLIR19, SEED))


def test_unknown_name_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown mode 'llvm'; expected one of reference, mlir19, seed"):
        rewrite(parse_module(DEMO), "llvm")


@pytest.mark.parametrize("mode", [REFERENCE, MLIR19, SEED], ids=lambda m: m.name)
def test_name_and_value_rewrite_alike(mode: Mode) -> None:
    by_name = rewrite(parse_module(DEMO), mode.name)
    by_value = rewrite(parse_module(DEMO), mode)
    assert by_name.ok == by_value.ok
    assert print_op(by_name.module) == print_op(by_value.module)


def test_every_difference_is_a_field() -> None:
    """Each field other than the name tells at least two modes apart."""
    for f in fields(Mode):
        if f.name != "name":
            assert len({getattr(m, f.name) for m in (REFERENCE, MLIR19, SEED)}) == 2, f.name


def test_phases_never_compare_mode_names() -> None:
    """Only `refimpl.modes` holds the names; the phases ask fields."""
    names = "|".join(MODES)
    for path in sorted((ROOT / "refimpl").glob("*.py")):
        if path.name == "modes.py":
            continue
        text = path.read_text()
        assert not re.search(rf"mode\s*[!=]=|[!=]=\s*\"({names})\"|\bin MODES\b", text), path.name
