"""Wrong and right rewrites around `scf.while` and `scf.parallel`, written by
hand from the reference's output (the enumerator now makes programs with
both; the rewrites it checks are all correct ones, so the wrong ones are
here). Each wrong one is refuted with the lost pair, each right one proved."""

from __future__ import annotations

import pytest

from tests.support.rewrites import LAUNCH, module, run
from verifier.output.report import BOUNDED, REFUTED, VERIFIED

INPUT = module(f"""  func.func @f(%m: memref<4xf32>, %p: i1, %n: index, %x: f32) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.while : () -> () {{
      gpu.launch_func {LAUNCH}
      scf.condition(%p)
    }} do {{
      memref.store %x, %m[%c0] : memref<4xf32>
      scf.yield
    }}
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {{
      gpu.memset %m, %x : memref<4xf32>, f32
      %v = memref.load %m[%c0] : memref<4xf32>
    }}
    return
  }}
""")


def _output(before: str, after: str, body: str, head: str = "scf.while : () -> () {", tail: str = "") -> str:
    """The reference's shape of the output: `before` ends the while's
    first region, `after` starts its second, `body` is the parallel body."""
    return module(f"""  func.func @f(%m: memref<4xf32>, %p: i1, %n: index, %x: f32) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    {head}
      %0 = gpu.wait async
      %1 = gpu.launch_func async [%0] {LAUNCH}
{before}    }} do {{
{after}      memref.store %x, %m[%c0] : memref<4xf32>
      scf.yield
    }}
{tail}    scf.parallel (%i) = (%c0) to (%n) step (%c1) {{
      %2 = gpu.wait async
      %3 = gpu.memset async [%2] %m, %x : memref<4xf32>, f32
{body}    }}
    return
  }}
""")


WAIT_THEN_LOAD = "      gpu.wait [%3]\n      %v = memref.load %m[%c0] : memref<4xf32>\n"
LOAD_THEN_WAIT = "      %v = memref.load %m[%c0] : memref<4xf32>\n      gpu.wait [%3]\n"
LOAD_ONLY = "      %v = memref.load %m[%c0] : memref<4xf32>\n"
COND = "      gpu.wait [%1]\n      scf.condition(%p)\n"
HANDOVER = "      scf.condition(%p) %1 : !gpu.async.token\n"
TOKEN_WHILE = "%r = scf.while : () -> !gpu.async.token {"
WAIT_T = "    ^bb0(%t: !gpu.async.token):\n      gpu.wait [%t]\n"

REFERENCE = _output(COND, "", WAIT_THEN_LOAD)

WRONG = {
    # The while's wait dropped: the launch outlives the loop and races the store.
    "while-wait-dropped": (
        _output("      scf.condition(%p)\n", "", WAIT_THEN_LOAD),
        "'func.return' op may return before 'gpu.launch_func'",
    ),
    # The token handed to the `do` region, which waits, but nothing waits on exit.
    "while-exit-not-waited": (
        _output(HANDOVER, WAIT_T, WAIT_THEN_LOAD, head=TOKEN_WHILE),
        "'func.return' op may return before 'gpu.launch_func'",
    ),
    # The `do` region waits only after its store.
    "while-store-before-wait": (
        _output(
            HANDOVER, "    ^bb0(%t: !gpu.async.token):\n", WAIT_THEN_LOAD, head=TOKEN_WHILE, tail="    gpu.wait [%r]\n"
        ).replace(
            "      memref.store %x, %m[%c0] : memref<4xf32>\n      scf.yield",
            "      memref.store %x, %m[%c0] : memref<4xf32>\n      gpu.wait [%t]\n      scf.yield",
        ),
        "'memref.store' op may run before 'gpu.launch_func'",
    ),
    "parallel-wait-dropped": (_output(COND, "", LOAD_ONLY), "'memref.load' op may run before 'gpu.memset'"),
    "parallel-wait-after-load": (_output(COND, "", LOAD_THEN_WAIT), "'memref.load' op may run before 'gpu.memset'"),
}

RIGHT = {
    "reference": REFERENCE,
    # The token handed to the `do` region and waited on there and after the loop.
    "while-handover": _output(HANDOVER, WAIT_T, WAIT_THEN_LOAD, head=TOKEN_WHILE, tail="    gpu.wait [%r]\n"),
    # An extra blocking wait at the start: over-synchronised.
    "over-synchronised": REFERENCE.replace("    scf.while", "    gpu.wait\n    scf.while", 1),
}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_wrong_rewrite_is_refuted(name: str) -> None:
    out, message = WRONG[name]
    r = run(INPUT, out)
    assert r.verdict == REFUTED, r.text()
    assert message in "\n".join(v.message for f in r.functions for v in f.violations), r.text()


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_right_rewrite_is_verified(name: str) -> None:
    r = run(INPUT, RIGHT[name])
    # The while's regions proved apart when no token crosses it (every trip
    # count); the token handed to the `do` region: unrolled, bounded.
    assert r.verdict == (BOUNDED if name == "while-handover" else VERIFIED), r.text()
