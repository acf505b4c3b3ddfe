"""The figures of verifier/README.md, "Every small program".

Runs `python -m verifier exhaustive` for each implementation over each
alphabet up to its size (`PLAN`), with `--jobs` and a results file per run
under `--dir` (so an interrupted run resumes), and prints the markdown
tables: verdicts and time per implementation, then the distinct bugs with
their smallest programs.

    python bench/exhaustive_table.py [--jobs 2] [--dir bench/exhaustive-results]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLAN = [
    ("tiny", 5),
    ("straight", 2),
    ("async", 3),
    ("control", 4),
    ("values", 4),
    ("full", 2),
    ("whole", 3),
    ("gate", 4),
]
"""(alphabet, largest size): each finishes in a few minutes on 2 cores.
The whole alphabet to size 4 (596,261 programs) takes 30-60 minutes per
implementation on 2 cores: `--plan whole:4 --only mlir-opt-19` (and so on),
one implementation at a time; `core` to size 4 (326,117): `--plan core:4`."""

IMPLS = [
    ("refimpl reference", ["--mode", "reference"]),
    ("refimpl mlir19", ["--mode", "mlir19"]),
    ("refimpl seed", ["--mode", "seed"]),
    ("mlir-opt-19", ["--impl", "mlir-opt-19 -gpu-async-region"]),
    ("mlir-opt-22", ["--impl", "mlir-opt-22 -gpu-async-region"]),
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--dir", default=str(ROOT / "bench" / "exhaustive-results"))
    ap.add_argument("--only", help="run only the implementations whose label contains this")
    ap.add_argument("--plan", help="ALPHABET:K,... instead of the default plan")
    args = ap.parse_args()
    out_dir = Path(args.dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rows, bugs = [], []
    for label, flags in IMPLS:
        if args.only and args.only not in label:
            continue
        if "--impl" in flags and shutil.which(flags[1].split()[0]) is None:
            print(f"skipping {label}: not installed", file=sys.stderr)
            continue
        plan = [(x.split(":")[0], int(x.split(":")[1])) for x in args.plan.split(",")] if args.plan else PLAN
        for alphabet, k in plan:
            results = out_dir / f"{label.replace(' ', '-')}-{alphabet}-{k}.jsonl"
            cmd = [sys.executable, "-m", "verifier", "exhaustive", "--alphabet", alphabet, "--max-size", str(k),
                   "--jobs", str(args.jobs), "--results", str(results), "--format", "json", *flags]  # fmt: skip
            t0 = time.perf_counter()
            proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
            wall = time.perf_counter() - t0
            if proc.returncode not in (0, 1, 3):
                print(proc.stderr, file=sys.stderr)
                return 2
            s = json.loads(proc.stdout)
            t = s["totals"]
            rows.append((label, alphabet, k, int(t["programs"]), int(t["verified"]), int(t["refuted"]),
                         int(t["unknown"]), int(t["other"]), wall))  # fmt: skip
            print(f"{label} {alphabet} {k}: {t} {wall:.0f} s", file=sys.stderr)
            for b in s["bugs"]:
                bugs.append((label, alphabet, b))
    print("| implementation | alphabet | sizes | programs | verified | refuted | unknown | failed | wall (s) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for label, alphabet, k, n, v, r, u, o, wall in rows:
        print(f"| {label} | {alphabet} | 1..{k} | {n} | {v} | {r} | {u} | {o} | {wall:.0f} |")
    print()
    for label, alphabet, b in bugs:
        sm = b["smallest"]
        print(
            f"- {label}, {alphabet}: `{b['signature']}`: {b['programs']} program(s); smallest `{sm['id']}` (size {sm['size']})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
