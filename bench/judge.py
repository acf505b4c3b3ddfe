"""The semantic judge against the verifier, over many generated pairs.

    python bench/judge.py --pairs 10000 [--seed S] [--without OPTION ...]
                          [--sources identity,refimpl,...] [--bound B] [--steps N]
                          [--examples K] [--show-undecided K] [--time-budget S]

Draws `--pairs` (program, rewrite) pairs with `verifier.harness.judge_pairs.pairs`
(a seeded Hypothesis run, so the same seed draws the same pairs), checks each
with `verifier.check` and judges it with `spec.semantics.judge`, and prints
the table verifier verdict x semantic judgement, then each disagreement
group's smallest example (input, output, verifier verdict, semantic
violation). Groups: `verified` but `wrong` (UNSOUND: the requirement is zero),
then `refuted` but `ok` (allowed, counted), keyed by the rewrite's edits
and the first violation's kind.
"""

from __future__ import annotations

import argparse
import re
import signal
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hypothesis import HealthCheck, given, seed, settings

from verifier.harness.gate import Failure
from verifier.harness.judge_pairs import SOURCES, Row, evaluate, pairs
from verifier.programs.boundary_programs import ALL, OPTION_NAMES

PAIR_SECONDS = 20
"""A pair judged longer than this is counted as `timeout` (neither answer)."""


class _Slow(Exception):
    pass


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
    args = p.parse_args(argv)
    options = ALL.without(*args.without)
    signal.signal(signal.SIGALRM, _alarm)
    rows: list[Row] = []
    cpu: list[tuple[float, int]] = []
    t0 = time.time()

    @seed(args.seed)
    @settings(max_examples=args.pairs, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(pairs(options, sources=args.sources.split(",")))
    def one(pair) -> None:  # type: ignore[no-untyped-def]
        if args.time_budget is not None and time.time() - t0 > args.time_budget:
            return
        # The timer re-fires every second after the first: an alarm that lands
        # in a gc callback is swallowed there (unraisable), the next is not.
        signal.setitimer(signal.ITIMER_REAL, PAIR_SECONDS, 1.0)
        started = time.process_time()
        _armed[0] = True
        try:
            rows.append(evaluate(pair, args.bound, args.steps))
        except _Slow:
            _armed[0] = False
            rows.append(Row(pair, Failure.TIMEOUT, "-", detail=f"over {PAIR_SECONDS} s"))
        except Exception as exc:
            _armed[0] = False
            rows.append(
                Row(pair, "crash", "-", detail=f"{type(exc).__name__}: {exc}\n{traceback.format_exc()[-1500:]}")
            )
        finally:
            _armed[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
        cpu.append((time.process_time() - started, len(rows) - 1))
        if rows[-1].unsound or rows[-1].verdict in ("inconsistent", "crash"):
            # At once, so a long run that is stopped still shows what it found.
            r = rows[-1]
            print(
                f"{'UNSOUND' if r.unsound else r.verdict.upper()} at pair {len(rows)}: {r.pair.describe()}\n---- input:\n{r.pair.input_text}\n---- output:\n{r.output}\n---- {r.detail[:1500]}",
                file=sys.stderr,
                flush=True,
            )
        if len(rows) % 100 == 0:
            # The running table, so a run that is stopped still has its figures.
            so_far = Counter((r.verdict, r.judgement) for r in rows)
            table = ", ".join(
                f"{v}/{j} {n}" for (v, j), n in sorted(so_far.items(), key=lambda kv: (str(kv[0][0]), kv[0][1]))
            )
            print(
                f"... {len(rows)} pairs, {time.time() - t0:.0f} s, unsound {sum(r.unsound for r in rows)}: {table}",
                file=sys.stderr,
            )

    one()
    table = Counter((r.verdict, r.judgement) for r in rows)
    verdicts = sorted({v for v, _ in table}, key=str)
    judgements = ["ok", "wrong", "undecided", "-"]
    print(
        f"{len(rows)} pairs in {time.time() - t0:.0f} s (seed {args.seed}; options without {args.without or 'nothing'})\n"
    )
    print("| verifier \\ semantics | " + " | ".join(judgements) + " |")
    print("|---|" + "---|" * len(judgements))
    for v in verdicts:
        print(f"| {v} | " + " | ".join(str(table.get((v, j), 0)) for j in judgements) + " |")

    def reason(r: Row) -> str:
        return re.sub(r"\(.*", "", re.sub(r"\d+", "N", r.semantic.reason if r.semantic else "")).strip()

    undecided = [r for r in rows if r.semantic and r.judgement == "undecided"]
    why = Counter(reason(r) for r in undecided)
    if why:
        print("\nundecided, by reason: " + "; ".join(f"{n} {k}" for k, n in why.most_common()))
    unknown = Counter(
        f"{r.verdict}: " + (re.sub(r"\(.*|\d+", "N", r.why)[:120] or "no reason given")
        for r in rows
        if r.verdict not in ("verified", "refuted")
    )
    if unknown:
        print(
            "\nverifier not verified/refuted, by reason: " + "; ".join(f"{n} x {k}" for k, n in unknown.most_common())
        )
    for k in why if args.show_undecided else ():
        for r in sorted((r for r in undecided if reason(r) == k), key=lambda r: len(r.pair.input_text))[
            : args.show_undecided
        ]:
            print(
                f"---- undecided ({r.semantic.reason if r.semantic else ''}): {r.pair.describe()}\n{_body(r.pair.input_text)}"
            )
    cpu.sort()
    if cpu:
        print(
            f"\nCPU seconds per pair: median {cpu[len(cpu) // 2][0]:.2f}, 99th percentile {cpu[len(cpu) * 99 // 100][0]:.2f}, max {cpu[-1][0]:.2f} ({rows[cpu[-1][1]].pair.describe()})"
        )
    unsound = [r for r in rows if r.unsound]
    strict = [r for r in rows if r.verdict == "refuted" and r.judgement == "ok"]
    print(f"\nverified but semantically wrong (UNSOUND): {len(unsound)}")
    print(f"refuted but semantically ok (allowed): {len(strict)}")
    crashed = [r for r in rows if r.verdict == "crash"]
    print(f"crashed (the verifier or the judge raised): {len(crashed)}")
    for r in crashed[: args.examples]:
        print(f"---- crash: {r.pair.describe()}\n{_body(r.pair.input_text)}\n---- {r.detail}")
    for title, group in (("UNSOUND", unsound), ("refuted-but-ok", strict)):
        by: dict[str, list[Row]] = {}
        for r in group:
            by.setdefault(_group(r), []).append(r)
        for key, rs in sorted(by.items(), key=lambda kv: -len(kv[1])):
            rs.sort(key=lambda r: len(r.pair.input_text) + len(r.output))
            print(f"\n==== {title}: {key} ({len(rs)} pairs) ====")
            for r in rs[: args.examples if title == "UNSOUND" else 1]:
                print(f"---- pair: {r.pair.describe()}; verifier: {r.verdict}")
                print("---- input:\n" + _body(r.pair.input_text))
                print("---- output:\n" + _body(r.output))
                print("---- " + r.detail[:1500])
    return 1 if unsound or crashed else 0


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
