"""The obligations: which orderings of the input the output must keep.

docs/design.md section 4, "The property": for every pair of effectful events
`a`, `b` of the input with `a` happening before `b`, the output must have
`end(a) <= start(b)` in every schedule. Since every event has
`start <= end` and happens-before is transitive, it suffices to keep the
pairs with no effectful event between them: from each event's end, search
the input's graph forward, stop at the first effectful events met (their
start nodes) and record one obligation per event reached. Pairs implied by
others through a third event are not generated, so a synchronous input of
N effectful events gives about N obligations.

Each obligation is named by its kind (which kinds of events it orders) so the
report can give each its own counterexample message.
"""

from __future__ import annotations

from dataclasses import dataclass

from spec.ir import Operation
from spec.semantics.events import Event, EventGraph

KINDS = (
    "gpu-before-gpu",
    "gpu-before-host",
    "host-before-gpu",
    "host-before-host",
    "before-return",
    "caller-work-before",
    "before-receiver",
    "before-end",
)
"""Obligation kinds, by the events they order (`before-return`: anything
the input finishes before its `func.return`). At the function's boundary:
`caller-work-before` (the caller's GPU work behind an incoming token, or a
callee's behind a call's token result, before what the input waits for it
with), `before-receiver` (what the input completes before a token it hands
out, to whoever waits on that token) and `before-end` (what the input
finishes before the program ends: the runtime drains every
`async.execute`, but not the GPU work a token stands for)."""


@dataclass(frozen=True, slots=True)
class Obligation:
    kind: str
    first: Operation
    """The input op that must end first."""
    second: Operation
    """The input op that must not start before."""
    cross_thread: bool
    """The two events are on different threads (rules 6 and 7)."""
    first_occurrence: int = 0
    second_occurrence: int = 0
    """Which execution of each op on the path (ops in loops repeat)."""
    first_role: str = ""
    second_role: str = ""
    """Which event of each op (`Event.role`): "" the op itself, else a
    boundary event attached to it."""


def kind_of(a: Event, b: Event) -> str:
    if b.kind == "end":
        return "before-end"
    if b.kind == "receiver":
        return "before-receiver"
    if a.kind == "caller":
        return "caller-work-before"
    if b.kind == "return":
        return "before-return"
    first = "gpu" if a.kind == "gpu" else "host"
    second = "gpu" if b.kind == "gpu" else "host"
    return f"{first}-before-{second}"


def obligations(g: EventGraph) -> list[Obligation]:
    """The consecutive happens-before pairs of effectful events of `g`."""
    starts: dict[int, Event] = {ev.start: ev for ev in g.events}
    out: list[Obligation] = []
    seen_pairs: set[tuple[int, int]] = set()  # by node: one op may occur twice
    for ev in g.events:
        stack = list(g.succ[ev.end])
        seen: set[int] = set(stack)
        while stack:
            n = stack.pop()
            other = starts.get(n)
            if other is not None and other is not ev:
                key = (ev.start, other.start)
                if key not in seen_pairs:
                    seen_pairs.add(key)
                    out.append(
                        Obligation(
                            kind_of(ev, other),
                            ev.op,
                            other.op,
                            ev.thread != other.thread,
                            ev.occurrence,
                            other.occurrence,
                            ev.role,
                            other.role,
                        )
                    )
                continue
            for m in g.succ[n]:
                if m not in seen:
                    seen.add(m)
                    stack.append(m)
    return out
