"""The one-path prover's cheaper pieces, against plain
definitions on random graphs:

- `Prover.slice_between` (on a forward-only graph without predecessor
  lists) is the set of nodes on some path from `src` to `dst`;
- `Prover.prove_all` (groups of obligations, each one SMT-LIB assertion
  over constants reused from group to group, split down on failure) gives
  every obligation the answer `Prover.prove` gives it alone, and that
  answer is graph reachability;
- `Prover.reduced_slice` (the slice with its chain nodes eliminated, what a
  group asks Z3) keeps exactly the reachability of the slice, and a group
  is proved iff every obligation in it holds: the elimination never proves
  one that does not;
- the slices of obligations that end at one node from far before it,
  taken from that node's shared reduction (`Prover.prepare`), keep the
  answer too;
- a guarded graph's edge conditions (`GuardedGraph.eguards`) read back as
  made, whether a node's edges are all unconditional (the shared `ALWAYS`)
  or not.
"""

from __future__ import annotations

import os
import random

import pytest
import z3

import parallel.fork as fork
from parallel import Jobs
from spec.ir import Operation
from spec.semantics.conditions import TRUE, Symbols
from spec.semantics.event_graph import EventGraph
from spec.semantics.guarded_graph import ALWAYS, GuardedGraph
from verifier.proof.reach import reachable
from verifier.proof.second_process import Sharing
from verifier.smt import encode
from verifier.smt.encode import Prover
from verifier.smt.solver import Status


def _graph(n: int, edges: int, seed: int, forward: bool = True, span: int = 0) -> EventGraph:
    """`n` nodes and `edges` random edges (forward ones only if `forward`;
    with `span`, each to one of the next `span` nodes: long, braided paths)."""
    rng = random.Random(seed)
    g = EventGraph(Operation("func.func"))
    for _ in range(n):
        g.node("point", None, 0)
    made: set[tuple[int, int]] = set()
    while len(made) < edges:
        a = rng.randrange(n)
        b = min(a + rng.randrange(1, span), n - 1) if span else rng.randrange(n)
        if a == b or (forward and a > b):
            continue
        if (a, b) not in made:
            made.add((a, b))
            g.edge(a, b)
    return g


def _on_some_path(g: EventGraph, src: int, dst: int) -> set[int]:
    return {n for n in range(len(g.succ)) if reachable(g, src, n) and reachable(g, n, dst)}


@pytest.mark.parametrize("forward", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_the_slice_is_every_node_on_a_path_between_the_endpoints(seed: int, forward: bool) -> None:
    g = _graph(40, 70, seed, forward)
    assert g.forward_only == forward
    prover = Prover(g)
    rng = random.Random(seed)
    for _ in range(60):
        src, dst = rng.randrange(40), rng.randrange(40)
        got = prover.slice_between(src, dst)
        if reachable(g, src, dst):
            assert got == _on_some_path(g, src, dst), (src, dst)
        else:
            assert got == {src, dst}


@pytest.mark.parametrize("seed", range(2))
def test_groups_answer_as_single_queries_and_as_reachability(seed: int) -> None:
    # Long slices (a group needs more constants than the pool starts with)
    # and a batch small enough for several groups, some with violations.
    g = _graph(300, 1100, seed, span=12)
    rng = random.Random(seed)
    pairs = [(rng.randrange(100), rng.randrange(200, 300)) for _ in range(40)]
    pairs += [(a, a + rng.randrange(1, 5)) for a in rng.sample(range(290), 30)]
    prover = Prover(g)
    grouped = prover.prove_all(pairs, batch=40)
    need = max(prover.query(*p).nodes for p in pairs)
    assert prover.constants is not None and len(prover.constants.names) >= need
    alone = Prover(g)
    assert any(o.status == Status.REFUTED for o in grouped) and any(o.status == Status.VERIFIED for o in grouped)
    for (src, dst), o in zip(pairs, grouped, strict=True):
        assert o.status == alone.prove(src, dst).status
        assert (o.status == Status.VERIFIED) == reachable(g, src, dst)


@pytest.mark.parametrize("forward", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_the_reduced_slice_keeps_the_answer(seed: int, forward: bool) -> None:
    # Sparse graphs (long chains to eliminate), cycles when not forward.
    g = _graph(60, 75, seed, forward)
    prover = Prover(g)
    rng = random.Random(seed)
    pairs = [(rng.randrange(60), rng.randrange(60)) for _ in range(80)]
    for src, dst in pairs:
        if src == dst:
            continue
        full = prover.slice_between(src, dst)
        nodes, edges = prover.reduced_slice(src, dst)
        assert src in nodes and dst in nodes and set(nodes) <= full
        # Eliminated to the end: every node left but the endpoints has
        # several predecessors and several successors among the kept ones.
        for x in set(nodes) - {src, dst}:
            assert len({v for u, v in edges if u == x}) > 1 and len({u for u, v in edges if v == x}) > 1, (src, dst, x)
        reduced = EventGraph(Operation("func.func"))
        index = {n: reduced.node("point", None, 0) for n in nodes}
        for u, v in edges:
            reduced.edge(index[u], index[v])
        assert reachable(reduced, index[src], index[dst]) == reachable(g, src, dst), (src, dst)
        # Z3 on the reduced slice alone: proved iff ordered.
        q = prover.query(src, dst)
        assert q.nodes == len(nodes) and len(q.edges) == len(edges)
        assert prover._group_proved([q]) == reachable(g, src, dst), (src, dst)
    # A group is proved only when all of its obligations hold: one that
    # does not, among ones that do, fails the group.
    holds = [prover.query(*p) for p in pairs if p[0] != p[1] and reachable(g, *p)]
    fails = [prover.query(*p) for p in pairs if p[0] != p[1] and not reachable(g, *p)]
    if holds:
        assert prover._group_proved(holds)
    for bad in fails[:10]:
        assert not prover._group_proved([*holds, bad])


@pytest.mark.parametrize("seed", range(4))
def test_far_obligations_sharing_their_end_keep_the_answer(seed: int) -> None:
    # Long braided graphs; many obligations end at a few nodes from more
    # than `FAR` nodes before them (as GPU work that must be complete at a
    # function's end), some of them from nodes that do not reach it.
    n = 3 * encode.FAR
    g = _graph(n, 4 * n, seed, span=10)
    rng = random.Random(seed)
    ends = rng.sample(range(n - 40, n), 3)
    pairs = [(rng.randrange(n - encode.FAR - 41), dst) for dst in ends for _ in range(2 * encode.SHARED_END)]
    pairs += [(a, a + rng.randrange(1, 5)) for a in rng.sample(range(n - 5), 20)]
    shared, plain = Prover(g), Prover(g)
    shared.prepare(pairs)
    assert set(shared._toward) == set(ends)
    for src, dst in pairs:
        nodes, edges = shared.reduced_slice(src, dst)
        assert src in nodes and dst in nodes
        reduced = EventGraph(Operation("func.func"))
        index = {x: reduced.node("point", None, 0) for x in nodes}
        for u, v in edges:
            reduced.edge(index[u], index[v])
        assert reachable(reduced, index[src], index[dst]) == reachable(g, src, dst), (src, dst)
        assert shared._group_proved([shared.query(src, dst)]) == reachable(g, src, dst), (src, dst)
    assert any(reachable(g, *p) for p in pairs) and not all(reachable(g, *p) for p in pairs)
    got = [o.status for o in Prover(g).prove_all(pairs, batch=8)]
    assert got == [plain.prove(*p).status for p in pairs]


@pytest.mark.parametrize("seed", range(4))
def test_equal_queries_are_the_same_formula_renamed(seed: int) -> None:
    # The same obligations on a copy of the graph whose nodes are shifted
    # (every name different): the same queries, and `prove_all` asks each
    # distinct query once, yet answers every obligation as a single `prove`.
    g = _graph(50, 80, seed, True)
    shift = 7
    h = EventGraph(Operation("func.func"))
    for _ in range(len(g.succ) + shift):
        h.node("point", None, 0)
    for u, vs in enumerate(g.succ):
        for v in vs:
            h.edge(u + shift, v + shift)
    rng = random.Random(seed)
    pairs = [(a, b) for a, b in ((rng.randrange(50), rng.randrange(50)) for _ in range(120)) if a != b]
    pg, ph = Prover(g), Prover(h)
    assert [pg.query(a, b) for a, b in pairs] == [ph.query(a + shift, b + shift) for a, b in pairs]
    outcomes = pg.prove_all(pairs, batch=16)
    assert pg.checks < len(pairs)  # the distinct queries only (and the refuted ones again)
    for (a, b), o in zip(pairs, outcomes, strict=True):
        assert o.status == Prover(g).prove(a, b).status
        assert (o.status == Status.VERIFIED) == reachable(g, a, b)


def test_edge_conditions_read_back_as_made() -> None:
    sym = Symbols()
    g = GuardedGraph(Operation("func.func"))
    a, b, c, d = (g.node("point", None, 0) for _ in range(4))
    cond = sym.conj(TRUE, TRUE)  # TRUE: hash-consed
    assert cond == TRUE
    g.edge_when(a, b, TRUE)
    g.edge_when(a, c, TRUE)
    g.edge_when(b, c, TRUE)
    g.edge_when(b, d, 7)
    g.edge_when(b, a, TRUE)
    assert g.eguards[a] is ALWAYS and g.eguards[c] is ALWAYS
    assert [x for _, x in zip(g.succ[a], g.eguards[a])] == [TRUE, TRUE]
    assert list(zip(g.succ[b], g.eguards[b])) == [(c, TRUE), (d, 7), (a, TRUE)]
    assert not g.forward_only and not g.forward_but_extern


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork on this platform")
def test_queries_made_half_in_a_child_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    g = _graph(60, 110, 3, True)
    rng = random.Random(3)
    pairs = [(a, b) for a, b in ((rng.randrange(60), rng.randrange(60)) for _ in range(200)) if a != b]
    alone = Prover(g).queries(pairs)
    halved = Sharing(Jobs(force=True))
    made_here: list[tuple[int, int]] = []
    real = Prover.query

    def counted(self: Prover, src: int, dst: int) -> object:
        made_here.append((src, dst))  # in this process only: the child counts in its copy
        return real(self, src, dst)

    monkeypatch.setattr(Prover, "query", counted)
    forked = Prover(g, share=halved).queries(pairs)
    assert forked == alone
    assert made_here == pairs[: len(pairs) // 2]  # the child made the second half
    assert len(set(map(id, forked[0]))) == len(forked[1])  # equal queries are one object
    # A child that sends nothing: this process makes its half too.
    monkeypatch.setattr(fork.pickle, "dump", lambda *a, **k: None)
    made_here.clear()
    assert Prover(g, share=halved).queries(pairs) == alone
    assert made_here == pairs


def test_the_constants_pool_grows_to_a_group() -> None:
    pool = encode._Constants(z3.Context())
    assert len(pool.names) == encode.INITIAL_CONSTANTS
    pool.grow(3 * encode.INITIAL_CONSTANTS)
    assert len(pool.names) >= 3 * encode.INITIAL_CONSTANTS
    last = pool.names[-1]
    assert len(pool.parse(f"(assert (< {last} v0))")) == 1
