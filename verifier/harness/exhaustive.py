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
import time
from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import asdict
from pathlib import Path

from spec.invariant import InternalError
from verifier.harness.exhaustive_results import Done, Result, ResultsFile, _id_key, load_results
from verifier.harness.exhaustive_runners import CommandRunner, RefimplRunner, Runner
from verifier.harness.exhaustive_summary import Summary
from verifier.output.progress import Progress
from verifier.programs.enumeration import ALPHABETS, Alphabet, Program, batched, counts, programs_up_to

BATCH = 64
"""Programs per unit of work handed to a worker (in-process)."""
IMPL_BATCH = 100
"""Default `--impl-batch`: programs per run of an external command."""


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
