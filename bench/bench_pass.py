"""Benchmark: the refimpl pass alone (IR in, IR out) against mlir-opt-19.

For N = 1k, 10k, 100k GPU ops, writes a straight-line function mixing GPU ops
(launch_func, memcpy, memset, alloc/dealloc), pure host ops and effectful
host ops, then times `refimpl.rewrite` on the parsed module (parsing and
printing excluded; median of 3 runs (`--runs`), each on a freshly parsed module) and
reads the `GpuAsyncRegionPass` wall time from
`mlir-opt-19 -gpu-async-region -mlir-timing` on the same file (median of 3).

    python bench/bench_pass.py [--sizes 1000,10000,100000] [--mode reference]
"""

from __future__ import annotations

import argparse
import gc
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from refimpl import rewrite
from spec.syntax.parser import parse_module

HEADER = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%x: memref<256xf32>) kernel { gpu.return }
  }
  func.func private @host(memref<256xf32>)
  func.func @bench(%m: memref<256xf32>, %h: memref<256xf32>, %c: f32, %n: index) {
"""


def straight_line(n_gpu: int, seed: int = 0) -> str:
    """A function with `n_gpu` GPU ops; about one host op per two GPU ops,
    a third of them effectful."""
    rng = random.Random(seed)
    lines = []
    gpu = 0
    k = 0
    while gpu < n_gpu:
        r = rng.random()
        if r < 0.25:
            lines.append(
                "    gpu.launch_func @k::@f blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<256xf32>)"
            )
        elif r < 0.45:
            lines.append("    gpu.memcpy %h, %m : memref<256xf32>, memref<256xf32>")
        elif r < 0.6:
            lines.append("    gpu.memset %m, %c : memref<256xf32>, f32")
        elif r < 0.67:
            k += 1
            lines.append(f"    %a{k} = gpu.alloc (%n) : memref<?xf32>")
            lines.append(f"    gpu.dealloc %a{k} : memref<?xf32>")
            gpu += 1
        elif r < 0.9:
            k += 1
            lines.append(f"    %p{k} = arith.addf %c, %c : f32")
            continue
        else:
            lines.append(
                "    func.call @host(%h) : (memref<256xf32>) -> ()"
                if rng.random() < 0.5
                else "    memref.store %c, %h[%n] : memref<256xf32>"
            )
            continue
        gpu += 1
    return HEADER + "\n".join(lines) + "\n    return\n  }\n}\n"


def time_refimpl(text: str, mode: str, runs: int = 3) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        # Parsing is not timed; with the collector on it is superlinear.
        gc.disable()
        module = parse_module(text, "bench.mlir")
        gc.enable()
        gc.collect()
        start = time.perf_counter()
        result = rewrite(module, mode)
        times.append(time.perf_counter() - start)
        if result.diagnostics:
            raise SystemExit("pass failed on the benchmark input")
        del module
    return statistics.median(times), min(times)


def time_mlir_opt(binary: str, path: Path, runs: int = 3) -> float | None:
    times = []
    for _ in range(runs):
        proc = subprocess.run(
            [binary, "-gpu-async-region", "-mlir-timing", str(path), "-o", "/dev/null"],
            capture_output=True,
            text=True,
        )
        m = re.search(r"\s([\d.]+) \(\s*[\d.]+%\)\s+GpuAsyncRegionPass", proc.stderr)
        if not m:
            return None
        times.append(float(m.group(1)))
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--mode", default="reference")
    ap.add_argument("--runs", type=int, default=3, help="median of this many runs (default 3)")
    args = ap.parse_args()
    binary = shutil.which("mlir-opt-19")
    print(f"{'N':>8} {'refimpl s':>10} {'(min)':>8} {'mlir-opt-19 s':>14} {'ratio':>8} {'us/op':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            text = straight_line(n)
            path = Path(tmp) / f"bench{n}.mlir"
            path.write_text(text)
            ours, best = time_refimpl(text, args.mode, args.runs)
            theirs = time_mlir_opt(binary, path, args.runs) if binary else None
            ratio = f"{ours / theirs:8.1f}" if theirs else "     n/a"
            theirs_s = f"{theirs:14.4f}" if theirs is not None else "           n/a"
            print(f"{n:>8} {ours:10.4f} {best:8.4f} {theirs_s} {ratio} {ours / n * 1e6:7.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
