"""Parse+print throughput of `spec.syntax` against mlir-opt-19, same files, same run.

    python bench/bench_parse.py [--sizes 1000 10000 100000] [--runs 3] [--no-outputs]

For each size N, `bench/gen_programs.generate(N)` writes a program with N GPU
ops (and the host ops around them) to a temporary file; unless
`--no-outputs`, mlir-opt-19's `-gpu-async-region` output of it is measured
too (row `N out`: the verifier parses both, and the output is spelt
`%t = gpu.memcpy async [%d] ...`). The parse is timed twice, with the fast
path for common op shapes (`spec/syntax/fast_path.py`, the default) and
without it (every token through the LALR loop), in turn. We time, as the
median of `--runs` runs: our parse, our print, and `mlir-opt-19 FILE`
(parse, verify and print, as a subprocess, wall clock). Peak memory of one
parse+print is measured separately with tracemalloc (it slows the run, so
it is not timed). The table gives ops/s parsed (all ops of the module,
counted by a walk), the ratio of our parse+print time to mlir-opt-19's, and
the peak bytes per op (flat if no parse tree is kept).

Wall time is what a user sees; CPU time of our process is shown too,
because on a loaded machine the two differ. Each timed run starts after a
full garbage collection (the previous run's IR is cyclic garbage a one-shot
tool never has), as `timeit` times with the collector out of the way. The
first collection after a parse, which traverses everything the parse built
(it runs with the collector paused), is timed apart and shown with the
ops/s it leaves.
"""

from __future__ import annotations

import argparse
import gc
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_programs import generate

from spec.syntax.options import ParseOptions
from spec.syntax.parser import parse_module
from spec.syntax.printing import print_op


@dataclass
class Row:
    n_gpu: int
    ops: int
    lines: int
    parse_s: float
    parse_cpu_s: float
    print_s: float
    peak_bytes: int
    mlir_s: float | None
    gc_s: float = 0.0
    """The first garbage collection after the parse (a young-generation pass
    over everything the parse built)."""
    lalr_cpu_s: float = 0.0
    """CPU time of the parse with the fast path off (the LALR loop alone)."""
    label: str = ""

    @property
    def ops_per_s(self) -> float:
        return self.ops / self.parse_s

    @property
    def ratio(self) -> float | None:
        return (self.parse_s + self.print_s) / self.mlir_s if self.mlir_s else None


def _median_time(fn: object, runs: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        # The previous run's IR is garbage with cycles: collected here, not
        # inside the next timed run (a one-shot tool never holds it).
        gc.collect()
        w, c = time.perf_counter(), time.process_time()
        fn()  # type: ignore[operator]
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus)


def _parse_times(text: str, name: str, runs: int) -> tuple[float, float, float]:
    """Median wall and CPU time of the parse with the fast path, and CPU
    time without it, the two run in turn (so both meet the same load)."""
    walls, cpus, lalr = [], [], []
    for _ in range(runs):
        w, c = _median_time(lambda: parse_module(text, name), 1)
        walls.append(w)
        cpus.append(c)
        lalr.append(_median_time(lambda: parse_module(text, name, options=ParseOptions(fast_path=False)), 1)[1])
    return statistics.median(walls), statistics.median(cpus), statistics.median(lalr)


def measure(n_gpu: int, runs: int, mlir_opt: str | None, workdir: Path, output: bool = False) -> Row:
    text = generate(n_gpu)
    path = workdir / f"gen_{n_gpu}.mlir"
    path.write_text(text)
    if output:
        assert mlir_opt is not None
        text = subprocess.run(
            [mlir_opt, "-gpu-async-region", str(path)], capture_output=True, text=True, check=True
        ).stdout
        path = workdir / f"out_{n_gpu}.mlir"
        path.write_text(text)
    module = parse_module(text, str(path))
    ops = sum(1 for _ in module.walk())
    parse_s, parse_cpu, lalr_cpu = _parse_times(text, str(path), runs)
    # The first collection after a parse traverses everything it built (the
    # parse pauses the collector): a cost every caller pays once, shown apart.
    gc_s = statistics.median(_first_collection(text, str(path)) for _ in range(runs))
    print_s, _ = _median_time(lambda: print_op(module), runs)
    tracemalloc.start()
    print_op(parse_module(text, str(path)))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    mlir_s = None
    if mlir_opt:

        def run_mlir() -> None:
            subprocess.run([mlir_opt, str(path), "-o", str(workdir / "out.mlir")], check=True)

        mlir_s, _ = _median_time(run_mlir, runs)
    label = f"{n_gpu} out" if output else str(n_gpu)
    return Row(n_gpu, ops, text.count("\n"), parse_s, parse_cpu, print_s, peak, mlir_s, gc_s, lalr_cpu, label)


def _first_collection(text: str, name: str) -> float:
    gc.collect()
    module = parse_module(text, name)
    t = time.perf_counter()
    gc.collect(0)
    elapsed = time.perf_counter() - t
    del module
    return elapsed


def table(rows: list[Row]) -> str:
    head = (
        "| GPU ops | ops | parse s (median) | parse CPU s | ops/s parsed (wall) | ops/s parsed (CPU) "
        "| ops/s CPU, fast path off | print s "
        "| first GC pass s | ops/s incl. it | peak MiB | bytes/op | mlir-opt-19 s | ours / mlir-opt-19 |"
    )
    out = [head, "|---" * (head.count("|") - 1) + "|"]
    for r in rows:
        mlir = f"{r.mlir_s:.3f}" if r.mlir_s is not None else "n/a"
        ratio = f"{r.ratio:.1f}x" if r.ratio is not None else "n/a"
        out.append(
            f"| {r.label or r.n_gpu} | {r.ops} | {r.parse_s:.3f} | {r.parse_cpu_s:.3f} | {r.ops_per_s:,.0f} "
            f"| {r.ops / r.parse_cpu_s:,.0f} | {r.ops / r.lalr_cpu_s:,.0f} | {r.print_s:.3f} | {r.gc_s:.3f} | {r.ops / (r.parse_s + r.gc_s):,.0f} "
            f"| {r.peak_bytes / 2**20:.1f} | {r.peak_bytes / r.ops:,.0f} | {mlir} | {ratio} |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--no-outputs", action="store_true", help="skip mlir-opt-19's outputs of the generated programs"
    )
    args = parser.parse_args(argv)
    mlir_opt = shutil.which("mlir-opt-19")
    if mlir_opt is None:
        print("mlir-opt-19 not found: its column is n/a", file=sys.stderr)
    # Warm up: build the LALR tables and every lexer state once.
    parse_module(generate(50, seed=1))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            for output in (False, True) if mlir_opt and not args.no_outputs else (False,):
                rows.append(measure(n, args.runs, mlir_opt, Path(tmp), output))
                print(table(rows[-1:]).splitlines()[-1], file=sys.stderr, flush=True)
    print(table(rows))
    inputs = [r for r in rows if not r.label.endswith("out")]
    if len(inputs) > 1:
        first, last = inputs[0], inputs[-1]
        growth = (last.parse_s / first.parse_s) / (last.ops / first.ops)
        print(f"\nparse time growth from N={first.n_gpu} to N={last.n_gpu}: {growth:.2f}x of linear")
    return 0


if __name__ == "__main__":
    sys.exit(main())
