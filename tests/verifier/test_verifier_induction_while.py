"""`scf.while` loops whose iterations carry tokens, proved by induction.

A `scf.while` alternates two regions: `before` takes the carried values and
ends in `scf.condition`, which hands its values to `after` (or, when the
flag is false, to the loop's results); `after` ends in `scf.yield`, which
hands its values to the next `before`. Each region is a step function of
what it is handed (`verifier/proof/induction.py`), the loop an opaque call
in its context. Below, two launches per iteration chained through both
regions: right rewrites (the identity, an extra wait, renamed values) are
verified for every trip count, at `--unroll 1` too, where the unrolled
proof alone is bounded; wrong ones (a dependency dropped in either region,
a token dropped at the yield or at the condition, a host wait dropped) are
never verified, and refuted at `--unroll 2`.
"""

from __future__ import annotations

import pytest

from spec.syntax.parser import parse_module
from verifier import Report, check
from verifier.output.report import BOUNDED, REFUTED, VERIFIED

PROGRAM = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k0(%arg0: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<4xf32>)
  func.func @f(%b: memref<4xf32>, %go: i1) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.launch_func async @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<4xf32>)
    %r:2 = scf.while (%a = %t0, %p = %t0) : (!gpu.async.token, !gpu.async.token) -> (!gpu.async.token, !gpu.async.token) {
      BEFORE_HOST
      %x = gpu.launch_func async [BEFORE_DEPS] @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<4xf32>)
      scf.condition(%go) CONDITION : !gpu.async.token, !gpu.async.token
    } do {
    ^bb0(%u: !gpu.async.token, %w: !gpu.async.token):
      %y = gpu.launch_func async [AFTER_DEPS] @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<4xf32>)
      EXTRA
      scf.yield YIELD : !gpu.async.token, !gpu.async.token
    }
    gpu.wait [%r#0, %r#1]
    func.call @use(%b) : (memref<4xf32>) -> ()
    return
  }
}
"""

HOST = "gpu.wait [%a, %p]\n      func.call @use(%b) : (memref<4xf32>) -> ()"


def program(
    before: str = "%a, %p",
    after: str = "%u, %w",
    condition: str = "%x, %p",
    yielded: str = "%u, %y",
    extra: str = "",
    host: str = "",
) -> str:
    return (
        PROGRAM.replace("BEFORE_DEPS", before)
        .replace("AFTER_DEPS", after)
        .replace("CONDITION", condition)
        .replace("YIELD", yielded)
        .replace("EXTRA", extra)
        .replace("BEFORE_HOST", host)
    )


RIGHT = {
    "identity": program(),
    "over-synchronised": program(extra="gpu.wait [%y]"),
    "renamed": program().replace("%x", "%launched").replace("%u", "%handed"),
}
WRONG = {
    "before drops the previous iteration's launch": program(before="%a"),
    "after drops this iteration's launch": program(after="%w"),
    "the yield drops the launch": program(yielded="%u, %w"),
    "the condition hands out a stale token": program(condition="%a, %p"),
}


def _check(inp: str, out: str, **options: object) -> Report:
    return check(parse_module(inp, "in.mlir"), parse_module(out, "out.mlir"), **options)


@pytest.mark.parametrize("unroll", [1, 2])
@pytest.mark.parametrize("name", list(RIGHT))
def test_right_rewrites_are_verified_for_every_trip_count(name: str, unroll: int) -> None:
    r = _check(program(), RIGHT[name], unroll=unroll)
    assert r.verdict == VERIFIED, r.text()
    assert r.functions[0].lemma.startswith("by induction on iterations (scf.while"), r.functions[0].lemma
    assert _check(program(), RIGHT[name], unroll=unroll, induction=False).verdict == BOUNDED


@pytest.mark.parametrize("unroll", [1, 2])
@pytest.mark.parametrize("name", list(WRONG))
def test_wrong_rewrites_are_never_verified(name: str, unroll: int) -> None:
    r = _check(program(), WRONG[name], unroll=unroll)
    assert r.verdict != VERIFIED, r.text()
    if unroll == 2:
        assert r.verdict == REFUTED, r.text()


def test_a_host_wait_in_before_is_kept() -> None:
    """`before` calls `@use` after waiting on both carried tokens: the wait
    dropped, the call overlaps the previous iteration's launches."""
    inp = program(host=HOST)
    assert _check(inp, inp, unroll=1).verdict == VERIFIED
    wrong = program(host="func.call @use(%b) : (memref<4xf32>) -> ()")
    assert _check(inp, wrong, unroll=1).verdict != VERIFIED
    assert _check(inp, wrong).verdict == REFUTED
