"""The compositional proof's cost against the program, next to mlir-opt-19.

For each program of `bench/gen_control.py` (loops in sequence, loops nested,
and a mixed host program of `scf.for`/`scf.if`/`scf.while`/`async.execute`,
nested up to depth 6), in turn so that every tool meets the same machine:

- `mlir-opt-19 -gpu-async-region IN`, as a whole process;
- `python -m verifier check IN --after OUT`, OUT the reference rewrite
  (`python -m refimpl IN`), as a whole process: it must say `verified`
  (not bounded: `--require-unbounded`);
- the same check of OUT with its first `gpu.wait` inside a region dropped:
  it must say `refuted`;
- in a child process, the check alone (`verifier.check` on the two parsed
  modules, CPU seconds), which is what the growth exponent is fitted on:
  a process's start-up would flatten it.

Every figure is a median over `--runs`; CPU is user + system of the process
and its waited-for children (`os.wait4`). Printed: a table stamped with the
command, the date and the machine; the CPU ratio of the check to mlir-opt-19
of the same run (none where mlir-opt-19 failed: its exit status is
shown); and per family the exponent `k` of `cpu ~ ops^k`, a
least-squares fit on log-log scale over the family's sizes (1 is linear).

    python bench/bench_compose.py [--runs 3] [--quick] [--json FILE]

`--quick` runs the small sizes only (for a try; the table's figures are
from the full run).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from gen_control import mixed, nested, sequence  # noqa: E402
from speed_table import MLIR_OPT, measure, prepared  # noqa: E402

FAMILIES: dict[str, list[int]] = {
    "sequence": [10, 100, 1000],
    "nested": [2, 4, 6, 8, 10],
    "mixed": [100, 1000, 10000],
}
QUICK: dict[str, list[int]] = {"sequence": [10, 100], "nested": [2, 4, 6], "mixed": [100, 1000]}

CHECK_CHILD = r"""
import json, statistics, sys, time
sys.setrecursionlimit(100000)
from spec.syntax.parser import parse_module
from verifier import check
inp, out, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
a_text, b_text = open(inp).read(), open(out).read()
cpu, ops = [], 0
for _ in range(runs):
    a, b = parse_module(a_text, inp), parse_module(b_text, out)
    t0 = time.process_time()
    r = check(a, b)
    cpu.append(time.process_time() - t0)
    ops = sum(1 for _ in a.walk())
print(json.dumps({"cpu": statistics.median(cpu), "verdict": str(r.verdict), "ops": ops}))
"""


CF_EVERY = 10
"""`mixed`: one top-level piece in this many is a `cf` loop."""

EXECUTE_DEPTH = 2
"""`mixed`: at most this many `async.execute` bodies nested, so that
`mlir-opt-19` rewrites the program instead of crashing on it."""


def program(family: str, n: int) -> str:
    if family == "mixed":
        return mixed(n, cf_every=CF_EVERY, execute_depth=EXECUTE_DEPTH)
    return {"sequence": sequence, "nested": nested}[family](n)


def drop_a_wait(out: str) -> str:
    """The rewrite with the first `gpu.wait` that sits inside a region (an
    indented line after the first region op) removed: a wrong rewrite."""
    lines = out.splitlines(keepends=True)
    start = next(
        i for i, line in enumerate(lines) if line.rstrip().endswith("{") and ("scf." in line or "async.execute" in line)
    )
    for i in range(start + 1, len(lines)):
        if lines[i].lstrip().startswith("gpu.wait"):
            return "".join(lines[:i] + lines[i + 1 :])
    raise SystemExit("no gpu.wait inside a region to drop")


def last_line(path: str) -> str:
    text = Path(path).read_text(encoding="utf-8").strip().splitlines()
    return text[-1] if text else ""


def row(family: str, n: int, runs: int, py: str, tmp: str) -> dict:
    inp, out, wrong = (os.path.join(tmp, f"{family}{n}{s}.mlir") for s in ("", ".out", ".wrong"))
    report = os.path.join(tmp, "report.txt")
    Path(inp).write_text(program(family, n), encoding="utf-8")
    with open(out, "w", encoding="utf-8") as f:
        subprocess.run([py, "-m", "refimpl", inp], stdout=f, check=True, cwd=ROOT)
    Path(wrong).write_text(drop_a_wait(Path(out).read_text(encoding="utf-8")), encoding="utf-8")
    check = [py, "-m", "verifier", "check", "--require-unbounded", "--budget-s", "0", inp, "--after"]
    opt, right = [], []
    opt_exit = 0
    for _ in range(runs):
        m = measure([MLIR_OPT, "-gpu-async-region", inp])
        opt.append(m["cpu"])
        opt_exit = opt_exit or int(m["exit"])
        m = measure([*check, out], report)
        if m["exit"] != 0:
            raise SystemExit(f"{family} {n}: the reference rewrite is not verified: {last_line(report)}")
        right.append(m["cpu"])
    w = measure([*check, wrong], report)
    if "refuted" not in last_line(report):
        raise SystemExit(f"{family} {n}: the rewrite with a dropped wait is not refuted: {last_line(report)}")
    child = json.loads(
        subprocess.run(
            [py, "-c", CHECK_CHILD, inp, out, str(runs)], capture_output=True, text=True, check=True, cwd=ROOT
        ).stdout
    )
    return {
        "family": family,
        "n": n,
        "lines": Path(inp).read_text(encoding="utf-8").count("\n"),
        "ops": child["ops"],
        "mlir_opt": statistics.median(opt),
        "mlir_opt_exit": opt_exit,
        "check": statistics.median(right),
        "wrong": w["cpu"],
        "in_process": child["cpu"],
    }


def exponent(rows: list[dict]) -> float:
    """The slope of log(check CPU) against log(ops), least squares."""
    xs = [math.log(r["ops"]) for r in rows]
    ys = [math.log(max(r["in_process"], 1e-4)) for r in rows]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den if den else float("nan")


def machine() -> str:
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def render(rows: list[dict], command: str, load: float, runs: int) -> str:
    out = [
        f"Generated by `{command}` on {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, on {machine()}; "
        f"load average at start {load:.1f}; medians of {runs} runs.",
        "",
        "| program | lines | ops | mlir-opt-19 CPU s | check CPU s (verified) | ratio | dropped wait CPU s (refuted) | check alone, in process, s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        crashed = r["mlir_opt_exit"] != 0
        opt = f"{r['mlir_opt']:.3f}" + (f" (exit {r['mlir_opt_exit']})" if crashed else "")
        ratio = "-" if crashed else f"{r['check'] / max(r['mlir_opt'], 1e-3):.0f}x"
        out.append(
            f"| {r['family']} {r['n']} | {r['lines']:,} | {r['ops']:,} | {opt} | {r['check']:.2f} | "
            f"{ratio} | {r['wrong']:.2f} | {r['in_process']:.3f} |"
        )
    out.append("")
    for family in dict.fromkeys(r["family"] for r in rows):
        fam = [r for r in rows if r["family"] == family]
        if len(fam) > 1:
            out.append(f"growth exponent of `{family}` (check alone, CPU against ops): {exponent(fam):.2f}")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python bench/bench_compose.py", description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="runs of each tool per program, in turn (default 3)")
    ap.add_argument("--quick", action="store_true", help="the small sizes only")
    ap.add_argument("--python", default=sys.executable, help="interpreter with the project installed")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    if not prepared():
        return 2
    load = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for family, sizes in (QUICK if args.quick else FAMILIES).items():
            for n in sizes:
                rows.append(row(family, n, args.runs, args.python, tmp))
                r = rows[-1]
                print(f"  {family} {n}: check {r['check']:.2f} s, mlir-opt-19 {r['mlir_opt']:.3f} s", file=sys.stderr)
    command = "python bench/bench_compose.py" + (" " + " ".join(argv if argv is not None else sys.argv[1:])).rstrip()
    print(render(rows, command.strip(), load, args.runs))
    if args.json:
        Path(args.json).write_text(json.dumps({"load": load, "rows": rows}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
