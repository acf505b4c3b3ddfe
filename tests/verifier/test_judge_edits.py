"""The judge's edits that reach the soundness classes, and its reach itself.

Each edit is applied to a small hand-written rewrite and must give an output
the semantics calls `wrong` and the verifier refutes (`move-await`,
`move-to-nested-module` into an existing module). `bench/judge_reach.py`
reverts one verifier fix at a time; here three of its classes are drawn for a
few dozen pairs, and the judge must find the reverted hole (a `verified`
of the mutated verifier on a pair the semantics calls wrong) while the real
verifier says `verified` on none of them.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import verifier
from spec.semantics.judge import WRONG, judge_modules
from spec.syntax.parser import parse_module
from spec.syntax.printing import join_outputs, print_op
from verifier.harness.judge_pairs import nested
from verifier.programs.edits import EDITS

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k0(%arg0: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<4xf32>)
  func.func @f(%b: memref<4xf32>, %x: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %e = async.execute {
      gpu.launch_func @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<4xf32>)
      async.yield
    }
    async.await %e : !async.token
    memref.store %x, %b[%c0] : memref<4xf32>
    return
  }
}
"""


def _edited(text: str, edit: str, site: int = 0) -> str:
    module = parse_module(text, "<rewrite>", dominance=False)
    assert EDITS[edit](module, lambda n: site % n if n else 0)
    return join_outputs([print_op(module)])


def _judged(fin_text: str, fout_text: str) -> tuple[set[str], str]:
    fin, fout = parse_module(fin_text, "in.mlir"), parse_module(fout_text, "out.mlir", dominance=False)
    verdicts = {j.verdict for j in judge_modules(fin, fout).values()}
    return verdicts, str(verifier.check(fin, fout).verdict)


def test_move_await_lets_the_store_overlap_the_kernel() -> None:
    out = _edited(PROGRAM, "move-await")
    assert "memref.store %arg1, %arg0[%c0] : memref<4xf32>\n    async.await %token : !async.token" in out
    verdicts, verdict = _judged(PROGRAM, out)
    assert WRONG in verdicts
    assert verdict == "refuted"


def test_an_unedited_nested_program_is_ok_and_verified() -> None:
    text = nested(PROGRAM)
    assert (
        "module @A attributes {gpu.container_module}" in text and "module @B attributes {gpu.container_module}" in text
    )
    verdicts, verdict = _judged(text, text)
    assert verdicts == {"ok"}
    assert verdict == "verified"


def test_a_function_moved_to_the_sibling_module_is_wrong_and_refuted() -> None:
    text = nested(PROGRAM)
    out = _edited(text, "move-to-nested-module")
    assert out.index("func.func @f") > out.index("module @B")
    verdicts, verdict = _judged(text, out)
    assert WRONG in verdicts
    assert verdict == "refuted"
    fin, fout = parse_module(text, "in.mlir"), parse_module(out, "out.mlir")
    messages = [v.message for f in verifier.check(fin, fout).functions for v in f.violations]
    assert any("A::@f is missing from the output" in m for m in messages), messages


def _judge_reach():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("judge_reach", ROOT / "bench" / "judge_reach.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["judge_reach"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("name", "pairs"),
    [
        ("trapping op hoisted", 200),
        ("bounded taken for verified", 200),
        ("blocking wait added", 200),
        ("group size", 1000),
    ],
)
def test_the_judge_finds_the_class_when_its_fix_is_reverted(name: str, pairs: int) -> None:
    reach = _judge_reach()
    cls = next(c for c in reach.CLASSES if c.name == name)
    tally = reach.measure(cls, pairs, 0)
    assert tally.reached > 0, tally
    assert tally.held == 0, tally


SOUNDNESS = ROOT / "tests" / "soundness"


def test_a_wait_handed_over_from_a_grouped_body_is_wrong_and_needs_the_group_size() -> None:
    """`hand-over-wait` on the late-add group program: the group's token is
    set before the memset is done, so the store that follows the group's
    `await_all` may overlap it. Only the group's declared size (2) makes
    that `await_all` wait for the body at all: with sizes ignored, the
    verifier sees nothing the input orders and says `verified`."""
    text = (SOUNDNESS / "group-late-add.mlir").read_text()
    out = _edited(text, "hand-over-wait")
    assert "async.yield %5 : !gpu.async.token" in out and "gpu.wait [%3]" in out, out
    verdicts, verdict = _judged(text, out)
    assert WRONG in verdicts
    assert verdict == "refuted"
    reach = _judge_reach()
    fin, fout = parse_module(text, "in.mlir"), parse_module(out, "out.mlir", dominance=False)
    with reach._ignore_group_size():
        assert verifier.check(fin, fout).verdict == "verified"


def test_a_changed_signature_is_a_defect_unless_refuted_by_its_own_message() -> None:
    reach = _judge_reach()
    text = (SOUNDNESS / "signature.mlir").read_text()
    out = (SOUNDNESS / "signature.rotated.mlir").read_text()
    fin, fout = parse_module(text, "in.mlir"), parse_module(out, "out.mlir")
    assert not reach._signature_not_named(verifier.check(fin, fout))
    with reach._signature_not_compared():
        assert reach._signature_not_named(verifier.check(fin, fout))


def test_a_rewrite_inside_a_nested_module_is_no_interface_change() -> None:
    """The module holding the function is compared op by op around it: the
    function's own body changing (the pass's rewrite) is not 'what surrounds
    the function'."""
    from verifier.harness.gate import RefimplImpl

    text = nested(PROGRAM)
    out = RefimplImpl("reference")(text)
    assert out != text
    fin, fout = parse_module(text, "in.mlir"), parse_module(out, "out.mlir")
    judged = judge_modules(fin, fout)
    assert not any(v.kind == "interface" for j in judged.values() for v in j.violations), [
        j.text() for j in judged.values()
    ]
