"""Benchmark: `python -m verifier exhaustive` over `whole`, CPU per program and peak memory.

For each size K (default 1, 2, 3; `--size4` adds 4) runs the exhaustive
check of every program of 1..K ops (the refimpl in-process, `--mode`),
each run in a fresh subprocess so that its peak RSS (`ru_maxrss`) is its
own and not the maximum of the runs before it. Per run it reports the CPU
time of the run alone (`time.process_time` around
the command's `main`, imports excluded; the command runs under
`spec.tool.run_tool` as `python -m verifier` does, so with its settings,
such as the cyclic collector turned off) divided by the number of
programs, the median over `--repeat` runs, and the peak RSS of the run and
of the process just before the run started (imports, so that what the run
itself keeps is the difference). The table is stamped with the command,
the date and the machine, so figures from different commits can be put
side by side.

    python bench/bench_exhaustive.py [--sizes 1,2,3] [--size4] [--repeat 3] [--results]

`--results` also streams every program's line to a results file (in a
temporary directory), which is how long runs are made. For sizes up to
`--plain-up-to` (default 3) it also runs `--plain` once, the path the
run's shortcuts are checked against (each program parsed twice, no Z3
answer shared across programs), and reports its CPU per program, the ratio
of the two in the same run, and whether the verdict counts per size are
the same.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
from spec.tool import run_tool
import verifier.__main__ as cli
from verifier.harness import exhaustive  # noqa: F401 - imported before the clock starts


def measured() -> int:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    c0, w0 = time.process_time(), time.perf_counter()
    code = cli.main(["exhaustive", *json.loads(sys.argv[1])])
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with open(sys.argv[2], "w") as f:
        json.dump({{"code": code, "cpu_s": cpu, "wall_s": wall, "rss_before_kib": before, "rss_peak_kib": peak}}, f)
    return code


run_tool(measured, io_failure=2)
"""


def run_once(size: int, mode: str, results: bool, plain: bool = False) -> dict:
    """One exhaustive run of 1..`size` ops in a fresh interpreter: its CPU, wall time, RSS and summary."""
    flags = ["--alphabet", "whole", "--max-size", str(size), "--mode", mode, "--format", "json"]
    flags += ["--plain"] if plain else []
    with tempfile.TemporaryDirectory() as tmp:
        if results:
            flags += ["--results", str(Path(tmp) / "r.jsonl")]
        stats = Path(tmp) / "stats.json"
        proc = subprocess.run(
            [sys.executable, "-c", CHILD.format(root=str(ROOT)), json.dumps(flags), str(stats)],
            capture_output=True, text=True, cwd=ROOT, check=False,
        )  # fmt: skip
        if not stats.exists() or proc.returncode not in (0, 1, 3, 4):
            raise SystemExit(f"size {size}: child failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
        return {**json.loads(stats.read_text()), "summary": json.loads(proc.stdout)}


def machine() -> str:
    """CPU model, cores and memory of this machine, for the stamp."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        mem_kib = next(
            int(x.split()[1]) for x in Path("/proc/meminfo").read_text().splitlines() if x.startswith("MemTotal")
        )
        mem = f", {mem_kib / 2**20:.1f} GiB"
    except (OSError, StopIteration, ValueError):
        mem = ""
    return f"{model}, {os.cpu_count()} cores{mem}, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def commit() -> str:
    """The checked-out commit (and `+dirty` with uncommitted changes)."""
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev + ("+dirty" if dirty else "")


def _counts(summary: dict) -> dict:
    """Verdict counts per size of a run's JSON summary (its times left out)."""
    return {size: {k: v for k, v in row.items() if k != "time_s"} for size, row in summary["sizes"].items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1,2,3", help="largest sizes to run, comma-separated (default 1,2,3)")
    ap.add_argument("--size4", action="store_true", help="also size 4 (596,261 programs; most of an hour per repeat)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per size; the CPU figure is their median (default 3)")
    ap.add_argument("--mode", default="reference", choices=["reference", "mlir19", "seed"])
    ap.add_argument("--results", action="store_true", help="stream each program's line to a --results file too")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON to FILE")
    ap.add_argument(
        "--plain-up-to", type=int, default=3, metavar="K",
        help="also run `--plain` (the reference the shortcuts are measured against) once for sizes up to K (default 3; 0: never)",
    )  # fmt: skip
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",") if x]
    if args.size4 and 4 not in sizes:
        sizes.append(4)
    print(f"command: {shlex.join([Path(sys.executable).name, *sys.argv])}")
    print(f"date:    {datetime.datetime.now(datetime.UTC).strftime('%Y-%m-%d %H:%M:%S UTC')}")
    print(f"machine: {machine()}")
    print(f"commit:  {commit()}")
    print(f"run:     python -m verifier exhaustive --alphabet whole --max-size K --mode {args.mode}"
          f"{' --results FILE' if args.results else ''} (in-process), one fresh process per run\n")  # fmt: skip
    print(
        "| K | programs | CPU/program (ms, median) | CPU runs (s) | wall (s, median) | peak RSS (MiB) | RSS before run (MiB) | verified | exit "
        "| `--plain` CPU/program (ms) | plain / this | `--plain` peak RSS (MiB) | same verdicts |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    rows = []
    for k in sizes:
        runs = [run_once(k, args.mode, args.results) for _ in range(max(1, args.repeat))]
        n = int(runs[0]["summary"]["totals"]["programs"])
        cpu = statistics.median(r["cpu_s"] for r in runs)
        row = {
            "size": k,
            "programs": n,
            "cpu_ms_per_program": 1000 * cpu / n,
            "cpu_s": [round(r["cpu_s"], 3) for r in runs],
            "wall_s": statistics.median(r["wall_s"] for r in runs),
            "peak_rss_mib": max(r["rss_peak_kib"] for r in runs) / 1024,
            "rss_before_mib": max(r["rss_before_kib"] for r in runs) / 1024,
            "verified": int(runs[0]["summary"]["totals"]["verified"]),
            "exit": sorted({r["code"] for r in runs}),
        }
        plain = ""
        if k <= args.plain_up_to:
            ref = run_once(k, args.mode, args.results, plain=True)
            row["plain_cpu_ms_per_program"] = 1000 * ref["cpu_s"] / n
            row["plain_peak_rss_mib"] = ref["rss_peak_kib"] / 1024
            # The per-size verdict counts of both runs (the per-program comparison is a test's).
            row["same_verdicts"] = _counts(ref["summary"]) == _counts(runs[0]["summary"])
            plain = (
                f" {row['plain_cpu_ms_per_program']:.3f} | {row['plain_cpu_ms_per_program'] / row['cpu_ms_per_program']:.2f}"
                f" | {row['plain_peak_rss_mib']:.1f} | {'yes' if row['same_verdicts'] else 'NO'} |"
            )
        rows.append(row)
        print(
            f"| {k} | {n} | {row['cpu_ms_per_program']:.3f} | {', '.join(f'{c:.2f}' for c in row['cpu_s'])} "
            f"| {row['wall_s']:.2f} | {row['peak_rss_mib']:.1f} | {row['rss_before_mib']:.1f} | {row['verified']} "
            f"| {','.join(map(str, row['exit']))} |{plain or ' | | | |'}",
            flush=True,
        )
    if args.json:
        Path(args.json).write_text(json.dumps({"argv": sys.argv, "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
