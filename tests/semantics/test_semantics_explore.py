"""Schedule exploration: one hand-written program per rule of docs/design.md
section 4, each checked for its outcomes, races and out-of-order pairs."""

from __future__ import annotations

import pytest

from spec.semantics.interp import default_args
from spec.semantics.schedule import replay, run
from tests.support.explore import explore_default, func_of


def line_of(func, opname: str, nth: int = 0) -> int:
    return [op for op in func.walk() if op.name == opname][nth].loc.line


RACY = """
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@scale LAUNCH args(%dev : memref<4xf32>)
    %v = memref.load %dev[%c0] : memref<4xf32>
    func.call @consume(%host) : (memref<4xf32>) -> ()
    return"""


def test_kernel_then_load_without_wait_races():
    f = func_of(RACY)
    ex = explore_default(f)
    assert ex.complete
    assert len(ex.outcomes) >= 2
    assert len(ex.races) == 1
    race = next(iter(ex.races.values()))
    assert race.first.op == "gpu.launch_func" and race.second.op == "memref.load"
    assert race.first.loc == str(next(op for op in f.walk() if op.name == "gpu.launch_func").loc)
    assert race.second.loc == str(next(op for op in f.walk() if op.name == "memref.load").loc)
    assert race.first.loc.startswith(f"t.mlir:{line_of(f, 'gpu.launch_func')}:")
    # The witness makes the two overlap: start, the load, then finish.
    sched = list(race.schedule)
    starts = [i for i, s in enumerate(sched) if s.startswith("start gpu.launch_func")]
    loads = [i for i, s in enumerate(sched) if s.startswith("host memref.load")]
    fins = [i for i, s in enumerate(sched) if s.startswith("finish gpu.launch_func")]
    assert starts[0] < loads[0] < fins[0]
    replay(f, sched, default_args(f))


def test_kernel_then_wait_then_load_is_deterministic():
    f = func_of(RACY.replace("    %v = memref.load", "    gpu.wait [%t1]\n    %v = memref.load"))
    ex = explore_default(f)
    assert ex.complete and ex.deterministic and not ex.races and not ex.out_of_order


def test_synchronous_kernel_is_deterministic():
    f = func_of(
        """
    gpu.launch_func @k::@scale LAUNCH args(%dev : memref<4xf32>)
    gpu.memcpy %host, %dev : memref<4xf32>, memref<4xf32>
    %v = memref.load %host[%c0] : memref<4xf32>
    func.call @consume(%host) : (memref<4xf32>) -> ()
    return"""
    )
    ex = explore_default(f)
    assert ex.deterministic and not ex.races and not ex.out_of_order
    # The load sees the kernel's result, not the initial contents.
    before = run(f, default_args(f)).outcome
    assert "load" in str(before) and ex.outcomes.keys() == {before}


CHAIN = """
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@scale LAUNCH args(%dev : memref<4xf32>)
    %t2 = gpu.memcpy async [DEP] %host, %dev : memref<4xf32>, memref<4xf32>
    gpu.wait [%t2]
    func.call @consume(%host) : (memref<4xf32>) -> ()
    return"""


def test_token_chain_orders_gpu_ops():
    ex = explore_default(func_of(CHAIN.replace("DEP", "%t1")))
    assert ex.deterministic and not ex.races


def test_broken_token_chain_races_between_gpu_ops():
    f = func_of(CHAIN.replace("DEP", "%t0"))
    ex = explore_default(f)
    assert not ex.deterministic
    ops = {(r.first.op, r.second.op) for r in ex.races.values()}
    assert ("gpu.launch_func", "gpu.memcpy") in ops


JOIN = """
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@scale LAUNCH args(%dev : memref<4xf32>)
    %t2 = gpu.launch_func async [%t0] @k::@scale LAUNCH args(%host : memref<4xf32>)
    %j = gpu.wait async [JOINED]
    %t3 = gpu.launch_func async [%j] @k::@two LAUNCH args(%dev : memref<4xf32>, %host : memref<4xf32>)
    gpu.wait [%t3]
    func.call @consume(%host) : (memref<4xf32>) -> ()
    return"""


def test_user_join_orders_both_producers():
    ex = explore_default(func_of(JOIN.replace("JOINED", "%t1, %t2")))
    assert ex.deterministic and not ex.races


def test_join_missing_a_producer_races():
    ex = explore_default(func_of(JOIN.replace("JOINED", "%t1")))
    assert not ex.deterministic
    assert any(r.buffer == "%host" for r in ex.races.values())


def test_synchronous_op_with_deps_waits_for_them():
    f = func_of(
        """
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@scale LAUNCH args(%dev : memref<4xf32>)
    gpu.memcpy [%t1] %host, %dev : memref<4xf32>, memref<4xf32>
    %v = memref.load %host[%c0] : memref<4xf32>
    return"""
    )
    ex = explore_default(f)
    assert ex.deterministic and not ex.races
    # The load comes after the (synchronous) copy finished in every schedule.
    labels = list(next(iter(ex.outcomes.values())))
    fin = next(i for i, s in enumerate(labels) if s.startswith("finish gpu.memcpy"))
    load = next(i for i, s in enumerate(labels) if s.startswith("host memref.load"))
    assert fin < load


ASYNC = """
    %f = arith.constant 2.0 : f32
    %t, %v = async.execute -> !async.value<f32> {
      %x = memref.load %dev[%c0] : memref<4xf32>
      %y = arith.addf %x, %f : f32
      memref.store %y, %host[%c0] : memref<4xf32>
      async.yield %y : f32
    }
    AWAITS
    %z = memref.load %host[%c0] : memref<4xf32>
    return"""


@pytest.mark.parametrize(
    "awaits",
    [
        "async.await %t : !async.token\n    %r = async.await %v : !async.value<f32>",
        "%r = async.await %v : !async.value<f32>\n    async.await %t : !async.token",
        "%r = async.await %v : !async.value<f32>",
        "async.await %t : !async.token",
    ],
)
def test_async_execute_token_and_value_awaited_in_any_order(awaits):
    f = func_of(ASYNC.replace("AWAITS", awaits))
    ex = explore_default(f)
    assert ex.complete and ex.deterministic


def test_async_execute_not_awaited_is_racy_with_host():
    f = func_of(ASYNC.replace("AWAITS", ""))
    ex = explore_default(f)
    assert not ex.deterministic
    assert ex.schedules_explored >= 2


def test_async_body_waits_for_its_dependencies():
    f = func_of(
        """
    %t1 = async.execute {
      memref.store %c1f, %host[%c0] : memref<4xf32>
      async.yield
    }
    %t2 = async.execute [%t1] {
      %x = memref.load %host[%c0] : memref<4xf32>
      memref.store %x, %dev[%c0] : memref<4xf32>
      async.yield
    }
    async.await %t2 : !async.token
    return""".replace("%t1 = async", "%c1f = arith.constant 9.0 : f32\n    %t1 = async")
    )
    ex = explore_default(f)
    assert ex.deterministic
    out = next(iter(ex.outcomes))
    assert any("9.0" in str(o) for _, obs in out.observations for o in obs)


GPU_IN_ASYNC = """
    %t, %v = async.execute -> !async.value<!gpu.async.token> {
      %t0 = gpu.wait async
      %g = gpu.launch_func async [%t0] @k::@scale LAUNCH args(%dev : memref<4xf32>)
      async.yield %g : !gpu.async.token
    }
    %g2 = async.await %v : !async.value<!gpu.async.token>
    WAIT
    %x = memref.load %dev[%c0] : memref<4xf32>
    return"""


def test_gpu_token_through_async_value():
    waited = func_of(GPU_IN_ASYNC.replace("WAIT", "gpu.wait [%g2]"))
    assert explore_default(waited).deterministic
    unwaited = explore_default(func_of(GPU_IN_ASYNC.replace("WAIT", "")))
    assert not unwaited.deterministic and unwaited.races
