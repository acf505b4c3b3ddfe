"""The speed table: whole processes against mlir-opt-19, in turn.

For each size N (default 10k and 100k GPU ops) `bench/gen_programs.generate(N)`
writes one straight-line function mixing GPU ops, pure host ops and
effectful host ops. Then, `--runs` times, one after the other so that all
three meet the same machine:

- `mlir-opt-19 -gpu-async-region IN` (its output is OUT),
- `python -m refimpl IN` (the pass alone, as a user runs it),
- `python -m verifier check IN --after OUT` (the whole check of OUT; it
  forks a parser and a prover when a core is idle and the input is large),
- the same with `--jobs 1` (all in one process: the CPU-frugal way),

each as a whole process, measured by `os.wait4`: CPU time (user + system,
the process and every child it waited for: the verifier's forked parser
and prover are included), wall time and peak RSS (`ru_maxrss`: the largest
single process of the tree, not a sum). Medians per tool, then ratios of
the medians against mlir-opt-19 of the same run. On a shared machine the
CPU figure is the steadier one; wall times lean on whether a second core
was free.

Then the parse rate on one core: a child process parses IN once with the
collector off, as the CLI does, and reports ops (all ops of the module,
by a walk) per CPU second of the parse alone.

    python bench/speed_table.py [--sizes 10000,100000] [--runs 5] [--json FILE]

Example: `.venv/bin/python bench/speed_table.py --sizes 10000 --runs 3`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from gen_programs import generate  # noqa: E402

MLIR_OPT = "mlir-opt-19"

PARSE_CHILD = r"""
import gc, json, sys, time
sys.setrecursionlimit(100000)
from spec.syntax.parser import load_parser, parse_module
load_parser()
text = open(sys.argv[1]).read()
gc.disable()
c0, t0 = time.process_time(), time.perf_counter()
m = parse_module(text, sys.argv[1])
cpu, wall = time.process_time() - c0, time.perf_counter() - t0
ops = sum(1 for _ in m.walk())
print(json.dumps({"ops": ops, "cpu": cpu, "wall": wall}))
"""


def measure(cmd: list[str], stdout_path: str | None = None) -> dict[str, float]:
    """One whole process: wall seconds, CPU seconds (itself and its waited-for
    children), peak RSS in MiB, exit code."""
    out = open(stdout_path, "w") if stdout_path else subprocess.DEVNULL
    try:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, cwd=ROOT)
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if stdout_path:
            out.close()  # type: ignore[union-attr]
    return {"wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "rss": ru.ru_maxrss / 1024, "exit": proc.returncode}


def prepared() -> bool:
    """mlir-opt-19 is there (else False, said on stderr), and the project's
    bytecode is compiled, as `pip install` compiles an installed package's:
    with PYTHONDONTWRITEBYTECODE set (as on the project's machine) an
    editable checkout would compile its 60-odd changed modules from source
    on every start (about 0.14 s of each process)."""
    if shutil.which(MLIR_OPT) is None:
        print(f"{MLIR_OPT} not found (apt-get install mlir-19-tools)", file=sys.stderr)
        return False
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "spec", "refimpl", "verifier", "parallel"], cwd=ROOT, check=True
    )
    return True


def table_for(n: int, runs: int, py: str, tmp: str) -> dict:
    inp = os.path.join(tmp, f"in{n}.mlir")
    out = os.path.join(tmp, f"out{n}.mlir")
    Path(inp).write_text(generate(n), encoding="utf-8")
    tools = {
        "mlir-opt-19": ([MLIR_OPT, "-gpu-async-region", inp], out),
        "refimpl": ([py, "-m", "refimpl", inp], None),
        "check": ([py, "-m", "verifier", "check", inp, "--after", out], None),
        "check -j 1": ([py, "-m", "verifier", "check", inp, "--after", out, "--jobs", "1"], None),
    }
    samples: dict[str, list[dict[str, float]]] = {k: [] for k in tools}
    for r in range(runs):
        for name, (cmd, dest) in tools.items():
            m = measure(cmd, dest)
            if m["exit"] != 0:
                raise SystemExit(f"{name} exited {m['exit']} on {inp}")
            samples[name].append(m)
        print(
            f"  N={n} run {r + 1}/{runs}: " + ", ".join(f"{k} {v[-1]['cpu']:.2f} s CPU" for k, v in samples.items()),
            file=sys.stderr,
        )
    med = {k: {f: statistics.median(s[f] for s in v) for f in ("wall", "cpu", "rss")} for k, v in samples.items()}
    parse = json.loads(
        subprocess.run([py, "-c", PARSE_CHILD, inp], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    )
    return {"n": n, "runs": runs, "median": med, "parse": parse, "bytes": os.path.getsize(inp)}


def render(rows: list[dict]) -> str:
    lines = [
        "| N GPU ops | tool | CPU s | wall s | peak RSS MiB | CPU / mlir-opt-19 | wall / mlir-opt-19 | RSS / mlir-opt-19 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        base = row["median"]["mlir-opt-19"]
        for name, m in row["median"].items():
            ratio = "" if name == "mlir-opt-19" else "x"
            lines.append(
                f"| {row['n']:,} | {name} | {m['cpu']:.2f} | {m['wall']:.2f} | {m['rss']:.0f} | "
                f"{m['cpu'] / base['cpu']:.1f}{ratio} | {m['wall'] / base['wall']:.1f}{ratio} | {m['rss'] / base['rss']:.2f}{ratio} |"
            )
    lines.append("")
    for row in rows:
        p = row["parse"]
        lines.append(
            f"parse, N={row['n']:,}: {p['ops']:,} ops in {p['cpu']:.2f} s CPU ({p['ops'] / p['cpu']:,.0f} ops/s on one core; "
            f"wall {p['wall']:.2f} s)"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python bench/speed_table.py",
        description="mlir-opt-19, the refimpl and the whole check as processes, in turn: CPU, wall, peak RSS, ratios.",
        epilog="example: .venv/bin/python bench/speed_table.py --sizes 10000 --runs 3",
    )
    ap.add_argument("--sizes", default="10000,100000", help="GPU op counts, comma-separated (default 10000,100000)")
    ap.add_argument("--runs", type=int, default=5, help="runs of each tool per size, in turn (default 5)")
    ap.add_argument("--python", default=sys.executable, help="interpreter with the project installed")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    if not prepared():
        return 2
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        rows = [table_for(int(s), args.runs, args.python, tmp) for s in args.sizes.split(",")]
    print(f"load average at start {load:.1f}; medians of {args.runs} runs, run in turn\n")
    print(render(rows))
    if args.json:
        Path(args.json).write_text(json.dumps({"load": load, "rows": rows}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
