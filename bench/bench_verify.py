"""Benchmark: `verifier.check` on generated straight-line programs of N GPU
ops, against `mlir-opt-19 -gpu-async-region` on the same input, same run.

For each N (default 1k, 10k, 100k) the generator below writes one function
of N GPU ops (launches, copies, memsets, allocs) with a host effect
(`memref.store` or `func.call`) after every few of them; `mlir-opt-19`
rewrites it (timed as a whole process, median of runs), and its output is
the rewrite checked. The check runs in a fresh subprocess per N so peak
memory (`ru_maxrss`) is its own; reported: parse, match, events, Z3 and
reachability seconds, whole check, peak RSS, obligations, ratio to mlir-opt.

    python bench/bench_verify.py [--sizes 1000,10000,100000] [--repeat 3]

Targets (issue 5): at 10k the whole check within 20x the mlir-opt-19
process; at 100k Z3 proving time <= 10 s and peak memory <= 1 GB.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HEAD = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<64xf32>)
  func.func @main(%a: memref<64xf32>, %b: memref<64xf32>, %x: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
"""


def generate(n: int, seed: int = 0) -> str:
    """One function with `n` synchronous GPU ops and a host effect after
    every 1-8 of them."""
    rng = random.Random(seed)
    lines = [HEAD]
    allocs = 0
    gap = rng.randint(1, 8)
    i = 0
    while i < n:
        k = rng.randrange(4) if i + 1 < n else 0
        if k == 0:
            lines.append("    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)\n")
        elif k == 1:
            lines.append("    gpu.memcpy %b, %a : memref<64xf32>, memref<64xf32>\n")
        elif k == 2:
            lines.append("    gpu.memset %a, %x : memref<64xf32>, f32\n")
        else:
            lines.append(f"    %m{allocs} = gpu.alloc () : memref<64xf32>\n    gpu.dealloc %m{allocs} : memref<64xf32>\n")
            allocs += 1
            i += 1
        i += 1
        gap -= 1
        if gap == 0 and i + 1 < n:
            gap = rng.randint(1, 8)
            if rng.random() < 0.5:
                lines.append("    memref.store %x, %b[%c0] : memref<64xf32>\n")
            else:
                lines.append("    call @use(%b) : (memref<64xf32>) -> ()\n")
    lines.append("    return\n  }\n}\n")
    return "".join(lines)


def gpu_op_count(text: str) -> int:
    return sum(text.count(k) for k in ("gpu.launch_func", "gpu.memcpy ", "gpu.memset ", "gpu.alloc ", "gpu.dealloc "))


def time_mlir_opt(path: str, repeat: int) -> tuple[float, str]:
    exe = shutil.which("mlir-opt-19")
    if exe is None:
        raise SystemExit("mlir-opt-19 not found (apt-get install mlir-19-tools)")
    times, out = [], ""
    for _ in range(repeat):
        t0 = time.perf_counter()
        proc = subprocess.run([exe, "-gpu-async-region", path], capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - t0)
        out = proc.stdout
    return statistics.median(times), out


CHILD = r"""
import json, resource, sys, time
sys.setrecursionlimit(10000)
t0 = time.perf_counter()
from spec.syntax.parser import parse_module
import verifier
t_import = time.perf_counter() - t0
t0 = time.perf_counter()
a = parse_module(open(sys.argv[1]).read(), sys.argv[1])
b = parse_module(open(sys.argv[2]).read(), sys.argv[2])
t_parse = time.perf_counter() - t0
t0 = time.perf_counter()
r = verifier.check(a, b)
t_check = time.perf_counter() - t0
f = r.functions[0]
print(json.dumps({"verdict": r.verdict, "obligations": f.obligations, "agreements": f.agreements,
  "import": t_import, "parse": t_parse, "check": t_check, **r.timings,
  "maxrss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run_check(inp: str, out: str) -> dict:
    """One whole `check` in a fresh interpreter: its phases and peak RSS."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", CHILD, inp, out], capture_output=True, text=True, cwd=ROOT, check=True)
    data = json.loads(proc.stdout)
    data["process"] = time.perf_counter() - t0
    return data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (median)")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            text = generate(n, seed=n)
            inp = os.path.join(tmp, f"in{n}.mlir")
            with open(inp, "w") as f:
                f.write(text)
            t_opt, out_text = time_mlir_opt(inp, args.repeat)
            out = os.path.join(tmp, f"out{n}.mlir")
            with open(out, "w") as f:
                f.write(out_text)
            runs = [run_check(inp, out) for _ in range(args.repeat)]
            med = {k: statistics.median(r[k] for r in runs) for k in runs[0] if isinstance(runs[0][k], float)}
            row = {"n": n, "gpu_ops": gpu_op_count(text), "verdict": runs[0]["verdict"], "obligations": runs[0]["obligations"],
                   "agreements": runs[0]["agreements"], "mlir_opt_19_s": t_opt, **med}
            row["ratio_process"] = row["process"] / t_opt
            rows.append(row)
            print(
                f"N={n:>6} gpu_ops={row['gpu_ops']:>6} {row['verdict']:<9} obligations={row['obligations']:>6} agree={row['agreements']:>6} "
                f"mlir-opt-19={t_opt:6.3f}s check-process={row['process']:7.3f}s (x{row['ratio_process']:.1f}) "
                f"parse={row['parse']:6.3f}s match={row['match']:5.3f}s events={row['events']:5.3f}s "
                f"reach={row['reach']:5.3f}s z3={row['z3']:6.3f}s maxrss={row['maxrss_mib']:6.0f}MiB",
                flush=True,
            )
    print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
