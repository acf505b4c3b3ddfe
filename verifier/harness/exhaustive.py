"""`python -m verifier exhaustive`: every small program, rewritten and checked.

Every program of `verifier.programs.enumeration` up to `--max-size` (over one
`--alphabet`) is rewritten by an implementation and the rewrite checked with
`verifier.check`, all in-process and in batches, so a small program costs
milliseconds, not a process:

- the refimpl (`--mode M`, no `--impl`): the program's IR built from the
  enumerator's ops (`verifier.programs.program_ir`: what parsing its text
  gives, without parsing) and copied (`induction.clone`), the copy
  rewritten in-process (`verifier.harness.reference_impl`, the one module
  of the verifier that imports the refimpl) and the rewritten IR handed
  to `check` as it is (no printing, no parse). The checks share what the
  earlier ones proved: Z3's `unsat` answers (`SHARED_PROOFS`,
  `SHARED_PATH_PROOFS`), the proofs of pairs of graphs by shape
  (`SHARED_SHAPES`), the function pairs of inductions verified
  (`SHARED_PAIRS`); and they decide a guarded query of few decisions by
  trying every assignment instead of asking Z3 (`CheckOptions.assignments`).
  `--plain` parses the text twice, shares nothing across programs and asks
  Z3 every query: the path these shortcuts are checked against;
- an external command (`--impl CMD`): `--impl-batch` programs (default 100)
  are joined with `// -----` lines into one file and run as
  `CMD --split-input-file FILE`, the way mlir-opt takes many modules; the
  output is split at its `// -----` lines. If that run fails or its output
  does not split into as many modules, each program of the batch is run on
  its own (`CMD FILE`), so one failing program is charged to itself only
  and a tool without `--split-input-file` still works (`--impl-batch 1`
  skips the attempt).

`--jobs J` runs batches in J worker processes (forked, each in a process
group of its own, killed on SIGINT/SIGTERM with what they started);
`--shard I/N` keeps the programs whose running index (over all sizes, in
enumeration order) is I-1 modulo N, so N shards are disjoint and cover the
run. `--results FILE` appends one JSON line per program (`id`, `size`,
`verdict`, `time_s`, and for a program that is not verified its
`signature`, `text` and `detail`), each line with one `os.write`, so a
run ended at any point leaves whole lines; a run with an existing FILE
skips the ids already in it and counts their results in its summary, so an
interrupted run resumes (SIGINT ends a run at once, exit 130). The first
line records the alphabet and the implementation, and a file of another
run is refused.

Memory does not grow with the run: the summary is counters and the
smallest program per bug signature (`Summary.add`), the ids of a resumed
file are bits (`Done`), results go to the file as they come, and the
cyclic collector runs (`_collecting`), which a one-shot command under
`spec.tool.run_tool` does without.

The summary gives programs and verdicts per size with the time spent, and
the refuted programs grouped into distinct bugs by a signature: the kind
of the first violation (`obligations.py`'s kinds, `mismatch`, `ill-formed`)
and the two ops involved, each bug with its smallest program.

Exit codes: 0 every program verified, 1 some refuted (or the
implementation failed or printed something unparsable), 2 usage, 3 some
unknown or inconsistent and none refuted, 4 some only `bounded` (proved up
to the loop bound) and none worse. A `bounded` program is counted under
"other" and is no bug.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import shlex
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from spec.diagnostics import DiagnosticError, render
from spec.invariant import InternalError
from spec.ir import release
from spec.syntax.parser import parse_module
from verifier.harness import reference_impl
from verifier.harness.external import IMPL_TIMEOUT_S, run_impl
from verifier.harness.gate import Failure
from verifier.output.progress import Progress
from verifier.programs.enumeration import ALPHABETS, Alphabet, Program, batched, counts, programs_up_to
from verifier.programs.program_ir import program_ir
from verifier.proof.budget import default_seconds
from verifier.proof.induction import clone
from verifier.proof.pairs import VerifiedPairs
from verifier.proof.shapes import KnownProofs
from verifier.smt.solver import ProvedQueries, Status

if TYPE_CHECKING:
    from spec.ir import Operation
    from verifier.output.report import Report

BATCH = 64
"""Programs per unit of work handed to a worker (in-process)."""
IMPL_BATCH = 100
"""Default `--impl-batch`: programs per run of an external command."""
OTHER = (Failure.IMPL_FAILED, Failure.UNPARSABLE, Status.INCONSISTENT)
SPLIT = "// -----"


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


def signature(report: Report) -> tuple[str, str]:
    """The bug signature of a refuted report and the first violation's
    message: `KIND: FIRST-OP -> SECOND-OP` (plus `cross-thread` when an
    execute or await made the pair)."""
    for fr in report.functions:
        if fr.verdict == "refuted" and fr.violations:
            v = fr.violations[0]
            cross = " (cross-thread)" if v.cross_thread else ""
            return f"{v.kind}: {v.first.op} -> {v.second.op}{cross}", v.message
    return "", ""


def _judge(
    pid: str,
    size: int,
    text: str,
    module_in: Operation,
    module_out: Operation,
    t0: float,
    timeout_ms: int,
    shortcuts: Shortcuts | None = None,
) -> Result:
    import verifier

    # Each program within `python -m verifier check`'s default budget: one
    # that would hold the run for long is `unknown`, not a hang.
    budget_s = default_seconds(module_in)
    if shortcuts is None:
        report = verifier.check(module_in, module_out, timeout_ms=timeout_ms, budget_s=budget_s)
    else:
        report = verifier.check(module_in, module_out, timeout_ms=timeout_ms, budget_s=budget_s, **shortcuts)
    verdict = report.verdict
    sig, msg = signature(report) if verdict == "refuted" else ("", "")
    if verdict in ("unknown", "inconsistent"):
        msg = "; ".join(f"@{fr.name}: {fr.reason}" for fr in report.functions if fr.reason)
    res = Result(pid, size, verdict, time.perf_counter() - t0, sig)
    if verdict != "verified":
        res.text, res.detail = text, msg
    return res


def _failed(p: Program, verdict: Failure, detail: str, t0: float) -> Result:
    return Result(p.id, p.size, verdict, time.perf_counter() - t0, verdict, p.text, detail[:2000])


@dataclass(frozen=True)
class RefimplRunner:
    """The refimpl in `mode`, called in-process (`verifier.harness.reference_impl`).

    Each program's IR is built from its ops (`program_ir`, the IR its text
    parses to, at a tenth of a parse's cost; a program known only by its
    text is parsed) for the check, and copied (`induction.clone`) for the
    refimpl to rewrite. Every check is given the process's tables of what
    earlier checks proved (`Shortcuts`) and decides small guarded queries
    without Z3. `plain` parses twice instead, shares nothing across
    programs and asks Z3 every query: the path the shortcuts are checked
    against."""

    mode: str
    timeout_ms: int
    plain: bool = False

    def run(self, batch: list[Program]) -> list[Result]:
        shortcuts: Shortcuts | None = None
        if not self.plain:
            shortcuts = {
                "proofs": SHARED_PROOFS,
                "path_proofs": SHARED_PATH_PROOFS,
                "shapes": SHARED_SHAPES,
                "verified_pairs": SHARED_PAIRS,
                "assignments": True,
            }
        out: list[Result] = []
        with _collected_after():
            for p in batch:
                out.append(self._one(p, shortcuts))
        return out

    def _one(self, p: Program, shortcuts: Shortcuts | None) -> Result:
        """One program built, rewritten and checked; its IR released."""
        t0 = time.perf_counter()
        module_in, copy = self._modules(p)
        result = reference_impl.rewrite(copy, self.mode)
        if not result.ok:
            return _failed(
                p, Failure.IMPL_FAILED, "".join(render(d, {"<input>": p.text}) for d in result.diagnostics), t0
            )
        judged = _judge(p.id, p.size, p.text, module_in, result.module, t0, self.timeout_ms, shortcuts)
        # A checked program's IR is freed at once, not left to the cyclic collector.
        release(module_in)
        release(result.module)
        return judged

    def _modules(self, p: Program) -> tuple[Operation, Operation]:
        """The program's IR twice: for the check, and for the refimpl to rewrite."""
        if self.plain:
            return parse_module(p.text, "<input>"), parse_module(p.text, "<input>")
        module_in = program_ir(p, "<input>")
        if module_in is None:
            module_in = parse_module(p.text, "<input>")
        return module_in, clone(module_in)[0]

    def label(self) -> str:
        return f"refimpl --mode {self.mode} (in-process)"


FULL_COLLECTION_EVERY = 64
"""Batches between two full collections of `_collected_after` (4,096
programs of `BATCH`): what is older than a batch and became cyclic garbage
(a table entry dropped for a newer one) waits at most that long."""


@contextlib.contextmanager
def _collected_after() -> Iterator[None]:
    """A batch with the cyclic collector held back, and its young
    generations collected once at the batch's end, when every program's IR
    is released. Left to itself the collector ran after nearly every check
    (`check` holds it back within, and its allocations count afterwards),
    walking the IR of the two modules still alive, and their survivors
    pushed it into a full collection every thousand programs or so: about
    a twentieth of a run's CPU. A full collection comes every
    `FULL_COLLECTION_EVERY` batches, so memory stays flat as before. Where
    the collector is off (`run_tool`, and a run's caller that wants it off)
    nothing changes."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        # The count of the oldest generation is the collections of the one
        # below it since the last full collection: one per batch here, so
        # every `FULL_COLLECTION_EVERY`-th batch's is a full one.
        gc.collect(2 if gc.get_count()[2] >= FULL_COLLECTION_EVERY - 1 else 1)


SHARED_PROOFS = ProvedQueries(2_000)
"""The guarded queries this process's exhaustive checks have proved, handed
to every check a `RefimplRunner` runs (not `plain`) as its
`CheckOptions.proofs`; any other check is given none, so its verdict never
depends on what the process checked before. An exhaustive run's programs
come in an order where equal queries are near each other, so a small table
keeps nearly every hit: over the first 26,000 programs of size 4 of
`whole`, 500 keys answer 14,984 queries where 20,000 keys answer 15,221.
About 3 KB a key there, so a few MB: what keeps a run's memory flat (with
20,000 keys it grew by some 90 MB over `whole` to size 4, the table
filling). A cache of Z3's `unsat`
answers: a query found here is one Z3 proved, so an answer it gives is the
one Z3 gives, short of a query Z3 would now give up on (its timeout, the
run's budget), which stays proved. Within one function's check,
straight-line queries are shared either way (`FunctionRun.proved`)."""

SHARED_PATH_PROOFS = ProvedQueries(20_000)
"""The same for the one-path (straight-line) queries (`encode.Query`),
handed to the checks as `CheckOptions.path_proofs`: a small program's
queries are a handful of shapes (over `whole` to size 3, the 10,413 asked
are one: a single edge from the first event to the second), so Z3 is
asked about them once per process."""


SHARED_SHAPES = KnownProofs(2_000)
"""Clean proofs of pairs of graphs by their shape (`verifier.proof.shapes`),
handed to every check a `RefimplRunner` runs (not `plain`) as its
`CheckOptions.shapes`: small programs make the same pairs of graphs over
and over (a launch or a memset, a store or a call, make the same events),
and a pair proved once, its obligations and its cross-checks, is not
proved again."""


SHARED_PAIRS = VerifiedPairs(2_000)
"""Pairs of functions verified by earlier checks, by their IR
(`verifier.proof.pairs`), handed to every check a `RefimplRunner` runs
(not `plain`) as its `CheckOptions.verified_pairs`: the steps and contexts
of loops proved by induction are a few functions, the same for many
programs."""


class Shortcuts(TypedDict):
    """The `CheckOptions` fields a `RefimplRunner` sets on its checks unless
    `plain`: the tables shared across programs and `assignments`."""

    proofs: ProvedQueries
    path_proofs: ProvedQueries
    shapes: KnownProofs
    verified_pairs: VerifiedPairs
    assignments: bool


@dataclass(frozen=True)
class CommandRunner:
    """An external command, batched with `--split-input-file` (see the module docstring)."""

    argv: tuple[str, ...]
    batch: int
    timeout_ms: int
    impl_timeout_s: float = IMPL_TIMEOUT_S

    def _exec(self, args: list[str], text: str) -> tuple[int, str, str]:
        fd, path = tempfile.mkstemp(suffix=".mlir", prefix="exhaustive-")
        try:
            with os.fdopen(fd, "w") as f:
                f.write(text)
            try:
                run = run_impl([*self.argv, *args], path, self.impl_timeout_s)
            except OSError as exc:
                return -1, "", f"cannot run {self.argv[0]}: {exc}"
        finally:
            os.unlink(path)
        if run.stopped:
            return -1, "", run.stopped
        return run.returncode, run.stdout.decode("utf-8", "replace"), run.stderr.decode("utf-8", "replace")

    def run(self, batch: list[Program]) -> list[Result]:
        outs: list[str] | None = None
        t0 = time.perf_counter()
        if len(batch) > 1 and self.batch > 1:
            code, stdout, _ = self._exec(["--split-input-file"], (SPLIT + "\n").join(p.text for p in batch))
            if code == 0:
                chunks = split_output(stdout)
                if len(chunks) == len(batch):
                    outs = chunks
        share = (time.perf_counter() - t0) / len(batch)
        results = []
        for k, p in enumerate(batch):
            t1 = time.perf_counter()
            if outs is not None:
                out = outs[k]
            else:
                code, out, err = self._exec([], p.text)
                if code != 0:
                    results.append(_failed(p, Failure.IMPL_FAILED, f"exit {code}\n{err}", t1))
                    continue
            try:
                module_out = parse_module(out, "<output>", dominance=False)
            except DiagnosticError as exc:
                results.append(
                    _failed(p, Failure.UNPARSABLE, "".join(render(d, {"<output>": out}) for d in exc.diagnostics), t1)
                )
                continue
            res = _judge(p.id, p.size, p.text, parse_module(p.text, "<input>"), module_out, t1, self.timeout_ms)
            res.time_s += share if outs is not None else 0.0
            results.append(res)
        return results

    def label(self) -> str:
        return shlex.join(self.argv)


def split_output(text: str) -> list[str]:
    """The modules of a `--split-input-file` output (separated by `// -----` lines)."""
    cur: list[str]
    chunks, cur = [], []
    for line in text.splitlines(keepends=True):
        if line.rstrip() == SPLIT:
            chunks.append("".join(cur))
            cur = []
        else:
            cur.append(line)
    chunks.append("".join(cur))
    return [c for c in chunks if c.strip()] if len(chunks) > 1 else chunks


Runner = RefimplRunner | CommandRunner

# ---------------------------------------------------------------- selection and workers


def select(
    alphabet: Alphabet, max_size: int, shard: tuple[int, int], done: Container[str], min_size: int = 1
) -> Iterator[Program]:
    """The programs of this shard (running index = I-1 mod N), without those in `done`."""
    i, n = shard
    for k, p in enumerate(programs_up_to(alphabet, max_size, min_size)):
        if k % n == i - 1 and p.id not in done:
            yield p


_WORKER_RUNNER: Runner | None = None
"""In a worker process of `--jobs`: the run's runner, set once by the pool's
initializer (`_worker_init`), so that each batch sends only its programs."""


def _worker_init(runner: Runner) -> None:
    global _WORKER_RUNNER
    # A process group of its own, so that the parent's SIGINT/SIGTERM handler
    # can end it and whatever it started (an --impl command) at once.
    os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _WORKER_RUNNER = runner


def _worker_run(batch: list[Program]) -> list[Result]:
    if _WORKER_RUNNER is None:
        raise InternalError("verifier.harness.exhaustive: expected _WORKER_RUNNER is not None")
    return _WORKER_RUNNER.run(batch)


def run(runner: Runner, work: Iterable[Program], jobs: int, chunk: int) -> Iterator[Result]:
    """Each program's result, in the order batches finish (`jobs` processes;
    1: in this process)."""
    batches = batched(work, chunk)
    if jobs <= 1:
        for b in batches:
            yield from runner.run(b)
        return
    import multiprocessing

    from spec.tool import track_group, untrack_group

    ctx = multiprocessing.get_context("fork")
    pool = ctx.Pool(jobs, initializer=_worker_init, initargs=(runner,))
    pids = [p.pid for p in pool._pool]  # type: ignore[attr-defined]  # Pool's workers are private; their pids are needed to track each process group
    for pid in pids:
        track_group(pid)
    try:
        for results in pool.imap_unordered(_worker_run, batches):
            yield from results
        pool.close()
        pool.join()
    finally:
        pool.terminate()
        for pid in pids:
            untrack_group(pid)


# ---------------------------------------------------------------- results file


def _header(alphabet: Alphabet, runner: Runner) -> dict:
    return {"alphabet": alphabet.name, "impl": runner.label()}


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


# ---------------------------------------------------------------- summary


@dataclass
class Group:
    """Programs of one bug signature (or one declined input): how many, and the smallest."""

    count: int
    smallest: Result


@dataclass
class Summary:
    """Verdicts per size and bugs by signature, made one result at a time:
    a run keeps these counters and one program per signature, whatever its
    length."""

    rows: dict[int, dict[str, float]] = field(default_factory=dict)
    bugs: dict[str, Group] = field(default_factory=dict)
    """Refuted (also inconsistent, unparsable) programs by signature."""
    wall_s: float = 0.0
    verdicts: set[str] = field(default_factory=set)
    failures: dict[str, Group] = field(default_factory=dict)
    """Programs the implementation declined (`impl-failed`), by its first
    diagnostic without the location: inputs it rejects, not orderings lost."""

    def add(self, r: Result) -> None:
        """Count one program's result."""
        self.verdicts.add(r.verdict)
        row = self.rows.get(r.size)
        if row is None:
            row = self.rows[r.size] = {
                "programs": 0,
                "verified": 0,
                "refuted": 0,
                "unknown": 0,
                "other": 0,
                "time_s": 0.0,
            }
        row["programs"] += 1
        row[r.verdict if r.verdict in ("verified", "refuted", "unknown") else "other"] += 1
        row["time_s"] += r.time_s
        if r.verdict == Failure.IMPL_FAILED:
            _count(self.failures, _first_message(r.detail), r)
        elif r.verdict not in ("verified", "unknown", "bounded"):
            _count(self.bugs, r.signature or r.verdict, r)

    @classmethod
    def of(cls, results: Iterable[Result], wall_s: float) -> Summary:
        summary = cls(wall_s=wall_s)
        for r in results:
            summary.add(r)
        return summary

    def sorted_rows(self) -> dict[int, dict[str, float]]:
        return dict(sorted(self.rows.items()))

    def totals(self) -> dict[str, float]:
        tot: dict[str, float] = {}
        for row in self.rows.values():
            for k, v in row.items():
                tot[k] = tot.get(k, 0) + v
        return tot

    def exit_code(self) -> int:
        if self.verdicts & {Status.REFUTED, Failure.IMPL_FAILED, Failure.UNPARSABLE}:
            return 1
        if self.verdicts & {Status.UNKNOWN, Status.INCONSISTENT}:
            return 3
        return 4 if Status.BOUNDED in self.verdicts else 0

    def text(self, title: str) -> str:
        out = [
            title,
            "",
            "| size | programs | verified | refuted | unknown | other | time (s, summed) |",
            "|---|---|---|---|---|---|---|",
        ]
        for n, row in [*self.sorted_rows().items(), ("all", self.totals())]:
            out.append(
                f"| {n} | {int(row.get('programs', 0))} | {int(row.get('verified', 0))} | {int(row.get('refuted', 0))} "
                f"| {int(row.get('unknown', 0))} | {int(row.get('other', 0))} | {row.get('time_s', 0.0):.1f} |"
            )
        out.append(f"\nwall time: {self.wall_s:.1f} s")
        bugs, failures = _smallest_first(self.bugs), _smallest_first(self.failures)
        if bugs:
            out.append(f"\n{len(bugs)} distinct bug(s) (signature: kind of the first violation: ops):")
            for sig, g in bugs.items():
                first = g.smallest
                out.append(
                    f"\n- {sig}: {g.count} program(s); smallest {first.id} (size {first.size}): {first.detail.splitlines()[0] if first.detail else ''}"
                )
                out.append(_body(first.text))
        if failures:
            out.append(f"\n{len(failures)} kind(s) of input the implementation declined (impl-failed):")
            for msg, g in failures.items():
                out.append(f"- {msg}: {g.count} program(s); smallest {g.smallest.id} (size {g.smallest.size})")
        return "\n".join(out) + "\n"

    def to_json(self, header: dict) -> dict:
        return {
            **header,
            "sizes": {str(n): row for n, row in self.sorted_rows().items()},
            "totals": self.totals(),
            "wall_s": round(self.wall_s, 3),
            "bugs": [
                {"signature": sig, "programs": g.count, "smallest": asdict(g.smallest)}
                for sig, g in _smallest_first(self.bugs).items()
            ],
            "failures": [
                {"message": msg, "programs": g.count, "smallest": asdict(g.smallest)}
                for msg, g in _smallest_first(self.failures).items()
            ],
        }


def _count(groups: dict[str, Group], key: str, r: Result) -> None:
    g = groups.get(key)
    if g is None:
        groups[key] = Group(1, r)
    else:
        g.count += 1
        if _order(r) < _order(g.smallest):
            g.smallest = r


def _smallest_first(groups: dict[str, Group]) -> dict[str, Group]:
    return dict(sorted(groups.items(), key=lambda kv: (_order(kv[1].smallest), kv[0])))


def _first_message(detail: str) -> str:
    """An implementation's first error line without its location (`FILE:L:C: error: `)."""
    for line in detail.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    return (detail.splitlines() or ["(no message)"])[0][:200]


def _order(r: Result) -> tuple[int, int]:
    return (r.size, int(r.id.split("-")[1]))


def _body(text: str) -> str:
    """The function of a program's module text, indented for the summary."""
    lines = text.splitlines()
    start = next((k for k, line in enumerate(lines) if line.startswith("  func.func @f")), 0)
    return "\n".join("      " + line[2:] for line in lines[start:-1])


# ---------------------------------------------------------------- command line


def add_parser(sub: argparse._SubParsersAction) -> None:
    """The `exhaustive` subcommand's arguments."""
    from spec.tool import add_subcommand

    # `--help` with a description and an example, and `--version`, as `check` has.
    e = add_subcommand(
        sub,
        "exhaustive",
        "rewrite and check every program up to a size",
        "{prog} --max-size 3 --alphabet tiny --mode mlir19",
        description="Every program of 1..K ops over an alphabet, rewritten by an implementation (the refimpl "
        "in-process, or --impl CMD in batches) and checked; verdicts per size, and the refuted programs grouped "
        "into bugs, each with its smallest program. Exit 0 all verified, 1 some refuted, 2 usage, 3 some unknown, "
        "4 some only bounded.",
    )
    e.add_argument(
        "--max-size", type=int, required=True, metavar="K", help="programs of 1..K ops (nested ones included)"
    )
    e.add_argument("--min-size", type=int, default=1, metavar="K", help="skip programs smaller than this (default 1)")
    e.add_argument(
        "--alphabet", choices=sorted(ALPHABETS), default="full", help="which ops programs are made of (default full)"
    )
    e.add_argument(
        "--impl", metavar="CMD", help="external implementation (input path appended; batched with --split-input-file)"
    )
    e.add_argument(
        "--mode", choices=["reference", "mlir19", "seed"], default="reference", help="refimpl mode without --impl"
    )
    e.add_argument(
        "--impl-batch",
        type=int,
        default=IMPL_BATCH,
        metavar="N",
        help=f"programs per run of --impl (default {IMPL_BATCH}; 1: one run each)",
    )
    e.add_argument("--shard", default="1/1", metavar="I/N", help="run only shard I of N (running index I-1 mod N)")
    e.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (default 1)")
    e.add_argument("--format", choices=["text", "json"], default="text")
    e.add_argument("--results", metavar="FILE", help="JSON lines, one per program; an existing FILE is resumed")
    e.add_argument("--timeout-ms", type=int, default=10_000, help="Z3 timeout per query (default 10000)")
    e.add_argument(
        "--cluster", nargs="?", const="", metavar="ADDRESS",
        help="run the chunks on a Dask cluster (a scheduler's address; none: a local one, a worker per core or --jobs); "
        "needs the `cluster` extra (distributed)",
    )  # fmt: skip
    e.add_argument(
        "--plain", action="store_true",
        help="refimpl: parse each program twice and share no Z3 answer across queries (what the shortcuts are checked against)",
    )  # fmt: skip
    e.add_argument("--count-only", action="store_true", help="print the number of programs per size and stop")


def parse_shard(text: str) -> tuple[int, int]:
    """`I/N` with 1 <= I <= N (ValueError otherwise)."""
    i, _, n = text.partition("/")
    shard = int(i), int(n)
    if not 1 <= shard[0] <= shard[1]:
        raise ValueError
    return shard


def main(args: argparse.Namespace) -> int:  # noqa: C901 - the command's options, each checked in turn
    """Run the `exhaustive` subcommand (see the module docstring)."""
    try:
        shard = parse_shard(args.shard)
    except ValueError:
        sys.stderr.write(f"error: --shard must be I/N with 1 <= I <= N, not {args.shard!r}\n")
        return 2
    if args.max_size < 1 or args.jobs < 1 or args.impl_batch < 1 or args.timeout_ms <= 0:
        sys.stderr.write("error: --max-size, --jobs and --impl-batch must be >= 1, --timeout-ms > 0\n")
        return 2
    alphabet = ALPHABETS[args.alphabet]
    cluster = getattr(args, "cluster", None)
    if cluster is not None:
        from verifier.harness.cluster import available

        if not available():
            sys.stderr.write("error: --cluster needs the `distributed` package (the `cluster` extra)\n")
            return 2
    if args.count_only:
        for n, c in counts(alphabet, args.max_size).items():
            if n >= args.min_size:
                sys.stdout.write(f"size {n}: {c}\n")
        return 0
    runner: Runner
    if args.impl:
        try:
            argv = tuple(shlex.split(args.impl))
        except ValueError as exc:
            sys.stderr.write(f"error: --impl: cannot split the command: {exc}\n")
            return 2
        if not argv:
            sys.stderr.write("error: --impl: empty command\n")
            return 2
        runner = CommandRunner(argv, args.impl_batch, args.timeout_ms)
    else:
        runner = RefimplRunner(args.mode, args.timeout_ms, args.plain)
    header = _header(alphabet, runner)
    results_path = Path(args.results) if args.results else None
    summary = Summary()
    done = Done()
    if results_path is not None:
        # Only this shard's earlier results count; the rest of the file stays as it is.
        mine = _in_shard(alphabet, args.min_size, args.max_size, shard)

        def keep(r: Result) -> None:
            if mine(r):
                summary.add(r)

        try:
            load_results(results_path, header, done, keep)
        except (ValueError, OSError) as exc:
            sys.stderr.write(f"error: --results: {exc}\n")
            return 2
    t0 = time.perf_counter()
    prog = Progress(label="exhaustive").start()
    total = None
    if prog.enabled:
        prog.phase("count programs")
        total = sum(c for n, c in counts(alphabet, args.max_size).items() if n >= args.min_size)
        prog.phase("check programs", runner.label())
    chunk = args.impl_batch if args.impl else BATCH
    if args.jobs > 1:
        # Small runs still spread over every worker.
        size = sum(c for n, c in counts(alphabet, args.max_size).items() if n >= args.min_size) // shard[1]
        chunk = max(1, min(chunk, size // (args.jobs * 4)))
    out = ResultsFile(results_path, header) if results_path is not None else None
    resumed = int(summary.totals().get("programs", 0))
    bad = resumed - int(summary.totals().get("verified", 0))
    with _collecting():
        try:
            results: Iterable[Result]
            work = select(alphabet, args.max_size, shard, done, args.min_size)
            if cluster is not None:
                from verifier.harness.cluster import run_on_cluster

                results = run_on_cluster(runner, work, cluster or None, args.jobs if args.jobs > 1 else None)
            else:
                results = run(runner, work, args.jobs, chunk)
            for r in results:
                summary.add(r)
                if out is not None:
                    out.write(asdict(r))
                if total is not None:
                    bad += r.verdict != "verified"
                    n = int(summary.totals()["programs"])
                    rate = (n - resumed) / max(time.perf_counter() - t0, 1e-9)
                    prog.count(n, total // shard[1], f"programs, {bad} not verified, {rate:.0f}/s")
        finally:
            if out is not None:
                out.close()
            prog.finish()
    summary.wall_s = time.perf_counter() - t0
    title = f"{runner.label()} on every program of 1..{args.max_size} ops, {alphabet.describe()}, shard {shard[0]}/{shard[1]}"
    if args.format == "json":
        sys.stdout.write(
            json.dumps(summary.to_json({**header, "max_size": args.max_size, "shard": list(shard)}), indent=2) + "\n"
        )
    else:
        sys.stdout.write(summary.text(title))
    return summary.exit_code()


def _in_shard(alphabet: Alphabet, min_size: int, max_size: int, shard: tuple[int, int]) -> Callable[[Result], bool]:
    """Whether a result is of a program `select` yields for this shard and
    these sizes (its running index from the counts of the sizes before its
    own, counted only with more than one shard)."""
    i, n = shard
    offsets: dict[int, int] = {}
    if n > 1:
        start = 0
        for size, c in counts(alphabet, max_size).items():
            if size >= min_size:
                offsets[size] = start
                start += c

    def mine(r: Result) -> bool:
        if not min_size <= r.size <= max_size:
            return False
        return n == 1 or (offsets[r.size] + _id_key(r.id)[1]) % n == i - 1

    return mine


@contextlib.contextmanager
def _collecting() -> Iterator[None]:
    """The cyclic collector on for the run, with what is alive before it
    (imports, grammars) frozen out of its scans. `run_tool` turns the
    collector off for a one-shot command; here every program's IR is
    cyclic garbage, and without it the run keeps all of them (25 KB a
    program over `whole`)."""
    was = gc.isenabled()
    gc.collect()
    gc.freeze()
    gc.enable()
    try:
        yield
    finally:
        if not was:
            gc.disable()
