"""The table of claims of docs/exhaustive.md: every small program, per implementation.

Runs `python -m verifier exhaustive` for each implementation over each
alphabet up to its size (`--plan`, default `PLAN`), with `--jobs` and a
results file per run under `--dir` (so an interrupted run resumes), counts
each run's verdicts from its results file, and prints a markdown table:
one row per alphabet, sizes and implementation, its verdict counts, and the
command that reproduces it; then the distinct bugs with their smallest
programs. `--write FILE` also puts the table into FILE between the lines
`<!-- claims:begin -->` and `<!-- claims:end -->`, stamped with the
command, the date, the machine and the commit.

    python bench/exhaustive_table.py [--jobs 2] [--dir DIR] [--plan ALPHABET:K[:LABEL],...] [--only LABEL]
                                     [--write docs/exhaustive.md]

Implementations: the refimpl (`--mode reference`, `mlir19`, `seed`), and
`mlir-opt-19`, `mlir-opt-22` and `iree-opt` with `-gpu-async-region`,
each where installed (a missing tool is left out and named; `iree-opt`,
built without the `async` dialect, only on the alphabets without `async`
ops).
"""

from __future__ import annotations

import argparse
import datetime
import json
import shlex
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(ROOT))

from bench_exhaustive import commit, machine  # noqa: E402 - a sibling script, found through the path above

from verifier.programs.enumeration import ALPHABETS  # noqa: E402 - the repository root is on the path (above)

PLAN: list[tuple[str, int, str]] = [
    ("tiny", 4, ""),
    ("straight", 2, ""),
    ("async", 3, ""),
    ("control", 3, ""),
    ("values", 3, ""),
    ("full", 2, ""),
    ("whole", 3, ""),
    ("whole", 4, "refimpl"),
    ("core", 2, ""),
    ("gate", 4, ""),
]
"""(alphabet, largest size, the implementations whose label contains this,
"" for all): every implementation in about half an hour on 2 cores, most of
it `whole` to size 4 (596,261 programs) for the refimpl's three modes, a
few minutes each in-process. The external tools over `whole` to size 4 take
most of an hour each: `--plan whole:4:mlir-opt`."""

IMPLS = [
    ("refimpl reference", ["--mode", "reference"]),
    ("refimpl mlir19", ["--mode", "mlir19"]),
    ("refimpl seed", ["--mode", "seed"]),
    ("mlir-opt-19", ["--impl", "mlir-opt-19 -gpu-async-region"]),
    ("mlir-opt-22", ["--impl", "mlir-opt-22 -gpu-async-region"]),
    ("iree-opt", ["--impl", "iree-opt --gpu-async-region"]),
]
WITHOUT_ASYNC = {"iree-opt"}
"""Tools built without the `async` dialect: they decline every program
with an `async` op (one run per program, after the batch fails), so they
run only on the alphabets without one."""
VERDICTS = ["verified", "bounded", "refuted", "unknown", "inconsistent", "impl-failed", "unparsable"]
BEGIN, END = "<!-- claims:begin -->", "<!-- claims:end -->"


def counts(results: Path) -> Counter[str]:
    """Verdicts of a results file, each program once (a resumed run's file may repeat none)."""
    seen: dict[str, str] = {}
    for line in results.read_text().splitlines():
        rec = json.loads(line)
        if "id" in rec:
            seen.setdefault(rec["id"], rec["verdict"])
    return Counter(seen.values())


def _planned(entry: str) -> tuple[str, int, str]:
    """`ALPHABET:K[:LABEL]` of `--plan` as a `PLAN` entry."""
    alphabet, k, *only = entry.split(":", 2)
    return alphabet, int(k), only[0] if only else ""


def _cell(n: int) -> str:
    return f"{n:,}" if n else "0"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--dir", default=str(ROOT / "bench" / "exhaustive-results"))
    ap.add_argument("--only", help="run only the implementations whose label contains this")
    ap.add_argument(
        "--plan",
        help="ALPHABET:K[:LABEL],... instead of the default plan (LABEL: only the implementations whose label contains it)",
    )
    ap.add_argument("--write", metavar="FILE", help="put the table into FILE between the claims markers")
    args = ap.parse_args()
    out_dir = Path(args.dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    plan = [_planned(x) for x in args.plan.split(",")] if args.plan else PLAN
    started = datetime.datetime.now(datetime.UTC)
    rows, bugs, missing = [], [], []
    for alphabet, k, only in plan:
        for label, flags in IMPLS:
            if args.only and args.only not in label or only not in label:
                continue
            if "--impl" in flags and shutil.which(flags[1].split()[0]) is None:
                missing.append(label)
                continue
            if label in WITHOUT_ASYNC and ALPHABETS[alphabet].execute:
                continue
            results = out_dir / f"{label.replace(' ', '-')}-{alphabet}-{k}.jsonl"
            claim = ["gpu-async-verify", "exhaustive", "--alphabet", alphabet, "--max-size", str(k), *flags]
            cmd = [sys.executable, "-m", "verifier", "exhaustive", "--alphabet", alphabet, "--max-size", str(k),
                   "--jobs", str(args.jobs), "--results", str(results), "--format", "json", *flags]  # fmt: skip
            t0 = time.perf_counter()
            proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False)
            wall = time.perf_counter() - t0
            if proc.returncode not in (0, 1, 3, 4):
                print(proc.stderr, file=sys.stderr)
                return 2
            tally = counts(results)
            rows.append((alphabet, k, label, tally, wall, shlex.join(claim)))
            print(f"{label} {alphabet} 1..{k}: {dict(tally)} {wall:.0f} s", file=sys.stderr)
            bugs.extend((label, alphabet, b) for b in json.loads(proc.stdout)["bugs"])
    lines = [
        "| alphabet | sizes | implementation | programs | " + " | ".join(VERDICTS) + " | wall (s) | reproduce |",
        "|---|---|---|---|" + "---|" * len(VERDICTS) + "---|---|",
    ]
    for alphabet, k, label, tally, wall, claim in rows:
        total = sum(tally.values())
        cells = " | ".join(_cell(tally.get(v, 0)) for v in VERDICTS)
        lines.append(f"| `{alphabet}` | 1..{k} | {label} | {total:,} | {cells} | {wall:.0f} | `{claim}` |")
    lines.append("")
    for label, alphabet, b in bugs:
        sm = b["smallest"]
        lines.append(
            f"- {label}, `{alphabet}`: `{b['signature']}`: {b['programs']} program(s); smallest `{sm['id']}` (size {sm['size']})"
        )
    if missing:
        lines.append(f"\nNot installed here, left out: {', '.join(sorted(set(missing)))}.")
    if any(label in WITHOUT_ASYNC for _, _, label, *_ in rows):
        lines.append(
            "\n`iree-opt` (this build) has no `async` dialect and declines every program with an `async` op: "
            "it is run on the alphabets without one only."
        )
    table = "\n".join(lines).rstrip() + "\n"
    print(table)
    if args.write:
        stamp = (
            f"Generated by `{shlex.join(['python', 'bench/exhaustive_table.py', *sys.argv[1:]])}` on "
            f"{started.strftime('%Y-%m-%d %H:%M UTC')}, commit {commit()}, on {machine()}. "
            "Each row's command reproduces it (`--jobs J` and `--results FILE` change no count). "
            '"wall" is the run\'s time with `--jobs` workers on that machine.'
        )
        path = Path(args.write)
        text = path.read_text()
        if BEGIN not in text or END not in text:
            print(f"error: {path} has no {BEGIN} ... {END} block", file=sys.stderr)
            return 2
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        path.write_text(f"{head}{BEGIN}\n{stamp}\n\n{table}{END}{tail}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
