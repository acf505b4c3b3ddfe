"""The semantic judge against the verifier, over many generated pairs.

    python bench/judge.py --pairs 10000 [--seed S] [--without OPTION ...]
                          [--sources identity,refimpl,...] [--bound B] [--steps N]
                          [--examples K] [--show-undecided K] [--time-budget S]
                          [--pair-seconds S] [--jobs J] [--cluster [ADDRESS]]

Draws `--pairs` (program, rewrite) pairs with `verifier.harness.judge_pairs.pairs`
(a seeded Hypothesis run, so the same seed draws the same pairs), checks each
with `verifier.check` and judges it with `spec.semantics.judge`, and prints
the table verifier verdict x semantic judgement, then each disagreement
group's smallest example (input, output, verifier verdict, semantic
violation). Groups: `verified` but `wrong` (UNSOUND: the requirement is zero),
then `refuted` but `ok` (allowed, counted), keyed by the rewrite's edits
and the first violation's kind.

`--jobs J` judges the pairs in J forked processes, `--cluster` on a Dask
cluster (a scheduler's address, or none for a local cluster of a worker
per core or `--jobs`; the `cluster` extra), in chunks, as `exhaustive
--cluster` runs programs: the pairs are drawn here in the serial run's
order and the rows merged back in that order, so the report is the serial
run's but for its timings (`tests/verifier/test_judge_engine.py`), and a
run of 100,000 pairs keeps counters and a few example rows, not every row:

    python bench/judge.py --pairs 100000 --seed 1 --cluster tcp://SCHEDULER:8786
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import ctypes
import queue
import re
import signal
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hypothesis import HealthCheck, Phase, given, seed, settings

from verifier.harness.gate import Failure
from verifier.harness.judge_pairs import SOURCES, Pair, Row, evaluate, pairs
from verifier.programs.boundary_programs import ALL, OPTION_NAMES, Options

PAIR_SECONDS = 20
"""A pair judged longer than this is counted as `timeout` (neither answer)."""


class _Slow(Exception):
    pass


class _Quit(Exception):
    """The reader of the drawn pairs stopped: Hypothesis stops drawing."""


_armed = [False]
"""Whether a pair is being judged: the timer may fire once more after the
pair ended (it re-fires every second), and must then do nothing."""


def _alarm(signum: int, frame: object) -> None:
    if _armed[0]:
        raise _Slow


def _group(row: Row) -> str:
    kinds = sorted({v.kind for v in row.semantic.violations}) if row.semantic else []
    edits = "+".join(n for n, _ in row.pair.edits) or "no edit"
    return f"{row.pair.source} / {edits} / {','.join(kinds) or row.judgement}"


def judge_one(pair: Pair, bound: int | None, steps: int | None, seconds: float = PAIR_SECONDS) -> tuple[Row, float]:
    """One pair judged, as a row, with the CPU seconds it took; over
    `seconds` (wall clock) it is a `timeout` row, and an exception a `crash` row."""
    started = time.process_time()
    try:
        with _deadline(seconds):
            row = evaluate(pair, bound, steps)
    except _Slow:
        row = Row(pair, Failure.TIMEOUT, "-", detail=f"over {seconds:g} s")
    except Exception as exc:
        row = Row(pair, "crash", "-", detail=f"{type(exc).__name__}: {exc}\n{traceback.format_exc()[-1500:]}")
    return row, time.process_time() - started


def judge_chunk(
    chunk: list[Pair], bound: int | None, steps: int | None, seconds: float = PAIR_SECONDS
) -> list[tuple[Row, float]]:
    """On a worker (`--jobs`, `--cluster`): `judge_one` of each pair of a chunk, in order."""
    return [judge_one(pair, bound, steps, seconds) for pair in chunk]


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """`_Slow` raised in this thread once `seconds` have passed (and every
    second after, until the block ends: one that lands in a gc callback is
    swallowed there, the next is not). In the main thread a timer signal
    does it; in another one (a Dask worker runs its tasks in a thread of its
    own) a timer thread raises it there (`PyThreadState_SetAsyncExc`), at
    the same points of the Python code a signal handler would run."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
        _armed[0] = True
        try:
            yield
        finally:
            _armed[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
        return
    me = threading.get_ident()
    done = threading.Event()

    def fire() -> None:
        wait = seconds
        while not done.wait(wait):
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(me), ctypes.py_object(_Slow))
            wait = 1.0

    timer = threading.Thread(target=fire, daemon=True)
    timer.start()
    try:
        yield
    finally:
        done.set()
        timer.join()
        # An exception sent just before the timer stopped and not yet raised is dropped.
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(me), None)


class Tallies:
    """What the report shows, made one row at a time in the order the pairs
    were drawn (whatever ran them): the table, the reasons, the CPU times
    and the disagreement groups with their smallest examples, so a run of
    100,000 pairs keeps counters and a few rows, not every row."""

    def __init__(self, examples: int, show_undecided: int) -> None:
        self.examples, self.show_undecided = examples, show_undecided
        self.n = 0
        self.table: Counter[tuple[object, str]] = Counter()
        self.undecided: Counter[str] = Counter()
        self.undecided_rows: dict[str, list[Row]] = {}
        self.unknown: Counter[str] = Counter()
        self.cpu: list[tuple[float, int]] = []
        self.slowest: tuple[float, int, str] | None = None
        self.unsound = self.strict = self.crashed = 0
        self.crashes: list[Row] = []
        self.groups: dict[str, dict[str, list[Row]]] = {"UNSOUND": {}, "refuted-but-ok": {}}
        self.group_counts: Counter[tuple[str, str]] = Counter()

    def add(self, r: Row, cpu: float, t0: float) -> None:
        """One more row (the `n`-th drawn) and its CPU seconds."""
        index = self.n
        self.n += 1
        self.table[(r.verdict, r.judgement)] += 1
        self.cpu.append((cpu, index))
        if self.slowest is None or (cpu, index) >= self.slowest[:2]:
            self.slowest = (cpu, index, r.pair.describe())
        if r.semantic and r.judgement == "undecided":
            why = _reason(r)
            self.undecided[why] += 1
            if self.show_undecided:
                _keep_smallest(self.undecided_rows.setdefault(why, []), r, self.show_undecided, _input_size)
        if r.verdict not in ("verified", "refuted"):
            self.unknown[f"{r.verdict}: " + (re.sub(r"\(.*|\d+", "N", r.why)[:120] or "no reason given")] += 1
        if r.verdict == "crash":
            self.crashed += 1
            if len(self.crashes) < self.examples:
                self.crashes.append(r)
        for title, hit, keep in (
            ("UNSOUND", r.unsound, self.examples),
            ("refuted-but-ok", r.verdict == "refuted" and r.judgement == "ok", 1),
        ):
            if hit:
                self.unsound += title == "UNSOUND"
                self.strict += title != "UNSOUND"
                key = _group(r)
                self.group_counts[(title, key)] += 1
                _keep_smallest(self.groups[title].setdefault(key, []), r, keep, _pair_size)
        if r.unsound or r.verdict in ("inconsistent", "crash"):
            # At once, so a long run that is stopped still shows what it found.
            print(
                f"{'UNSOUND' if r.unsound else r.verdict.upper()} at pair {self.n}: {r.pair.describe()}\n---- input:\n{r.pair.input_text}\n---- output:\n{r.output}\n---- {r.detail[:1500]}",
                file=sys.stderr,
                flush=True,
            )
        if self.n % 100 == 0:
            # The running table, so a run that is stopped still has its figures.
            table = ", ".join(
                f"{v}/{j} {n}" for (v, j), n in sorted(self.table.items(), key=lambda kv: (str(kv[0][0]), kv[0][1]))
            )
            print(f"... {self.n} pairs, {time.time() - t0:.0f} s, unsound {self.unsound}: {table}", file=sys.stderr)


def _reason(r: Row) -> str:
    return re.sub(r"\(.*", "", re.sub(r"\d+", "N", r.semantic.reason if r.semantic else "")).strip()


def _input_size(r: Row) -> int:
    return len(r.pair.input_text)


def _pair_size(r: Row) -> int:
    return len(r.pair.input_text) + len(r.output)


def _keep_smallest(rows: list[Row], r: Row, k: int, size: Callable[[Row], int]) -> None:
    """`rows` as the `k` smallest rows so far, a tie kept in the order drawn
    (what a stable sort of every row, cut to `k`, gives)."""
    rows.append(r)
    rows.sort(key=size)
    del rows[k:]


def judged(
    drawn: Iterable[Pair], bound: int | None, steps: int | None, jobs: int, cluster: str | None,
    seconds: float = PAIR_SECONDS,
) -> Iterator[tuple[Row, float]]:  # fmt: skip
    """`judge_one` of each pair, in the order drawn: here (one job, no
    cluster), in `jobs` forked processes, or on a Dask cluster (`cluster`:
    a scheduler's address, "" for a local one). Pairs go out in chunks of
    `CHUNK`, at most `WINDOW` chunks per worker in flight, so pairs are
    drawn only as far ahead as the workers are."""
    if jobs <= 1 and cluster is None:
        for pair in drawn:
            yield judge_one(pair, bound, steps, seconds)
        return
    chunks = _chunks(drawn, CHUNK)
    with contextlib.ExitStack() as stack:
        if cluster is not None:
            from verifier.harness.cluster import connect

            client, workers = connect(stack, cluster or None, jobs if jobs > 1 else None)

            def submit(chunk: list[Pair]) -> Callable[[], list[tuple[Row, float]]]:
                fut = client.submit(judge_chunk, chunk, bound, steps, seconds, pure=False)
                return fut.result
        else:
            import multiprocessing

            pool = stack.enter_context(multiprocessing.get_context("fork").Pool(jobs))
            workers = jobs

            def submit(chunk: list[Pair]) -> Callable[[], list[tuple[Row, float]]]:
                return pool.apply_async(judge_chunk, (chunk, bound, steps, seconds)).get

        pending: collections.deque[Callable[[], list[tuple[Row, float]]]] = collections.deque()
        for chunk in chunks:
            pending.append(submit(chunk))
            while len(pending) >= WINDOW * workers:
                yield from pending.popleft()()
        while pending:
            yield from pending.popleft()()


CHUNK = 8
"""Pairs per task handed to a worker: each takes tens of milliseconds to seconds."""
WINDOW = 4
"""Chunks in flight per worker."""


def _chunks(items: Iterable[Pair], size: int) -> Iterator[list[Pair]]:
    chunk: list[Pair] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def drawn_pairs(
    count: int, at_seed: int, options: Options, sources: list[str], stop: Callable[[], bool]
) -> Iterator[Pair]:
    """The `count` pairs Hypothesis draws for `at_seed`, in order, as a
    stream: Hypothesis runs in a thread of its own and hands each pair over
    when it is asked for the next (the pairs drawn do not depend on what is
    done with them, so a run that judges them elsewhere judges the same
    pairs). `stop()` ends the stream early (`--time-budget`)."""
    handoff: queue.Queue[Pair | None] = queue.Queue(maxsize=1)
    quit_ = threading.Event()

    # A reader that stops early (`stop()`, Ctrl-C) makes the next draw
    # raise `_Quit`: without shrinking, and stopping at its first failure,
    # Hypothesis then ends at once instead of drawing the rest of `count`.
    # Neither setting changes which pairs are drawn before that.
    @seed(at_seed)
    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[p for p in Phase if p not in (Phase.shrink, Phase.explain)],
        report_multiple_bugs=False,
    )
    @given(pairs(options, sources=sources))
    def one(pair: Pair) -> None:
        while not quit_.is_set():
            try:
                handoff.put(pair, timeout=0.1)
                return
            except queue.Full:
                continue
        raise _Quit

    def draw() -> None:
        try:
            one()
        except _Quit:
            pass
        finally:
            # The end of the stream, unless the reader has gone (a blocking
            # put would then wait for ever on a full queue).
            while not quit_.is_set():
                try:
                    handoff.put(None, timeout=0.1)
                    break
                except queue.Full:
                    continue

    thread = threading.Thread(target=draw, daemon=True)
    thread.start()
    try:
        while not stop():
            pair = handoff.get()
            if pair is None:
                break
            yield pair
    finally:
        quit_.set()
        with contextlib.suppress(queue.Empty):
            handoff.get_nowait()
        thread.join()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pairs", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--without", nargs="*", default=[], choices=OPTION_NAMES, help="program options switched off")
    p.add_argument("--sources", default=",".join(SOURCES))
    p.add_argument("--bound", type=int, default=None, help="schedules per exploration")
    p.add_argument(
        "--steps",
        type=int,
        default=None,
        help="machine steps per judgement (default: spec.semantics.judge.STEP_BUDGET)",
    )
    p.add_argument("--examples", type=int, default=3, help="examples printed per disagreement group")
    p.add_argument("--show-undecided", type=int, default=0, help="inputs printed per undecided reason")
    p.add_argument(
        "--time-budget", type=float, default=None, help="seconds; then stop judging (the table covers the pairs judged)"
    )
    p.add_argument(
        "--pair-seconds", type=float, default=PAIR_SECONDS,
        help=f"wall-clock seconds a pair may take before it counts as `timeout` (default {PAIR_SECONDS})",
    )  # fmt: skip
    p.add_argument("--jobs", type=int, default=1, help="worker processes judging pairs (default 1: this one)")
    p.add_argument(
        "--cluster", nargs="?", const="", metavar="ADDRESS",
        help="judge on a Dask cluster (a scheduler's address; none: a local one, a worker per core or --jobs)",
    )  # fmt: skip
    args = p.parse_args(argv)
    if args.jobs < 1:
        p.error("--jobs must be >= 1")
    if args.cluster is not None:
        from verifier.harness.cluster import available

        if not available():
            p.error("--cluster needs the `distributed` package (the `cluster` extra)")
    options = ALL.without(*args.without)
    t0 = time.time()
    tallies = Tallies(args.examples, args.show_undecided)

    def spent() -> bool:
        return args.time_budget is not None and time.time() - t0 > args.time_budget

    stream = drawn_pairs(args.pairs, args.seed, options, args.sources.split(","), spent)
    interrupted = False
    try:
        for row, cpu in judged(stream, args.bound, args.steps, args.jobs, args.cluster, args.pair_seconds):
            tallies.add(row, cpu, t0)
    except KeyboardInterrupt:
        # Ctrl-C: the report of the pairs judged so far.
        interrupted = True
        print("interrupted: the report covers the pairs judged so far\n")
    table = tallies.table
    verdicts = sorted({v for v, _ in table}, key=str)
    judgements = ["ok", "wrong", "undecided", "-"]
    print(
        f"{tallies.n} pairs in {time.time() - t0:.0f} s (seed {args.seed}; options without {args.without or 'nothing'})\n"
    )
    print("| verifier \\ semantics | " + " | ".join(judgements) + " |")
    print("|---|" + "---|" * len(judgements))
    for v in verdicts:
        print(f"| {v} | " + " | ".join(str(table.get((v, j), 0)) for j in judgements) + " |")
    why = tallies.undecided
    if why:
        print("\nundecided, by reason: " + "; ".join(f"{n} {k}" for k, n in why.most_common()))
    if tallies.unknown:
        print(
            "\nverifier not verified/refuted, by reason: "
            + "; ".join(f"{n} x {k}" for k, n in tallies.unknown.most_common())
        )
    for k in why if args.show_undecided else ():
        for r in tallies.undecided_rows.get(k, []):
            print(
                f"---- undecided ({r.semantic.reason if r.semantic else ''}): {r.pair.describe()}\n{_body(r.pair.input_text)}"
            )
    cpu = sorted(tallies.cpu)
    if cpu and tallies.slowest is not None:
        print(
            f"\nCPU seconds per pair: median {cpu[len(cpu) // 2][0]:.2f}, 99th percentile {cpu[len(cpu) * 99 // 100][0]:.2f}, max {cpu[-1][0]:.2f} ({tallies.slowest[2]})"
        )
    print(f"\nverified but semantically wrong (UNSOUND): {tallies.unsound}")
    print(f"refuted but semantically ok (allowed): {tallies.strict}")
    print(f"crashed (the verifier or the judge raised): {tallies.crashed}")
    for r in tallies.crashes:
        print(f"---- crash: {r.pair.describe()}\n{_body(r.pair.input_text)}\n---- {r.detail}")
    for title, groups in tallies.groups.items():
        for key, rs in sorted(groups.items(), key=lambda kv: -tallies.group_counts[(title, kv[0])]):
            print(f"\n==== {title}: {key} ({tallies.group_counts[(title, key)]} pairs) ====")
            for r in rs:
                print(f"---- pair: {r.pair.describe()}; verifier: {r.verdict}")
                print("---- input:\n" + _body(r.pair.input_text))
                print("---- output:\n" + _body(r.output))
                print("---- " + r.detail[:1500])
    if interrupted:
        return 130
    return 1 if tallies.unsound or tallies.crashed else 0


def _body(text: str) -> str:
    """The module without the fixed header (kernels and declarations)."""
    lines = text.splitlines()
    keep = [
        ln for ln in lines if not ln.lstrip().startswith(("gpu.module", "gpu.func", "gpu.return", "func.func private"))
    ]
    out, skip = [], 0
    for ln in keep:
        if ln.strip() == "}" and skip < 2 and out and out[-1].strip().startswith("module"):
            skip += 1
            continue
        out.append(ln)
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
