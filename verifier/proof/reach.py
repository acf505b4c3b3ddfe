"""The second oracle: obligations decided by plain graph reachability.

In the output's happens-before graph every edge is a constraint
`time(u) <= time(v)`, so `end(a) <= start(b)` holds in every schedule exactly
when `start(b)` is reachable from `end(a)`. This module decides that with a
depth-first search and nothing else (no solver, no slicing shared with the
Z3 encoding), so a disagreement with Z3 points at a bug in one of them and
the verdict becomes `inconsistent`.

When every edge points forward in node order (`EventGraph.forward_only`,
straight-line code) the search never visits a node numbered beyond the
target, which keeps each query to the stretch of program between the two
events.
"""

from __future__ import annotations

from spec.semantics.events import EventGraph


def reachable(g: EventGraph, src: int, dst: int) -> bool:
    """Whether a path of one or more edges (or none, if src == dst) leads
    from `src` to `dst`."""
    if src == dst:
        return True
    bound = dst if g.forward_only else len(g.succ)
    if g.forward_only and src > dst:
        return False
    seen = {src}
    stack = [src]
    succ = g.succ
    while stack:
        n = stack.pop()
        for m in succ[n]:
            if m == dst:
                return True
            if m < bound and m not in seen:
                seen.add(m)
                stack.append(m)
    return False
