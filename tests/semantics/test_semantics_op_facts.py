"""The registry's control-flow and role facts agree with its other facts.

The semantics, the proofs and the program edits walk a program by these
facts (`region_flow`, `jump`, `yields`, `function`, `group`, the thread
ops) instead of by op names, so an entry that contradicts the rest of the
registry would send them down the wrong path: a loop without a loop's
flow, a jump the event model would not follow, a yield to an op nobody
walks."""

from __future__ import annotations

from spec import registry

OPS = registry.known_ops()


def test_loops_are_the_ops_whose_regions_run_repeatedly() -> None:
    repeated = {n for n in OPS if registry.region_flow(n) in ("counted", "while", "parallel")}
    loops = {n for n in OPS if registry.is_loop(n)}
    # `scf.forall` is read and printed, but no tool follows its regions:
    # GPU or effectful work inside it makes the verifier answer unknown.
    assert loops - repeated == {"scf.forall"}
    assert repeated <= loops
    assert {"scf.for", "affine.for"} <= {n for n in OPS if registry.is_counted_loop(n)}


def test_region_ops_take_their_bodies_effects() -> None:
    for n in OPS:
        if registry.region_flow(n):
            info = registry.lookup(n)
            assert not info.terminator, n
            assert info.recursive or info.effects is None, n


def test_jumps_are_terminators_that_pass_tokens_on() -> None:
    jumps = {n for n in OPS if registry.is_branch(n)}
    assert jumps == set(registry.BRANCH_OPS)
    assert {"cf.br", "cf.cond_br", "cf.switch"} <= jumps
    for n in jumps:
        assert registry.lookup(n).terminator, n
        assert registry.token_use(n) == "pass", n


def test_yields_end_regions_of_ops_the_tools_walk() -> None:
    yields = {n for n in OPS if registry.yields_to_parent(n)}
    assert {"scf.yield", "affine.yield"} <= yields
    for n in yields:
        info = registry.lookup(n)
        assert info.terminator, n
        known = [p for p in info.parents if registry.is_known(p)]
        assert known, n
        for parent in known:
            assert registry.region_flow(parent), (n, parent)


def test_deciders_choose_a_region_a_successor_or_an_operand() -> None:
    deciders = {n for n in OPS if registry.decides(n)}
    assert {"scf.if", "cf.cond_br", "arith.select"} <= deciders
    for n in deciders:
        assert not registry.is_loop(n), n
        ways = [registry.runs_one_region(n), registry.is_branch(n), registry.token_use(n) == "select"]
        assert sum(ways) == 1, n
    assert not registry.decides("cf.br")


def test_functions_are_isolated_symbols() -> None:
    functions = {n: registry.function_kind(n) for n in OPS if registry.function_kind(n)}
    assert functions["func.func"] == "host"
    assert functions["gpu.func"] == "gpu"
    for n in functions:
        info = registry.lookup(n)
        assert info.isolated, n
        assert info.operand_count == (0, 0), n
    assert [n for n in OPS if registry.is_host_function(n)] == ["func.func"]


def test_the_top_level_op_holds_symbols() -> None:
    tops = [n for n in OPS if registry.is_top_level(n)]
    assert tops == ["builtin.module"]
    info = registry.lookup(tops[0])
    assert info.symbol_table and info.isolated and info.no_terminator


def test_group_roles_are_group_synchronization() -> None:
    roles = {n: registry.group_role(n) for n in OPS if registry.group_role(n)}
    assert sorted(roles.values()) == ["add", "await", "create"]
    for n, role in roles.items():
        assert registry.is_group_op(n), n
        assert registry.blocks_thread(n) == (role == "await"), n


def test_thread_ops_begin_end_or_await() -> None:
    begins = [n for n in OPS if registry.begins_thread(n)]
    ends = [n for n in OPS if registry.ends_thread(n)]
    awaits = [n for n in OPS if registry.awaits_one(n)]
    assert begins and ends and awaits
    for n in ends:
        assert registry.lookup(n).terminator, n
        assert set(registry.lookup(n).parents) <= set(begins), n
    for n in awaits:
        assert registry.blocks_thread(n) and not registry.is_gpu_async(n), n


def test_single_block_regions_are_region_ops() -> None:
    for n in OPS:
        names = registry.lookup(n).single_block_regions
        if names:
            assert registry.region_flow(n) or registry.begins_thread(n) or registry.is_loop(n), n
            assert all(r.rstrip("?") for r in names), n
