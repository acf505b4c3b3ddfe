"""Tokens through control flow (docs/design.md rules 7-8), the i1 argument
exploration, partial-order reduction against plain enumeration, replay and
random sampling."""

from __future__ import annotations

import random

import pytest

from spec.semantics.cli import explore_function
from spec.semantics.interp import default_args
from spec.semantics.schedule import ReplayError, explore, replay, run
from tests.support.explore import explore_default, func_of

FOR_TOKENS = """
    %n = arith.constant TRIP : index
    %t0 = gpu.wait async
    %tf = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t0) -> (!gpu.async.token) {
      %t2 = gpu.launch_func async [%t] @k::@scale LAUNCH args(%dev : memref<4xf32>)
      scf.yield %t2 : !gpu.async.token
    }
    gpu.wait [WAITED]
    %x = memref.load %dev[%c0] : memref<4xf32>
    return"""


@pytest.mark.parametrize("trip", [0, 1, 3])
def test_token_through_scf_for_iter_args(trip):
    f = func_of(FOR_TOKENS.replace("TRIP", str(trip)).replace("WAITED", "%tf"))
    ex = explore_default(f)
    assert ex.complete and ex.deterministic and not ex.races
    launches = [s for s in next(iter(ex.outcomes.values())) if s.startswith("finish gpu.launch_func")]
    assert len(launches) == trip


def test_waiting_on_the_initial_token_only_races_when_the_loop_runs():
    zero = explore_default(func_of(FOR_TOKENS.replace("TRIP", "0").replace("WAITED", "%t0")))
    assert zero.deterministic and not zero.races
    two = explore_default(func_of(FOR_TOKENS.replace("TRIP", "2").replace("WAITED", "%t0")))
    assert not two.deterministic and two.races
    # Second instance of the launch is named apart from the first.
    assert any("#1" in key[0] or "#1" in key[1] for key in two.races)


def test_zero_trip_loop_with_effects_is_skipped():
    f = func_of(
        """
    %f = arith.constant 5.0 : f32
    scf.for %i = %c1 to %c0 step %c1 {
      memref.store %f, %dev[%c0] : memref<4xf32>
    }
    %x = memref.load %dev[%c0] : memref<4xf32>
    return"""
    )
    before = run(f, default_args(f)).outcome
    assert "5.0" not in str(before)


BRANCH_TOKENS = """
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@scale LAUNCH args(%dev : memref<4xf32>)
    cf.cond_br %p, ^bb1(%t1 : !gpu.async.token), ^bb1(%t0 : !gpu.async.token)
  ^bb1(%t: !gpu.async.token):
    gpu.wait [%t]
    %x = memref.load %dev[%c0] : memref<4xf32>
    return"""


def test_token_through_block_arguments_both_ways():
    f = func_of(BRANCH_TOKENS, sig="(%dev: memref<4xf32>, %p: i1)")
    summary, runs = explore_function(f, {}, True, 0, 0, 1000)
    by_flag = {shown["p"]: ex for shown, ex in runs}
    assert by_flag[True].deterministic and not by_flag[True].races
    assert not by_flag[False].deterministic and by_flag[False].races
    assert not summary["deterministic"] and summary["runs"][0]["args"] == {"p": False}


IF_TOKENS = """
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@scale LAUNCH args(%dev : memref<4xf32>)
    %t = scf.if %p -> (!gpu.async.token) {
      %t2 = gpu.memcpy async [%t1] %host, %dev : memref<4xf32>, memref<4xf32>
      scf.yield %t2 : !gpu.async.token
    } else {
      %f = arith.constant 3.0 : f32
      %t3 = gpu.memset async [%t1] %host, %f : memref<4xf32>, f32
      scf.yield %t3 : !gpu.async.token
    }
    gpu.wait [%t]
    %x = memref.load %host[%c0] : memref<4xf32>
    return"""


def test_both_branches_of_scf_if():
    f = func_of(IF_TOKENS, sig="(%dev: memref<4xf32>, %host: memref<4xf32>, %p: i1)")
    outs = {}
    for flag in (0, 1):
        ex = explore(f, default_args(f, None, {2: flag}))
        assert ex.deterministic and not ex.races
        outs[flag] = next(iter(ex.outcomes))
    assert "3.0" in str(outs[0]) and "3.0" not in str(outs[1])
    assert outs[0] != outs[1]


def test_explicit_argument_overrides_the_flag():
    f = func_of(IF_TOKENS, sig="(%dev: memref<4xf32>, %host: memref<4xf32>, %p: i1)")
    summary, runs = explore_function(f, {"p": 1}, True, 0, 0, 1000)
    assert len(runs) == 1 and summary["deterministic"]


# -- partial-order reduction, replay, sampling -----------------------------------

OPS = [
    "%tA = gpu.launch_func async [%t0] @k::@scale LAUNCH args(%dev : memref<4xf32>)",
    "%tB = gpu.memcpy async [%t0] %host, %dev : memref<4xf32>, memref<4xf32>",
    "%x = memref.load %host[%c0] : memref<4xf32>",
    "memref.store %c2f, %dev[%c1] : memref<4xf32>",
    "%tC = gpu.memset async [%t0] %host, %c2f : memref<4xf32>, f32",
    "func.call @consume(%dev) : (memref<4xf32>) -> ()",
]


def random_program(seed: int) -> str:
    rng = random.Random(seed)
    lines = ["%c2f = arith.constant 2.0 : f32", "%t0 = gpu.wait async"]
    lines += rng.sample(OPS, rng.randint(2, 4))
    return "\n".join("    " + line for line in lines) + "\n    return"


@pytest.mark.parametrize("seed", range(8))
def test_reduction_finds_what_plain_enumeration_finds(seed):
    f = func_of(random_program(seed))
    full = explore_default(f, por=False)
    reduced = explore_default(f)
    assert full.complete and reduced.complete
    assert set(full.outcomes) == set(reduced.outcomes)
    assert set(full.races) == set(reduced.races)
    assert set(full.out_of_order) == set(reduced.out_of_order)
    assert reduced.schedules_explored <= full.schedules_explored


@pytest.mark.parametrize("seed", range(8))
def test_every_outcome_replays_from_its_schedule(seed):
    f = func_of(random_program(seed))
    ex = explore_default(f)
    for out, sched in ex.outcomes.items():
        assert replay(f, list(sched), default_args(f)) == out
    for race in ex.races.values():
        replay(f, list(race.schedule), default_args(f))


ASYNC_BODIES = """
    %c2f = arith.constant 2.0 : f32
    %a = async.execute {
      %t0 = gpu.wait async
      %g = gpu.memcpy async [%t0] %host, %dev : memref<4xf32>, memref<4xf32>
      gpu.wait [%g]
      async.yield
    }
    %b = async.execute DEPS{
      %x = memref.load %host[%c0] : memref<4xf32>
      memref.store %x, %dev[%c1] : memref<4xf32>
      async.yield
    }
    async.await %b : !async.token
    func.call @consume(%dev) : (memref<4xf32>) -> ()
    return"""


@pytest.mark.parametrize("deps, several", [("", True), ("[%a] ", False)])
def test_reduction_with_async_bodies(deps, several):
    f = func_of(ASYNC_BODIES.replace("DEPS", deps))
    full = explore_default(f, por=False)
    reduced = explore_default(f)
    assert full.complete and reduced.complete
    assert set(full.outcomes) == set(reduced.outcomes) and set(full.races) == set(reduced.races)
    assert reduced.schedules_explored < full.schedules_explored
    assert (len(reduced.outcomes) > 1) == several == bool(reduced.races)


def test_replay_rejects_a_step_that_is_not_enabled():
    f = func_of(random_program(0))
    with pytest.raises(ReplayError):
        replay(f, ["finish gpu.launch_func@nowhere:1:1"], default_args(f))


def test_random_sampling_is_seeded_and_finds_the_race():
    f = func_of(
        """
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@scale LAUNCH args(%dev : memref<4xf32>)
    %v = memref.load %dev[%c0] : memref<4xf32>
    return"""
    )
    a = explore_default(f, exhaustive=False, schedules=20, seed=7)
    b = explore_default(f, exhaustive=False, schedules=20, seed=7)
    assert a.schedules_explored == 20 and not a.complete
    assert a.races and set(a.outcomes) == set(b.outcomes)
    assert list(a.outcomes.values()) == list(b.outcomes.values())


def test_bound_stops_exploration_and_says_so():
    lines = ["%t0 = gpu.wait async"] + [
        f"%t{i} = gpu.launch_func async [%t0] @k::@scale LAUNCH args(%dev : memref<4xf32>)" for i in range(1, 6)
    ]
    f = func_of("\n".join("    " + line for line in lines) + "\n    return")
    ex = explore_default(f, bound=5)
    assert ex.schedules_explored == 5 and not ex.complete
