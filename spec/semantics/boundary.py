"""The function's boundary in the executable semantics (docs/design.md rules 9-11).

`schedule.Machine` runs a function as if nothing existed outside it: a token
argument is complete from the start, a returned token is just a value, and
nothing observes memory once the function has returned (only the final
buffers, after *everything* has finished). `BoundaryMachine` adds what the
callers and the runtime see, so that a rewrite that is only wrong at the
function's edge shows up as a race or a different outcome:

- **Caller work** (rule 9): each argument of type `!gpu.async.token` or
  `!async.token` (and each `!async.value<!gpu.async.token>` argument, whose
  value is such a token) stands for GPU work the caller started. It is a GPU
  process `caller-work(arg N)` that reads every memref argument at its start
  and writes each of them (a kernel-like mix of the old contents) at its
  finish; the token is complete when it finishes. It is unordered with the
  function until the function waits on the token.
- **Receivers** (rule 10): each token (or `!async.value`) that leaves the
  function, returned by `func.return` or passed to a `func.call`, gets a
  receiver: a process that waits for it (for an `!async.value` holding a
  token: for the value, then for the token) and then reads every buffer,
  observing their digests in its own thread (`receiver(return #k)`,
  `receiver(call@LOC #k)`).
- **The return and the end** (rule 11): the function's `func.return` reads
  every buffer (the caller may look at any memory once the function has
  returned), and an `end` process, enabled once every host thread (the body
  and every `async.execute` body) is done, reads every buffer too: the
  runtime drains the executes, and work an execute's completion should have
  covered must be finished by then.
- **Blocking arguments** (`BlockingBoundaryMachine`, more argument vectors
  of the judge for a function with `!async.token` or `!async.value<...>`
  arguments, one per such argument): the caller work behind the argument
  (or each of those at `late`, or all of them) can only begin once the
  function's body has returned (the caller produces
  it after the call: it depends on the caller continuing), so waiting for
  it in the function's own thread blocks forever (a `deadlock`
  observation, `schedule.Machine.outcome`). That work touches no memory
  here: it stands only for when the value or token becomes available (an
  `!async.value<T>` holds the value the default arguments give it).
- **Kernels**: what `gpu.launch_func` writes depends on the kernel's code, not
  only on its name: the mix is seeded with a digest of the module's
  `gpu.module`s, so a rewrite that edits a kernel computes other values.

The reads above are effectful events (`outcome.Event`), so the vector-clock
race detection of `outcome.find_races` reports a GPU op that may still run
when they happen. Every process added here is deterministic and named by
argument position or by the location of the op it belongs to, so a rewrite
explored against its input (locations mapped, `spec.semantics.judge`) shows
the same names.
"""

from __future__ import annotations

from spec import registry
from spec.ir import Location, Operation, outermost
from spec.semantics.interp import Thread
from spec.semantics.outcome import Event, Footprint, Observation, Outcome, Step
from spec.semantics.processes import GpuProc, HostProc
from spec.semantics.schedule import Machine
from spec.semantics.values import AsyncValue, Producer, Token, View, kernel_mix, stable_hash

CALLER_OP = "boundary.caller_work"
RECEIVER_OP = "boundary.receiver"
END_OP = "boundary.end"
CUT_OFF = "run cut off"
"""In the detail of the fault observed when a run is cut off."""


class CallerWork(GpuProc):
    """GPU work of the caller behind an incoming token argument."""

    late = False
    """Whether it begins only once the function has returned (`BlockingBoundaryMachine`)."""


class Observer(Producer):
    """A process that waits and then reads every buffer: a receiver of an
    escaping token, or the runtime's end of the program (`end=True`)."""

    def __init__(self, pid: str, waits: list, op: Operation, end: bool = False) -> None:
        self.pid = pid
        self.cpid = pid
        self.waits = waits
        self.op = op
        self.end = end
        self.clock: dict[str, int] = {}
        self.state = "wait"
        self.fp: Footprint | None = None
        self.wait_for: list[Producer] = []
        self.failed = False


def _stand_in(name: str, loc: Location) -> Operation:
    """An op object naming a boundary event (it is in no block)."""
    return Operation(name=name, loc=loc)


_KERNEL_DIGESTS: dict[int, tuple[Operation, int]] = {}
"""Module object (by `id`, the module kept so that its id is not reused)
-> `kernel_digest`. A cache: no tool edits a `gpu.module` once it is
parsed (the pass and the verifier leave kernels as they are), so a
module's digest never changes."""


def kernel_digest(func: Operation) -> int:
    """A digest of every `gpu.module` of the module holding `func` (their
    printed text), cached per module object."""
    from spec.syntax.printer import Printer

    root = outermost(func)
    hit = _KERNEL_DIGESTS.get(id(root))
    if hit is not None and hit[0] is root:
        return hit[1]
    parts = []
    for op in root.walk():
        if registry.holds_kernels(op.name):
            parts.append(Printer(True).print_top(op))
    digest = stable_hash("\n".join(parts))
    if len(_KERNEL_DIGESTS) > 4096:
        _KERNEL_DIGESTS.clear()
    _KERNEL_DIGESTS[id(root)] = (root, digest)
    return digest


def _waited_producers(w: object) -> list[Producer] | None:
    """Producers an observer waiting for `w` waits for now; None while an
    `!async.value` is not yet available (its token is not known yet)."""
    if isinstance(w, Token):
        return list(w.producers)
    if isinstance(w, AsyncValue):
        if not w.producer.done:
            return None
        out: list[Producer] = [w.producer]
        values = getattr(w.producer, "values", [])
        if not getattr(w.producer, "failed", False) and w.index < len(values):
            inner = values[w.index]
            if isinstance(inner, Token):
                out.extend(inner.producers)
        return out
    return []


def escapes(v: object) -> bool:
    return isinstance(v, (Token, AsyncValue))


def blocks_on_return(a_type: object) -> bool:
    """Whether an argument of this type gets caller work that begins only
    after the function has returned (`BlockingBoundaryMachine`)."""
    return bool(getattr(a_type, "is_async_token", False) or getattr(a_type, "is_async_value", False))


class BoundaryMachine(Machine):
    """`schedule.Machine` with the function's boundary (module docstring)."""

    BLOCKING = False
    """Whether the caller work behind `!async.token`/`!async.value`
    arguments (those at `late`, or all of them) begins only after the
    function has returned."""

    def __init__(
        self, func: Operation, args: list, aliases: dict[str, str] | None = None, late: frozenset[int] | None = None
    ) -> None:
        entry = func.regions[0].blocks[0]
        views = [v for v in args if isinstance(v, View)]
        callers: list[CallerWork] = []
        args = list(args)
        for i, (a, v) in enumerate(zip(entry.args, args)):
            t = a.type
            if self.BLOCKING and blocks_on_return(t) and (late is None or i in late):
                callers.append(self._late_caller(i, args))
                continue
            gpu_value = t.is_async_value and "!gpu.async.token" in t.text
            if not (t.is_gpu_token or t.is_async_token or gpu_value):
                continue
            pid = f"caller-work(arg {i})"
            op = _stand_in(CALLER_OP, Location(f"<argument {i}>", 0, 0))
            ev = Event(pid, op, pid, 0, True)
            g = CallerWork(pid, op, pid, [], {}, ev)
            g.args = [stable_hash(pid), views]
            g.reads = tuple((w.buffer.name, frozenset(w.positions()), False) for w in views)
            g.writes = tuple((w.buffer.name, frozenset(w.positions()), True) for w in views)
            for buf, pos, _ in g.reads:
                ev.reads[buf] = ev.writes[buf] = pos
            callers.append(g)
            if gpu_value and isinstance(v, AsyncValue):
                v.producer.values = [Token((g,))]
            else:
                args[i] = Token((g,))
        super().__init__(func, args, aliases)
        for g in callers:
            g.event.order = len(self.events)
            self.events.append(g.event)
            self.procs[g.pid] = self.live[g.pid] = g
        end = Observer("end", [], _stand_in(END_OP, Location("<end>", 0, 0)), end=True)
        self.procs["end"] = self.live["end"] = end  # type: ignore[assignment]  # an Observer, a process kind only this machine has (its _ready and steps take it)
        self._kernel_seed = kernel_digest(func)

    def _late_caller(self, i: int, args: list) -> CallerWork:
        """Caller work behind argument `i` that begins after the return: it
        touches no memory; the argument becomes its token, or its value."""
        pid = f"caller-work(arg {i})"
        op = _stand_in(CALLER_OP, Location(f"<argument {i}>", 0, 0))
        ev = Event(pid, op, pid, 0, True)
        g = CallerWork(pid, op, pid, [], {}, ev)
        g.late = True
        g.args = [stable_hash(pid), []]
        v = args[i]
        if isinstance(v, AsyncValue):
            inner = v.producer.values[v.index] if v.index < len(getattr(v.producer, "values", [])) else 0
            g.values = [Token((g,)) if isinstance(inner, Token) else inner]
            args[i] = AsyncValue(g, 0)
        else:
            args[i] = Token((g,))
        return g

    MAX_RUN_STEPS = 2000
    """Steps one run may take here (`schedule.MAX_STEPS` is far larger): the
    judge explores many runs of small programs, and a run this long is a loop
    that does not end (it is cut off with a fault, `CUT_OFF`)."""

    def was_cut_off(self) -> bool:
        """Whether this run was cut off as endless (after `MAX_RUN_STEPS`)."""
        return len(self.steps) >= self.MAX_RUN_STEPS

    def step(self, pid: str) -> Step:
        if len(self.steps) >= self.MAX_RUN_STEPS:
            st = Step("cut off", pid, 0, {}, ())
            self._cut_off()
            return st
        return super().step(pid)

    # -- who may step -------------------------------------------------------------
    def _ready(self, p: HostProc | GpuProc) -> bool:
        if isinstance(p, CallerWork) and p.late and p.state == "issued":
            return self.procs["main"].done
        if isinstance(p, Observer):
            if p.state != "wait":
                return False
            if p.end:
                return all(q.done for q in self.procs.values() if isinstance(q, HostProc))
            for w in p.waits:
                prods = _waited_producers(w)
                if prods is None or not all(q.done for q in prods):
                    return False
            return True
        return super()._ready(p)

    def clock_of(self, pid: str) -> dict[str, int]:
        p = self.procs[pid]
        if not isinstance(p, Observer):
            return super().clock_of(pid)
        c = dict(p.clock)
        prods: list[Producer] = []
        if p.end:
            prods = [q for q in self.procs.values() if isinstance(q, HostProc)]
        else:
            for w in p.waits:
                prods.extend(_waited_producers(w) or [])
        for q in prods:
            for k, v in (q.done_clock or {}).items():
                if c.get(k, 0) < v:
                    c[k] = v
        return c

    def label(self, pid: str) -> str:
        p = self.procs[pid]
        if isinstance(p, Observer):
            return ("end" if p.end else "observe ") + ("" if p.end else pid)
        return super().label(pid)

    def _all_buffers(self) -> Footprint:
        return tuple((b.name, self.whole(View(b, 0, (len(b.data),), (1,))), False) for b in self.buffers.values())

    def footprint(self, pid: str) -> Footprint:
        p = self.procs[pid]
        if isinstance(p, Observer):
            return self._all_buffers() if p.state == "wait" else ()
        return super().footprint(pid)

    def _host_fp(self, t: Thread, op: Operation) -> Footprint:
        if registry.is_function_return(op.name) and t.name == "main":
            return self._all_buffers()
        return super()._host_fp(t, op)

    # -- steps --------------------------------------------------------------------
    def _host_step(self, p: HostProc, index: int) -> None:
        if isinstance(p, Observer):
            self._observer_step(p, index)
            return
        super()._host_step(p, index)

    def _observer_step(self, p: Observer, index: int) -> None:
        ev = Event(p.pid, p.op, p.pid, len(self.events), False, index, index)
        for buf, pos, _ in self.steps[index].fp:
            ev.reads[buf] = pos
        self.events.append(ev)
        if not p.end:
            seen = ", ".join(f"{b.name}:{b.digest()}" for b in sorted(self.buffers.values(), key=lambda b: b.name))
            self._observe(p.pid, "observe", None, seen)
        p.state = "done"
        p.done = True
        p.done_clock = p.clock

    def _execute(self, p: HostProc, op: Operation, index: int) -> None:
        returns, calls = registry.is_function_return(op.name), registry.calls_function(op.name)
        vals = p.thread.operands(op) if returns or calls else []
        super()._execute(p, op, index)
        if returns and p.thread.name == "main":
            for k, v in enumerate(vals):
                if escapes(v):
                    self._receiver(f"receiver(return #{k})", v, op, p.clock)
        elif calls:
            for k, v in enumerate(vals):
                if escapes(v):
                    self._receiver(f"receiver(call@{op.loc}{self._suffix(p.thread, op)} #{k})", v, op, p.clock)

    def _receiver(self, pid: str, v: object, op: Operation, clock: dict[str, int]) -> None:
        """A receiver of `v`, which leaves the function at `op` (the
        receiver's past is the step that hands `v` over)."""
        r = Observer(pid, [v], _stand_in(RECEIVER_OP, op.loc))
        r.clock = dict(clock)
        self.procs[pid] = self.live[pid] = r  # type: ignore[assignment]  # as above: an Observer

    def _issue(self, p: HostProc, op: Operation, vals: list, index: int) -> None:
        pid = f"{op.name}@{op.loc}{self._suffix(p.thread, op)}"
        super()._issue(p, op, vals, index)
        g = self.procs.get(pid)
        if registry.launches_kernel(op.name) and isinstance(g, GpuProc):
            g.args[0] = stable_hash(f"{g.args[0]}|{self._kernel_seed}")

    def _gpu_step(self, g: GpuProc, index: int) -> None:
        if not isinstance(g, CallerWork):
            super()._gpu_step(g, index)
            return
        if g.state == "issued":
            g.state = "running"
            g.event.start = index
            g.snapshot = [w.read() for w in g.args[1]]
            return
        g.state = "done"
        g.done = True
        g.done_clock = g.clock
        g.event.end = index
        seed, views = g.args
        for pos, (w, snap) in enumerate(zip(views, g.snapshot)):
            if w.buffer.freed:
                continue
            w.write(kernel_mix(seed + pos * 7919, w, snap))


class BlockingBoundaryMachine(BoundaryMachine):
    """`BoundaryMachine` where the caller work behind each `!async.token` and
    `!async.value<...>` argument begins only after the function has returned
    (module docstring: an await of one in the function's thread blocks
    forever).

    A deadlock is rendered by the processes left (their names), not by the
    ops they are blocked at: a caller sees that the call never returns and
    what memory holds, not which of two waits of one thread blocks it (so an
    added second await of an argument the input awaits is no new outcome)."""

    BLOCKING = True

    def outcome(self) -> Outcome:
        blocked = self.pending()
        if not blocked:
            return super().outcome()
        obs = {k: list(v) for k, v in self.obs.items()}
        obs.setdefault("scheduler", []).append(Observation("deadlock", "", "blocked: " + ", ".join(sorted(blocked))))
        return Outcome(
            tuple(sorted((k, tuple(v)) for k, v in obs.items())),
            tuple(sorted((name, b.digest()) for name, b in self.buffers.items())),
        )
