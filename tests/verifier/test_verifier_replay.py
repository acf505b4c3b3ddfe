"""The counterexample replay compares what was computed, not where.

A replay runs the input in order and the output on the Z3 model's schedule
and says whether the outcomes differ. Buffers an op allocates are named, and
their initial contents seeded, by where the op is; the output's ops are named
by their input counterparts' locations, so a rewrite that only moved lines
does not make the outcomes differ, while a race that changes a loaded value
does."""

from __future__ import annotations

import pytest

import verifier.proof.replay as replay_module
from spec.syntax.parser import parse_module
from verifier import check
from verifier.proof.replay import EXCERPT_CONTEXT, Replay

IN_ALLOC_THEN_LOAD_ELSEWHERE = """func.func @f(%a: memref<16xf32>, %i: index) {
  %m = gpu.alloc () : memref<16xf32>
  %x = memref.load %a[%i] : memref<16xf32>
  return
}
"""
OUT_ALLOC_THEN_LOAD_ELSEWHERE = """func.func @f(%a: memref<16xf32>, %i: index) {
  %0 = gpu.wait async
  %m, %t = gpu.alloc async [%0] () : memref<16xf32>
  %x = memref.load %a[%i] : memref<16xf32>
  gpu.wait [%t]
  return
}
"""
IN_MEMSET_THEN_LOAD = """func.func @f(%i: index, %v: f32) {
  %m = gpu.alloc () : memref<16xf32>
  gpu.memset %m, %v : memref<16xf32>, f32
  %x = memref.load %m[%i] : memref<16xf32>
  %n = memref.alloc() : memref<4xf32>
  return
}
"""
OUT_MEMSET_THEN_LOAD = """func.func @f(%i: index, %v: f32) {
  %0 = gpu.wait async
  %m, %t = gpu.alloc async [%0] () : memref<16xf32>
  %t2 = gpu.memset async [%t] %m, %v : memref<16xf32>, f32
  %x = memref.load %m[%i] : memref<16xf32>
  gpu.wait [%t2]
  %n = memref.alloc() : memref<4xf32>
  return
}
"""


def _replay(inp: str, out: str) -> Replay:
    r = check(parse_module(inp, "in.mlir"), parse_module(out, "out.mlir"))
    assert r.verdict == "refuted", r.text()
    rep = r.functions[0].violations[0].replay
    assert rep is not None and rep.replayed, rep
    return rep


def test_moved_lines_alone_do_not_make_outcomes_differ() -> None:
    # The alloc may still run when the load reads another buffer: a race in
    # the model, but nothing the values show. Before, the allocated buffer
    # was named and seeded by its line in each file, so this "differed".
    rep = _replay(IN_ALLOC_THEN_LOAD_ELSEWHERE, OUT_ALLOC_THEN_LOAD_ELSEWHERE)
    assert not rep.differs, (rep.input_outcome, rep.output_outcome)
    assert "gpu.alloc@in.mlir:2:8" in rep.output_outcome


def test_a_race_on_a_loaded_value_makes_outcomes_differ() -> None:
    rep = _replay(IN_MEMSET_THEN_LOAD, OUT_MEMSET_THEN_LOAD)
    assert rep.differs
    # Same buffers (named by the input's lines), different loaded value.
    buffers = lambda text: [line for line in text.splitlines() if line.startswith("buffer")]  # noqa: E731
    assert buffers(rep.input_outcome) == buffers(rep.output_outcome)
    loads = lambda text: [line.split(" @ ")[0] for line in text.splitlines() if " load " in line]  # noqa: E731
    assert loads(rep.input_outcome) != loads(rep.output_outcome)


def test_the_text_report_shows_outcomes_around_their_first_difference() -> None:
    same = [f"[main] call @f @ in.mlir:{i}:5" for i in range(40)]
    ins = "".join(f"{x}\n" for x in [*same, "buffer %b = 1111", *same])
    outs = "".join(f"{x}\n" for x in [*same, "buffer %b = 2222", *same])
    text = Replay(True, differs=True, input_outcome=ins, output_outcome=outs).excerpt()
    assert "first difference at line 41 of 81" in text
    assert "buffer %b = 1111" in text and "buffer %b = 2222" in text
    assert f"... {40 - EXCERPT_CONTEXT} line(s) as in the other" in text
    assert f"... {40 - EXCERPT_CONTEXT} more line(s)" in text
    assert len(text.splitlines()) == 2 * (1 + 1 + 2 * EXCERPT_CONTEXT + 1 + 1)
    short = Replay(True, differs=True, input_outcome="a\nb\n", output_outcome="a\nc\n").excerpt()
    assert short.splitlines()[1:3] == ["a", "b"] and "..." not in short


def test_a_large_function_is_not_replayed(monkeypatch: pytest.MonkeyPatch) -> None:
    # Still refuted with Z3's schedule; the replay says why it did not run.
    monkeypatch.setattr(replay_module, "MAX_REPLAY_OPS", 3)
    r = check(parse_module(IN_MEMSET_THEN_LOAD, "in.mlir"), parse_module(OUT_MEMSET_THEN_LOAD, "out.mlir"))
    assert r.verdict == "refuted"
    v = r.functions[0].violations[0]
    assert v.replay is not None and not v.replay.replayed and v.schedule
    assert "the function has 6 ops, more than the 3 the replay runs" in v.replay.reason
