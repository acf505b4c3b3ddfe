"""The whole run's time budget (`--budget-s`), and the watchdog that keeps it.

`--timeout-ms` bounds one Z3 query; a run asks thousands. A budget bounds
the run: every query's timeout is cut to what is left, and once it is spent
the obligations not yet decided stay undecided, so the verdict is `unknown`
with the reason and the figures reached, never `verified`.

A timeout Z3 was given is not always a timeout Z3 keeps (it checks its
limits between steps, and some steps are long), and the one-path prover's
queries are not cut to the budget at all. So a run that is watched
(`watch`) has a timer (`Watchdog`, one thread for the process) that, when the budget is spent, interrupts
Z3's main context (`Z3_interrupt`, made for being called from another
thread: the running query returns `unknown`, `canceled`). If the run has
still not returned `GRACE_S` later (a long step outside Z3, or a query in a
context of its own), the timer calls the caller's `on_overrun`: the command
line then prints the verdict `unknown` from what the budget knows and ends
the process. A run therefore ends within its budget plus the grace, whatever
it was doing.

The default (`default_seconds`) scales with the input: `BASE_S` plus
`PER_OP_S` per op of the input module, so a small program gets half a
minute and a large one the time its size needs. 0 means no budget.
"""

from __future__ import annotations

import heapq
import itertools
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import z3

from spec.ir import Operation
from verifier.output.progress import DISABLED, Progress

if TYPE_CHECKING:
    from verifier.output.report import FunctionReport

BASE_S = 30.0
"""Seconds of the default budget that every input gets."""
PER_OP_S = 0.001
"""Seconds of the default budget per op of the input (nested ops included)."""
GRACE_S = 5.0
"""How long after the budget is spent a watched run may take to return on
its own before `on_overrun` is called."""
FORMULA = f"{BASE_S:g} s + {PER_OP_S * 1000:g} ms per input op"
"""The default budget in words (`--help`, the `unknown` reason)."""


def op_count(module: Operation) -> int:
    """Ops of `module`, nested ones included (the module itself not): the
    length of `module.nested_ops()`, counted a block at a time (asked once
    per program of an exhaustive run)."""
    count = 0
    stack = [module]
    while stack:
        op = stack.pop()
        for region in op.regions:
            for block in region.blocks:
                count += len(block.ops)
                stack.extend(o for o in block.ops if o.regions)
    return count


def default_seconds(module: Operation) -> float:
    """The default budget for checking `module`'s rewrite: `FORMULA`."""
    return BASE_S + PER_OP_S * op_count(module)


class Watchdog:
    """One thread that calls functions at their deadlines, for every
    watched budget of the process. A budget per program of an exhaustive
    run made two `threading.Timer`s, a thread each: about a tenth of a small
    program's cost. Cancelled calls are forgotten at once (a budget and the
    reports it tracks are not kept until their deadline). Started on first
    use; a forked child starts its own (the parent's thread is not there)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._heap: list[tuple[float, int]] = []
        self._calls: dict[int, Callable[[], None]] = {}
        self._ids = itertools.count()
        self._thread: threading.Thread | None = None
        self._wake_at: float | None = None
        """The deadline the thread sleeps until (None: until told): a call
        due later needs no wake-up, and a program's budget always is."""

    def call_at(self, delay: float, fn: Callable[[], None]) -> int:
        """Call `fn` (in the watchdog's thread) `delay` seconds from now; returns its id for `cancel`."""
        with self._cond:
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="budget-watchdog", daemon=True)
                self._thread.start()
            key = next(self._ids)
            self._calls[key] = fn
            deadline = time.monotonic() + delay
            heapq.heappush(self._heap, (deadline, key))
            if len(self._heap) > 64 and len(self._heap) > 2 * len(self._calls):
                self._heap = [e for e in self._heap if e[1] in self._calls]
                heapq.heapify(self._heap)
            if self._wake_at is None or deadline < self._wake_at:
                self._cond.notify()
            return key

    def cancel(self, key: int) -> None:
        with self._cond:
            self._calls.pop(key, None)

    def _loop(self) -> None:
        with self._cond:
            while True:
                while self._heap and self._heap[0][1] not in self._calls:
                    heapq.heappop(self._heap)
                if not self._heap:
                    self._wake_at = None
                    self._cond.wait()
                    continue
                deadline, key = self._heap[0]
                wait = deadline - time.monotonic()
                if wait > 0:
                    self._wake_at = deadline
                    self._cond.wait(wait)
                    continue
                self._wake_at = None
                heapq.heappop(self._heap)
                fn = self._calls.pop(key)
                self._cond.release()
                try:
                    fn()
                finally:
                    self._cond.acquire()


WATCHDOG = Watchdog()
"""The process's watchdog (`Budget.watch`): one thread, whose timers each
`Budget` sets and cancels for itself, so nothing of one run reaches
another."""


def _new_watchdog_in_child() -> None:
    global WATCHDOG
    WATCHDOG = Watchdog()


os.register_at_fork(after_in_child=_new_watchdog_in_child)


@dataclass
class Budget:
    seconds: float | None
    """None: no budget."""
    started: float = field(default_factory=time.monotonic)
    function: str = ""
    """The function being checked (`at`), for the reason."""
    phase: str = ""
    """Its phase (`at`): match, events, z3, reach."""
    done: int = 0
    """Obligations decided so far in that function (`at`)."""
    total: int = 0
    """Its obligations (0: not counted yet)."""
    names: list[str] = field(default_factory=list)
    """Every function of the run, in order (`track`)."""
    finished: list[FunctionReport] = field(default_factory=list)
    """The run's `FunctionReport`s so far (`track`: the report's own list)."""
    expired_at: float | None = None
    """Seconds into the run when the watchdog found the budget spent."""
    cut: str | None = None
    """The function a query of which had its timeout cut by the budget."""
    cut_reason: str = ""
    """`reason` when that happened last."""
    expired_in: str | None = None
    """The function running when the watchdog found the budget spent."""
    expired_reason: str = ""
    """`reason` then."""
    progress: Progress = field(default=DISABLED, repr=False, compare=False)
    """Where `at` and `count` show how far the run is (the check's
    `CheckOptions.progress`; by default nowhere)."""
    _timers: list[int] = field(default_factory=list)
    """The watchdog's calls for this budget (`Watchdog.call_at` ids)."""
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _closed: bool = False

    def left(self) -> float | None:
        if self.seconds is None:
            return None
        return self.seconds - (time.monotonic() - self.started)

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def spent(self) -> bool:
        left = self.left()
        return left is not None and left <= 0

    def cap_ms(self, timeout_ms: int) -> int:
        """A query's timeout: `timeout_ms`, or less if the budget ends sooner."""
        left = self.left()
        if left is None:
            return timeout_ms
        cap = max(1, min(timeout_ms, int(left * 1000)))
        if cap < timeout_ms:
            self.cut, self.cut_reason = self.function, self.reason
        return cap

    # -- where the run is ---------------------------------------------------------

    def track(self, functions: list[FunctionReport], names: list[str]) -> None:
        """The run's list of finished function reports and every function's name."""
        self.finished, self.names = functions, list(names)

    def at(self, function: str | None = None, phase: str = "", done: int = 0, total: int = 0) -> None:
        """The run reached `phase` of `function` (None: the same function),
        `done` of `total` obligations decided; shown on `progress`."""
        if function is not None:
            self.function = function
        self.phase, self.done, self.total = phase, done, total
        where = f"@{self.function}" + (f": {phase}" if phase else "")
        self.progress.phase("check", where)
        if total:
            self.progress.count(done, total, "obligations")

    def count(self, done: int, total: int) -> None:
        """`done` of the function's `total` obligations decided (cheap: called per query)."""
        self.done, self.total = done, total
        if done % 64 == 0:
            self.progress.count(done, total, "obligations")

    @property
    def reason(self) -> str:
        """Why what is left is undecided, with the figures reached."""
        figures = [f"after {self.elapsed():.1f} s"]
        if self.function:
            where = f"in @{self.function}" + (f" ({self.phase})" if self.phase else "")
            if self.total:
                where += f", {self.done} of {self.total} obligations decided"
            figures.append(where)
        if self.names:
            figures.append(f"{len(self.finished)} of {len(self.names)} functions finished")
        return f"the run's time budget of {self.seconds:g} s (--budget-s) was spent: " + "; ".join(figures)

    # -- the watchdog --------------------------------------------------------------

    def watch(self, on_overrun: Callable[[Budget], None] | None = None) -> Budget:
        """Start the watchdog (nothing without a budget); returns self."""
        left = self.left()
        if left is None:
            return self
        self._timers.append(WATCHDOG.call_at(max(left, 0.0), self._expire))
        if on_overrun is not None:
            self._timers.append(WATCHDOG.call_at(max(left, 0.0) + GRACE_S, lambda: on_overrun(self)))
        return self

    def close(self) -> None:
        """The run returned: stop the watchdog. An interrupt it sent stays
        on Z3's main context (its next `push` would raise "canceled") until
        a query starts: one trivial query clears it for the next run."""
        with self._lock:
            self._closed = True
            for t in self._timers:
                WATCHDOG.cancel(t)
            self._timers.clear()
            if self.expired_at is not None:
                z3.Solver().check()

    def _expire(self) -> None:
        with self._lock:
            if self._closed:
                return
            self.expired_at = self.elapsed()
            self.expired_in, self.expired_reason = self.function, self.reason
            # The running Z3 query (if any) returns `unknown`; later queries
            # are not asked (`spent`) or get a 1 ms timeout (`cap_ms`).
            z3.main_ctx().interrupt()

    def mark(self, functions: tuple[FunctionReport, ...]) -> tuple[FunctionReport, ...]:
        """After the run: an `unknown` function that was running when the
        budget ran out gets the budget's reason (Z3's `canceled` says less)."""
        return tuple(map(self._marked, functions))

    def _marked(self, fr: FunctionReport) -> FunctionReport:
        if str(fr.verdict) != "unknown" or "--budget-s" in fr.reason:
            return fr
        why = self.expired_reason if fr.name == self.expired_in else self.cut_reason if fr.name == self.cut else ""
        if not why:
            return fr
        head, sep, _ = fr.reason.partition("not decided: ")
        return replace(fr, reason=head + sep + why if sep else why)


UNLIMITED = Budget(None)
