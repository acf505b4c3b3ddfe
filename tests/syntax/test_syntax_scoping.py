"""SSA name scoping as mlir-opt applies it: visible from the definition on,
in the defining region and the regions nested in it."""

from __future__ import annotations

import pytest

from spec.diagnostics import DiagnosticError
from spec.syntax.parser import parse_module


def _parse(body: str):
    return parse_module("func.func @f(%p: i1) {\n" + body + "\n  return\n}\n", "t.mlir")


def test_name_of_a_closed_nested_region_can_be_reused_outside() -> None:
    m = _parse(
        "  scf.if %p {\n    %t = arith.constant 1 : index\n  }\n  %t = arith.constant 2 : index\n  %u = arith.addi %t, %t : index"
    )
    add = next(op for op in m.walk() if op.name == "arith.addi")
    const = add.operands[0].defining_op
    assert const is not None and str(const.properties["value"]) == "2 : index"


def test_sibling_regions_can_reuse_a_name() -> None:
    _parse("  scf.if %p {\n    %t = arith.constant 1 : index\n  } else {\n    %t = arith.constant 2 : index\n  }")


def test_outer_name_cannot_be_redefined_inside() -> None:
    with pytest.raises(DiagnosticError) as exc:
        _parse("  %t = arith.constant 1 : index\n  scf.if %p {\n    %t = arith.constant 2 : index\n  }")
    d = exc.value.diagnostics[0]
    assert (d.loc.line, d.message) == (4, "redefinition of SSA value '%t'")
    assert d.notes and d.notes[0].loc.line == 2


def test_forward_reference_across_blocks_resolves() -> None:
    m = parse_module(
        "func.func @f() {\n  cf.br ^bb2\n^bb1:\n  %u = arith.addi %v, %v : index\n  return\n"
        "^bb2:\n  %v = arith.constant 1 : index\n  cf.br ^bb1\n}\n"
    )
    add = next(op for op in m.walk() if op.name == "arith.addi")
    assert add.operands[0].defining_op is not None


def test_name_used_but_never_defined_is_located_at_the_use() -> None:
    with pytest.raises(DiagnosticError) as exc:
        _parse("  %u = arith.addi %nope, %nope : index")
    d = exc.value.diagnostics[0]
    assert (d.loc.line, d.loc.col, d.message) == (2, 19, "use of undeclared SSA value name")
