"""The runners of an exhaustive run: a batch of programs rewritten by an
implementation and each rewrite checked, in this process.

A runner's `run` takes a batch of `Program`s and gives one `Result` each
(`verifier.harness.exhaustive_results`); the command
(`verifier.harness.exhaustive`) hands it batches in its own process, in
`--jobs` forked workers, or on a Dask cluster (`verifier.harness.cluster`),
where the runner goes pickled: a frozen dataclass, by its qualified name.

- `RefimplRunner`: the refimpl in a mode (`verifier.harness.reference_impl`),
  each check given the tables of what this process's earlier checks
  proved (`SHARED_PROOFS`, `SHARED_PATH_PROOFS`, `SHARED_SHAPES`,
  `SHARED_PAIRS`, with `assignments`: `Shortcuts`), one set per process,
  and the cyclic collector run once per batch (`_collected_after`);
- `CommandRunner`: an external command, a batch joined into one
  `--split-input-file` run and its output split (`split_output`), each
  program run on its own when that fails.

Both judge a rewrite the same way (`_judge`: `verifier.check` within the
default budget, and a refuted report's bug signature, `signature`).
"""

from __future__ import annotations

import contextlib
import gc
import os
import shlex
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from spec.diagnostics import DiagnosticError, render
from spec.ir import release
from spec.syntax.parser import parse_module
from verifier.harness import reference_impl
from verifier.harness.exhaustive_results import Result
from verifier.harness.external import IMPL_TIMEOUT_S, run_impl
from verifier.harness.gate import Failure
from verifier.programs.enumeration import Program
from verifier.programs.program_ir import program_ir
from verifier.proof.budget import default_seconds
from verifier.proof.induction import clone
from verifier.proof.pairs import VerifiedPairs
from verifier.proof.shapes import KnownProofs
from verifier.smt.solver import ProvedQueries

if TYPE_CHECKING:
    from spec.ir import Operation
    from verifier.output.report import Report

SPLIT = "// -----"


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
programs of `exhaustive.BATCH`): what is older than a batch and became cyclic garbage
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
    """An external command, batched with `--split-input-file` (see `verifier.harness.exhaustive`)."""

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
