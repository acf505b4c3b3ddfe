"""Block dominance in the control-flow graph of one region.

MLIR's rule, as LLVM's: a block dominates itself; block `a` dominates block
`b` when every path from the region's entry to `b` passes through `a`; a
block unreachable from the entry is dominated by every block and dominates
no block but itself, and an edge out of an unreachable block does not
count. The parser (values used where they are not defined), the verifier's
well-formedness check and the pass (a wait in a dominating block) all ask
it, so it lives here once.

The immediate dominators are found by the iterative algorithm of Cooper,
Harvey and Kennedy ("A Simple, Fast BlockDominance Algorithm") over the
reverse post-order of the reachable blocks; a query is then two integer
comparisons on the dominator tree's pre/post numbering, so a region of
10,000 blocks costs linear time, not a set of dominators per block.
"""

from __future__ import annotations

from collections.abc import Iterator

from spec.ir import Block, Region


class BlockDominance:
    """BlockDominance among the blocks of `region` (its blocks as they are when made)."""

    def __init__(self, region: Region) -> None:
        self.region = region
        order = _post_order(region)
        rpo = order[::-1]
        self.number: dict[int, int] = {id(b): i for i, b in enumerate(rpo)}
        """Each reachable block's position in reverse post-order."""
        preds: list[list[int]] = [[] for _ in rpo]
        for i, b in enumerate(rpo):
            for s in b.successors():
                j = self.number.get(id(s))
                if j is not None and s.parent is region:
                    preds[j].append(i)
        idom = [-1] * len(rpo)
        if rpo:
            idom[0] = 0
        changed = True
        while changed:
            changed = False
            for k in range(1, len(rpo)):
                new = -1
                for p in preds[k]:
                    if idom[p] == -1:
                        continue
                    new = p if new == -1 else _intersect(idom, p, new)
                if new != idom[k]:
                    idom[k] = new
                    changed = True
        self._blocks = rpo
        self._idom = idom
        self._pre, self._post = _tree_numbers(idom)

    def reachable(self, block: Block) -> bool:
        """Is `block` reachable from the region's entry?"""
        return id(block) in self.number

    def dominates(self, a: Block, b: Block) -> bool:
        """Does block `a` dominate block `b` (both blocks of the region)?"""
        if a is b:
            return True
        j = self.number.get(id(b))
        if j is None:
            return True
        i = self.number.get(id(a))
        if i is None:
            return False
        return self._pre[i] <= self._pre[j] and self._post[j] <= self._post[i]

    def dominators(self, block: Block) -> Iterator[Block]:
        """The blocks that dominate reachable `block`, itself first, then up
        the dominator tree to the entry."""
        i = self.number.get(id(block))
        while i is not None:
            yield self._blocks[i]
            up = self._idom[i]
            i = None if up == i or up < 0 else up


def _post_order(region: Region) -> list[Block]:
    """The blocks reachable from the entry, in depth-first post-order
    (iteratively: a chain of 10,000 blocks is no recursion limit)."""
    if not region.blocks:
        return []
    entry = region.blocks[0]
    seen = {id(entry)}
    out: list[Block] = []
    stack: list[tuple[Block, Iterator[Block]]] = [(entry, iter(entry.successors()))]
    while stack:
        b, succs = stack[-1]
        for s in succs:
            if id(s) not in seen and s.parent is region:
                seen.add(id(s))
                stack.append((s, iter(s.successors())))
                break
        else:
            stack.pop()
            out.append(b)
    return out


def _intersect(idom: list[int], a: int, b: int) -> int:
    """The nearest common dominator of `a` and `b` (reverse post-order numbers)."""
    while a != b:
        while a > b:
            a = idom[a]
        while b > a:
            b = idom[b]
    return a


def _tree_numbers(idom: list[int]) -> tuple[list[int], list[int]]:
    """Pre- and post-order numbers of a walk of the dominator tree: `a`
    dominates `b` iff `a`'s interval contains `b`'s."""
    n = len(idom)
    children: list[list[int]] = [[] for _ in range(n)]
    for b in range(1, n):
        if idom[b] >= 0:
            children[idom[b]].append(b)
    pre, post = [0] * n, [0] * n
    if not n:
        return pre, post
    clock = 0
    stack: list[tuple[int, int]] = [(0, 0)]
    pre[0] = clock
    while stack:
        b, k = stack[-1]
        if k < len(children[b]):
            stack[-1] = (b, k + 1)
            c = children[b][k]
            clock += 1
            pre[c] = clock
            stack.append((c, 0))
        else:
            stack.pop()
            clock += 1
            post[b] = clock
    return pre, post
