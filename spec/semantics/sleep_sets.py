"""Sleep sets: the partial-order reduction of the exhaustive exploration.

Godefroid's sleep sets: after exploring step `a` from a state, `a` sleeps in
the sibling subtrees until a step that conflicts with it runs, so two orders
of independent steps are not both explored. Two steps conflict when their
footprints share an element of a buffer that either writes.
`spec.semantics.schedule.explore` keeps one `ExploreNode` per state on its
depth-first path.
"""

from __future__ import annotations

from spec.semantics.outcome import Footprint


class ExploreNode:
    """A state of the exploration tree: enabled processes (with the
    footprints of their next steps), the choices to explore and already
    explored, and the sleep set (choices proved redundant here)."""

    __slots__ = ("enabled", "fps", "backtrack", "done", "taken", "sleep")

    def __init__(self, enabled: list[str], fps: dict[str, Footprint], sleep: dict[str, Footprint]) -> None:
        self.enabled = enabled
        self.fps = fps
        self.backtrack: set[str] = set()
        self.done: set[str] = set()
        self.taken = ""
        self.sleep = sleep

    def open(self) -> list[str]:
        return [q for q in self.enabled if q in self.backtrack and q not in self.done and q not in self.sleep]


def child_sleep(parent: ExploreNode) -> dict[str, Footprint]:
    """Sleep set after `parent.taken`: what slept or was explored at the
    parent and is independent of the step taken stays asleep."""
    t = parent.taken
    fp_t = parent.fps[t]
    out: dict[str, Footprint] = {}
    for q, fp in parent.sleep.items():
        if q != t and not conflicts(fp, fp_t):
            out[q] = fp
    for q in parent.done:
        if q != t and q not in out and not conflicts(parent.fps[q], fp_t):
            out[q] = parent.fps[q]
    return out


def conflicts(a: Footprint, b: Footprint) -> bool:
    for buf, pos, w in a:
        for buf2, pos2, w2 in b:
            if buf == buf2 and (w or w2) and not pos.isdisjoint(pos2):
                return True
    return False
