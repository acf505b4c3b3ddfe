"""The processes of a run: host threads and GPU op instances.

A process is what the scheduler picks to take the next step (docs/design.md
section 4): a host thread (the function body, or one executed
`async.execute` body) or one instance of a GPU op. Both are `Producer`s, so a
token or an async value can wait for them; each carries the vector clock of
its last step (`spec.semantics.schedule.Machine` keeps the clocks and decides
who is enabled).
"""

from __future__ import annotations

from spec.ir import Operation
from spec.semantics.interp import Thread
from spec.semantics.outcome import Event, Footprint
from spec.semantics.values import Producer, Token


class HostProc(Producer):
    """A host thread as a process (also the producer of an async body's
    token and values)."""

    def __init__(self, pid: str, thread: Thread, clock: dict[str, int]) -> None:
        self.pid = pid
        self.cpid = pid
        self.thread = thread
        self.clock = clock
        self.state = "run"
        self.wait_for: list[Producer] = []
        self.values: list = []
        self.failed = False
        self.exec_op: Operation | None = None
        self.exec_deps: list = []
        self.exec_operands: list = []
        self.fp: Footprint | None = None


class GpuProc(Producer):
    """One instance of a GPU op."""

    def __init__(
        self, pid: str, op: Operation, thread: str, deps: list[Token], clock: dict[str, int], event: Event
    ) -> None:
        self.pid = pid
        self.cpid = pid
        """Clock component: its own, or its thread's for a synchronous op."""
        self.op = op
        self.thread = thread
        self.deps = deps
        self.clock = clock
        self.state = "issued"
        self.event = event
        self.reads: Footprint = ()
        self.writes: Footprint = ()
        self.args: list = []
        self.snapshot: list = []
        self.values: list = []
        self.failed = False
