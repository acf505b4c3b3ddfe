"""`resolve_ops` says when scoping alone shows every use dominated, and the
parser then skips the dominance walk (`spec/syntax/resolve.py`).

The claim: no forward reference and no region of more than one block means
the walk (`structure.Dominance`) would find nothing. Checked here on
texts where it holds and where it does not (a CFG, a forward reference
in a graph region, a use inside its defining op), on every `.mlir` file of
the repository and on generated programs: whenever `resolve_ops` returns
True, the walk over every op finds no error. `tests/syntax/test_syntax_fast_path.py`
compares the whole parse (IR or diagnostic) with the walk always done.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import spec.syntax.parser as parser_module
from spec import registry
from spec.diagnostics import DiagnosticError
from spec.ir import Block, Operation
from spec.syntax.parser import parse_module, split_input
from spec.syntax.structure import Dominance

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from gen_programs import generate  # noqa: E402

FILES = sorted(p for p in ROOT.rglob("*.mlir") if not any(part.startswith(".") for part in p.relative_to(ROOT).parts))


def _said(text: str) -> tuple[bool | None, Operation | None]:
    """What `resolve_ops` returned for `text` (None if the parse failed
    before it, or it raised) and the module (None on an error)."""
    said: list[bool] = []
    inner = parser_module.resolve_ops

    def resolve(top: list[Operation]) -> bool:
        said.append(inner(top))
        return said[-1]

    parser_module.resolve_ops = resolve  # type: ignore[assignment]
    try:
        module = parse_module(text, dominance=False, allow_unregistered=True)
    except DiagnosticError:
        module = None
    finally:
        parser_module.resolve_ops = inner
    return (said[0] if said else None), module


def _walk_finds_nothing(module: Operation) -> bool:
    # The module and every isolated op, as `verify` walks them.
    roots = [op for op in module.walk() if registry.lookup(op.name).isolated or op is module]
    return all(Dominance().first_error([op]) is None for op in roots)


def _assert_sound(text: str) -> bool | None:
    said, module = _said(text)
    if said and module is not None:
        assert _walk_finds_nothing(module), text[:2000]
    return said


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("func.func @f(%a: index) -> index {\n  %b = arith.addi %a, %a : index\n  return %b : index\n}\n", True),
        # A value of an enclosing block, used in a nested region.
        (
            "func.func @f(%a: index, %c: i1) {\n  %b = arith.addi %a, %a : index\n"
            "  scf.if %c {\n    %d = arith.addi %b, %a : index\n  }\n  return\n}\n",
            True,
        ),
        # Several blocks: a CFG, walked.
        (
            "func.func @f(%a: index, %c: i1) {\n  cf.cond_br %c, ^bb1, ^bb2\n^bb1:\n  %b = arith.addi %a, %a : index\n"
            "  cf.br ^bb2\n^bb2:\n  %d = arith.addi %b, %a : index\n  return\n}\n",
            False,
        ),
        # A forward reference (a graph region, and a use before its definition).
        (
            '"test.graph"() ({\n  %x = arith.constant 0 : index\n  %b = arith.addi %a, %a : index\n'
            "  %a = arith.addi %x, %x : index\n}) : () -> ()\n",
            False,
        ),
        (
            "func.func @f(%x: index) {\n  %b = arith.addi %a, %a : index\n  %a = arith.addi %x, %x : index\n  return\n}\n",
            False,
        ),
    ],
)
def test_what_resolve_says(text: str, expected: bool) -> None:
    assert _assert_sound(text) is expected


def test_a_use_it_does_not_dominate_is_still_found() -> None:
    text = (
        "func.func @f(%x: index) {\n  %b = arith.addi %a, %a : index\n  %a = arith.addi %x, %x : index\n  return\n}\n"
    )
    with pytest.raises(DiagnosticError, match="does not dominate this use"):
        parse_module(text)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_mlir_file(path: Path) -> None:
    for chunk, _ in split_input(path.read_text(errors="replace")):
        _assert_sound(chunk)


@pytest.mark.parametrize(("n", "seed"), [(10, 1), (300, 2)])
def test_generated_programs_are_straight(n: int, seed: int) -> None:
    assert _assert_sound(generate(n, seed)) is True


@pytest.mark.parametrize("seed", range(120))
def test_uses_from_other_blocks_are_decided_as_dominance_says(seed: int) -> None:
    # Ops moved to random places of other blocks and regions (any depth,
    # CFG blocks included), so that some definitions no longer dominate
    # their uses: `dominates_from` (one answer per pair of blocks) against
    # `dominates` for every operand defined in another block than its user.
    rng = random.Random(seed)
    path = FILES[seed % len(FILES)]
    try:
        module = parse_module(path.read_text(), path.name, allow_unregistered=True)
    except DiagnosticError:
        pytest.skip(f"{path.name} is not one module (chunks, or an input that is refused)")
    blocks = [b for op in module.walk() for r in op.regions for b in r.blocks]
    ops = [op for b in blocks for op in b.ops if not registry.lookup(op.name).terminator and op.name != "func.func"]
    for _ in range(min(6, len(ops))):
        op, target = rng.choice(ops), rng.choice(blocks)
        inside = {id(b) for inner in op.walk() for r in inner.regions for b in r.blocks}
        if op.parent is None or id(target) in inside:
            continue
        op.parent.ops.remove(op)
        target.insert(rng.randrange(len(target.ops) + 1), op)
    fast, general = Dominance(), Dominance()
    for user in module.walk():
        for v in user.operands:
            owner = v.owner
            where = owner if isinstance(owner, Block) else owner.parent if isinstance(owner, Operation) else None
            if user.parent is None or where is None or where is user.parent:
                continue
            assert fast.dominates_from(v, owner, user.parent) == general.dominates(v, user), (path.name, user)
