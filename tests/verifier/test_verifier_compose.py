"""The compositional proof (`verifier/proof/compose.py`): closed region ops proved
apart, and the whole-function proof as its reference.

- on the corpora (each program with the refimpl's three rewrites and an
  edited copy of each) the two proofs agree (`tests/support/compose_agreement.py`);
- loops in sequence and nested loops are proved region by region, unbounded;
- wrong rewrites of the kinds composition touches are refuted: a body that
  leaves work pending, a wait dropped before the loop, a wait moved past a
  host effect of the body; right ones (over-synchronised, renamed) verified;
- what is not closed (a token crossing the loop) is proved whole, bounded.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spec.diagnostics import DiagnosticError
from spec.ir import Operation
from spec.semantics.events import is_token_type
from spec.syntax.parser import parse_module
from tests.support.compose_agreement import compare, rewrites
from verifier import check
from verifier.harness.gate import RefimplImpl
from verifier.output.report import BOUNDED, REFUTED, VERIFIED
from verifier.proof.compose import closed_blocks, crossing_ops

ROOT = Path(__file__).resolve().parents[2]
CORPORA = sorted(
    [
        *(ROOT / "tests" / "corpus").glob("*.mlir"),
        *(ROOT / "verifier" / "corpus").glob("*.mlir"),
        *(ROOT / "tests" / "wide").glob("*.mlir"),
    ]
)

BODY = "gpu.memset %a, %v : memref<16xf32>, f32\n{pad}func.call @use(%a) : (memref<16xf32>) -> ()\n"


def program(body: str) -> str:
    return f"""module {{
  func.func private @use(memref<16xf32>)
  func.func @f(%a: memref<16xf32>, %n: index, %v: f32, %c: i1) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
{body}    return
  }}
}}
"""


def in_sequence(count: int) -> str:
    return program(
        "".join(
            f"    scf.for %i{k} = %c0 to %n step %c1 {{\n      {BODY.format(pad='      ')}    }}\n"
            for k in range(count)
        )
    )


def nested(depth: int) -> str:
    pad = "    " + "  " * depth
    body = pad + BODY.format(pad=pad)
    for k in reversed(range(depth)):
        ind = "    " + "  " * k
        body = f"{ind}scf.for %i{k} = %c0 to %n step %c1 {{\n{body}{ind}}}\n"
    return program(body)


def verdict(inp: str, out: str, **options: object):
    return check(parse_module(inp, "in.mlir"), parse_module(out, "out.mlir", dominance=False), **options)


@pytest.mark.parametrize("path", CORPORA, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_agrees_with_the_whole_proof_on_the_corpora(path: Path) -> None:
    text = path.read_text()
    seen = 0
    for label, out in rewrites(text, path.name):
        c = compare(text, out, label)
        if c is None:
            continue
        seen += 1
        assert c.agrees, f"{c.label}: whole proof {c.whole}, compositional {c.composed}\n{out}"
    if not seen:
        pytest.skip("the refimpl rewrites the program in no mode (it is invalid on purpose)")


@pytest.mark.parametrize("count", [1, 5, 30])
def test_loops_in_sequence_are_proved_apart(count: int) -> None:
    text = in_sequence(count)
    r = verdict(text, RefimplImpl("reference")(text))
    (f,) = r.functions
    assert r.verdict == VERIFIED and not f.bounded, r.text()
    assert f.regions == count


@pytest.mark.parametrize("depth", [2, 7])
def test_nested_loops_are_proved_apart(depth: int) -> None:
    text = nested(depth)
    r = verdict(text, RefimplImpl("reference")(text))
    (f,) = r.functions
    assert r.verdict == VERIFIED and not f.bounded and f.regions == depth, r.text()
    # The whole proof of the same pair claims the same (the loop lemma).
    if depth <= 2:
        assert verdict(text, RefimplImpl("reference")(text), compose=False).verdict == VERIFIED


def _lines_without(text: str, needle: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if needle not in line)


def test_a_dropped_wait_in_a_nested_body_is_refuted() -> None:
    text = nested(4)
    out = RefimplImpl("reference")(text)
    wrong = _lines_without(out, "gpu.wait [%1]")
    assert wrong != out
    r = verdict(text, wrong)
    assert r.verdict == REFUTED, r.text()
    assert any("'func.call' op may run before 'gpu.memset'" in v.message for f in r.functions for v in f.violations), (
        r.text()
    )


def test_a_body_that_leaves_work_pending_is_refuted() -> None:
    # The memset of the body is not waited for in the body, only after the
    # loop by a `gpu.wait` of nothing: the call after the loop races it.
    text = program(
        f"    scf.for %i = %c0 to %n step %c1 {{\n      gpu.memset %a, %v : memref<16xf32>, f32\n    }}\n    {BODY.format(pad='    ').split(chr(10))[1]}\n"
    )
    out = program(
        "    scf.for %i = %c0 to %n step %c1 {\n      %s = gpu.wait async\n      %t = gpu.memset async [%s] %a, %v : memref<16xf32>, f32\n    }\n"
        "    gpu.wait\n    func.call @use(%a) : (memref<16xf32>) -> ()\n"
    )
    r = verdict(text, out)
    assert r.verdict == REFUTED, r.text()


def test_a_wait_dropped_before_the_loop_is_refuted() -> None:
    text = program(
        f"    gpu.memset %a, %v : memref<16xf32>, f32\n    scf.for %i = %c0 to %n step %c1 {{\n      {BODY.format(pad='      ')}    }}\n"
    )
    out = RefimplImpl("reference")(text)
    first_wait = next(line for line in out.splitlines(keepends=True) if line.strip().startswith("gpu.wait ["))
    wrong = out.replace(first_wait, "", 1)
    assert verdict(text, out).verdict == VERIFIED
    r = verdict(text, wrong)
    assert r.verdict == REFUTED, r.text()


def test_a_wait_moved_past_the_bodys_call_is_refuted() -> None:
    text = nested(2)
    out = RefimplImpl("reference")(text)
    lines = out.splitlines(keepends=True)
    w = next(i for i, line in enumerate(lines) if line.strip().startswith("gpu.wait [%1]"))
    lines[w], lines[w + 1] = lines[w + 1], lines[w]
    r = verdict(text, "".join(lines))
    assert r.verdict == REFUTED, r.text()


def test_over_synchronised_and_renamed_rewrites_are_verified() -> None:
    text = nested(3)
    out = RefimplImpl("reference")(text)
    over = out.replace("          func.call", "          gpu.wait\n          func.call").replace(
        "    scf.for", "    gpu.wait\n    scf.for", 1
    )
    renamed = out.replace("%1", "%done").replace("%0", "%fresh")
    for o in (over, renamed):
        r = verdict(text, o)
        assert r.verdict == VERIFIED and r.functions[0].regions == 3, r.text()


def test_an_if_inside_a_loop_is_proved_apart_with_both_branches() -> None:
    text = program(
        "    scf.for %i = %c0 to %n step %c1 {\n      scf.if %c {\n        gpu.memset %a, %v : memref<16xf32>, f32\n      }\n"
        "      func.call @use(%a) : (memref<16xf32>) -> ()\n    }\n"
    )
    out = RefimplImpl("reference")(text)
    r = verdict(text, out)
    assert r.verdict == VERIFIED and r.functions[0].regions >= 2, r.text()
    wrong = _lines_without(out, "gpu.wait [%")
    assert verdict(text, wrong).verdict == REFUTED


def test_a_token_carried_by_the_loop_is_not_composed_but_proved_by_induction() -> None:
    """Not a closed region (no region proved apart): unrolled, the proof is
    bounded; by induction on the iterations (`verifier/proof/induction.py`) it
    holds for every trip count."""
    text = program(
        "    %t0 = gpu.wait async\n"
        "    %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t0) -> (!gpu.async.token) {\n"
        "      %t1 = gpu.memset async [%t] %a, %v : memref<16xf32>, f32\n      scf.yield %t1 : !gpu.async.token\n    }\n"
        "    gpu.wait [%r]\n    func.call @use(%a) : (memref<16xf32>) -> ()\n"
    )
    out = RefimplImpl("reference")(text)
    r = verdict(text, out, induction=False)
    assert r.verdict == BOUNDED and r.functions[0].regions == 0, r.text()
    r = verdict(text, out)
    assert r.verdict == VERIFIED and r.functions[0].regions == 0, r.text()
    assert r.functions[0].lemma.startswith("by induction on iterations (scf.for at in.mlir:"), r.functions[0].lemma


def _refutation(r) -> list[str]:  # type: ignore[no-untyped-def]
    (v,) = [v for f in r.functions for v in f.violations]
    return list(v.path)


def test_a_race_under_an_outside_condition_is_refuted_from_the_run_with_its_path() -> None:
    # The `scf.if %c` inside the loop decides on a function argument; no op
    # around the loop decides on it, so the run's counterexample is the
    # function's: the way in (one trip), then the branch.
    text = program(
        "    scf.for %i = %c0 to %n step %c1 {\n      scf.if %c {\n        gpu.memset %a, %v : memref<16xf32>, f32\n"
        "        func.call @use(%a) : (memref<16xf32>) -> ()\n      }\n    }\n"
    )
    wrong = _lines_without(RefimplImpl("reference")(text), "gpu.wait [%")
    r = verdict(text, wrong)
    assert r.verdict == REFUTED, r.text()
    assert _refutation(r) == ["scf.for at in.mlir:6:5 runs 1 time", "scf.if at in.mlir:7:7 takes the then branch"]
    whole = verdict(text, wrong, compose=False)
    assert whole.verdict == REFUTED and _refutation(whole)[-1] == "scf.if at in.mlir:7:7 takes the then branch"


def test_a_race_the_way_in_rules_out_is_not_refuted() -> None:
    # The race sits in the `else` branch of an `scf.if %c` inside a loop
    # that is itself in the `then` branch of `scf.if %c`: on no path of the
    # function is it reached. The loop's run alone refutes it; that run is
    # not trusted (its decision is the way in's), and the whole proof, where
    # both ifs are one decision, finds every reachable pair ordered.
    text = program(
        "    scf.if %c {\n      scf.for %i = %c0 to %n step %c1 {\n        scf.if %c {\n"
        "          func.call @use(%a) : (memref<16xf32>) -> ()\n        } else {\n"
        "          gpu.memset %a, %v : memref<16xf32>, f32\n          func.call @use(%a) : (memref<16xf32>) -> ()\n"
        "        }\n      }\n    }\n"
    )
    out = RefimplImpl("reference")(text)
    wrong = _lines_without(out, "gpu.wait [%")
    assert wrong != out
    r = verdict(text, wrong)
    assert r.verdict != REFUTED, r.text()
    assert verdict(text, wrong, compose=False).verdict == r.verdict


CF_LOOP = """module {
  func.func private @use(memref<16xf32>)
  func.func @f(%a: memref<16xf32>, %n: index, %v: f32, %c: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    cf.br ^h(%c0 : index)
  ^h(%i: index):
    %lc = arith.cmpi slt, %i, %n : index
    cf.cond_br %lc, ^b, ^x
  ^b:
    gpu.memset %a, %v : memref<16xf32>, f32
    func.call @use(%a) : (memref<16xf32>) -> ()
    gpu.memset %a, %v : memref<16xf32>, f32
    %i2 = arith.addi %i, %c1 : index
    cf.br ^h(%i2 : index)
  ^x:
    func.call @use(%a) : (memref<16xf32>) -> ()
    return
  }
}
"""


def test_a_cf_loop_is_proved_block_by_block_for_every_trip_count() -> None:
    out = RefimplImpl("reference")(CF_LOOP)
    r = verdict(CF_LOOP, out)
    f = r.functions[0]
    assert r.verdict == VERIFIED and f.regions == 4 and not f.bounded, r.text()
    # The whole proof unrolls the back edge: bounded.
    assert verdict(CF_LOOP, out, compose=False).verdict == BOUNDED


def test_wrong_rewrites_of_a_cf_loop_are_refuted() -> None:
    out = RefimplImpl("reference")(CF_LOOP)
    lines = out.splitlines(keepends=True)
    waits = [i for i, line in enumerate(lines) if line.strip().startswith("gpu.wait [")]
    assert len(waits) == 2
    # The wait before the body's call dropped: the call races the memset.
    dropped = "".join(lines[: waits[0]] + lines[waits[0] + 1 :])
    # The wait at the body's branch dropped: the second memset is pending
    # across the back edge, against the next trip's memset and the exit's call.
    pending = "".join(lines[: waits[1]] + lines[waits[1] + 1 :])
    # The body's last wait moved to the exit block: still pending around the loop.
    exit_at = next(i for i, line in enumerate(lines) if "call @use" in line and i > waits[1])
    moved = "".join(lines[: waits[1]] + lines[waits[1] + 1 : exit_at] + [lines[waits[1]]] + lines[exit_at:])
    for wrong in (dropped, pending, moved):
        r = verdict(CF_LOOP, wrong)
        assert r.verdict == REFUTED, r.text()


def test_right_rewrites_of_a_cf_loop_are_verified() -> None:
    out = RefimplImpl("reference")(CF_LOOP)
    over = out.replace(
        "    call @use(%arg0) : (memref<16xf32>) -> ()\n    return",
        "    gpu.wait\n    call @use(%arg0) : (memref<16xf32>) -> ()\n    return",
    )
    over = over.replace("    cf.cond_br", "    gpu.wait\n    cf.cond_br")
    renamed = out.replace("%3", "%done").replace("%5", "%again")
    assert over != out and renamed != out
    for o in (over, renamed):
        r = verdict(CF_LOOP, o)
        assert r.verdict == VERIFIED and r.functions[0].regions == 4, r.text()


def test_a_token_handed_across_a_cf_branch_is_proved_whole() -> None:
    # The memset's token goes to the exit block as a block argument and is
    # waited for there: not closed, so the whole (unrolled) proof decides.
    text = CF_LOOP.replace("    func.call @use(%a) : (memref<16xf32>) -> ()\n    gpu.memset", "    gpu.memset", 1)
    out = RefimplImpl("reference")(text)
    handed = out.replace(
        "    cf.cond_br %1, ^bb2, ^bb3", "    %t = gpu.wait async\n    cf.cond_br %1, ^bb2, ^bb3(%t : !gpu.async.token)"
    )
    handed = handed.replace(
        "  ^bb3:  // pred: ^bb1\n", "  ^bb3(%tt: !gpu.async.token):  // pred: ^bb1\n    gpu.wait [%tt]\n"
    )
    assert handed != out
    r = verdict(text, handed)
    assert r.functions[0].regions == 0 and r.verdict in (VERIFIED, BOUNDED), r.text()


def test_a_refuted_block_names_the_branches_that_reach_it() -> None:
    out = RefimplImpl("reference")(CF_LOOP)
    lines = out.splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.strip().startswith("gpu.wait ["))
    r = verdict(CF_LOOP, "".join(lines[:first] + lines[first + 1 :]))
    assert r.verdict == REFUTED
    assert _refutation(r) == ["cf.cond_br at in.mlir:9:5 goes to its true successor"]


def test_a_race_behind_a_branch_on_the_same_value_is_left_to_the_whole_proof() -> None:
    # `^a` is entered only when %c holds; the race sits in the `else` of an
    # `scf.if %c` there, which no run takes. The run of that `else` alone
    # refutes it; it is not trusted (the branch on the way decides on %c),
    # so the whole proof decides, and the verdict is its verdict: the
    # `scf.if` in `^a` decides as the `cf.cond_br` before it did, so the
    # race is on no path and the rewrite is verified.
    text = """module {
  func.func private @use(memref<16xf32>)
  func.func @f(%a: memref<16xf32>, %v: f32, %c: i1) {
    cf.cond_br %c, ^a, ^x
  ^a:
    scf.if %c {
      func.call @use(%a) : (memref<16xf32>) -> ()
    } else {
      gpu.memset %a, %v : memref<16xf32>, f32
      func.call @use(%a) : (memref<16xf32>) -> ()
    }
    cf.br ^x
  ^x:
    return
  }
}
"""
    out = RefimplImpl("reference")(text)
    wrong = _lines_without(out, "gpu.wait [%")
    assert wrong != out
    r = verdict(text, wrong)
    whole = verdict(text, wrong, compose=False)
    assert r.verdict == whole.verdict, r.text()
    assert r.verdict == VERIFIED, r.text()
    assert r.functions[0].regions == 0


def _crosses_one_op(op: Operation) -> bool:
    """What `crossing_ops` finds, asked of one op by walking its nest: a
    token operand, result or region argument at any depth, or a token used
    inside and defined outside."""
    if any(is_token_type(v.type) for v in [*op.operands, *op.results]):
        return True
    inside: set[int] = set()
    for inner in op.walk():
        inside.add(id(inner))
        for region in inner.regions:
            for block in region.blocks:
                inside.add(id(block))
                if any(is_token_type(a.type) for a in block.args):
                    return True
    return any(is_token_type(v.type) and id(v.owner) not in inside for inner in op.nested_ops() for v in inner.operands)


@pytest.mark.parametrize("path", CORPORA, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_ops_a_token_crosses_are_found_in_one_walk(path: Path) -> None:
    """`crossing_ops` (one walk of the function) against the definition
    asked op by op, on the inputs and on the refimpl's rewrites (tokens
    everywhere), every function of each."""
    text = path.read_text()
    texts = [text, *(out for _, out in rewrites(text, path.name))]
    seen = 0
    for t in texts:
        try:
            module = parse_module(t, "f.mlir", dominance=False)
        except DiagnosticError:
            continue
        for func in (op for op in module.walk() if op.name == "func.func" and op.regions):
            found = crossing_ops(func)
            for op in func.nested_ops():
                seen += 1
                assert (op in found) == _crosses_one_op(op), f"{op!r} in\n{t}"
            assert closed_blocks(func) == _closed_by_definition(func), t
    if not seen:
        pytest.skip("no function with a body parses")


def _closed_by_definition(func: Operation) -> bool:
    """What `closed_blocks` finds, asked block by block: no block argument
    of a token type, no token used in one top-level block (at any depth)
    and defined in another."""
    blocks = func.regions[0].blocks
    if any(is_token_type(a.type) for b in blocks for a in b.args):
        return False
    for b in blocks:
        inside = {id(b)} | {id(x) for op in b.ops for inner in op.walk() for x in (inner, *_blocks_of(inner))}
        for op in b.ops:
            for inner in op.walk():
                if any(is_token_type(v.type) and id(v.owner) not in inside for v in inner.operands):
                    return False
    return True


def _blocks_of(op: Operation) -> list[object]:
    return [block for region in op.regions for block in region.blocks]
