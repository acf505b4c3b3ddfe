"""What a run shows, and what exploring many runs finds.

- `Observation`: something the host sees: a call to an external function (its
  callee and a digest of every buffer reachable from its arguments), a value
  loaded from memory, the values returned, a fault, a deadlock.
- `Outcome`: the result of one run: each thread's observations in its own
  order, plus the final contents (digests) of every buffer once everything,
  including unawaited GPU work and async bodies, has finished. Observations
  of different threads are not interleaved into one sequence: two threads
  nobody orders may observe in either order, and that alone is not a
  different result (docs/semantics.md, "Observations and outcomes").
- `Step`: one scheduler step with its vector clock and memory footprint;
  `Event`: one effectful event (docs/design.md section 4) of a run, with the
  clocks of its start and end.
- `Race`: a GPU op whose execution can overlap a conflicting access (same
  elements, at least one write) because nothing orders them, with both ops'
  locations and a witness schedule in which they do overlap.
- `Exploration`: everything found across the schedules explored.

Happens-before inside a run is tracked with vector clocks (`Step.clock`), so a
race or an unordered pair is found in *any* run where the two accesses are
unordered, not only in the run that happens to interleave them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spec.ir import Operation

Footprint = tuple[tuple[str, frozenset, bool], ...]
"""(buffer name, flat element positions, is_write) per buffer touched."""


@dataclass(frozen=True, slots=True)
class Observation:
    kind: str
    """`call`, `load`, `return`, `fault` or `deadlock`."""
    loc: str
    detail: str

    def __str__(self) -> str:
        return f"{self.kind} {self.detail}" + (f" @ {self.loc}" if self.loc else "")


@dataclass(frozen=True, slots=True)
class Outcome:
    observations: tuple[tuple[str, tuple[Observation, ...]], ...]
    """Per thread (sorted by thread name): its observations in order."""
    buffers: tuple[tuple[str, str], ...]
    """Final buffers: (name, digest of contents or `freed`), sorted by name."""

    def render(self, indent: str = "") -> str:
        lines = []
        for thread, obs in self.observations:
            for o in obs:
                lines.append(f"{indent}[{thread}] {o}")
        for name, digest in self.buffers:
            lines.append(f"{indent}buffer {name} = {digest}")
        return "\n".join(lines) + ("\n" if lines else "")

    def to_json(self) -> dict:
        return {
            "observations": {t: [str(o) for o in obs] for t, obs in self.observations},
            "buffers": dict(self.buffers),
        }


@dataclass(slots=True)
class Step:
    """One step of a run."""

    label: str
    """Printable and replayable: `issue gpu.memcpy@f.mlir:10:5`, `start ...`,
    `finish ...`, `host memref.load@...`, `begin async.execute@...`; `#n`
    marks the n-th instance of an op in its thread, ` in T` a thread other
    than the function body."""
    pid: str
    """The vector-clock component this step advances: its process's, or
    for a synchronous GPU op its issuing thread's."""
    seq: int
    """This step's own component of its vector clock."""
    clock: dict[str, int]
    fp: Footprint
    proc: str = ""
    """The process (thread or GPU op instance) that moved."""


def hb(pid: str, seq: int, clock: dict[str, int]) -> bool:
    """Whether the step (`pid`, `seq`) happens before a point with `clock`."""
    return clock.get(pid, 0) >= seq


@dataclass(slots=True)
class Event:
    """An effectful event of a run (host op, or GPU op with start and finish)."""

    key: str
    """Stable across runs: op name, location, instance and thread."""
    op: Operation
    thread: str
    order: int
    """Issue order within its thread."""
    gpu: bool
    start: int = -1
    """Index of the step where it starts (host: its only step)."""
    end: int = -1
    issue: int = -1
    """Index of the thread's step that issued it (GPU events)."""
    reads: dict[str, frozenset] = field(default_factory=dict)
    writes: dict[str, frozenset] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Site:
    op: str
    loc: str
    key: str

    def to_json(self) -> dict:
        return {"op": self.op, "loc": self.loc, "event": self.key}


def site(e: Event) -> Site:
    return Site(e.op.name, str(e.op.loc), e.key)


@dataclass(frozen=True, slots=True)
class Race:
    first: Site
    """The GPU op."""
    second: Site
    """The conflicting access (host op or GPU op)."""
    buffer: str
    schedule: tuple[str, ...]

    def to_json(self) -> dict:
        return {
            "first": self.first.to_json(),
            "second": self.second.to_json(),
            "buffer": self.buffer,
            "schedule": list(self.schedule),
        }


@dataclass(frozen=True, slots=True)
class Unordered:
    """Two effectful events of one thread, `first` issued before `second`,
    that may run out of that order (nothing makes `first` end before
    `second` starts)."""

    first: Site
    second: Site
    schedule: tuple[str, ...]

    def to_json(self) -> dict:
        return {"first": self.first.to_json(), "second": self.second.to_json(), "schedule": list(self.schedule)}


@dataclass
class Exploration:
    outcomes: dict[Outcome, tuple[str, ...]] = field(default_factory=dict)
    """Each distinct outcome with the first schedule that produced it."""
    races: dict[tuple[str, str], Race] = field(default_factory=dict)
    out_of_order: dict[tuple[str, str], Unordered] = field(default_factory=dict)
    concurrent: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    """Pairs of event keys (sorted) unordered by happens-before in some run
    (filled when exploring with `pairs=True`)."""
    schedules_explored: int = 0
    pruned: int = 0
    """Runs abandoned by the sleep sets (equivalent to one already explored)."""
    steps: int = 0
    """Machine steps taken in all, replayed prefixes included."""
    complete: bool = True
    """False when a bound stopped an exhaustive exploration early."""

    @property
    def deterministic(self) -> bool:
        return len(self.outcomes) == 1


def conflict(a_reads: dict, a_writes: dict, b_reads: dict, b_writes: dict) -> str | None:
    """A buffer where the two footprints conflict (same element, one writes)."""
    for buf, pos in a_writes.items():
        other = b_reads.get(buf)
        if other is not None and not pos.isdisjoint(other):
            return buf
        other = b_writes.get(buf)
        if other is not None and not pos.isdisjoint(other):
            return buf
    for buf, pos in a_reads.items():
        other = b_writes.get(buf)
        if other is not None and not pos.isdisjoint(other):
            return buf
    return None


def ordered(steps: list[Step], a: Event, b: Event) -> bool:
    """`end(a)` happens before `start(b)`."""
    e, s = steps[a.end], steps[b.start]
    return hb(e.pid, e.seq, s.clock)


def settled(steps: list[Step], a: Event, b: Event) -> bool:
    """`end(a)` happens before the thread step that issues or is `b`: then
    every later event of that thread is ordered after `a` too."""
    point = b.issue if b.gpu else b.start
    if point < 0 or a.end < 0:
        return False
    e = steps[a.end]
    return hb(e.pid, e.seq, steps[point].clock)


def find_races(steps: list[Step], events: list[Event]) -> list[tuple[Event, Event, str]]:
    """GPU events unordered with a conflicting event of the same run.

    Candidates for a GPU event `g`: every event of another thread, and the
    events of `g`'s thread issued after it up to the first one whose issue
    `g`'s finish happens before (every later event of the thread follows
    that one). Earlier events of the thread are checked when they are the
    GPU event."""
    touched = [e for e in events if (e.reads or e.writes) and e.end >= 0 and e.start >= 0]
    by_thread: dict[str, list[Event]] = {}
    for e in touched:
        by_thread.setdefault(e.thread, []).append(e)
    for evs in by_thread.values():
        evs.sort(key=lambda e: e.order)
    position = {id(e): i for evs in by_thread.values() for i, e in enumerate(evs)}
    found: list[tuple[Event, Event, str]] = []
    seen: set[tuple[int, int]] = set()

    def check(g: Event, e: Event) -> None:
        if (id(e), id(g)) in seen or (id(g), id(e)) in seen:
            return
        b = conflict(g.reads, g.writes, e.reads, e.writes)
        if b is None or ordered(steps, g, e) or ordered(steps, e, g):
            return
        seen.add((id(g), id(e)))
        found.append((g, e, b) if e.gpu is False or g.order <= e.order else (e, g, b))

    for g in touched:
        if not g.gpu:
            continue
        for thread, evs in by_thread.items():
            if thread != g.thread:
                for e in evs:
                    check(g, e)
        same = by_thread[g.thread]
        for e in same[position[id(g)] + 1 :]:
            if settled(steps, g, e):
                break
            check(g, e)
    return found


def overlap_schedule(steps: list[Step], g: Event, e: Event) -> list[str]:
    """A reordering of the run in which GPU op `g` is running when `e` starts
    (valid because the two are unordered): the past of both starts, then
    `start g`, `e`'s start, then everything else in run order."""
    targets = [g.start, e.start]
    chosen = set(targets)
    past = [
        i for i, st in enumerate(steps) if i not in chosen and any(hb(st.pid, st.seq, steps[t].clock) for t in targets)
    ]
    head = set(past) | chosen
    order = past + targets + [i for i in range(len(steps)) if i not in head]
    return [steps[i].label for i in order]


def find_unordered(steps: list[Step], events: list[Event]) -> list[tuple[Event, Event]]:
    """Program-order pairs of one thread that may run out of order. Only a
    GPU event can end after a later event of its thread starts; scanning
    forward from it stops at the first event whose issue it precedes."""
    by_thread: dict[str, list[Event]] = {}
    for e in events:
        if e.start >= 0 and e.end >= 0:
            by_thread.setdefault(e.thread, []).append(e)
    out = []
    for evs in by_thread.values():
        evs.sort(key=lambda e: e.order)
        for j, a in enumerate(evs):
            if not a.gpu:
                continue
            for b in evs[j + 1 :]:
                if settled(steps, a, b):
                    break
                if not ordered(steps, a, b):
                    out.append((a, b))
    return out


def find_concurrent(steps: list[Step], events: list[Event]) -> list[tuple[Event, Event]]:
    """Every pair of effectful events unordered by happens-before in this run."""
    done = [e for e in events if e.start >= 0 and e.end >= 0]
    out = []
    for j, b in enumerate(done):
        for a in done[:j]:
            if not ordered(steps, a, b) and not ordered(steps, b, a):
                out.append((a, b))
    return out
