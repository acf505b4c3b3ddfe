"""Running an external implementation: one runner, one timeout.

An implementation under test is a command that takes the input's path last
and prints the rewrite on stdout (`python -m verifier check --impl CMD`, the
gate's `--impl`, `python -m verifier exhaustive --impl`). All three run it
here, the same way:

- in a process group of its own, stdin closed, so that on a timeout, an
  oversized output or the verifier's own end (SIGINT, SIGTERM: the group is
  registered with `spec.tool.track_group`) the whole group is killed: a
  child that keeps stdout open (`sh -c 'sleep 1000 & ...'`) cannot hang the
  verifier, and nothing it started outlives the run;
- within `IMPL_TIMEOUT_S` of wall time unless the caller says otherwise;
- its stdout capped at `spec.tool.MAX_INPUT_BYTES` (what the verifier would
  refuse as an input anyway), its stderr kept up to `MAX_STDERR_BYTES`.

`ImplProcess` is the running process (the CLI starts it, parses INPUT
meanwhile, then collects); `run_impl` is start-and-collect in one call.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass

from spec.tool import MAX_INPUT_BYTES, track_group, untrack_group

IMPL_TIMEOUT_S = 600.0
"""The default wall time of one run of an external implementation, its
children included (`--impl-timeout` of `verifier check`, the gate's
`--impl`, `exhaustive --impl` batches). Generous on purpose: a slow tool is
waited for, a hanging one is killed with everything it started."""

MAX_STDERR_BYTES = 64 * 1024
"""Of an implementation's stderr only this much is kept (its first lines are
shown when it fails)."""


@dataclass(frozen=True)
class Finished:
    """What a run left: its exit status and output, or why it was stopped."""

    returncode: int
    """The exit status (negative: killed by that signal; -9 when stopped here)."""
    stdout: bytes
    stderr: bytes
    stopped: str = ""
    """Why the run was cut short (a timeout, an oversized output), or ""."""

    @property
    def ok(self) -> bool:
        return not self.stopped and self.returncode == 0


class ImplProcess:
    """An implementation running on `input_path` (see the module docstring).

    Raises `OSError` when the command cannot be started (not found, not
    executable). `collect` reads its output until it ends or a limit is hit;
    `kill` ends its process group (idempotent; `collect` does not kill)."""

    def __init__(self, argv: Sequence[str], input_path: str, timeout_s: float = IMPL_TIMEOUT_S, max_stdout: int = MAX_INPUT_BYTES) -> None:
        self.timeout_s = timeout_s
        self.max_stdout = max_stdout
        self.deadline = time.monotonic() + timeout_s
        self.proc = subprocess.Popen(
            [*argv, input_path],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        track_group(self.proc.pid)
        self.ended = False

    def kill(self) -> None:
        """End the implementation and everything in its process group (once:
        after the wait its process group id may be anyone's)."""
        if self.ended:
            return
        self.ended = True
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        self.proc.wait()
        untrack_group(self.proc.pid)
        for pipe in (self.proc.stdout, self.proc.stderr):
            if pipe is not None:
                pipe.close()

    def collect(self) -> Finished:
        """Read stdout and stderr until both close and the process ends, or
        until the deadline or the stdout cap (then `stopped` says which)."""
        proc = self.proc
        assert proc.stdout is not None and proc.stderr is not None
        out, err = bytearray(), bytearray()
        timed_out = f"implementation timed out after {self.timeout_s:g} s"
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdout, selectors.EVENT_READ, out)
            sel.register(proc.stderr, selectors.EVENT_READ, err)
            while sel.get_map():
                left = self.deadline - time.monotonic()
                if left <= 0:
                    return self._stopped(out, err, timed_out)
                for key, _ in sel.select(left):
                    chunk = os.read(key.fd, 1 << 16)
                    if not chunk:
                        sel.unregister(key.fileobj)
                    elif key.data is out:
                        out += chunk
                        if len(out) > self.max_stdout:
                            return self._stopped(out, err, f"implementation printed more than {self.max_stdout} bytes")
                    elif len(err) < MAX_STDERR_BYTES:
                        err += chunk
        try:
            proc.wait(max(self.deadline - time.monotonic(), 0))
        except subprocess.TimeoutExpired:
            return self._stopped(out, err, timed_out)
        return Finished(proc.returncode, bytes(out), bytes(err))

    def _stopped(self, out: bytearray, err: bytearray, why: str) -> Finished:
        self.kill()
        return Finished(self.proc.returncode, bytes(out), bytes(err), why)


def run_impl(argv: Sequence[str], input_path: str, timeout_s: float = IMPL_TIMEOUT_S, max_stdout: int = MAX_INPUT_BYTES) -> Finished:
    """Run the implementation `argv` on `input_path` to its end (or its
    limits), nothing of it left running afterwards. Raises `OSError` when
    it cannot be started."""
    process = ImplProcess(argv, input_path, timeout_s, max_stdout)
    try:
        return process.collect()
    finally:
        process.kill()
