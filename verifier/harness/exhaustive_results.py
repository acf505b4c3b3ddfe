"""An exhaustive run's results: one program's outcome, and the `--results`
file that keeps them so that a run can resume.

`Result` is what a runner (`verifier.harness.exhaustive_runners`) gives for
a program, what the summary counts (`verifier.harness.exhaustive_summary`)
and what goes, one JSON line each, into the `--results` file
(`ResultsFile`). A run given an existing file reads it back
(`load_results`): the ids into `Done`, a bit per program, so the run skips
them, and the results into its summary. A module of its own so that the
runners, the summary, the command and the cluster's driver share one
record that loads neither the checker nor the refimpl; a `Result` comes
back from a `--jobs` or Dask worker pickled, by its qualified name.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Result:
    """One program's outcome, as written to the results file."""

    id: str
    size: int
    verdict: str
    """`verified`, `refuted`, `unknown`, `inconsistent`, `impl-failed` or `unparsable`."""
    time_s: float
    signature: str = ""
    text: str = ""
    """The program (only when not verified)."""
    detail: str = ""
    """The first violation's message, the reason, or the implementation's error."""


def _id_key(pid: str) -> tuple[int, int]:
    size, _, index = pid.partition("-")
    return int(size), int(index)


class Done:
    """The ids of programs already run, one bit per program (a bytearray
    per size, grown as ids come), so that resuming a run of millions of
    programs keeps megabytes, not a set of strings."""

    def __init__(self) -> None:
        self._bits: dict[int, bytearray] = {}

    def add(self, pid: str) -> bool:
        """Mark `pid` done; False if it was already."""
        size, index = _id_key(pid)
        bits = self._bits.setdefault(size, bytearray())
        byte, bit = divmod(index, 8)
        if byte >= len(bits):
            bits.extend(bytes(max(byte + 1 - len(bits), len(bits))))
        if bits[byte] >> bit & 1:
            return False
        bits[byte] |= 1 << bit
        return True

    def __contains__(self, pid: object) -> bool:
        if not isinstance(pid, str):
            return False
        size, index = _id_key(pid)
        bits = self._bits.get(size)
        byte, bit = divmod(index, 8)
        return bits is not None and byte < len(bits) and bool(bits[byte] >> bit & 1)


def load_results(path: Path, header: dict, done: Done, keep: Callable[[Result], None]) -> int:
    """Read the results already in `path` (resuming), one line at a time:
    each program's id goes into `done` and, the first time it comes, its
    result to `keep`. Returns the number of lines cut short (an interrupted
    run's last line: that program runs again). A file of another alphabet
    or implementation is a usage error (ValueError)."""
    if not path.exists():
        return 0
    cut = 0
    with path.open() as f:
        for n, line in enumerate(f):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                cut += 1
                continue
            if n == 0 and "header" in rec:
                if rec["header"] != header:
                    raise ValueError(f"{path} holds results of {rec['header']}, not of {header}")
                continue
            if "id" in rec and done.add(rec["id"]):
                keep(Result(**{k: rec.get(k, "") for k in Result.__dataclass_fields__}))
    return cut


class ResultsFile:
    """`--results`: one JSON line per program, appended with a single
    `os.write` each, so that a run ended at any point (SIGINT, a kill)
    leaves only whole lines; a line an earlier run left cut short is
    removed when the file is opened."""

    def __init__(self, path: Path, header: dict) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        size = os.fstat(self.fd).st_size
        if size == 0:
            self.write({"header": header})
            return
        with path.open("rb") as f:
            f.seek(max(0, size - 65536))
            tail = f.read()
        if not tail.endswith(b"\n"):
            cut = tail.rfind(b"\n")
            if cut >= 0 or size == len(tail):
                os.ftruncate(self.fd, size - len(tail) + cut + 1)
            else:
                os.write(self.fd, b"\n")
            if os.fstat(self.fd).st_size == 0:
                self.write({"header": header})

    def write(self, rec: dict) -> None:
        data = (json.dumps(rec) + "\n").encode()
        while data:
            data = data[os.write(self.fd, data) :]

    def close(self) -> None:
        os.close(self.fd)
