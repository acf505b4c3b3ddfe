"""The verifier on control flow (rule 8): branches, loops, multi-block
functions. Each construct gets a right rewrite (verified, with the number of
paths and the loop bound said) and a wrong one refuted with the path that
shows it (which branch, how many iterations)."""

from __future__ import annotations

import verifier
from refimpl import rewrite
from spec.syntax.parser import parse_module
from tests.support import rewrites
from tests.support.control_programs import (
    ASYNC_LAUNCH,
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
from tests.support.rewrites import LAUNCH, module, pair
from verifier.output.report import BOUNDED, REFUTED, UNKNOWN, VERIFIED


def run(inp: str, out: str, **options: object) -> verifier.Report:
    """The whole-function proof (paths, loop lemma, bound: what this file
    tests); composition off (`tests/verifier/test_verifier_compose.py` tests it)."""
    return rewrites.run(inp, out, compose=False, **options)


def check(*args: object, **kw: object) -> verifier.Report:
    return verifier.check(*args, compose=False, **kw)  # type: ignore[arg-type]


def path_of(r) -> list[str]:  # type: ignore[no-untyped-def]
    """The path of the only violation inside the function (GPU work that
    the program may also end before, `before-end`, is on the same path)."""
    vs = [v for f in r.functions for v in f.violations]
    (v,) = [v for v in vs if v.kind != "before-end"]
    assert all(e.path == v.path for e in vs), vs
    return list(v.path)


def test_branch_synchronized_inside() -> None:
    r = run(BRANCH_IN, BRANCH_GOOD)
    assert r.verdict == VERIFIED
    assert r.functions[0].paths == 2 and not r.functions[0].bounded


def test_branch_without_its_wait() -> None:
    r = run(BRANCH_IN, BRANCH_GOOD.replace("      gpu.wait [%1]\n", ""))
    assert r.verdict == REFUTED
    assert pair(r)[:3] == ("gpu-before-host", "gpu.launch_func", "func.call")
    assert path_of(r) == ["scf.if at in.mlir:11:5 takes the then branch"]


def test_branch_yielding_a_token_waited_after() -> None:
    """A token out of an scf.if (one side launches, the other makes an empty
    token), waited after the join: right on both paths."""
    inp = BRANCH_IN.replace("    }\n    call", "    } else {\n    }\n    call")
    out = module(
        """  func.func @f(%m: memref<4xf32>, %p: i1) {
    %c1 = arith.constant 1 : index
    %t = scf.if %p -> (!gpu.async.token) {
      %0 = gpu.wait async
      %1 = gpu.launch_func async [%0] """
        + ASYNC_LAUNCH
        + """
      scf.yield %1 : !gpu.async.token
    } else {
      %2 = gpu.wait async
      scf.yield %2 : !gpu.async.token
    }
    gpu.wait [%t]
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
    )
    assert run(inp, out).verdict == VERIFIED
    # The then side yields the token from before its launch: wrong on the then path.
    wrong = out.replace("      scf.yield %1 : !gpu.async.token", "      scf.yield %0 : !gpu.async.token")
    r = run(inp, wrong)
    assert r.verdict == REFUTED
    assert path_of(r) == ["scf.if at in.mlir:11:5 takes the then branch"]


def test_gpu_op_before_and_inside_a_loop() -> None:
    good = LOOP_SEED.replace("    scf.for", "    gpu.wait [%1]\n    scf.for").replace("async [%1] @k", "async @k")
    r = run(LOOP_IN, good)
    assert r.verdict == VERIFIED, r.text()
    f = r.functions[0]
    assert f.paths == 3
    # Each iteration waits for its own launch and nothing is carried: the
    # loop lemma makes 0..2 trips cover every trip count.
    assert not f.bounded and "iterations are independent" in f.lemma
    assert "verified up to" not in r.text()


def test_seed_zero_trip_loop_is_refuted() -> None:
    r = run(LOOP_IN, LOOP_SEED)
    assert r.verdict == REFUTED
    kind, first, second, first_line, second_line = pair(r)
    assert (kind, first, second, first_line) == ("gpu-before-host", "gpu.launch_func", "func.call", 12)
    assert path_of(r) == ["scf.for at in.mlir:13:5 runs 0 times"]


def test_token_through_iter_args_with_wait_on_exit() -> None:
    r = run(CARRIED_IN, CARRIED_GOOD)
    assert r.verdict == BOUNDED, r.text()
    # The token crosses iterations: the lemma does not apply, the bound is said.
    f = r.functions[0]
    assert f.bounded and f.unroll == 2 and "token crosses" in f.lemma
    assert "proved for up to 2 loop iterations only" in r.text()
    assert r.to_json()["functions"][0]["bounded"] is True


def test_token_through_iter_args_without_wait_on_exit() -> None:
    r = run(CARRIED_IN, CARRIED_GOOD.replace("    gpu.wait [%t]\n", ""))
    assert r.verdict == REFUTED
    assert path_of(r) == ["scf.for at in.mlir:12:5 runs 1 time"]


def test_iterations_not_chained() -> None:
    """Each iteration starts from the loop's initial token instead of the
    carried one: the launches of two iterations may overlap."""
    wrong = CARRIED_GOOD.replace("async [%a]", "async [%0]")
    r = run(CARRIED_IN, wrong)
    assert r.verdict == REFUTED
    v = r.functions[0].violations[0]
    assert (v.kind, v.first.op, v.second.op) == ("gpu-before-gpu", "gpu.launch_func", "gpu.launch_func")
    assert list(v.path) == ["scf.for at in.mlir:12:5 runs 2 times"]


def test_cf_diamond_token_as_block_argument() -> None:
    good = DIAMOND_GOOD
    r = run(DIAMOND_IN, good)
    assert r.verdict == VERIFIED, r.text()
    assert r.functions[0].paths == 2
    # The wait placed on one side only (the side that does no GPU work).
    wrong = good.replace("    gpu.wait [%t]\n", "").replace("    cf.br ^bb3(%0", "    gpu.wait [%0]\n    cf.br ^bb3(%0")
    r = run(DIAMOND_IN, wrong)
    assert r.verdict == REFUTED
    assert path_of(r) == ["cf.cond_br at in.mlir:11:5 goes to its true successor"]


def test_cf_back_edge() -> None:
    inp, good = BACK_IN, BACK_GOOD
    r = run(inp, good)
    assert r.verdict == BOUNDED, r.text()
    assert r.functions[0].bounded
    # Around the back edge the next launch does not wait for the previous one.
    wrong = good.replace("cf.cond_br %p, ^bb1(%1 : !gpu.async.token)", "cf.cond_br %p, ^bb1(%0 : !gpu.async.token)")
    r = run(inp, wrong)
    assert r.verdict == REFUTED
    v = r.functions[0].violations[0]
    assert (v.kind, v.first.op, v.second.op) == ("gpu-before-gpu", "gpu.launch_func", "gpu.launch_func")
    # At least one trip around the back edge, then out.
    assert v.path[0] == "cf.cond_br at in.mlir:14:5 goes to its true successor"
    assert v.path[-1] == "cf.cond_br at in.mlir:14:5 goes to its false successor"


def test_nested_three_deep() -> None:
    # The inner `scf.if` branches on a value of its own: on `%p` it would
    # take the outer one's branch.
    inp = module(
        """  func.func @f(%m: memref<4xf32>, %p: i1, %q: i1, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.if %p {
      scf.for %i = %c0 to %n step %c1 {
        scf.if %q {
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
    good = inp.replace(
        "          gpu.launch_func " + LAUNCH,
        "          %0 = gpu.wait async\n          %1 = gpu.launch_func async [%0] "
        + ASYNC_LAUNCH
        + "\n          gpu.wait [%1]",
    )
    r = run(inp, good)
    assert r.verdict == VERIFIED, r.text()
    # else, or then with 0 trips, or 1 or 2 trips in which the inner `scf.if`
    # takes one branch in every iteration (`%q` is defined outside the loop).
    assert r.functions[0].paths == 6
    bad = good.replace("          gpu.wait [%1]\n", "")
    r = run(inp, bad)
    assert r.verdict == REFUTED
    assert list(r.functions[0].violations[0].path) == [
        "scf.if at in.mlir:12:5 takes the then branch",
        "scf.for at in.mlir:13:7 runs 1 time",
        "scf.if at in.mlir:14:9 takes the then branch",
    ]


def test_async_execute_inside_a_loop() -> None:
    inp = module(
        """  func.func @f(%m: memref<4xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %t = async.execute {
        gpu.launch_func """
        + LAUNCH
        + """
        async.yield
      }
      async.await %t : !async.token
      func.call @consume(%m) : (memref<4xf32>) -> ()
    }
    return
  }
"""
    )
    good = inp.replace(
        "        gpu.launch_func " + LAUNCH,
        "        %0 = gpu.wait async\n        %1 = gpu.launch_func async [%0] "
        + ASYNC_LAUNCH
        + "\n        gpu.wait [%1]",
    )
    r = run(inp, good)
    assert r.verdict == VERIFIED
    assert not r.functions[0].bounded
    # No await at all: an iteration's execute is still running when the
    # next begins, so the loop lemma does not apply; the induction on
    # iterations proves it for every trip count (nothing orders the body
    # with the next iteration, in the input as in the rewrite), and without
    # it only the bound is claimed.
    late = good.replace("      async.await %t : !async.token\n      func.call", "      func.call").replace(
        "    }\n    return", "    }\n    return"
    )
    unawaited = inp.replace("      async.await %t : !async.token\n", "")
    r = run(unawaited, late, induction=False)
    assert r.verdict == BOUNDED
    assert r.functions[0].bounded and "pending" in r.functions[0].lemma
    r = run(unawaited, late)
    assert r.verdict == VERIFIED and r.functions[0].lemma.startswith("by induction on iterations"), r.text()
    r = run(inp, good.replace("        gpu.wait [%1]\n", ""))
    assert r.verdict == REFUTED
    assert path_of(r) == ["scf.for at in.mlir:12:5 runs 1 time"]


def test_too_many_paths_is_unknown() -> None:
    # One condition per `scf.if` (two on one value take the same branch).
    ifs = "".join(
        f"    %q{k} = arith.xori %p, %p : i1\n    scf.if %q{k} {{\n      gpu.launch_func " + LAUNCH + "\n    }\n"
        for k in range(9)
    )
    inp = module(
        "  func.func @f(%m: memref<4xf32>, %p: i1) {\n    %c1 = arith.constant 1 : index\n" + ifs + "    return\n  }\n"
    )
    # Path by path, 512 paths are over the default limit; so they are for
    # the guarded proof when a limit is asked for.
    for checker, kw in ((check_path_by_path, {}), (check, {"max_paths": 256})):
        r = checker(parse_module(inp, "in.mlir"), parse_module(inp, "in.mlir"), **kw)
        assert r.verdict == UNKNOWN
        assert "more than 256 paths" in r.functions[0].reason
    # The guarded proof has no limit by default: one query per obligation.
    out = parse_module(inp, "out.mlir")
    rewrite(out)
    r = check(parse_module(inp, "in.mlir"), out)
    assert r.verdict == VERIFIED, r.functions[0].reason


def test_unsupported_region_op_is_unknown() -> None:
    # An scf.parallel with a reduction holding a GPU op: not modelled.
    inp = module(
        """  func.func @f(%m: memref<4xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0.0 : f32
    %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z) -> f32 {
      gpu.launch_func """
        + LAUNCH
        + """
      %x = memref.load %m[%c0] : memref<4xf32>
      scf.reduce(%x : f32) {
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        scf.reduce.return %s : f32
      }
    }
    return
  }
"""
    )
    r = check(parse_module(inp, "in.mlir"), parse_module(inp, "in.mlir"))
    assert r.verdict == UNKNOWN
    assert "'scf.parallel' with reductions" in r.functions[0].reason
