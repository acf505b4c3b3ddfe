"""Hypothesis: on generated straight-line rewrites, Z3, graph reachability
and an independent closed-form expectation give the same verdict.

Programs: a synchronous input of GPU ops and host effects; the rewrite
chains every GPU op on the previous one's token and, before each host effect
and the return, may wait on some token of the chain or on none. Such a rewrite
is right exactly when, before every host effect, the latest token waited on
is at least as late as the last GPU op issued (the chain covers the earlier
ones): that is the expectation, computed without any graph.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spec.syntax.parser import parse_module
from tests.support.rewrites import HEAD
from verifier import check
from verifier.output.report import REFUTED, VERIFIED

LAUNCH = "@k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)"
GPU = {
    "launch": ("gpu.launch_func " + LAUNCH, "gpu.launch_func async [{dep}] " + LAUNCH),
    "copy": (
        "gpu.memcpy %h, %m : memref<4xf32>, memref<4xf32>",
        "gpu.memcpy async [{dep}] %h, %m : memref<4xf32>, memref<4xf32>",
    ),
}
HOST = {
    "store": "memref.store %x, %h[%c0] : memref<4xf32>",
    "call": "call @consume(%h) : (memref<4xf32>) -> ()",
}


@st.composite
def rewrites(draw: st.DrawFn) -> tuple[str, str, bool]:
    """(input, output, expected right). Shrinks toward fewer, simpler ops
    and no waits."""
    items = draw(st.lists(st.sampled_from(["launch", "copy", "store", "call"]), min_size=1, max_size=12)) + ["return"]
    body_in, body_out = [], ["    %t0 = gpu.wait async"]
    k = 0  # GPU ops issued so far = index of the latest token
    waited = 0  # latest token waited on
    right = True
    for it in items:
        if it in GPU:
            sync, asynchronous = GPU[it]
            body_in.append("    " + sync)
            body_out.append(f"    %t{k + 1} = " + asynchronous.format(dep=f"%t{k}"))
            k += 1
            continue
        wait = draw(st.one_of(st.none(), st.integers(min_value=0, max_value=k)))
        if wait is not None:
            body_out.append(f"    gpu.wait [%t{wait}]")
            waited = max(waited, wait)
        right = right and waited >= k
        line = "    return" if it == "return" else "    " + HOST[it]
        body_in.append(line)
        body_out.append(line)
    head = (
        HEAD
        + "  func.func @f(%m: memref<4xf32>, %h: memref<4xf32>, %x: f32) {\n    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n"
    )
    tail = "\n  }\n}\n"
    return head + "\n".join(body_in) + tail, head + "\n".join(body_out) + tail, right


@settings(deadline=None, max_examples=60)
@given(rewrites())
def test_oracles_agree_with_the_expectation(case: tuple[str, str, bool]) -> None:
    inp, out, right = case
    r = check(parse_module(inp, "in.mlir"), parse_module(out, "out.mlir"))
    f = r.functions[0]
    assert f.agreements == f.obligations  # Z3 and reachability on every obligation
    assert r.verdict == (VERIFIED if right else REFUTED), r.text()
    ident = check(parse_module(inp, "in.mlir"), parse_module(inp, "in.mlir"))
    assert ident.verdict == VERIFIED
