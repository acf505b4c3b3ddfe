"""The guarded proof (every path in one Z3 query per obligation) against
path-by-path checking, the reference in `tests/support/path_reference.py`:
the same verdicts, the same violations with the same paths, on hand-written
control flow and on generated programs; the number of Z3 queries does not
grow with the number of paths; the reachability cross-check reports
`inconsistent` when the guarded answers are wrong."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, reject, settings
from hypothesis import strategies as st

import verifier
from bench.bench_control import generate
from spec.semantics.conditions import Symbols
from spec.semantics.guarded_builder import build_guarded
from spec.syntax.parser import parse_module
from tests.support.control_programs import (
    BACK_GOOD,
    BACK_IN,
    BRANCH_GOOD,
    BRANCH_IN,
    CARRIED_GOOD,
    CARRIED_IN,
    DIAMOND_GOOD,
    DIAMOND_IN,
    LOOP_IN,
    LOOP_SEED,
)
from tests.support.path_reference import check_path_by_path
from tests.support.rewrites import LAUNCH, both, module, summary
from verifier.harness.gate import ImplFailed, RefimplImpl
from verifier.output.report import BOUNDED, INCONSISTENT, REFUTED, UNKNOWN, VERIFIED
from verifier.programs.generators import Features, programs
from verifier.programs.mutants import MutantImpl
from verifier.smt import encode_guarded
from verifier.smt.solver import ObligationResult, Status

IF_ELSE_IN = module(
    """  func.func @f(%m: memref<4xf32>, %h: memref<4xf32>, %p: i1) {
    %c1 = arith.constant 1 : index
    gpu.launch_func """
    + LAUNCH
    + """
    scf.if %p {
      func.call @consume(%m) : (memref<4xf32>) -> ()
    } else {
      gpu.memcpy %h, %m : memref<4xf32>, memref<4xf32>
    }
    call @consume(%h) : (memref<4xf32>) -> ()
    return
  }
"""
)
NESTED_IN = module(
    """  func.func @f(%m: memref<4xf32>, %p: i1, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func """
    + LAUNCH
    + """
    scf.if %p {
      scf.for %i = %c0 to %n step %c1 {
        %q = arith.cmpi ult, %i, %n : index
        scf.if %q {
          gpu.launch_func """
    + LAUNCH
    + """
          func.call @consume(%m) : (memref<4xf32>) -> ()
        } else {
          gpu.launch_func """
    + LAUNCH
    + """
        }
      }
    }
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
)

ref, seed, mlir19 = RefimplImpl("reference"), RefimplImpl("seed"), RefimplImpl("mlir19")

CASES = {
    "branch-good": (BRANCH_IN, BRANCH_GOOD),
    "branch-no-wait": (BRANCH_IN, BRANCH_GOOD.replace("      gpu.wait [%1]\n", "")),
    "if-else-ref": (IF_ELSE_IN, ref(IF_ELSE_IN)),
    "if-else-seed": (IF_ELSE_IN, seed(IF_ELSE_IN)),
    "loop-good": (
        LOOP_IN,
        LOOP_SEED.replace("    scf.for", "    gpu.wait [%1]\n    scf.for").replace("async [%1] @k", "async @k"),
    ),
    "loop-zero-trip": (LOOP_IN, LOOP_SEED),
    "iter-args-good": (CARRIED_IN, CARRIED_GOOD),
    "iter-args-no-exit-wait": (CARRIED_IN, CARRIED_GOOD.replace("    gpu.wait [%t]\n", "")),
    "iter-args-not-chained": (CARRIED_IN, CARRIED_GOOD.replace("async [%a]", "async [%0]")),
    "cf-diamond-good": (DIAMOND_IN, DIAMOND_GOOD),
    "cf-diamond-one-side": (
        DIAMOND_IN,
        DIAMOND_GOOD.replace("    gpu.wait [%t]\n", "").replace(
            "    cf.br ^bb3(%0", "    gpu.wait [%0]\n    cf.br ^bb3(%0"
        ),
    ),
    "cf-back-edge-good": (BACK_IN, BACK_GOOD),
    "cf-back-edge-stale": (
        BACK_IN,
        BACK_GOOD.replace("^bb1(%1 : !gpu.async.token), ^bb2", "^bb1(%0 : !gpu.async.token), ^bb2"),
    ),
    "nested-ref": (NESTED_IN, ref(NESTED_IN)),
    "nested-seed": (NESTED_IN, seed(NESTED_IN)),
    "nested-mutant": (NESTED_IN, MutantImpl("drop-blocking-wait")(NESTED_IN)),
}
EXPECTED = {
    "branch-good": VERIFIED,
    "branch-no-wait": REFUTED,
    "if-else-ref": VERIFIED,
    "if-else-seed": REFUTED,
    "loop-good": VERIFIED,
    "loop-zero-trip": REFUTED,
    "iter-args-good": BOUNDED,
    "iter-args-no-exit-wait": REFUTED,
    "iter-args-not-chained": REFUTED,
    "cf-diamond-good": VERIFIED,
    "cf-diamond-one-side": REFUTED,
    "cf-back-edge-good": BOUNDED,
    "cf-back-edge-stale": REFUTED,
    "nested-ref": VERIFIED,
    "nested-seed": REFUTED,
    "nested-mutant": REFUTED,
}


def check(*args: object, **kw: object) -> verifier.Report:
    """The whole-function guarded proof (what this file tests against the
    path-by-path reference): composition off."""
    return verifier.check(*args, compose=False, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(CASES))
def test_guarded_equals_path_by_path(name: str) -> None:
    inp, out = CASES[name]
    g, p = both(inp, out)
    assert summary(g) == summary(p)
    assert g.verdict == EXPECTED[name], g.text()
    f = g.functions[0]
    assert f.agreements == f.obligations
    assert f.paths == p.functions[0].paths


@pytest.mark.parametrize("unroll", [0, 1, 3])
@pytest.mark.parametrize(
    "name", ["iter-args-good", "iter-args-not-chained", "cf-back-edge-stale", "nested-seed", "loop-zero-trip"]
)
def test_other_bounds(name: str, unroll: int) -> None:
    inp, out = CASES[name]
    g = check(parse_module(inp, "in.mlir"), parse_module(out, "out.mlir"), unroll=unroll)
    p = check_path_by_path(parse_module(inp, "in.mlir"), parse_module(out, "out.mlir"), unroll=unroll)
    assert summary(g) == summary(p)
    assert (g.functions[0].bounded, g.functions[0].lemma) == (p.functions[0].bounded, p.functions[0].lemma)


def test_refuted_path_names_the_decisions() -> None:
    inp, out = CASES["nested-seed"]
    g, _ = both(inp, out)
    v = g.functions[0].violations[0]
    assert v.path and all(" at in.mlir:" in step for step in v.path)
    assert v.schedule, "the schedule comes from the concrete graph of the model's path"


def test_path_count_without_enumeration() -> None:
    sym = Symbols()
    g = build_guarded(_func(NESTED_IN), sym)
    # else, or then with 0, 1 or 2 trips of 2 choices each: 1 + (1 + 2 + 4).
    assert g.path_count == 8
    # one decision for the outer if, one for the loop, one per iteration for the inner if
    assert len(sym.decisions) == 4


def _func(text: str):  # type: ignore[no-untyped-def]
    mod = parse_module(text, "in.mlir")
    return next(op for op in mod.walk() if op.name == "func.func" and op.regions and op.regions[0].blocks)


FIFTY = generate(50, 10)


def test_fifty_ifs_one_query_per_obligation() -> None:
    """2^50 x 3^10 paths; the queries are one per obligation (proved)."""
    out = ref(FIFTY)
    r = check(parse_module(FIFTY, "in.mlir"), parse_module(out, "out.mlir"), max_paths=None)
    f = r.functions[0]
    assert r.verdict == VERIFIED, r.text()
    assert f.paths == 2**50 * 3**10
    assert f.z3_checks <= f.obligations + 2 * 10 * 2 * 4
    assert f.obligations < 10 * (50 + 10)


def test_fifty_ifs_refuted_with_a_linear_number_of_queries() -> None:
    out = seed(FIFTY)
    r = check(parse_module(FIFTY, "in.mlir"), parse_module(out, "out.mlir"), max_paths=None)
    f = r.functions[0]
    assert r.verdict == REFUTED
    decisions = 50 + 10 * (1 + 2)
    # per refuted obligation at most one query per option of each decision on its path
    assert f.z3_checks <= f.obligations + encode_guarded.MAX_MINIMISE * decisions * 3
    assert any("takes the else branch" in s for v in f.violations for s in v.path)


def test_path_limit_is_a_parameter() -> None:
    out = ref(FIFTY)
    r = check(parse_module(FIFTY, "in.mlir"), parse_module(out, "out.mlir"), max_paths=256)
    assert r.verdict == UNKNOWN and "more than 256 paths" in r.functions[0].reason
    # No limit by default: the paths are counted, not enumerated.
    r = check(parse_module(FIFTY, "in.mlir"), parse_module(out, "out.mlir"))
    assert r.verdict == VERIFIED


def test_cross_check_catches_a_wrong_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encode_guarded.GuardedProver, "prove", lambda self, *a, **k: ObligationResult(Status.VERIFIED))
    inp, out = CASES["branch-no-wait"]
    r = check(parse_module(inp, "in.mlir"), parse_module(out, "out.mlir"))
    assert r.verdict == INCONSISTENT and "reachability finds" in r.functions[0].reason


def test_cross_check_catches_a_wrong_refutation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        encode_guarded.GuardedProver,
        "prove",
        lambda self, *a, **k: ObligationResult(Status.REFUTED, choices=[0], active=set(range(10**4))),
    )
    inp, out = CASES["branch-good"]
    r = check(parse_module(inp, "in.mlir"), parse_module(out, "out.mlir"))
    assert r.verdict == INCONSISTENT


IMPLS = [
    ref,
    seed,
    mlir19,
    *(MutantImpl(n) for n in ("if-no-wait", "loops-no-wait", "drop-dependency", "stale-token", "skip-terminator-wait")),
]


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None, derandomize=True)
@given(programs(Features(max_functions=1, max_ops=5, max_depth=2)), st.sampled_from(IMPLS))
def test_generated_programs_same_verdicts(p, impl) -> None:  # type: ignore[no-untyped-def]
    # An example without a rewrite, or one the path-by-path reference cannot
    # decide, compares nothing: rejected, so that Hypothesis fails
    # (Unsatisfiable) if no example applies.
    try:
        out = impl(p.text)
    except ImplFailed:
        reject()
    g = check(p.module, parse_module(out, "out.mlir"))
    e = check_path_by_path(p.module, parse_module(out, "out.mlir"))
    assume(not any(f.verdict == UNKNOWN for f in e.functions))
    assert summary(g) == summary(e)
