"""The loop lemma: when checking up to K iterations is enough for all.

Loops are checked for 0..K trips (K >= 2). For an `scf.for` the bound is
sufficient when its iterations are independent:

1. no token crosses the iteration boundary: no loop-carried value, init or
   result of a token type (`!gpu.async.token`, `!async.token`,
   `!async.value`), in the input and in the output;
2. nothing an iteration starts is pending when it ends: on every path
   checked, every event of the iteration (its GPU ops' finish, its host
   points) and every `async.execute` body begun in it reaches the point that
   closes the iteration, in the output's and the input's graph.

Then the graph of n >= 2 iterations is the prefix, n copies of one
iteration's graph joined only by thread order, and the suffix: each
consecutive pair of the input (prefix to the first iteration, inside one
iteration, one iteration to the next, the last to the suffix, prefix to
suffix for zero trips) already occurs, with the same graph between its
events, in a path of at most 2 iterations (every combination of branch
choices inside two consecutive iterations is one of the paths checked). So
verified up to 2 iterations is verified for every trip count.

`cf` back edges and `scf.while` stay bounded: the lemma is not claimed for
them.

With all paths in one guarded graph (`LoopLemma.guarded`) condition 2 reads:
every event of an iteration reaches the iteration's end on every path where
the event happens, asked of the caller's `ordered` (guarded reachability).
"""

from __future__ import annotations

from collections.abc import Callable

from spec import registry
from spec.ir import Operation
from spec.semantics.events import EventGraph, is_token_type
from spec.semantics.guarded_graph import GuardedGraph
from verifier.proof.reach import reachable


def crosses_iterations(loop: Operation) -> bool:
    """Condition 1 fails: a token-typed init, loop-carried value or result."""
    carried = loop.regions[0].blocks[0].args[1:] if loop.regions and loop.regions[0].blocks else []
    values = [*registry.loop_init_operands(loop), *carried, *loop.results]
    return any(is_token_type(v.type) for v in values)


def pending_at_iteration_end(g: EventGraph) -> Operation | None:
    """Condition 2 on one path: the first loop with work still pending when
    one of its iterations ends, or None."""
    ends = {ev.end for ev in g.events}
    for loop, first, end in g.iterations:
        for n in range(first, end):
            if (n in ends or g.kinds[n] == "yield") and not reachable(g, n, end):
                return loop
    return None


class LoopLemma:
    """Accumulates the lemma's conditions over the paths of one function."""

    def __init__(self, unroll: int) -> None:
        self.holds = unroll >= 2
        self.why = "" if self.holds else f"--unroll {unroll} < 2"

    def _loops_and_tokens(self, gin: EventGraph, gout: EventGraph) -> bool:
        """Only `scf.for` loops, and condition 1; False (with the reason
        kept) if either fails or the lemma already failed."""
        if not self.holds or not gin.bounded:
            return False
        other = {loop for loop in gin.loops if not registry.is_counted_loop(loop)}
        if other:
            self.holds, self.why = False, f"{', '.join(sorted(other))} loops are bounded, not covered by the lemma"
            return False
        for g in (gin, gout):
            for loop, _, _ in g.iterations:
                if crosses_iterations(loop):
                    self.holds, self.why = False, f"a token crosses the iterations of the scf.for at {loop.loc}"
                    return False
        return True

    def path(self, gin: EventGraph, gout: EventGraph) -> None:
        if not self._loops_and_tokens(gin, gout):
            return
        for g in (gin, gout):
            loop = pending_at_iteration_end(g)
            if loop is not None:
                self.holds, self.why = False, f"work is pending at the end of an iteration of the scf.for at {loop.loc}"
                return

    def guarded(self, gin: GuardedGraph, gout: GuardedGraph, ordered: Callable[[GuardedGraph, int, int], bool]) -> None:
        """The conditions on the guarded graphs of all paths at once."""
        if not self._loops_and_tokens(gin, gout):
            return
        for g in (gin, gout):
            ends = {ev.end for ev in g.events}
            # By where each iteration begins (an outer loop's iteration ends
            # after its inner loops'), so the loop named is the one path
            # enumeration names first.
            for loop, first, end in sorted(g.iterations, key=lambda it: it[1]):
                for n in range(first, end):
                    if (n in ends or g.kinds[n] == "yield") and not ordered(g, n, end):
                        self.holds, self.why = (
                            False,
                            f"work is pending at the end of an iteration of the scf.for at {loop.loc}",
                        )
                        return
