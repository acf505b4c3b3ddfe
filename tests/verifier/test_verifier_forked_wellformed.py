"""Well-formedness checked in a forked child (`pipeline.correspond`, through
`second_process.well_formed_while`).

On a large output the verifier checks well-formedness in a forked child
while it matches the output's ops to the input's. The child sends back
each problem as an op index and a message; these tests check that the
problems the caller ends with are exactly the ones it would find itself
(same ops, same messages, same order), that a well-formed output comes back
with none, and that a child that sends nothing leaves the check to the
caller.
"""

from __future__ import annotations

import os

import pytest

import parallel.fork as fork
import parallel.jobs as jobs
from parallel import Jobs
from spec.syntax.parser import parse_module
from verifier.match.wellformed import well_formed
from verifier.proof import pipeline

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork on this platform")

INPUT = """\
func.func @f(%m: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %0 = gpu.wait async
  %1 = gpu.memset async [%0] %m, %v : memref<4xf32>, f32
  gpu.wait [%1]
  %x = memref.load %m[%c0] : memref<4xf32>
  %y = arith.addf %x, %v : f32
  memref.store %y, %m[%c0] : memref<4xf32>
  return
}
"""
# Two uses before their definitions (the wait's token, the add's operand).
ILL_FORMED = INPUT.replace(
    "  %1 = gpu.memset async [%0] %m, %v : memref<4xf32>, f32\n  gpu.wait [%1]\n",
    "  gpu.wait [%1]\n  %1 = gpu.memset async [%0] %m, %v : memref<4xf32>, f32\n",
).replace(
    "  %x = memref.load %m[%c0] : memref<4xf32>\n  %y = arith.addf %x, %v : f32\n",
    "  %y = arith.addf %x, %v : f32\n  %x = memref.load %m[%c0] : memref<4xf32>\n",
)


def _func(text: str):  # type: ignore[no-untyped-def]
    module = parse_module(text, "out.mlir", dominance=False)
    return next(op for op in module.walk() if op.name == "func.func")


ANY_SIZE = Jobs(2)
"""`--jobs 2`: any size is worth a fork (with `can_fork` patched to say yes)."""


def _forced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs, "can_fork", lambda: True)


@pytest.mark.parametrize("text", [ILL_FORMED, INPUT], ids=["ill-formed", "well-formed"])
def test_the_child_finds_what_the_caller_would(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    fin, fout = _func(INPUT), _func(text)
    expected = [(m.kind, m.message, m.out_op, m.in_op) for m in well_formed(fout)]
    started: list[object] = []
    real_start = fork.Forked.start
    monkeypatch.setattr(fork.Forked, "start", classmethod(lambda cls, fn: started.append(fn) or real_start(fn)))
    _forced(monkeypatch)
    corr, problems = pipeline.correspond(fin, fout, ANY_SIZE)
    assert started, "well-formedness was not forked"
    got = [(m.kind, m.message, m.out_op, m.in_op) for m in problems if m.kind == "ill-formed"]
    assert got == expected
    assert (len(expected) == 2) == (text is ILL_FORMED)


def test_a_child_that_sends_nothing_leaves_the_check_here(monkeypatch: pytest.MonkeyPatch) -> None:
    fin, fout = _func(INPUT), _func(ILL_FORMED)
    expected = [(m.message, m.out_op) for m in well_formed(fout)]

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("no pickling")

    monkeypatch.setattr(fork.pickle, "dump", broken)
    _forced(monkeypatch)
    _, problems = pipeline.correspond(fin, fout, ANY_SIZE)
    assert [(m.message, m.out_op) for m in problems if m.kind == "ill-formed"] == expected and expected


def test_small_outputs_are_checked_here(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[object] = []
    monkeypatch.setattr(fork.Forked, "start", classmethod(lambda cls, fn: started.append(fn)))
    _forced(monkeypatch)
    pipeline.correspond(_func(INPUT), _func(ILL_FORMED))
    assert started == []
