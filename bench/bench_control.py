"""Benchmark: `verifier.check` on a function with 50 `scf.if`s and 10
`scf.for` loops, every one holding GPU ops (target: under 5 s, and the
proof must not enumerate the paths).

The input is synchronous: per `scf.if` a launch before it, a launch and a
host call in the `then` branch, a copy in the `else` branch; per loop a
launch and a call in the body. The refimpl (`python -m refimpl`, reference
mode, a subprocess as the verifier runs it) rewrites it; `check` is timed
on the parsed modules (median of --runs), without a path limit.

    python bench/bench_control.py [--ifs 50] [--loops 10] [--runs 3] [--unroll 2]

Printed: the verdict, the median time of `check`, the number of Z3 queries,
the obligations, and how many paths the function has (what path-by-path
checking would have built, one graph each).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from spec.syntax.parser import parse_module  # noqa: E402
from verifier import check  # noqa: E402

HEAD = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<64xf32>)
  func.func @main(%a: memref<64xf32>, %b: memref<64xf32>, %p: i1, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
"""
LAUNCH = "gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)"


def generate(ifs: int, loops: int) -> str:
    """The synchronous input: `ifs` diamonds and `loops` loops, the loops
    spread evenly among the diamonds."""
    body: list[str] = []
    every = max(ifs // max(loops, 1), 1)
    placed = 0
    for i in range(ifs):
        # A condition of its own per diamond: two `scf.if`s on one value
        # take the same branch, so they would not multiply the paths.
        body += [
            f"    {LAUNCH}",
            f"    %p{i} = arith.cmpi ult, %c0, %n : index",
            f"    scf.if %p{i} {{",
            f"      {LAUNCH}",
            "      func.call @use(%b) : (memref<64xf32>) -> ()",
            "    } else {",
            "      gpu.memcpy %b, %a : memref<64xf32>, memref<64xf32>",
            "    }",
        ]
        if placed < loops and (i + 1) % every == 0:
            placed += 1
            body += [
                "    scf.for %i = %c0 to %n step %c1 {",
                f"      {LAUNCH}",
                "      func.call @use(%b) : (memref<64xf32>) -> ()",
                "    }",
            ]
    while placed < loops:
        placed += 1
        body += ["    scf.for %i = %c0 to %n step %c1 {", f"      {LAUNCH}", "    }"]
    return HEAD + "\n".join(body) + "\n    call @use(%b) : (memref<64xf32>) -> ()\n    return\n  }\n}\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ifs", type=int, default=50)
    ap.add_argument("--loops", type=int, default=10)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--unroll", type=int, default=2)
    args = ap.parse_args()
    text = generate(args.ifs, args.loops)
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as fh:
        fh.write(text)
        path = fh.name
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "refimpl", "--mode", "reference", path],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
    finally:
        os.unlink(path)
    inp, out = parse_module(text, "in.mlir"), parse_module(proc.stdout, "out.mlir")
    times, cpu = [], []
    report = None
    for _ in range(args.runs):
        t0, c0 = time.perf_counter(), time.process_time()
        report = check(inp, out, unroll=args.unroll, max_paths=None)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    assert report is not None
    f = report.functions[0]
    paths = f.paths
    print(
        f"function: {args.ifs} scf.if, {args.loops} scf.for, unroll {args.unroll}; output by refimpl --mode reference"
    )
    print(f"verdict: {report.verdict} ({f.lemma or f.reason or 'no loop claim'})")
    print(
        f"check: median {statistics.median(times):.2f} s wall, {statistics.median(cpu):.2f} s CPU over {args.runs} runs"
    )
    print(f"Z3 queries: {f.z3_checks} for {f.obligations} obligations")
    print(
        f"paths: {paths} (= 2^{args.ifs} x {(args.unroll + 1)}^{args.loops}, about 10^{len(str(paths)) - 1}); none enumerated"
    )
    print("phases (last run, s): " + ", ".join(f"{k} {v:.2f}" for k, v in report.timings.items()))


if __name__ == "__main__":
    main()
