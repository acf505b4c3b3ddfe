"""`scf.forall` and `async.call`: constructs the verifier's model does not
follow. A rewrite around them is never `verified`: a right one and a wrong
one (a wait dropped or moved past the loop, or into its body) are each
`unknown`, with the op named in the reason, or `refuted`; a pure loop the
model sees past. An `async.func` is outside the functions checked: a
rewrite that changes one is refuted, as any change outside a function is.
"""

from __future__ import annotations

import pytest

from spec.syntax.parser import parse_module
from verifier import check
from verifier.output.report import REFUTED, UNKNOWN, VERIFIED

INPUT = """func.func @f(%d: memref<16xf32>, %h: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0.0 : f32
  gpu.memcpy %h, %d : memref<16xf32>, memref<16xf32>
  scf.forall (%i) in (%n) {
    memref.store %c0, %h[%i] : memref<16xf32>
  }
  return
}
"""

HEAD = """func.func @f(%d: memref<16xf32>, %h: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0.0 : f32
  %0 = gpu.wait async
  %1 = gpu.memcpy async [%0] %h, %d : memref<16xf32>, memref<16xf32>
"""
LOOP = """  scf.forall (%i) in (%n) {
    memref.store %c0, %h[%i] : memref<16xf32>
  }
"""

REWRITES = {
    # mlir-opt-19's own rewrite: the wait before the loop.
    "right": HEAD + "  gpu.wait [%1]\n" + LOOP + "  return\n}\n",
    "wait-after-the-loop": HEAD + LOOP + "  gpu.wait [%1]\n  return\n}\n",
    "wait-inside-the-loop": HEAD
    + "  scf.forall (%i) in (%n) {\n    memref.store %c0, %h[%i] : memref<16xf32>\n    gpu.wait [%1]\n  }\n"
    + "  return\n}\n",
}


def _verdict(inp: str, out: str):  # type: ignore[no-untyped-def]
    return check(parse_module(inp, "in.mlir"), parse_module(out, "out.mlir"))


@pytest.mark.parametrize("name", sorted(REWRITES))
def test_a_rewrite_around_forall_is_never_verified(name: str) -> None:
    r = _verdict(INPUT, REWRITES[name])
    assert r.verdict in (UNKNOWN, REFUTED), r.text()
    if r.verdict == UNKNOWN:
        assert "'scf.forall' op" in r.text()


def test_a_pure_forall_is_seen_past() -> None:
    pure = (
        "func.func @f(%n: index) {\n  scf.forall (%i) in (%n) {\n    %x = arith.addi %i, %i : index\n  }\n  return\n}\n"
    )
    program = pure.replace("  return", "  gpu.wait\n  return")
    assert _verdict(program, program).verdict == VERIFIED


KERNELS = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @kern(%a: memref<16xf32>) kernel {
      gpu.return
    }
  }
"""
LAUNCH = "@k::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)"
ASYNC_FUNC = f"""  async.func @af(%a: memref<16xf32>) -> !async.token {{
    %c1 = arith.constant 1 : index
    gpu.launch_func {LAUNCH}
    return
  }}
"""
CALLER = f"""  func.func @f(%a: memref<16xf32>) {{
    %c1 = arith.constant 1 : index
    gpu.launch_func {LAUNCH}
    %t = async.call @af(%a) : (memref<16xf32>) -> !async.token
    async.await %t : !async.token
    return
  }}
}}
"""
CALLER_REWRITTEN = f"""  func.func @f(%a: memref<16xf32>) {{
    %c1 = arith.constant 1 : index
    %0 = gpu.wait async
    %1 = gpu.launch_func async [%0] {LAUNCH}
    WAIT%t = async.call @af(%a) : (memref<16xf32>) -> !async.token
    async.await %t : !async.token
    return
  }}
}}
"""


@pytest.mark.parametrize("wait", ["gpu.wait [%1]\n    ", ""], ids=["right", "no-wait-before-the-call"])
def test_a_rewrite_around_async_call_is_unknown(wait: str) -> None:
    out = KERNELS + ASYNC_FUNC + CALLER_REWRITTEN.replace("WAIT", wait)
    r = _verdict(KERNELS + ASYNC_FUNC + CALLER, out)
    assert r.verdict == UNKNOWN, r.text()
    assert "async.call" in r.text() and "not modelled" in r.text()


def test_a_changed_async_func_is_refuted() -> None:
    made_async = ASYNC_FUNC.replace(
        "    gpu.launch_func", "    %w = gpu.wait async\n    %l = gpu.launch_func async [%w]"
    )
    right_caller = CALLER_REWRITTEN.replace("WAIT", "gpu.wait [%1]\n    ")
    r = _verdict(KERNELS + ASYNC_FUNC + CALLER, KERNELS + made_async + right_caller)
    assert r.verdict == REFUTED, r.text()
    assert "async.func" in r.text()
