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
  refuse as an input anyway), its stderr kept up to `MAX_STDERR_BYTES`;
- once it has exited, what it started gets `DRAIN_S` to close stdout: a
  daemon that keeps the pipe open is killed with its group and the run is
  a failure that says so, not a wait until the timeout;
- on a private copy of the input (`private=True`, for `--impl`): the
  input's bytes in a directory of their own, under the input's name, so an
  implementation that rewrites its input in place (`-o INPUT`, `sed -i`)
  changes the copy, never the user's file. Where no temporary directory
  is writable the copy is a memory file (`memfd_create`), passed as
  `/dev/fd/N`.

`ImplProcess` is the running process (the CLI starts it, parses INPUT
meanwhile, then collects); `run_impl` is start-and-collect in one call.
"""

from __future__ import annotations

import os
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass

from spec.invariant import InternalError
from spec.tool import MAX_INPUT_BYTES, track_group, track_temp, untrack_group, untrack_temp

IMPL_TIMEOUT_S = 600.0
"""The default wall time of one run of an external implementation, its
children included (`--impl-timeout` of `verifier check`, the gate's
`--impl`, `exhaustive --impl` batches). Generous on purpose: a slow tool is
waited for, a hanging one is killed with everything it started."""

DRAIN_S = 2.0
"""After the implementation's own process exited, how long what it started
may keep its stdout open before the group is killed and the run fails."""

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

    def __init__(
        self,
        argv: Sequence[str],
        input_path: str,
        timeout_s: float = IMPL_TIMEOUT_S,
        max_stdout: int = MAX_INPUT_BYTES,
        *,
        private: bool = False,
        data: bytes | None = None,
    ) -> None:
        self.timeout_s = timeout_s
        self.max_stdout = max_stdout
        self.deadline = time.monotonic() + timeout_s
        self.copy: PrivateCopy | None = None
        path = input_path
        if private or data is not None:
            self.copy = PrivateCopy(input_path, data)
            path = self.copy.path
        try:
            self.proc = subprocess.Popen(
                [*argv, path],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                pass_fds=self.copy.fds if self.copy is not None else (),
            )
        except BaseException:
            if self.copy is not None:
                self.copy.remove()
            raise
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
        if self.copy is not None:
            self.copy.remove()

    def collect(self) -> Finished:
        """Read stdout and stderr until both close and the process ends, or
        until the deadline or the stdout cap (then `stopped` says which)."""
        proc = self.proc
        if not (proc.stdout is not None and proc.stderr is not None):
            raise InternalError(
                "verifier.harness.external: expected proc.stdout is not None and proc.stderr is not None"
            )
        out, err = bytearray(), bytearray()
        timed_out = f"implementation timed out after {self.timeout_s:g} s"
        exited_at: float | None = None
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdout, selectors.EVENT_READ, out)
            sel.register(proc.stderr, selectors.EVENT_READ, err)
            while sel.get_map():
                now = time.monotonic()
                left = self.deadline - now
                if left <= 0:
                    return self._stopped(out, err, timed_out)
                if exited_at is None and proc.poll() is not None:
                    exited_at = now
                if exited_at is not None:
                    drain = exited_at + DRAIN_S - now
                    if drain <= 0:
                        return self._stopped(
                            out,
                            err,
                            f"implementation exited (status {proc.returncode}) but a process it started kept its "
                            f"output open for {DRAIN_S:g} s more; killed",
                        )
                    left = min(left, drain)
                # While the pipes stay open, look for the exit every 0.1 s.
                for key, _ in sel.select(min(left, 0.1) if exited_at is None else left):
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


class PrivateCopy:
    """The input's bytes where only the implementation sees them: a fresh
    private directory (the input's file name kept, for tools that look at
    it) or, where no temporary directory is writable, a memory file. Raises
    `OSError` if the input cannot be read."""

    def __init__(self, input_path: str, data: bytes | None = None) -> None:
        if data is None:
            with open(input_path, "rb") as f:
                data = f.read(MAX_INPUT_BYTES + 1)
        name = os.path.basename(input_path) or "input.mlir"
        if name.startswith("-") or "\n" in name:
            name = "input.mlir"  # never an option to the tool, nor a line break in its messages
        self.fds: tuple[int, ...] = ()
        self.dir: str | None = None
        try:
            self.dir = tempfile.mkdtemp(prefix="verifier-impl-")
        except OSError:
            fd = os.memfd_create("verifier-input", 0)
            os.write(fd, data)
            os.lseek(fd, 0, os.SEEK_SET)
            self.fds = (fd,)
            self.path = f"/dev/fd/{fd}"
            return
        track_temp(self.dir)
        self.path = os.path.join(self.dir, name)
        with open(self.path, "wb") as f:
            f.write(data)

    def remove(self) -> None:
        for fd in self.fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self.fds = ()
        if self.dir is not None:
            # The implementation may have added files or taken permissions away.
            shutil.rmtree(self.dir, ignore_errors=True)
            untrack_temp(self.dir)
            self.dir = None


def run_impl(
    argv: Sequence[str],
    input_path: str,
    timeout_s: float = IMPL_TIMEOUT_S,
    max_stdout: int = MAX_INPUT_BYTES,
    *,
    private: bool = False,
) -> Finished:
    """Run the implementation `argv` on `input_path` to its end (or its
    limits), nothing of it left running afterwards (`private`: on a
    private copy of the input). Raises `OSError` when it cannot be started."""
    process = ImplProcess(argv, input_path, timeout_s, max_stdout, private=private)
    try:
        return process.collect()
    finally:
        process.kill()
