"""Loops whose iterations carry tokens, proved by induction (`verifier/proof/induction.py`).

A rotating pair of carried tokens (`iter_args(%a, %p)`, `scf.yield %p, %x`)
and a launch that waits on both. Right rewrites (the identity, an extra
wait, renamed values) are verified for every trip count, at `--unroll 1`
too, where the unrolled proof alone is bounded; wrong ones are never
verified: a dependency dropped (a race between consecutive iterations, out
of reach at `--unroll 1`), a stale token yielded, inits that lose the work
before the loop, a dependency on a token from outside the loop dropped. A
right rewrite the step cannot show (a dependency that holds only through
the previous iteration's chain) stays bounded.
"""

from __future__ import annotations

import pytest

from spec.syntax.parser import parse_module
from verifier import check
from verifier.output.report import BOUNDED, REFUTED, VERIFIED

PROGRAM = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k0(%arg0: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<4xf32>)
  func.func @f(%b: memref<4xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.launch_func async @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<4xf32>)
    PRE
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = INIT_A, %p = %t0) -> (!gpu.async.token, !gpu.async.token) {
      %x = gpu.launch_func async [DEPS] @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<4xf32>)
      EXTRA
      scf.yield YIELD : !gpu.async.token, !gpu.async.token
    }
    gpu.wait [%r#0, %r#1]
    func.call @use(%b) : (memref<4xf32>) -> ()
    return
  }
}
"""


def program(deps: str = "%a, %p", extra: str = "", yielded: str = "%p, %x", pre: str = "", init_a: str = "%t0") -> str:
    return (
        PROGRAM.replace("DEPS", deps)
        .replace("EXTRA", extra)
        .replace("YIELD", yielded)
        .replace("PRE", pre)
        .replace("INIT_A", init_a)
    )


INPUT = program()


def verdict(out: str, **options: object) -> object:
    r = check(parse_module(INPUT, "in.mlir"), parse_module(out, "out.mlir"), **options)
    return r


RIGHT = {
    "identity": INPUT,
    "over-synchronised": program(extra="gpu.wait [%x]"),
    "renamed": INPUT.replace("%x", "%launched").replace("%p", "%prev"),
}
WRONG = {
    "dependency on the previous iteration dropped": program(deps="%a"),
    "stale token yielded": program(yielded="%p, %a"),
    "inits lose the work before the loop": program(pre="%z = gpu.wait async", init_a="%z").replace(
        "iter_args(%a = %z, %p = %t0)", "iter_args(%a = %z, %p = %z)"
    ),
}


@pytest.mark.parametrize("unroll", [1, 2])
@pytest.mark.parametrize("name", list(RIGHT))
def test_right_rewrites_are_verified_for_every_trip_count(name: str, unroll: int) -> None:
    r = verdict(RIGHT[name], unroll=unroll)
    assert r.verdict == VERIFIED, r.text()
    assert r.functions[0].lemma.startswith("by induction on iterations"), r.functions[0].lemma
    assert verdict(RIGHT[name], unroll=unroll, induction=False).verdict == BOUNDED


@pytest.mark.parametrize("unroll", [1, 2])
@pytest.mark.parametrize("name", list(WRONG))
def test_wrong_rewrites_are_never_verified(name: str, unroll: int) -> None:
    r = verdict(WRONG[name], unroll=unroll)
    assert r.verdict != VERIFIED, r.text()
    if unroll == 2:
        assert r.verdict == REFUTED, r.text()


def test_a_dependency_kept_only_through_the_chain_stays_bounded() -> None:
    """`%x` waiting on `%p` alone is right (the previous launch waited on
    the one before), but one iteration does not show it: the caller's work
    behind `%a` is no longer before the launch. Not verified, not refuted."""
    r = verdict(program(deps="%p"))
    assert r.verdict == BOUNDED, r.text()


def test_a_token_from_outside_the_loop_is_caller_work_of_every_step() -> None:
    """The launch waits on `%c`, made before the loop, in every iteration:
    the step has `%c` as an argument, the call standing for the loop as an
    operand. Kept: verified for every trip count; dropped: the first
    iteration's launch overlaps `%c`'s."""
    pre = "%c = gpu.launch_func async @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<4xf32>)"
    text = program(deps="%a, %p, %c", pre=pre, init_a="%t0").replace(
        "iter_args(%a = %t0, %p = %t0)", "iter_args(%a = %t0, %p = %t0)"
    )
    fin = parse_module(text, "in.mlir")
    r = check(fin, parse_module(text, "out.mlir"), unroll=1)
    assert r.verdict == VERIFIED and r.functions[0].lemma.startswith("by induction on iterations"), r.text()
    wrong = text.replace("async [%a, %p, %c]", "async [%a, %p]")
    assert check(fin, parse_module(wrong, "out.mlir"), unroll=1).verdict == REFUTED


INNER = (
    "%s:2 = scf.for %j = %c0 to %n step %c1 iter_args(%u = %x, %w = %p) -> (!gpu.async.token, !gpu.async.token) {\n"
    "        %y = gpu.launch_func async [INNER_DEPS] @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<4xf32>)\n"
    "        scf.yield %w, %y : !gpu.async.token, !gpu.async.token\n"
    "      }"
)


def nested(inner_deps: str) -> str:
    return program(extra=INNER.replace("INNER_DEPS", inner_deps), yielded="%s#0, %s#1")


@pytest.mark.parametrize("unroll", [1, 2])
def test_an_inner_carried_loop_is_proved_inside_the_step_of_the_outer(unroll: int) -> None:
    text = nested("%u, %w")
    r = check(parse_module(text, "in.mlir"), parse_module(text, "out.mlir"), unroll=unroll)
    assert r.verdict == VERIFIED, r.text()
    wrong = nested("%w")
    r = check(parse_module(text, "in.mlir"), parse_module(wrong, "out.mlir"), unroll=unroll)
    assert r.verdict != VERIFIED, r.text()


HOST_WAIT = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k0(%arg0: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<4xf32>)
  func.func @f(%b: memref<4xf32>, %n: index, %x: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t0) -> (!gpu.async.token) {
      gpu.wait [%a]
      memref.store %x, %b[%c0] : memref<4xf32>
      %y = gpu.launch_func async @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<4xf32>)
      scf.yield %y : !gpu.async.token
    }
    gpu.wait [%r]
    func.call @use(%b) : (memref<4xf32>) -> ()
    return
  }
}
"""


def test_a_host_wait_on_the_previous_iteration_is_kept() -> None:
    """The store waits (on the host) for the launch of the iteration before:
    dropped, the two overlap from the second iteration on, out of reach at
    `--unroll 1`; the step refutes it (the caller's work behind `%a` is no
    longer before the store), so the verdict stays bounded."""
    wrong = HOST_WAIT.replace("      gpu.wait [%a]\n", "")
    fin = parse_module(HOST_WAIT, "in.mlir")
    assert check(fin, parse_module(HOST_WAIT, "out.mlir"), unroll=1).verdict == VERIFIED
    assert check(fin, parse_module(wrong, "out.mlir"), unroll=1).verdict == BOUNDED
    assert check(fin, parse_module(wrong, "out.mlir")).verdict == REFUTED


SYNC_LOOP = """func.func private @g()
func.func @f(%a: memref<16xf32>, %n: index, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    gpu.memset %a, %x : memref<16xf32>, f32
  }
  func.call @g() : () -> ()
  return
}
"""

CHAINED = """func.func private @g()
func.func @f(%a: memref<16xf32>, %n: index, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t0) -> (!gpu.async.token) {
    %m = gpu.memset async [DEP] %a, %x : memref<16xf32>, f32
    scf.yield %m : !gpu.async.token
  }
  gpu.wait [%r]
  func.call @g() : () -> ()
  return
}
"""


def test_iterations_chained_through_a_token_the_input_does_not_carry_stay_bounded() -> None:
    """The rewrite chains each iteration's memset to the last one's on the
    GPU and waits once after the loop: right, but the input's loop carries
    nothing, so there is no step pair to check (the carried tokens changed)
    and the verdict is the unrolled proof's: bounded, never verified. The
    same chain with the dependency on the last iteration dropped is
    refuted."""
    fin = parse_module(SYNC_LOOP, "in.mlir")
    right = check(fin, parse_module(CHAINED.replace("DEP", "%t"), "out.mlir"))
    assert right.verdict == BOUNDED, right.text()
    wrong = check(fin, parse_module(CHAINED.replace("DEP", "%t0"), "out.mlir"))
    assert wrong.verdict == REFUTED, wrong.text()
