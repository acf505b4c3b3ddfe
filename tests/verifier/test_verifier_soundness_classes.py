"""Wrong rewrites of the kinds an ordering proof alone lets through, each
refuted with its own message, and right rewrites of the same programs
verified (over-synchronised, renamed by the printer, speculatable ops
reordered). The programs are in `tests/soundness/`, each accepted by
`mlir-opt-19`; a wrong rewrite is `NAME.WHAT.mlir` beside `NAME.mlir`.

The semantic judge (`spec.semantics.judge`, which knows nothing of the
verifier) must see each wrong rewrite as wrong where its exploration can
reach the class: that is what lets `bench/judge.py` find the class by
itself. A deadlock that needs a caller to act after the return is out of
its reach (its callers make incoming values available at once); the
verifier's own rule refutes it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spec.semantics.judge import OK, WRONG, judge_modules
from spec.syntax.parser import parse_module
from spec.syntax.printing import print_op
from verifier import check
from verifier.output.report import REFUTED, UNKNOWN, VERIFIED

HERE = Path(__file__).parents[1] / "soundness"


def _pair(name: str, rewrite: str) -> tuple[str, str]:
    return (HERE / f"{name}.mlir").read_text(), (HERE / f"{name}.{rewrite}.mlir").read_text()


WRONG_REWRITES = [
    ("guarded-division", "hoisted", "'arith.divsi' op is moved above 'cf.assert'", True),
    (
        "nested-modules",
        "moved",
        "function @A::@f is missing from the output (a function of its name is at @B::@f",
        True,
    ),
    ("group-late-add", "handed-over", "'memref.store' op may run before 'gpu.memset'", True),
    ("incoming-value", "awaited", "'async.await' op added by the rewrite blocks on argument #1", True),
    (
        "signature",
        "rotated",
        "the function's signature (!gpu.async.token, memref<4xf32>) -> () differs from the input's",
        True,
    ),
    (
        "pure-branches",
        "one-branch-waits",
        "path: scf.if at in.mlir:4:3 takes the else branch (the output's own decision",
        True,
    ),
    (
        "other-case-switches",
        "waits-as-if-same",
        "path: cf.switch at in.mlir:4:3 goes to its case 1 successor; cf.switch at in.mlir:13:3 goes to its default",
        True,
    ),
    ("zero-trips", "waits-in-body", "path: scf.for at in.mlir:6:3 runs 0 times", True),
]


@pytest.mark.parametrize("name, rewrite, message, judge_sees", WRONG_REWRITES, ids=[w[0] for w in WRONG_REWRITES])
def test_wrong_rewrite_is_refuted_with_its_message(name: str, rewrite: str, message: str, judge_sees: bool) -> None:
    src, out = _pair(name, rewrite)
    r = check(parse_module(src, "in.mlir"), parse_module(out, "out.mlir"))
    assert r.verdict == REFUTED, r.text()
    assert message in r.text(), r.text()
    judged = judge_modules(parse_module(src, "in.mlir"), parse_module(out, "out.mlir"))
    verdicts = {j.verdict for j in judged.values()}
    assert (WRONG in verdicts) == judge_sees, {k: j.text() for k, j in judged.items()}


@pytest.mark.parametrize("name", ["guarded-division", "nested-modules", "group-late-add", "signature", "pure-branches"])
def test_identity_and_printed_rewrite_verify(name: str) -> None:
    """The input against itself, and against itself printed (every value
    renamed as `mlir-opt-19` names it)."""
    src = (HERE / f"{name}.mlir").read_text()
    renamed = print_op(parse_module(src, "in.mlir"))
    for out in (src, renamed):
        r = check(parse_module(src, "in.mlir"), parse_module(out, "out.mlir"))
        assert r.verdict == VERIFIED, r.text()


@pytest.mark.parametrize("rewrite", ["speculatable-moved", "over-synchronised"])
def test_right_rewrites_of_a_guarded_division_verify(rewrite: str) -> None:
    """A constant (speculatable) moved above the guard, and a wait added
    after the division: both keep what the input does."""
    src, out = _pair("guarded-division", rewrite)
    r = check(parse_module(src, "in.mlir"), parse_module(out, "out.mlir"))
    assert r.verdict == VERIFIED, r.text()
    judged = judge_modules(parse_module(src, "in.mlir"), parse_module(out, "out.mlir"))
    assert {j.verdict for j in judged.values()} == {OK}


@pytest.mark.parametrize("rewrite", ["both-branches-wait", "over-synchronised"])
def test_waits_added_to_pure_branches_verify_when_every_branch_waits(rewrite: str) -> None:
    """The input's `scf.if` has no effect inside, so the input decides
    nothing the event model sees; the output's branches do differ, and the
    output is proved on each of them (a decision of its own)."""
    src, out = _pair("pure-branches", rewrite)
    r = check(parse_module(src, "in.mlir"), parse_module(out, "out.mlir"))
    assert r.verdict == VERIFIED, r.text()
    judged = judge_modules(parse_module(src, "in.mlir"), parse_module(out, "out.mlir"))
    assert {j.verdict for j in judged.values()} == {OK}


RIGHT_REWRITES = [
    # Two decisions on one value in different blocks are one decision: the
    # output waits only where the path that needs it goes.
    ("same-value-branches", "waits-where-needed"),
    ("same-value-switches", "waits-where-needed"),
    # A constant trip count: no path runs the loop 0 times.
    ("constant-trips", "waits-in-body"),
    # Tokens added to a switch's case operands, an else added for plumbing.
    ("switch-operands", "tokens-passed"),
    ("affine-if", "else-added"),
]


@pytest.mark.parametrize("name, rewrite", RIGHT_REWRITES, ids=[r[0] for r in RIGHT_REWRITES])
def test_right_rewrite_of_a_decision_verifies(name: str, rewrite: str) -> None:
    src, out = _pair(name, rewrite)
    r = check(parse_module(src, "in.mlir"), parse_module(out, "out.mlir"))
    assert r.verdict == VERIFIED, r.text()
    judged = judge_modules(parse_module(src, "in.mlir"), parse_module(out, "out.mlir"))
    assert {j.verdict for j in judged.values()} == {OK}, {k: j.text() for k, j in judged.items()}


def test_division_moved_above_a_store_is_refuted() -> None:
    """A store before the guard: in the input it is done (and seen) before
    the assert stops the program; hoisting the division above it faults
    first. Moved among pure ops only, the division stays where it may."""
    src = (HERE / "guarded-division.mlir").read_text()
    out = src.replace("  %q = arith.divsi %a, %b : i32\n", "").replace(
        "  memref.store %q", "  %q = arith.divsi %a, %b : i32\n  memref.store %q"
    )
    moved_store = src.replace(
        "  cf.assert %nz", "  memref.store %a, %m[%c0i] : memref<4xi32>\n  cf.assert %nz"
    ).replace("  %c0 = arith.constant 0 : i32\n", "  %c0 = arith.constant 0 : i32\n  %c0i = arith.constant 0 : index\n")
    later = moved_store.replace("  %q = arith.divsi %a, %b : i32\n", "").replace(
        "  %i = arith.constant 0 : index\n", "  %i = arith.constant 0 : index\n  %q = arith.divsi %a, %b : i32\n"
    )
    assert check(parse_module(src, "in.mlir"), parse_module(out, "out.mlir")).verdict == VERIFIED
    earlier = moved_store.replace("  %q = arith.divsi %a, %b : i32\n", "").replace(
        "  %c0i = arith.constant 0 : index\n", "  %c0i = arith.constant 0 : index\n  %q = arith.divsi %a, %b : i32\n"
    )
    r = check(parse_module(moved_store, "in.mlir"), parse_module(earlier, "out.mlir"))
    assert r.verdict == REFUTED and "is moved above 'memref.store'" in r.text(), r.text()
    r = check(parse_module(moved_store, "in.mlir"), parse_module(later, "out.mlir"))
    assert r.verdict == VERIFIED, r.text()


def test_an_added_await_the_input_also_makes_later_is_unknown() -> None:
    """The input awaits the incoming value too, but later: the output's
    earlier await may still wait for what the caller does after the call in
    between; not refuted, not verified."""
    src, out = _pair("incoming-value", "awaited")
    src = src.replace("  return", "  %q = async.await %v : !async.value<!gpu.async.token>\n  return")
    r = check(parse_module(src, "in.mlir"), parse_module(out, "out.mlir"))
    assert r.verdict == UNKNOWN and "progress not proved" in r.text(), r.text()
