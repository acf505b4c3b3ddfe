"""Benchmark: `verifier.check` on generated straight-line programs of N GPU
ops, against `mlir-opt-19 -gpu-async-region` on the same input, same run.

For each N (default 1k, 10k, 100k) the generator below writes one function
of N GPU ops (launches, copies, memsets, allocs) with a host effect
(`memref.store` or `func.call`) after every few of them; `mlir-opt-19`
rewrites it (timed as a whole process, median of runs). Two measurements,
each in a fresh subprocess so peak memory (`ru_maxrss`) is its own:

- from text (N <= --parse-max): `python -m verifier check IN --after OUT`
  on mlir-opt-19's output, the whole process against the whole mlir-opt-19
  process (the ratio), the two run in turn so that both meet the same
  machine (mlir-opt-19's own time moves by up to 40% between runs); and the same work in an instrumented child that
  reports its phases (imports, loading the parser, parsing, checking);
- IR built (`bench/verify_ir.py`, every N): the same program and a correct
  rewrite built directly as IR, then `verifier.check` (match, events,
  reachability, Z3) timed, so the verifier's own cost is seen at sizes where
  parsing text dominates.

    python bench/bench_verify.py [--sizes 1000,10000,100000] [--repeat 3]

Targets: at 10k the whole check within 20x the mlir-opt-19
process; at 100k Z3 proving time <= 10 s and peak memory <= 1 GB. Z3 time is
given as wall and CPU seconds: on a loaded machine the CPU figure is the
steadier one.
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


def kinds(n: int, seed: int = 0) -> list[str]:
    """The op sequence of a program with `n` synchronous GPU ops: `launch`,
    `copy`, `set`, `alloc` (an alloc and its dealloc: two GPU ops), and a
    host effect (`store` or `call`) after every 1-8 GPU ops."""
    rng = random.Random(seed)
    out: list[str] = []
    gap = rng.randint(1, 8)
    i = 0
    while i < n:
        k = rng.choice(["launch", "copy", "set", "alloc"]) if i + 1 < n else "launch"
        out.append(k)
        i += 2 if k == "alloc" else 1
        gap -= 1
        if gap == 0 and i < n:
            gap = rng.randint(1, 8)
            out.append(rng.choice(["store", "call"]))
    return out


LINES = {
    "launch": "    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)\n",
    "copy": "    gpu.memcpy %b, %a : memref<64xf32>, memref<64xf32>\n",
    "set": "    gpu.memset %a, %x : memref<64xf32>, f32\n",
    "alloc": "    %m{i} = gpu.alloc () : memref<64xf32>\n    gpu.dealloc %m{i} : memref<64xf32>\n",
    "store": "    memref.store %x, %b[%c0] : memref<64xf32>\n",
    "call": "    call @use(%b) : (memref<64xf32>) -> ()\n",
}


def generate(n: int, seed: int = 0) -> str:
    """The program of `kinds(n, seed)` as MLIR text (synchronous)."""
    return HEAD + "".join(LINES[k].format(i=i) for i, k in enumerate(kinds(n, seed))) + "    return\n  }\n}\n"


def gpu_op_count(text: str) -> int:
    return sum(text.count(k) for k in ("gpu.launch_func", "gpu.memcpy ", "gpu.memset ", "gpu.alloc ", "gpu.dealloc "))


def run_mlir_opt(path: str) -> tuple[float, str]:
    """Wall time and output of one `mlir-opt-19 -gpu-async-region` process."""
    exe = shutil.which("mlir-opt-19")
    if exe is None:
        raise SystemExit("mlir-opt-19 not found (apt-get install mlir-19-tools)")
    t0 = time.perf_counter()
    proc = subprocess.run([exe, "-gpu-async-region", path], capture_output=True, text=True, check=True)
    return time.perf_counter() - t0, proc.stdout


def time_mlir_opt(path: str, repeat: int) -> tuple[float, str]:
    runs = [run_mlir_opt(path) for _ in range(repeat)]
    return statistics.median(t for t, _ in runs), runs[-1][1]


def time_pairs(inp: str, out: str, repeat: int) -> tuple[float, float, float]:
    """The CLI against mlir-opt-19, run in turn (one of each, `repeat`
    times) so both see the same machine: the median of each and the median
    of the per-pair ratios."""
    pairs = [(run_mlir_opt(inp)[0], run_cli(inp, out)) for _ in range(repeat)]
    return (
        statistics.median(o for o, _ in pairs),
        statistics.median(c for _, c in pairs),
        statistics.median(c / o for o, c in pairs),
    )


CHILD = r"""
import gc, json, resource, sys, time
sys.setrecursionlimit(10000)
gc.disable()  # as `spec.tool.run_tool` runs the CLI
t0 = time.perf_counter()
from spec.syntax.parse_many import parse_modules
from spec.syntax.parser import load_parser
import verifier
t_import = time.perf_counter() - t0
t0 = time.perf_counter()
load_parser()
t_load = time.perf_counter() - t0
t0 = time.perf_counter()
# As `python -m verifier check IN --after OUT` parses them: at once.
a, b = parse_modules([(open(p).read(), p) for p in sys.argv[1:3]])
t_parse = time.perf_counter() - t0
t0 = time.perf_counter()
r = verifier.check(a, b)
t_check = time.perf_counter() - t0
f = r.functions[0]
print(json.dumps({"verdict": r.verdict, "obligations": f.obligations, "agreements": f.agreements,
  "import": t_import, "load_parser": t_load, "parse": t_parse, "check": t_check, **r.timings,
  "maxrss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run_cli(inp: str, out: str) -> float:
    """Wall time of `python -m verifier check INP --after OUT`, the command
    a user runs: what the ratio against mlir-opt-19 is taken of."""
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "verifier", "check", inp, "--after", out], capture_output=True, text=True, cwd=ROOT
    )
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"verifier exited {proc.returncode}: {proc.stdout[-500:]}{proc.stderr[-500:]}")
    return wall


def run_check(inp: str, out: str) -> dict:
    """One whole `check` in a fresh interpreter: its phases and peak RSS."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", CHILD, inp, out], capture_output=True, text=True, cwd=ROOT, check=True)
    data = json.loads(proc.stdout)
    data["process"] = time.perf_counter() - t0
    return data


def run_ir(n: int) -> dict:
    """`bench/verify_ir.py N`: the same program built as IR (no parsing)."""
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, "bench", "verify_ir.py"), str(n)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    return json.loads(proc.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (median)")
    ap.add_argument("--parse-max", type=int, default=10000, help="largest N checked from text (parsing included)")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            text = generate(n, seed=n)
            inp = os.path.join(tmp, f"in{n}.mlir")
            with open(inp, "w") as f:
                f.write(text)
            t_opt, out_text = time_mlir_opt(inp, args.repeat)
            row: dict = {"n": n, "gpu_ops": gpu_op_count(text), "mlir_opt_19_s": t_opt}
            ir = [run_ir(n) for _ in range(args.repeat)]
            for k in ("check", "match", "events", "reach", "z3", "z3_cpu", "maxrss_mib"):
                row[f"ir_{k}"] = statistics.median(r[k] for r in ir)
            row.update(
                verdict=ir[0]["verdict"],
                obligations=ir[0]["obligations"],
                agreements=ir[0]["agreements"],
                z3_queries=ir[0]["z3_queries"],
            )
            row["ratio_check"] = row["ir_check"] / t_opt
            line = (
                f"N={n:>6} gpu_ops={row['gpu_ops']:>6} {row['verdict']:<9} obligations={row['obligations']:>6} agree={row['agreements']:>6} "
                f"mlir-opt-19={t_opt:6.3f}s | check (IR built) {row['ir_check']:6.2f}s (x{row['ratio_check']:.1f}): match={row['ir_match']:.2f} "
                f"events={row['ir_events']:.2f} reach={row['ir_reach']:.3f} z3={row['ir_z3']:.2f}s (cpu {row['ir_z3_cpu']:.2f}s) "
                f"maxrss={row['ir_maxrss_mib']:.0f}MiB"
            )
            if n <= args.parse_max:
                out = os.path.join(tmp, f"out{n}.mlir")
                with open(out, "w") as f:
                    f.write(out_text)
                runs = [run_check(inp, out) for _ in range(args.repeat)]
                for k in ("process", "import", "load_parser", "parse", "check", "z3", "maxrss_mib"):
                    row[f"text_{k}"] = statistics.median(r[k] for r in runs)
                row["text_verdict"] = runs[0]["verdict"]
                row["cli_mlir_opt_19_s"], row["cli_process"], row["ratio_pairs"] = time_pairs(inp, out, args.repeat)
                row["ratio_process"] = row["cli_process"] / row["cli_mlir_opt_19_s"]
                line += (
                    f" | from text vs mlir-opt-19 output: {row['text_verdict']}, the CLI {row['cli_process']:.2f}s against "
                    f"mlir-opt-19 {row['cli_mlir_opt_19_s']:.3f}s run in turn (x{row['ratio_process']:.1f}, "
                    f"median of pair ratios x{row['ratio_pairs']:.1f}); "
                    f"instrumented run {row['text_process']:.2f}s: "
                    f"import {row['text_import']:.2f}s load parser {row['text_load_parser']:.2f}s parse {row['text_parse']:.2f}s check {row['text_check']:.2f}s z3 {row['text_z3']:.2f}s "
                    f"maxrss {row['text_maxrss_mib']:.0f}MiB"
                )
            print(line, flush=True)
            rows.append(row)
    print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
