"""The verifier on `scf.parallel`: iterations that may run at once.

Each of 0..unroll iterations is a thread of its own, begun where the op is
met; the op ends when every iteration has. So an iteration's GPU op must be
waited for inside the iteration (before its `scf.reduce`), effects of two
iterations are not ordered (no obligation between them), and the path of a
counterexample names the number of iterations. The guarded proof and the
path-by-path one agree on each case; a reduction is not modelled (unknown,
`test_verifier_control.py`)."""

from __future__ import annotations

import pytest

from refimpl import rewrite
from spec.syntax.parser import parse_module
from spec.syntax.printing import print_op
from tests.support.path_builder import build
from tests.support.path_reference import check_path_by_path
from tests.support.rewrites import LAUNCH, both, module, summary
from verifier import check
from verifier.output.report import BOUNDED, REFUTED
from verifier.proof.obligations import obligations

PARALLEL_IN = module(
    """  func.func @f(%m: memref<4xf32>, %h: memref<4xf32>, %n: index, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.memset %m, %v : memref<4xf32>, f32
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      gpu.launch_func """
    + LAUNCH
    + """
      memref.store %v, %h[%i] : memref<4xf32>
      scf.reduce
    }
    %x = memref.load %m[%c0] : memref<4xf32>
    return
  }
"""
)


def _rewritten(text: str) -> str:
    module_ = parse_module(text, "in.mlir")
    rewrite(module_)
    return print_op(module_)


def _without_wait_in_body(out: str) -> str:
    """The refimpl's output with the blocking wait inside the body dropped."""
    lines = out.splitlines(keepends=True)
    body = next(i for i, line in enumerate(lines) if "scf.parallel" in line)
    wait = next(i for i in range(body, len(lines)) if lines[i].strip().startswith("gpu.wait ["))
    return "".join(lines[:wait] + lines[wait + 1 :])


def test_right_rewrite_is_verified_up_to_the_bound() -> None:
    out = _rewritten(PARALLEL_IN)
    g, p = both(PARALLEL_IN, out)
    assert g.verdict == p.verdict == BOUNDED, g.text()
    f = g.functions[0]
    assert f.bounded and f.agreements == f.obligations
    assert "scf.parallel loops are bounded" in f.lemma


def test_missing_wait_in_the_body_is_refuted_with_the_iterations() -> None:
    out = _without_wait_in_body(_rewritten(PARALLEL_IN))
    g, p = both(PARALLEL_IN, out)
    assert g.verdict == p.verdict == REFUTED
    assert summary(g) == summary(p)
    (v,) = g.functions[0].violations
    assert (v.first.op, v.second.op) == ("gpu.launch_func", "memref.store")
    assert list(v.path) == ["scf.parallel at in.mlir:13:5 runs 1 iteration"]


@pytest.mark.parametrize("unroll", [0, 1, 3])
def test_other_bounds_agree(unroll: int) -> None:
    out = _without_wait_in_body(_rewritten(PARALLEL_IN))
    g = check(parse_module(PARALLEL_IN, "in.mlir"), parse_module(out, "out.mlir"), unroll=unroll)
    p = check_path_by_path(parse_module(PARALLEL_IN, "in.mlir"), parse_module(out, "out.mlir"), unroll=unroll)
    # The body's run is proved apart (one run stands for every iteration),
    # so the race is found at any bound; path by path, a bound of 0 sees no
    # iteration and finds nothing.
    assert g.verdict == REFUTED
    assert list(g.functions[0].violations[0].path) == ["scf.parallel at in.mlir:13:5 runs 1 iteration"]
    if unroll:
        assert summary(g) == summary(p)
    else:
        assert p.verdict == BOUNDED and not p.functions[0].violations


def test_iterations_are_not_ordered_with_each_other() -> None:
    # Two iterations: the memset before reaches each iteration's launch, each
    # iteration's store reaches the load after; no store of one iteration is
    # an obligation before anything of the other.
    func = next(
        op for op in parse_module(PARALLEL_IN, "in.mlir").walk() if op.name == "func.func" and op.regions[0].blocks
    )
    g = build(func, [2], 2)
    threads = {ev.op.name + str(ev.occurrence): ev.thread for ev in g.events}
    assert threads["memref.store0"] != threads["memref.store1"]
    pairs = {(o.first.name, o.first_occurrence, o.second.name, o.second_occurrence) for o in obligations(g)}
    assert ("gpu.memset", 0, "gpu.launch_func", 0) in pairs and ("gpu.memset", 0, "gpu.launch_func", 1) in pairs
    assert ("memref.store", 0, "memref.load", 0) in pairs and ("memref.store", 1, "memref.load", 0) in pairs
    across = [
        p for p in pairs if p[0] != "gpu.memset" and p[2] != "memref.load" and p[2] != "func.return" and p[1] != p[3]
    ]
    assert across == []


def test_zero_iterations_need_the_wait_before_the_loop() -> None:
    # The refimpl waits for the memset before the loop; without that wait the
    # load after a loop of zero iterations may run before the memset ends.
    out = _rewritten(PARALLEL_IN)
    lines = out.splitlines(keepends=True)
    loop = next(i for i, line in enumerate(lines) if "scf.parallel" in line)
    wait = max(i for i in range(loop) if lines[i].strip().startswith("gpu.wait ["))
    g, p = both(PARALLEL_IN, "".join(lines[:wait] + lines[wait + 1 :]))
    assert g.verdict == REFUTED and summary(g) == summary(p)
    paths = {tuple(v.path) for v in g.functions[0].violations}
    assert ("scf.parallel at in.mlir:13:5 runs 0 iterations",) in paths
