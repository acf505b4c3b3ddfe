"""The states in which the blocks of a `cf` region run, for the guarded builder.

A region of several blocks (a CFG of `cf.br`/`cf.cond_br`) is followed as a
graph of *states*: a block index with the number of times each block on a
cycle of the CFG has been entered so far. Blocks off every cycle run at most
once on any path, so they carry no count, and a diamond's two sides meet
again in one state instead of doubling. Entering a cyclic block more than
`unroll + 1` times ends the state graph there (a bounded path), so the
state graph is acyclic and finite; it is returned in an order where every
state comes after all the states leading to it, which is the order the
guarded builder must build them in (`guarded_builder._GuardedBuilder.cf_region`).

This is the CFG part alone, a pure function of the region and the bound;
what each state's block does is the builder's business.
"""

from __future__ import annotations

from dataclasses import dataclass

from spec import registry
from spec.ir import Region

MAX_CF_STATES = 4096
"""(block, visit counts) states followed per `cf` region run before giving up."""

State = tuple[int, tuple[tuple[int, int], ...]]
"""(block index, sorted (cyclic block index, times entered) pairs)."""


@dataclass
class BlockStates:
    start: State
    order: list[State]
    """Every reachable state within the bound, each after its predecessors
    (ties by discovery, so the input's and the output's orders agree)."""
    succs: dict[State, list[State]]
    """Per state, the states its terminator leads to, in successor order;
    these may exceed the bound (the builder records those paths as cut)."""
    limit: int
    """The most times a cyclic block may be entered: unroll + 1."""


def block_states(region: Region, unroll: int) -> BlockStates | None:
    """The state graph of `region` (its first block is the entry), or None
    if it has more than `MAX_CF_STATES` states."""
    index = {b: i for i, b in enumerate(region.blocks)}
    cyclic = cyclic_blocks(region)
    limit = unroll + 1
    start: State = (0, tuple((i, 1) for i in sorted(cyclic) if i == 0))
    order: list[State] = []
    seen = {start}
    stack = [start]
    succs: dict[State, list[State]] = {}
    while stack:
        st = stack.pop()
        order.append(st)
        term = region.blocks[st[0]].ops[-1] if region.blocks[st[0]].ops else None
        nxt: list[State] = []
        if term is not None and registry.is_branch(term.name):
            for b in term.successors:
                bi = index[b]
                visits = dict(st[1])
                if bi in cyclic:
                    visits[bi] = visits.get(bi, 0) + 1
                nxt.append((bi, tuple(sorted(visits.items()))))
        succs[st] = nxt
        for s2 in nxt:
            if s2 not in seen and max((v for _, v in s2[1]), default=0) <= limit:
                seen.add(s2)
                stack.append(s2)
        if len(seen) > MAX_CF_STATES:
            return None
    return BlockStates(start, _topological(order, succs, seen), succs, limit)


def cyclic_blocks(region: Region) -> set[int]:
    """Indices of blocks on a cycle of the region's CFG (a block reaching
    itself; regions have few blocks, so one search per block will do)."""
    index = {b: i for i, b in enumerate(region.blocks)}
    succ = [[index[s] for s in (b.ops[-1].successors if b.ops else []) if s in index] for b in region.blocks]
    out: set[int] = set()
    for b in range(len(succ)):
        seen: set[int] = set()
        stack = list(succ[b])
        while stack and b not in seen:
            n = stack.pop()
            if n not in seen:
                seen.add(n)
                stack.extend(succ[n])
        if b in seen:
            out.add(b)
    return out


def _topological(order: list[tuple], succs: dict[tuple, list[tuple]], seen: set[tuple]) -> list[tuple]:
    """The states in an order where each comes after all that lead to it
    (ties by discovery, so the input and the output agree)."""
    indeg = {s: 0 for s in order}
    for s in order:
        for t in succs[s]:
            if t in seen:
                indeg[t] += 1
    pos = {s: i for i, s in enumerate(order)}
    ready = sorted((s for s in order if indeg[s] == 0), key=pos.__getitem__)
    out: list[tuple] = []
    while ready:
        s = ready.pop(0)
        out.append(s)
        for t in succs[s]:
            if t in seen:
                indeg[t] -= 1
                if indeg[t] == 0:
                    ready.append(t)
                    ready.sort(key=pos.__getitem__)
    return out
