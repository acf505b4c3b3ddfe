"""The verifier on hand-written rewrites: for each rule of the semantics a
right rewrite that verifies and a wrong one refuted with the right pair.

Every check here also requires the two oracles (Z3 and reachability) to agree
on every obligation, and the identity rewrite of every input to verify.
"""

from __future__ import annotations

import pytest

from tests.support.rewrites import GOOD, LAUNCH, SYNC, module, pair, run
from verifier.output.report import REFUTED, VERIFIED

# --- straight-line host code ------------------------------------------------


def test_right_rewrite_verifies() -> None:
    r = run(SYNC, GOOD)
    assert r.verdict == VERIFIED, r.text()
    # Four orderings inside, and the return before the program's end.
    assert r.functions[0].obligations == 5


def test_identity_verifies() -> None:
    assert run(SYNC, SYNC).verdict == VERIFIED


def test_deleted_blocking_wait() -> None:
    r = run(SYNC, GOOD.replace("    gpu.wait [%3]\n", ""))
    assert r.verdict == REFUTED
    assert pair(r) == ("gpu-before-host", "gpu.memcpy", "func.call", 13, 15)
    assert "'func.call' op may run before 'gpu.memcpy' (in.mlir:13:5) has finished" in r.text()
    # The Z3 schedule, replayed in the interpreter, changes what the call sees.
    rep = r.functions[0].violations[0].replay
    assert rep is not None and rep.replayed and rep.differs, rep
    assert rep.schedule.index("host func.call@out.mlir:15:5") < rep.schedule.index("finish gpu.memcpy@out.mlir:14:10")


def test_dropped_dependency() -> None:
    r = run(SYNC, GOOD.replace("async [%1]", "async [%0]"))
    assert r.verdict == REFUTED
    assert pair(r) == ("gpu-before-gpu", "gpu.launch_func", "gpu.launch_func", 11, 13)


def test_wait_moved_after_the_effect() -> None:
    moved = GOOD.replace(
        "    gpu.wait [%3]\n    call @consume(%h) : (memref<4xf32>) -> ()\n",
        "    call @consume(%h) : (memref<4xf32>) -> ()\n    gpu.wait [%3]\n",
    )
    r = run(SYNC, moved)
    assert r.verdict == REFUTED
    assert pair(r) == ("gpu-before-host", "gpu.memcpy", "func.call", 13, 15)


def test_wait_on_the_wrong_token() -> None:
    r = run(SYNC, GOOD.replace("gpu.wait [%3]", "gpu.wait [%2]"))
    assert r.verdict == REFUTED
    assert pair(r)[:3] == ("gpu-before-host", "gpu.memcpy", "func.call")


def test_gpu_op_left_synchronous_is_right() -> None:
    sync_copy = GOOD.replace("%3 = gpu.memcpy async [%2]", "gpu.memcpy [%2]").replace("    gpu.wait [%3]\n", "")
    assert run(SYNC, sync_copy).verdict == VERIFIED


def test_extra_waits_are_right() -> None:
    extra = GOOD.replace("    %2 = gpu.launch", "    gpu.wait [%1]\n    %2 = gpu.launch").replace(
        "gpu.wait [%3]", "gpu.wait [%3]\n    gpu.wait [%3, %0]"
    )
    assert run(SYNC, extra).verdict == VERIFIED


def test_missing_wait_before_return() -> None:
    inp = module(
        """  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func """
        + LAUNCH
        + """
    return
  }
"""
    )
    out = module(
        """  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %0 = gpu.wait async
    %1 = gpu.launch_func async [%0] """
        + LAUNCH
        + """
    return
  }
"""
    )
    r = run(inp, out)
    assert r.verdict == REFUTED
    assert pair(r)[:3] == ("before-return", "gpu.launch_func", "func.return")
    assert "'func.return' op may return before 'gpu.launch_func' (in.mlir:11:5) has finished" in r.text()


def test_host_effect_before_gpu_op() -> None:
    inp = module(
        """  func.func @f(%m: memref<4xf32>, %x: f32) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    memref.store %x, %m[%c0] : memref<4xf32>
    gpu.launch_func """
        + LAUNCH
        + """
    return
  }
"""
    )
    good = module(
        """  func.func @f(%m: memref<4xf32>, %x: f32) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    memref.store %x, %m[%c0] : memref<4xf32>
    %0 = gpu.wait async
    %1 = gpu.launch_func async [%0] """
        + LAUNCH
        + """
    gpu.wait [%1]
    return
  }
"""
    )
    assert run(inp, good).verdict == VERIFIED
    # A launch issued before the store it must follow: not a rewrite (the
    # order of effectful ops changed), reported as a mismatch.
    swapped = good.replace("    memref.store %x, %m[%c0] : memref<4xf32>\n", "").replace(
        "    gpu.wait [%1]\n", "    gpu.wait [%1]\n    memref.store %x, %m[%c0] : memref<4xf32>\n"
    )
    r = run(inp, swapped)
    assert r.verdict == REFUTED
    assert r.functions[0].violations[0].kind == "mismatch"


def test_user_token_chain_in_the_input_is_kept() -> None:
    """An input that is already asynchronous: its own deps are obligations."""
    inp = module(
        """  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %0 = gpu.wait async
    %1 = gpu.launch_func async [%0] """
        + LAUNCH
        + """
    %2 = gpu.launch_func async [%1] """
        + LAUNCH
        + """
    gpu.wait [%2]
    return
  }
"""
    )
    assert run(inp, inp).verdict == VERIFIED
    r = run(inp, inp.replace("async [%1]", "async [%0]"))
    assert r.verdict == REFUTED
    assert pair(r)[:3] == ("gpu-before-gpu", "gpu.launch_func", "gpu.launch_func")


# --- async.execute and async.await ------------------------------------------

EXEC_IN = module(
    """  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %t = async.execute {
      gpu.launch_func """
    + LAUNCH
    + """
      async.yield
    }
    async.await %t : !async.token
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
)
# Line 13: the launch in the body; line 17: the call.

EXEC_GOOD = module(
    """  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %t, %v = async.execute -> !async.value<!gpu.async.token> {
      %0 = gpu.wait async
      %1 = gpu.launch_func async [%0] """
    + LAUNCH
    + """
      async.yield %1 : !gpu.async.token
    }
    async.await %t : !async.token
    %2 = async.await %v : !async.value<!gpu.async.token>
    gpu.wait [%2]
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
)


def test_deferred_wait_verifies() -> None:
    r = run(EXEC_IN, EXEC_GOOD)
    assert r.verdict == VERIFIED, r.text()


def test_removed_async_await() -> None:
    r = run(
        EXEC_IN,
        EXEC_GOOD.replace("    async.await %t : !async.token\n", "").replace(
            "    %2 = async.await %v : !async.value<!gpu.async.token>\n    gpu.wait [%2]\n", ""
        ),
    )
    # Without the await, the call is not ordered after the body at all.
    assert r.verdict == REFUTED
    kind, first, second, _, _ = pair(r, end_too=True)
    assert (kind, first, second) == ("gpu-before-host", "gpu.launch_func", "func.call")
    assert all(v.cross_thread for v in r.functions[0].violations)


def test_removed_await_of_the_token_value() -> None:
    r = run(
        EXEC_IN, EXEC_GOOD.replace("    %2 = async.await %v : !async.value<!gpu.async.token>\n    gpu.wait [%2]\n", "")
    )
    assert r.verdict == REFUTED
    assert pair(r, end_too=True)[:3] == ("gpu-before-host", "gpu.launch_func", "func.call")


CHAIN_IN = module(
    """  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %t = async.execute {
      gpu.launch_func """
    + LAUNCH
    + """
      async.yield
    }
    %t2 = async.execute [%t] {
      func.call @consume(%m) : (memref<4xf32>) -> ()
      async.yield
    }
    async.await %t2 : !async.token
    return
  }
"""
)

CHAIN_GOOD = module(
    """  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %t, %v = async.execute -> !async.value<!gpu.async.token> {
      %0 = gpu.wait async
      %1 = gpu.launch_func async [%0] """
    + LAUNCH
    + """
      async.yield %1 : !gpu.async.token
    }
    %t2 = async.execute [%t] (%v as %a: !async.value<!gpu.async.token>) {
      gpu.wait [%a]
      func.call @consume(%m) : (memref<4xf32>) -> ()
      async.yield
    }
    async.await %t2 : !async.token
    return
  }
"""
)


def test_deferred_wait_consumed_by_another_execute() -> None:
    assert run(CHAIN_IN, CHAIN_GOOD).verdict == VERIFIED


def test_deferred_wait_whose_results_are_consumed_elsewhere() -> None:
    """The wait is deferred out of the first body but the execute that
    depends on its token never gets the GPU token: the call races."""
    wrong = CHAIN_GOOD.replace(" (%v as %a: !async.value<!gpu.async.token>)", "").replace("      gpu.wait [%a]\n", "")
    r = run(CHAIN_IN, wrong)
    assert r.verdict == REFUTED
    v = next(v for v in r.functions[0].violations if v.kind != "before-end")
    assert (v.kind, v.first.op, v.second.op, v.cross_thread) == (
        "gpu-before-host",
        "gpu.launch_func",
        "func.call",
        True,
    )


def _value_exec(order: str) -> tuple[str, str]:
    """An execute with a value and GPU work, awaited in `order`: the input
    and the rewrite that awaits the deferred token right after the first
    await of anything from that execute."""
    awaits = {
        "value-then-token": [
            "    %r = async.await %v : !async.value<f32>\n",
            "    call @consume(%m) : (memref<4xf32>) -> ()\n",
            "    async.await %t : !async.token\n",
        ],
        "token-then-value": [
            "    async.await %t : !async.token\n",
            "    call @consume(%m) : (memref<4xf32>) -> ()\n",
            "    %r = async.await %v : !async.value<f32>\n",
        ],
        "value-only": [
            "    %r = async.await %v : !async.value<f32>\n",
            "    call @consume(%m) : (memref<4xf32>) -> ()\n",
        ],
        "token-only": ["    async.await %t : !async.token\n", "    call @consume(%m) : (memref<4xf32>) -> ()\n"],
    }[order]
    inp = module(
        """  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %t, %v = async.execute -> !async.value<f32> {
      gpu.launch_func """
        + LAUNCH
        + """
      %x = arith.constant 1.0 : f32
      async.yield %x : f32
    }
"""
        + "".join(awaits)
        + """    return
  }
"""
    )
    out_awaits = list(awaits)
    out_awaits.insert(1, "    %g = async.await %w : !async.value<!gpu.async.token>\n    gpu.wait [%g]\n")
    out = module(
        """  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %t, %v, %w = async.execute -> (!async.value<f32>, !async.value<!gpu.async.token>) {
      %0 = gpu.wait async
      %1 = gpu.launch_func async [%0] """
        + LAUNCH
        + """
      %x = arith.constant 1.0 : f32
      async.yield %x, %1 : f32, !gpu.async.token
    }
"""
        + "".join(out_awaits)
        + """    return
  }
"""
    )
    return inp, out


@pytest.mark.parametrize("order", ["value-then-token", "token-then-value", "value-only", "token-only"])
def test_values_and_tokens_awaited_in_every_order(order: str) -> None:
    inp, out = _value_exec(order)
    assert run(inp, out).verdict == VERIFIED
    # The GPU token awaited only after the call: the call may race.
    late = out.replace("    %g = async.await %w : !async.value<!gpu.async.token>\n    gpu.wait [%g]\n", "")
    late = late.replace(
        "    return\n  }\n}",
        "    %g = async.await %w : !async.value<!gpu.async.token>\n    gpu.wait [%g]\n    return\n  }\n}",
    )
    r = run(inp, late)
    assert r.verdict == REFUTED
    assert pair(r)[:3] == ("gpu-before-host", "gpu.launch_func", "func.call")


def test_mlir19_value_then_token_is_refuted() -> None:
    """mlir-opt-19's own output for value-then-token (deferral fires because
    the token is awaited, but the call after the value's await is not
    waited for): the verifier refutes it."""
    inp, _ = _value_exec("value-then-token")
    upstream = module("""  func.func @f(%arg0: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %token, %bodyResults:2 = async.execute -> (!async.value<f32>, !async.value<!gpu.async.token>) {
      %2 = gpu.wait async
      %3 = gpu.launch_func async [%2] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  args(%arg0 : memref<4xf32>)
      %cst = arith.constant 1.000000e+00 : f32
      async.yield %cst, %3 : f32, !gpu.async.token
    }
    %0 = async.await %bodyResults#0 : !async.value<f32>
    call @consume(%arg0) : (memref<4xf32>) -> ()
    async.await %token : !async.token
    %1 = async.await %bodyResults#1 : !async.value<!gpu.async.token>
    gpu.wait [%1]
    return
  }
""")
    r = run(inp, upstream)
    assert r.verdict == REFUTED
    assert pair(r)[:3] == ("gpu-before-host", "gpu.launch_func", "func.call")


def test_user_wait_moved_out_of_an_execute_body() -> None:
    """Phase 2 erases a body's blocking `gpu.wait` and waits where the
    execute is awaited: the input's wait is gone, the ordering is kept."""
    inp = module(
        """  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %t = async.execute {
      %0 = gpu.wait async
      %1 = gpu.launch_func async [%0] """
        + LAUNCH
        + """
      gpu.wait [%1]
      async.yield
    }
    async.await %t : !async.token
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
    )
    assert run(inp, EXEC_GOOD).verdict == VERIFIED
    r = run(inp, EXEC_GOOD.replace("    gpu.wait [%2]\n", ""))
    assert r.verdict == REFUTED
    assert pair(r, end_too=True)[:3] == ("gpu-before-host", "gpu.launch_func", "func.call")


def test_new_await_of_a_gpu_token_is_not_the_users_await() -> None:
    """The rewrite's `async.await` of the deferred GPU token stands right
    before the user's second `async.await` of the execute's token: it must be
    taken as added, not matched with the user's await."""
    inp = EXEC_IN.replace(
        "    async.await %t : !async.token\n",
        "    async.await %t : !async.token\n    async.await %t : !async.token\n",
        1,
    )
    out = EXEC_GOOD.replace("    gpu.wait [%2]\n", "    gpu.wait [%2]\n    async.await %t : !async.token\n", 1)
    r = run(inp, out)
    assert r.verdict == VERIFIED, r.text()
