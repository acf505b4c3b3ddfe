"""Exhaustive exploration speed: 12-GPU-op programs with partial-order reduction.

    python bench/bench_explore.py [--repeat N]

Programs (each has 12 GPU ops, kernels on 4-element buffers):

- `chain`: the shape of the pass's output: one token chain through all 12
  ops, one `gpu.wait` before the host reads the result;
- `streams`: four independent chains of 3 ops on private buffers, joined by
  a `gpu.wait async` of all four before the host reads;
- `writers`: the same four chains, each ending in a copy into one shared
  buffer (the copies conflict, so their orders are distinct outcomes);
- `sync`: the same 12 ops written synchronously (the pass's input);
- `racy`: `writers` with a host load of the shared buffer before the wait
  (a race with each of the four copies).

For each, the number of complete schedules the exhaustive exploration (sleep
sets plus singleton persistent sets for steps that touch no memory) explores,
the runs it abandons as redundant (`pruned`), the wall time (median of N
runs), complete schedules per second and runs (complete + pruned) per second;
for `streams` and `writers` also what plain enumeration of interleavings (no
reduction) reaches within `--plain-bound` schedules, for comparison.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spec.semantics.interp import default_args
from spec.semantics.schedule import explore
from spec.syntax.parser import parse_module

HEAD = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @step(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func private @consume(memref<4xf32>)
"""
L = "blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)"


def chain() -> str:
    lines = ["%t0 = gpu.wait async"]
    for i in range(1, 13):
        lines.append(f"%t{i} = gpu.launch_func async [%t{i - 1}] @k::@step {L} args(%a : memref<4xf32>)")
    lines += ["gpu.wait [%t12]", "func.call @consume(%a) : (memref<4xf32>) -> ()"]
    return _func("(%a: memref<4xf32>)", lines)


def _streams(shared: bool, sync: bool = False, early_load: bool = False) -> str:
    lines = [] if sync else ["%t0 = gpu.wait async"]
    ends = []
    for s in range(4):
        prev = "%t0"
        for j in range(3):
            name = f"%s{s}_{j}"
            if j < 2:
                op = f"gpu.launch_func {{A}}@k::@step {L} args(%b{s} : memref<4xf32>)"
            else:
                dst = "%out" if shared else f"%b{s}"
                src = f"%b{s}" if shared else "%in"
                op = f"gpu.memcpy {{A}}{dst}, {src} : memref<4xf32>, memref<4xf32>"
            if sync:
                lines.append(op.replace("{A}", ""))
            else:
                lines.append(f"{name} = " + op.replace("{A}", f"async [{prev}] "))
            prev = name
        ends.append(prev)
    if early_load:
        lines.append("%c0 = arith.constant 0 : index")
        lines.append("%early = memref.load %out[%c0] : memref<4xf32>")
    if not sync:
        lines.append(f"%j = gpu.wait async [{', '.join(ends)}]")
        lines.append("gpu.wait [%j]")
    lines.append("func.call @consume(%out) : (memref<4xf32>) -> ()")
    sig = "(" + ", ".join(f"%b{s}: memref<4xf32>" for s in range(4)) + ", %in: memref<4xf32>, %out: memref<4xf32>)"
    return _func(sig, lines)


def _func(sig: str, lines: list[str]) -> str:
    body = "\n".join("    " + x for x in ["%c1 = arith.constant 1 : index", *lines, "return"])
    return HEAD + f"  func.func @f{sig} {{\n{body}\n  }}\n}}\n"


PROGRAMS = {
    "chain": chain,
    "streams": lambda: _streams(False),
    "writers": lambda: _streams(True),
    "sync": lambda: _streams(True, sync=True),
    "racy": lambda: _streams(True, early_load=True),
}


def measure(text: str, repeat: int, por: bool = True, bound: int = 100_000) -> tuple[int, int, bool, float]:
    module = parse_module(text, "bench.mlir")
    f = next(op for op in module.walk() if op.name == "func.func" and op.regions and op.regions[0].blocks)
    gpu_ops = sum(1 for op in f.walk() if op.name in ("gpu.launch_func", "gpu.memcpy"))
    times = []
    ex = None
    for _ in range(repeat):
        t = time.perf_counter()
        ex = explore(f, default_args(f), por=por, bound=bound)
        times.append(time.perf_counter() - t)
    assert ex is not None
    return gpu_ops, ex.schedules_explored, ex.complete, statistics.median(times), len(ex.outcomes), ex.pruned  # type: ignore[return-value]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--plain-bound", type=int, default=2000)
    args = ap.parse_args()
    print(
        f"{'program':14} {'gpu ops':>7} {'schedules':>9} {'pruned':>7} {'outcomes':>8} {'complete':>8} {'median s':>9} {'sched/s':>8} {'runs/s':>7}"
    )
    rows = [(name, make(), True, args.repeat, 100_000) for name, make in PROGRAMS.items()]
    rows += [(name + "/plain", PROGRAMS[name](), False, 1, args.plain_bound) for name in ("streams", "writers")]
    for name, text, por, repeat, bound in rows:
        ops, n, complete, t, outs, pruned = measure(text, repeat, por=por, bound=bound)
        print(
            f"{name:14} {ops:7d} {n:9d} {pruned:7d} {outs:8d} {str(complete):>8} {t:9.3f} {n / t:8.1f} {(n + pruned) / t:7.1f}"
        )


if __name__ == "__main__":
    main()
