"""The verifier at the function's boundary (docs/design.md section 4, rules 9-11)
and on tokens through any op: for each class a right rewrite verified and
wrong ones refuted with the kind and message that name the lost ordering.

Inputs and outputs here are valid for `mlir-opt-19` (checked by
`test_cases_are_valid_for_mlir_opt_19` where it is installed).
"""

from __future__ import annotations

import subprocess

import pytest

from spec.syntax.parser import parse_module
from tests.mlir_tools import MLIR_OPT_19
from tests.support.path_reference import check_path_by_path
from tests.support.rewrites import LAUNCH, module, run
from verifier import check
from verifier.output.report import BOUNDED, REFUTED, UNKNOWN, VERIFIED, Report

HEAD_DECLS = """  func.func private @take(!gpu.async.token)
  func.func private @make() -> !gpu.async.token
"""


def mod(body: str) -> str:
    return module(HEAD_DECLS + body)


def kinds(r: Report) -> set[str]:
    return {v.kind for f in r.functions for v in f.violations}


def messages(r: Report) -> str:
    return "\n".join(v.message for f in r.functions for v in f.violations)


# --- class 1: tokens that come in --------------------------------------------

IN_ARG = mod("""  func.func @f(%t: !gpu.async.token, %m: memref<4xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    gpu.wait [%t]
    %v = memref.load %m[%c0] : memref<4xf32>
    return %v : f32
  }
""")


def test_incoming_token_wait_kept_verifies() -> None:
    r = run(IN_ARG, IN_ARG.replace("%t: ", "%tok: ").replace("[%t]", "[%tok]"))
    assert r.verdict == VERIFIED, r.text()


def test_incoming_token_wait_dropped_is_refuted() -> None:
    r = run(IN_ARG, IN_ARG.replace("    gpu.wait [%t]\n", ""))
    assert r.verdict == REFUTED
    assert kinds(r) == {"caller-work-before"}
    assert "'memref.load' op may run before the caller's work behind argument #0 of the function" in messages(r)


def test_incoming_token_as_a_dependency_only_is_refuted() -> None:
    """A dependency orders the GPU op, not the host load after it."""
    out = IN_ARG.replace("    gpu.wait [%t]\n", "    %w = gpu.wait async [%t]\n")
    r = run(IN_ARG, out)
    assert r.verdict == REFUTED
    assert kinds(r) == {"caller-work-before"}


IN_VALUE = mod("""  func.func @f(%v: !async.value<!gpu.async.token>, %m: memref<4xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %t = async.await %v : !async.value<!gpu.async.token>
    gpu.wait [%t]
    %x = memref.load %m[%c0] : memref<4xf32>
    return %x : f32
  }
""")


def test_incoming_value_holding_a_gpu_token() -> None:
    assert run(IN_VALUE, IN_VALUE).verdict == VERIFIED
    # Awaiting the value is not waiting on the GPU token inside it.
    r = run(IN_VALUE, IN_VALUE.replace("    gpu.wait [%t]\n", ""))
    assert r.verdict == REFUTED
    assert "(the token inside the value)" in messages(r)


IN_ASYNC = mod("""  func.func @f(%a: !async.token, %m: memref<4xf32>) {
    async.await %a : !async.token
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
""")


def test_incoming_async_token() -> None:
    assert run(IN_ASYNC, IN_ASYNC).verdict == VERIFIED
    r = run(IN_ASYNC, IN_ASYNC.replace("    async.await %a : !async.token\n", ""))
    assert r.verdict == REFUTED and kinds(r) == {"caller-work-before"}


def test_call_token_result_is_the_callees_work() -> None:
    inp = mod("""  func.func @f(%m: memref<4xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %t = call @make() : () -> !gpu.async.token
    gpu.wait [%t]
    %v = memref.load %m[%c0] : memref<4xf32>
    return %v : f32
  }
""")
    assert run(inp, inp).verdict == VERIFIED
    r = run(inp, inp.replace("    gpu.wait [%t]\n", ""))
    assert r.verdict == REFUTED
    assert "the callee's work behind result #0 of 'func.call'" in messages(r)


# --- class 2: tokens that go out ---------------------------------------------

OUT_RET = mod(
    """  func.func @f(%m: memref<4xf32>) -> !gpu.async.token {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] """
    + LAUNCH
    + """
    return %t1 : !gpu.async.token
  }
"""
)


def test_returned_token_kept_verifies() -> None:
    over_synchronised = OUT_RET.replace("    return %t1", "    gpu.wait [%t1]\n    return %t1")
    for out in (OUT_RET, over_synchronised):
        r = run(OUT_RET, out)
        assert r.verdict == VERIFIED, r.text()


def test_returning_an_earlier_token_is_refuted() -> None:
    r = run(OUT_RET, OUT_RET.replace("return %t1 :", "return %t0 :"))
    assert r.verdict == REFUTED
    assert kinds(r) == {"before-receiver"}
    assert (
        "'func.return' op hands out a token (operand #0) whose receiver may wait on it and go on before 'gpu.launch_func'"
        in messages(r)
    )


def test_passing_an_earlier_token_to_a_call_is_refuted() -> None:
    inp = mod(
        """  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] """
        + LAUNCH
        + """
    call @take(%t1) : (!gpu.async.token) -> ()
    return
  }
"""
    )
    assert run(inp, inp).verdict == VERIFIED
    r = run(inp, inp.replace("call @take(%t1)", "call @take(%t0)"))
    assert r.verdict == REFUTED
    assert "before-receiver" in kinds(r)


def test_returned_execute_token_must_cover_its_body() -> None:
    """Class 3 through class 2: the execute's token leaves the function,
    so its receiver observes the body's completion."""
    inp = mod(
        """  func.func @f(%m: memref<4xf32>) -> !async.token {
    %c1 = arith.constant 1 : index
    %a = async.execute {
      gpu.launch_func """
        + LAUNCH
        + """
      async.yield
    }
    return %a : !async.token
  }
"""
    )
    good = inp.replace(
        "      gpu.launch_func " + LAUNCH,
        "      %0 = gpu.wait async\n      %1 = gpu.launch_func async [%0] " + LAUNCH + "\n      gpu.wait [%1]",
    )
    assert run(inp, good).verdict == VERIFIED
    r = run(inp, good.replace("      gpu.wait [%1]\n", ""))
    assert r.verdict == REFUTED
    assert {"before-receiver", "before-end"} <= kinds(r)


# --- class 3: the completion of an async.execute -------------------------------

UNAWAITED = mod(
    """  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %a = async.execute {
      gpu.launch_func """
    + LAUNCH
    + """
      async.yield
    }
    return
  }
"""
)
UNAWAITED_GOOD = UNAWAITED.replace(
    "      gpu.launch_func " + LAUNCH,
    "      %0 = gpu.wait async\n      %1 = gpu.launch_func async [%0] " + LAUNCH + "\n      gpu.wait [%1]",
)


def test_unawaited_execute_body_must_finish_its_gpu_work() -> None:
    assert run(UNAWAITED, UNAWAITED_GOOD).verdict == VERIFIED
    r = run(UNAWAITED, UNAWAITED_GOOD.replace("      gpu.wait [%1]\n", ""))
    assert r.verdict == REFUTED
    assert kinds(r) == {"before-end"}
    assert "the program may end before 'gpu.launch_func'" in messages(r)


def test_handover_only_where_every_observer_waits() -> None:
    """Phase 2's rewrite hands the body's GPU work to the awaiting host:
    right when the await runs on every path, wrong when one path skips it."""
    straight = mod(
        """  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %a = async.execute {
      gpu.launch_func """
        + LAUNCH
        + """
      async.yield
    }
    async.await %a : !async.token
    return
  }
"""
    )
    handed = mod(
        """  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %a, %v = async.execute -> !async.value<!gpu.async.token> {
      %0 = gpu.wait async
      %1 = gpu.launch_func async [%0] """
        + LAUNCH
        + """
      async.yield %1 : !gpu.async.token
    }
    async.await %a : !async.token
    %2 = async.await %v : !async.value<!gpu.async.token>
    gpu.wait [%2]
    return
  }
"""
    )
    assert run(straight, handed).verdict == VERIFIED
    r = run(straight, handed.replace("    gpu.wait [%2]\n", ""))
    assert r.verdict == REFUTED and "before-end" in kinds(r)
    branchy = straight.replace("%m: memref<4xf32>)", "%m: memref<4xf32>, %p: i1)").replace(
        "    async.await %a : !async.token\n", "    scf.if %p {\n      async.await %a : !async.token\n    }\n"
    )
    handed_branchy = handed.replace("%m: memref<4xf32>)", "%m: memref<4xf32>, %p: i1)").replace(
        "    async.await %a : !async.token\n    %2 = async.await %v : !async.value<!gpu.async.token>\n    gpu.wait [%2]\n",
        "    scf.if %p {\n      async.await %a : !async.token\n      %2 = async.await %v : !async.value<!gpu.async.token>\n"
        "      gpu.wait [%2]\n    }\n",
    )
    r = run(branchy, handed_branchy)
    assert r.verdict == REFUTED, r.text()
    assert kinds(r) == {"before-end"}
    assert any("takes the else branch" in p for f in r.functions for v in f.violations for p in v.path)


# --- class 7: loop-carried values are bound at once -----------------------------

ROTATE = mod(
    """  func.func @f(%m: memref<4xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a0 = gpu.wait async
    %b0 = gpu.wait async
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %b = %b0) -> (!gpu.async.token, !gpu.async.token) {
      %x = gpu.launch_func async [%a] """
    + LAUNCH
    + """
      scf.yield %b, %x : !gpu.async.token, !gpu.async.token
    }
    gpu.wait [%r#0, %r#1]
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
)


def test_rotating_loop_carried_tokens_agree_path_by_path_and_guarded() -> None:
    for checker in (check, check_path_by_path):
        # Tokens cross the iterations: unrolled, proved up to the bound
        # only; by induction on the iterations, for every trip count.
        r = checker(parse_module(ROTATE, "in.mlir"), parse_module(ROTATE, "out.mlir"), induction=False)
        assert r.verdict == BOUNDED, r.text()
        r = checker(parse_module(ROTATE, "in.mlir"), parse_module(ROTATE, "out.mlir"))
        assert r.verdict == VERIFIED, r.text()
    # Waiting on one of the two rotated tokens loses the launch of the
    # iteration whose token went to the other.
    bad = ROTATE.replace("gpu.wait [%r#0, %r#1]", "gpu.wait [%r#0]")
    verdicts = set()
    for checker in (check, check_path_by_path):
        r = checker(parse_module(ROTATE, "in.mlir"), parse_module(bad, "out.mlir"))
        verdicts.add(r.verdict)
        assert r.verdict == REFUTED, r.text()
        assert "'func.call' op may run before 'gpu.launch_func'" in messages(r)
    assert verdicts == {REFUTED}


# --- class 8: async groups -------------------------------------------------------

GROUP = mod(
    """  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %g = async.create_group %c1 : !async.group
    %a = async.execute {
      gpu.launch_func """
    + LAUNCH
    + """
      async.yield
    }
    %i = async.add_to_group %a, %g : !async.token
    async.await_all %g
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
)


def test_async_groups_are_modelled() -> None:
    good = GROUP.replace(
        "      gpu.launch_func " + LAUNCH,
        "      %0 = gpu.wait async\n      %1 = gpu.launch_func async [%0] " + LAUNCH + "\n      gpu.wait [%1]",
    )
    r = run(GROUP, good)
    assert r.verdict == VERIFIED, r.text()
    r = run(GROUP, good.replace("      gpu.wait [%1]\n", ""))
    assert r.verdict == REFUTED
    assert "'func.call' op may run before 'gpu.launch_func'" in messages(r)
    # Awaiting the group is the only thing ordering the call after the body.
    r = run(GROUP, good.replace("    async.await_all %g\n", ""))
    assert r.verdict == REFUTED


def test_a_group_of_another_size_than_its_adds_is_not_followed() -> None:
    """`create_group %c2` with one `add_to_group`: `await_all` would wait
    for a token nobody adds. The model follows only groups whose constant
    size is their number of adds; anything else is `unknown`, with why."""
    two = GROUP.replace("async.create_group %c1", "async.create_group %c2")
    r = check(parse_module(two, "in.mlir"), parse_module(two, "out.mlir"))
    assert r.verdict == UNKNOWN, r.text()
    assert "'async.create_group' op of size 2 gets 1 'async.add_to_group' ops" in r.text()


GROUP_LATE = mod("""  func.func @f(%m: memref<4xf32>, %x: f32) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %g = async.create_group %c2 : !async.group
    %s = async.execute {
      async.await_all %g
      memref.store %x, %m[%c0] : memref<4xf32>
      async.yield
    }
    %a = async.execute {
      async.yield
    }
    %i0 = async.add_to_group %a, %g : !async.token
    %b = async.execute {
      %w = gpu.wait async
      %w2 = gpu.memset async [%w] %m, %x : memref<4xf32>, f32
      gpu.wait [%w2]
      async.yield
    }
    %i1 = async.add_to_group %b, %g : !async.token
    async.await %s : !async.token
    return
  }
""")


def test_await_all_waits_for_tokens_added_after_it() -> None:
    """The `await_all` in the first body is issued before the last
    `add_to_group`, and still waits for it (the group's size is 2): the
    store is ordered after the memset of the last body. A rewrite that
    drops the memset's wait loses that order, which must be refuted as a
    store that may run before the memset has finished."""
    bad = GROUP_LATE.replace("      gpu.wait [%w2]\n", "")
    r = check(parse_module(GROUP_LATE, "in.mlir"), parse_module(bad, "out.mlir"))
    assert r.verdict == REFUTED, r.text()
    assert "'memref.store' op may run before 'gpu.memset'" in messages(r)
    assert check(parse_module(GROUP_LATE, "in.mlir"), parse_module(GROUP_LATE, "out.mlir")).verdict == VERIFIED


# --- class 10: tokens through any op -------------------------------------------

SELECT = mod(
    """  func.func @f(%m: memref<4xf32>, %p: i1) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] """
    + LAUNCH
    + """
    %t2 = gpu.wait async
    %s = arith.select %p, %t1, %t2 : !gpu.async.token
    gpu.wait [%s]
    %v = memref.load %m[%c0] : memref<4xf32>
    return %v : f32
  }
"""
)


def _select_verdict(output: str, input_text: str = SELECT) -> str:
    return check(parse_module(input_text, "in.mlir"), parse_module(output, "out.mlir")).verdict


@pytest.mark.parametrize(
    "what, edit",
    [
        ("the wait dropped", ("    gpu.wait [%s]\n", "")),
        ("the wait on the other operand", ("    gpu.wait [%s]\n", "    gpu.wait [%t2]\n")),
        ("the operands swapped", ("%p, %t1, %t2", "%p, %t2, %t1")),
    ],
)
def test_token_through_select_wrong_rewrites_are_refuted(what: str, edit: tuple[str, str]) -> None:
    # A selected token completes when the operand the condition picks does:
    # on the path that picks %t1 the wait orders the launch before the load.
    assert _select_verdict(SELECT.replace(*edit)) == REFUTED, what


@pytest.mark.parametrize(
    "what, edit",
    [
        ("identity", ("", "")),
        ("over-synchronised: a wait on the launch itself", ("    gpu.wait [%s]\n", "    gpu.wait [%t1]\n")),
        ("renamed", ("%s", "%chosen")),
    ],
)
def test_token_through_select_right_rewrites_are_verified(what: str, edit: tuple[str, str]) -> None:
    assert _select_verdict(SELECT.replace(*edit)) == VERIFIED, what


SELECT_THEN_IF = mod(
    """  func.func @f(%m: memref<4xf32>, %p: i1) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] """
    + LAUNCH
    + """
    %t2 = gpu.wait async
    %s = arith.select %p, %t1, %t2 : !gpu.async.token
    scf.if %p {
      gpu.wait [%t1]
    }
    %v = memref.load %m[%c0] : memref<4xf32>
    gpu.wait [%t1]
    return %v : f32
  }
"""
)


def test_select_and_if_on_one_condition_decide_together() -> None:
    # Under `scf.if %p` the select picked %t1, so waiting on %s there is the
    # same wait: right only if the two decisions are one.
    right = SELECT_THEN_IF.replace("    scf.if %p {\n      gpu.wait [%t1]", "    scf.if %p {\n      gpu.wait [%s]")
    assert _select_verdict(right, SELECT_THEN_IF) == VERIFIED
    wrong = SELECT_THEN_IF.replace("    scf.if %p {\n      gpu.wait [%t1]", "    scf.if %p {\n      gpu.wait [%t2]")
    assert _select_verdict(wrong, SELECT_THEN_IF) == REFUTED


# --- class 13: a reported path is a path the program can take ----------------------

SAME_IN = mod(
    """  func.func @f(%m: memref<4xf32>, %p: i1) {
    %c1 = arith.constant 1 : index
    scf.if %p {
      gpu.launch_func """
    + LAUNCH
    + """
    } else {
    }
    scf.if %p {
      func.call @consume(%m) : (memref<4xf32>) -> ()
    } else {
      func.call @consume(%m) : (memref<4xf32>) -> ()
    }
    return
  }
"""
)
SAME_OUT = mod(
    """  func.func @f(%m: memref<4xf32>, %p: i1) {
    %c1 = arith.constant 1 : index
    %t = scf.if %p -> (!gpu.async.token) {
      %0 = gpu.wait async
      %1 = gpu.launch_func async [%0] """
    + LAUNCH
    + """
      scf.yield %1 : !gpu.async.token
    } else {
      %0 = gpu.wait async
      scf.yield %0 : !gpu.async.token
    }
    scf.if %p {
      gpu.wait [%t]
      func.call @consume(%m) : (memref<4xf32>) -> ()
    } else {
      func.call @consume(%m) : (memref<4xf32>) -> ()
    }
    return
  }
"""
)


def test_two_ifs_on_one_condition_take_the_same_branch() -> None:
    """The wait sits only in the branch that follows the launch: right,
    since both `scf.if`s branch on `%p`; the then/else path cannot happen."""
    for checker in (check, check_path_by_path):
        r = checker(parse_module(SAME_IN, "in.mlir"), parse_module(SAME_OUT, "out.mlir"))
        assert r.verdict == VERIFIED, r.text()
    assert r.functions[0].paths == 2
    # Waiting in the other branch is wrong, and the path says so consistently.
    swapped = SAME_OUT.replace(
        "    scf.if %p {\n      gpu.wait [%t]\n      func.call @consume(%m) : (memref<4xf32>) -> ()\n    } else {\n      func.call",
        "    scf.if %p {\n      func.call @consume(%m) : (memref<4xf32>) -> ()\n    } else {\n      gpu.wait [%t]\n      func.call",
    )
    r = run(SAME_IN, swapped)
    assert r.verdict == REFUTED
    (v,) = [v for f in r.functions for v in f.violations if v.kind != "before-end"]
    assert list(v.path) == [
        "scf.if at in.mlir:13:5 takes the then branch",
        "scf.if at in.mlir:17:5 takes the then branch",
    ]


# --- the cases are IR mlir-opt-19 accepts ---------------------------------------

CASES = [IN_ARG, IN_VALUE, IN_ASYNC, OUT_RET, UNAWAITED, UNAWAITED_GOOD, ROTATE, GROUP, SELECT, SAME_IN, SAME_OUT]


@pytest.mark.skipif(MLIR_OPT_19 is None, reason="mlir-opt-19 is not installed (apt-get install mlir-19-tools)")
@pytest.mark.parametrize("text", CASES)
def test_cases_are_valid_for_mlir_opt_19(text: str) -> None:
    assert MLIR_OPT_19 is not None
    p = subprocess.run([MLIR_OPT_19], input=text, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
