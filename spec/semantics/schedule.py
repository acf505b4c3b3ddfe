"""Schedules: the processes of a run, their steps, and the ways to choose them.

A run of one function is a set of *processes*, each taking *steps*:

- a host thread (the function body, and one per executed `async.execute`
  body) steps at each visible op (`interp.is_visible`); an `async.execute`
  body first takes a `begin` step, enabled once the execute is issued, its
  dependency tokens are complete and its operand values are available;
- a GPU op instance is a process of two steps, `start` (enabled once issued
  and all `[deps]` tokens are complete; reads its inputs) and `finish`
  (writes its outputs, completes its token). Its issue is a step of the
  thread that issues it; without `async` that thread's next step waits for
  `finish` (docs/design.md rule 3).

API (what the CLI and the verifier use):

- `Machine(func, args)`: one run; `enabled()` lists the processes that can
  step (in program-order priority), `label(pid)` the step each would take,
  `step(pid)` takes it, `outcome()` once nothing is left.
- `func` below may be a `func.func` or a module with one function
  (`function(module, name)` picks one); `args` defaults to
  `interp.default_args(func)`.
- `run(func, args=None, schedule=None) -> Run`: one run; without a schedule in
  program order (every GPU op runs as soon as it can, a new async body runs
  before its creator continues), with one it replays the given step labels
  (`replay(...)` is the same and returns the `Outcome`). After the labels run
  out the run continues in program order. An unknown or disabled label is a
  `ReplayError`.
- `explore(func, args=None, exhaustive=True, bound=..., schedules=N, seed=S) ->
  Exploration`: exhaustive exploration, depth first, with sleep sets
  (Godefroid's partial-order reduction: after exploring step `a` from a
  state, `a` sleeps in the sibling subtrees until a step that conflicts with
  it runs, so two orders of independent steps are not both explored; steps
  are independent when their footprints share no element written by either;
  a step that touches no memory, e.g. an issue, a wait or an await, is taken
  alone without branching, as it commutes with everything), stopping after `bound` complete schedules; or, with `exhaustive=False`,
  `schedules` runs choosing uniformly at random among enabled steps with
  `random.Random(seed)`; `por=False` explores every interleaving (for
  cross-checking the reduction). Dynamic POR (Flanagan-Godefroid) on top of
  the sleep sets was tried and lost traces in the cross-check against plain
  enumeration on this step model, so it is not used (docs/semantics.md).

Where the parts are: the processes are `spec.semantics.processes`; what a
step touches (its footprint) and does to values and memory is
`spec.semantics.step_effects` (mixed into `Machine`); the sleep sets are
`spec.semantics.sleep_sets`. The step limits stay here with `Machine.step`,
which reads them at each step.

Step labels name the op and its location (`start gpu.launch_func@f.mlir:10:5`),
so a schedule is readable, stable across runs, and replayable.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from spec import registry
from spec.diagnostics import DiagnosticError, error
from spec.invariant import InternalError
from spec.ir import Operation
from spec.semantics.interp import GPU_OPS, MAX_OPS, Thread, check_supported, default_args
from spec.semantics.outcome import (
    Event,
    Exploration,
    Observation,
    Outcome,
    Race,
    Step,
    Unordered,
    find_concurrent,
    find_races,
    find_unordered,
    overlap_schedule,
    site,
)
from spec.semantics.processes import GpuProc, HostProc
from spec.semantics.sleep_sets import ExploreNode, child_sleep
from spec.semantics.step_effects import StepEffects
from spec.semantics.values import AsyncValue, Buffer, Fault, Producer, Token, View

DEFAULT_BOUND = 100_000
"""Schedules an exhaustive exploration tries before it stops (incomplete)."""


class ReplayError(Exception):
    """A schedule that does not fit the program."""


MAX_STEPS = 50_000
"""Steps one run may take; then the run is cut off with a fault (a loop that
does not end, e.g. `scf.while` on a condition that stays true)."""
MAX_CLOCK_CELLS = 4_000_000
"""Vector-clock entries one run may store (memory): long runs with many
asynchronous GPU ops are cut off the same way."""


def _join(into: dict[str, int], other: dict[str, int] | None) -> None:
    if other:
        for k, v in other.items():
            if into.get(k, 0) < v:
                into[k] = v


class Machine(StepEffects):
    """One run of a function: processes, steps, observations, buffers."""

    def __init__(self, func: Operation, args: list, aliases: dict[str, str] | None = None) -> None:
        self.func = func
        self.aliases = aliases or {}
        """Location (as text) -> the location to name the buffers an op there
        allocates by (`StepEffects.value_name`): a rewrite replayed against
        its input names (and so seeds) each buffer as the input's op does."""
        self.procs: dict[str, HostProc | GpuProc] = {}
        self.live: dict[str, HostProc | GpuProc] = {}
        """Processes not yet done (pruned lazily), so a step costs O(live)."""
        self.steps: list[Step] = []
        self.events: list[Event] = []
        self.obs: dict[str, list[Observation]] = {}
        self.buffers: dict[str, Buffer] = {}
        self.budget = [MAX_OPS]
        self.clock_cells = 0
        self._pos_cache: dict[tuple, frozenset] = {}
        entry = func.regions[0].blocks[0]
        for v in args:
            if isinstance(v, View):
                self.buffers[v.buffer.name] = v.buffer
        main = HostProc("main", Thread("main", entry, dict(zip(entry.args, args)), self.budget), {})
        self.procs["main"] = self.live["main"] = main
        self._advance(main)

    # -- queries ----------------------------------------------------------------
    def _ready(self, p: HostProc | GpuProc) -> bool:
        if isinstance(p, GpuProc):
            if p.state == "issued":
                return all(t.complete() for t in p.deps)
            return p.state == "running"
        if p.state == "begin":
            return all(t.complete() for t in p.exec_deps) and all(
                v.complete() for v in p.exec_operands if isinstance(v, AsyncValue)
            )
        if p.state != "run" or not all(w.done for w in p.wait_for):
            return False
        op = p.thread.current()
        if op is None:
            raise InternalError("spec.semantics.schedule: expected op is not None")
        kind = registry.sync_kind(op.name)
        try:
            if registry.is_gpu_wait(op.name):
                return all(t.complete() for t in p.thread.operands(op))
            if kind == "wait":
                return p.thread.operands(op)[0].complete()
            if kind == "wait_group":
                return p.thread.operands(op)[0].complete()
        except (Fault, AttributeError, IndexError):
            return True  # the step itself reports the fault
        return True

    def enabled(self) -> list[str]:
        """Processes that can step, in program-order priority: GPU finishes,
        GPU starts (issue order), then host threads, newest first."""
        fin: list[str]
        start: list[str]
        fin, start, host = [], [], []
        finished = []
        for pid, p in self.live.items():
            if p.state == "done":
                finished.append(pid)
                continue
            if not self._ready(p):
                continue
            if isinstance(p, GpuProc):
                (fin if p.state == "running" else start).append(pid)
            else:
                host.append(pid)
        for pid in finished:
            del self.live[pid]
        return fin + start + host[::-1]

    def pending(self) -> list[str]:
        return [pid for pid, p in self.live.items() if p.state != "done"]

    def clock_of(self, pid: str) -> dict[str, int]:
        """What `pid`'s next step will know: its clock joined with the
        producers it waits for that are already done."""
        p = self.procs[pid]
        c = dict(p.clock)
        if isinstance(p, GpuProc):
            if p.state == "issued":
                for t in p.deps:
                    for q in t.producers:
                        _join(c, q.done_clock)
        else:
            for q in p.wait_for:
                _join(c, q.done_clock)
            if p.state == "begin":
                for t in p.exec_deps:
                    for q in t.producers:
                        _join(c, q.done_clock)
                for v in p.exec_operands:
                    if isinstance(v, AsyncValue):
                        _join(c, v.producer.done_clock)
            elif p.state == "run":
                for q in self._awaited(p):
                    _join(c, q.done_clock)
        return c

    def _awaited(self, p: HostProc) -> list[Producer]:
        """Producers the current op of `p` (a wait or an await) waits for."""
        op = p.thread.current()
        if op is None or not registry.blocks_thread(op.name):
            return []
        out: list[Producer] = []
        try:
            vals = p.thread.operands(op)
            tokens = vals[0].tokens if registry.sync_kind(op.name) == "wait_group" else vals
            for tok in tokens:
                out.extend(tok.producers if isinstance(tok, Token) else (tok.producer,))
        except (Fault, AttributeError, IndexError):
            return []  # the step itself reports the fault
        return out

    def _suffix(self, thread: Thread, op: Operation) -> str:
        n = thread.counts.get(id(op), 0)
        return (f"#{n}" if n else "") + ("" if thread.name == "main" else f" in {thread.name}")

    def label(self, pid: str) -> str:
        p = self.procs[pid]
        if isinstance(p, GpuProc):
            return ("start " if p.state == "issued" else "finish ") + pid
        if p.state == "begin":
            return "begin " + pid
        op = p.thread.current()
        if op is None:
            raise InternalError("spec.semantics.schedule: expected op is not None")
        kind = "issue" if op.name in GPU_OPS else "host"
        return f"{kind} {op.name}@{op.loc}{self._suffix(p.thread, op)}"

    # -- stepping -----------------------------------------------------------------
    def step(self, pid: str) -> Step:
        p = self.procs[pid]
        label = self.label(pid)
        fp = self.footprint(pid)
        clock = self.clock_of(pid)
        # A synchronous GPU op counts in its thread's clock component: the
        # thread is blocked from the issue to the finish, so issue < start <
        # finish < next step is one chain, and clocks stay small.
        cp = p.cpid
        clock[cp] = clock.get(cp, 0) + 1
        p.clock = clock
        st = Step(label, cp, clock[cp], clock, fp, pid)
        self.clock_cells += len(clock)
        if len(self.steps) >= MAX_STEPS or self.clock_cells > MAX_CLOCK_CELLS:
            self._cut_off()
            return st
        index = len(self.steps)
        self.steps.append(st)
        if isinstance(p, GpuProc):
            self._gpu_step(p, index)
        else:
            p.fp = None
            p.wait_for = []
            self._host_step(p, index)
        return st

    def _cut_off(self) -> None:
        self._observe(
            "scheduler",
            "fault",
            None,
            f"run cut off after {len(self.steps)} steps (limit of {MAX_STEPS} steps or {MAX_CLOCK_CELLS} clock entries)",
        )
        for q in self.live.values():
            q.state = "done"
            q.done = True
            if isinstance(q, HostProc):
                q.thread.finish()

    def _observe(self, thread: str, kind: str, op: Operation | None, detail: str) -> None:
        self.obs.setdefault(thread, []).append(Observation(kind, str(op.loc) if op is not None else "", detail))

    def _fail(self, p: HostProc, exc: Fault) -> None:
        op = exc.op if exc.op is not None else p.thread.current()
        self._observe(p.thread.name, exc.kind, op, exc.message)
        p.thread.finish()
        p.failed = True
        p.done = True
        p.done_clock = p.clock
        p.state = "done"

    def _advance(self, p: HostProc) -> None:
        try:
            p.thread.advance()
        except Fault as exc:
            self._fail(p, exc)
            return
        if p.thread.current() is None:
            p.state = "done"

    # -- results ----------------------------------------------------------------
    def outcome(self) -> Outcome:
        blocked = self.pending()
        obs = {k: list(v) for k, v in self.obs.items()}
        if blocked:
            obs.setdefault("scheduler", []).append(
                Observation("deadlock", "", "blocked: " + ", ".join(self.label(p) for p in blocked))
            )
        return Outcome(
            tuple(sorted((k, tuple(v)) for k, v in obs.items())),
            tuple(sorted((name, b.digest()) for name, b in self.buffers.items())),
        )


# -- runs -----------------------------------------------------------------------


@dataclass
class Run:
    outcome: Outcome
    schedule: list[str]
    machine: Machine


def function(module_or_func: Operation, name: str | None = None) -> Operation:
    """`module_or_func` itself if it is a `func.func`; else its function
    named `name`, or its only function with a body."""
    if registry.is_host_function(module_or_func.name):
        return module_or_func
    funcs = [
        op for op in module_or_func.walk() if registry.is_host_function(op.name) and op.regions and op.regions[0].blocks
    ]
    if name is not None:
        funcs = [f for f in funcs if str(f.properties.get("sym_name", "")).strip('"') == name]
    if len(funcs) != 1:
        raise DiagnosticError(
            error(
                module_or_func.loc,
                f"expected one function with a body{f' named {name}' if name else ''}, found {len(funcs)}",
            )
        )
    return funcs[0]


def _prepare(func: Operation) -> None:
    if not func.regions or not func.regions[0].blocks:
        raise DiagnosticError(error(func.loc, "cannot run a function declaration"))
    check_supported(func)


MachineFactory = Callable[[Operation, list], Machine]
"""Makes the `Machine` of one run from the function and its arguments: the
class itself, or a subclass that models more (`spec.semantics.boundary`)."""


def run(
    func: Operation,
    args: list | None = None,
    schedule: list[str] | None = None,
    choose: Callable[[list[str]], str] | None = None,
    machine: MachineFactory = Machine,
) -> Run:
    """One run of `func` (a `func.func`, or a module with one function) on
    `args` (default: `interp.default_args`): follow `schedule` (labels), then
    `choose` among enabled processes (default: program order). The buffers
    in `args` are copied, never modified. `machine` makes the run's machine."""
    func = function(func)
    _prepare(func)
    if args is None:
        args = default_args(func)
    m = machine(func, _fresh(args))
    for i, label in enumerate(schedule or []):
        en = m.enabled()
        pid = next((q for q in en if m.label(q) == label), None)
        if pid is None:
            raise ReplayError(
                f"step {i}: '{label}' is not enabled (enabled: {', '.join(m.label(q) for q in en) or 'none'})"
            )
        m.step(pid)
    while True:
        en = m.enabled()
        if not en:
            break
        m.step(choose(en) if choose else en[0])
    return Run(m.outcome(), [s.label for s in m.steps], m)


def replay(func: Operation, schedule: list[str], args: list | None = None) -> Outcome:
    """The outcome of following `schedule` (then program order); raises
    `ReplayError` if a label is not enabled when its turn comes."""
    return run(func, args, schedule).outcome


# -- exploration ----------------------------------------------------------------


def _record(
    ex: Exploration,
    func: Operation,
    args: list,
    m: Machine,
    pairs: bool,
    machine: MachineFactory = Machine,
    witnesses: bool = True,
) -> None:
    schedule = tuple(s.label for s in m.steps)
    out = m.outcome()
    ex.outcomes.setdefault(out, schedule)
    for g, e, buf in find_races(m.steps, m.events):
        key = (g.key, e.key)
        if key in ex.races:
            continue
        witness = overlap_schedule(m.steps, g, e) if witnesses else list(schedule)
        try:
            if witnesses:
                run(func, _fresh(args), witness, machine=machine)
        except ReplayError:
            witness = list(schedule)
        ex.races[key] = Race(site(g), site(e), buf, tuple(witness))
    for a, b in find_unordered(m.steps, m.events):
        if (a.key, b.key) not in ex.out_of_order:  # `site` is costly: only for a new pair
            ex.out_of_order[(a.key, b.key)] = Unordered(site(a), site(b), schedule)
    if pairs:
        for a, b in find_concurrent(m.steps, m.events):
            ex.concurrent.setdefault(tuple(sorted((a.key, b.key))), schedule)  # type: ignore[arg-type]  # a sorted pair of two keys


def _fresh(args: list) -> list:
    """Arguments for another run: buffers are mutated by a run, so copy them."""
    out = []
    for v in args:
        if isinstance(v, View):
            b = Buffer(v.buffer.name, list(v.buffer.data), v.buffer.elem)
            out.append(View(b, v.offset, v.shape, v.strides))
        else:
            out.append(v)
    return out


def explore(
    func: Operation,
    args: list | None = None,
    exhaustive: bool = True,
    bound: int = DEFAULT_BOUND,
    schedules: int = 100,
    seed: int = 0,
    por: bool = True,
    pairs: bool = False,
    machine: MachineFactory = Machine,
    max_pruned: int | None = None,
    max_steps: int | None = None,
    witnesses: bool = True,
    stop: Callable[[Machine], bool] | None = None,
) -> Exploration:
    """Explore schedules of `func` on `args` (see the module docstring);
    `machine` makes each run's machine (as for `run`); `max_pruned` stops an
    exhaustive exploration (incomplete) after that many pruned runs, and
    `max_steps` after that many machine steps in all (the replayed prefixes
    of each run included: the work done, so a deterministic budget). With
    `witnesses=False` a race keeps the schedule of the run that showed it
    rather than a replayed schedule where its two steps overlap (a replay
    per new race: costly where races are many and only their keys matter).
    `stop(machine)`, asked after each complete run, ends the exploration
    (incomplete) when it says so: for a caller to whom one such run already
    decides the answer (the judge, on a run cut off as endless)."""
    func = function(func)
    _prepare(func)
    if args is None:
        args = default_args(func)
    ex = Exploration()
    if not exhaustive:
        rng = random.Random(seed)
        for _ in range(schedules):
            r = run(func, _fresh(args), None, lambda en: en[rng.randrange(len(en))], machine)
            ex.schedules_explored += 1
            _record(ex, func, args, r.machine, pairs, machine)
        ex.complete = False
        return ex
    nodes: list[ExploreNode] = []
    steps = 0
    while True:
        m = machine(func, _fresh(args))
        for node in nodes:
            m.step(node.taken)
        steps += len(nodes)
        blocked = False
        while True:
            en = m.enabled()
            if not en:
                break
            sleep = child_sleep(nodes[-1]) if por and nodes else {}
            node = ExploreNode(en, {q: m.footprint(q) for q in en}, sleep)
            nodes.append(node)
            # A step that touches no memory commutes with every other step and
            # disables none, so it alone is a persistent set: take it without
            # branching (issues, waits, awaits, begins, yields, allocations).
            quiet = next((q for q in en if not node.fps[q] and q not in sleep), None) if por else None
            node.backtrack.update([quiet] if quiet else en)
            pid = quiet or next((q for q in en if q not in sleep), "")
            if not pid:
                blocked = True  # every enabled step is asleep: a redundant run
                break
            node.backtrack.add(pid)
            node.done.add(pid)
            node.taken = pid
            m.step(pid)
            steps += 1
        if blocked:
            ex.pruned += 1
        else:
            ex.schedules_explored += 1
            _record(ex, func, args, m, pairs, machine, witnesses)
            if stop is not None and stop(m):
                ex.complete = False
                break
        while nodes and not nodes[-1].open():
            nodes.pop()
        if not nodes:
            break
        over_steps = max_steps is not None and steps >= max_steps
        if ex.schedules_explored >= bound or (max_pruned is not None and ex.pruned >= max_pruned) or over_steps:
            ex.complete = False
            break
        node = nodes[-1]
        pid = node.open()[0]
        node.done.add(pid)
        node.taken = pid
    ex.steps = steps
    return ex
