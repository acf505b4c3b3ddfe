"""Programs per second through the conformance gate (not a timed test).

    python bench/bench_gate.py [COUNT]

Draws COUNT programs (default 100) the way the gate's `ci` profile does
(derandomized, `verifier.programs.generators.Features()`), then times, per program:

- `gen`: drawing and parsing the program;
- `gate/refimpl`: `verifier.harness.gate.judge` with the default implementation (the
  refimpl in reference mode, in-process): rewrite, parse, verify;
- `gate/mlir-opt-19`: the same with `--impl "mlir-opt-19 -gpu-async-region"`
  (a subprocess per program), when installed;
- `mlir-opt-19 alone`: just running `mlir-opt-19 -gpu-async-region` on it, the
  baseline the gate's cost is compared with.

Prints medians, 90th percentiles, maxima, totals, programs per second and
the ratios of the medians to mlir-opt-19.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hypothesis import HealthCheck, given, settings

from spec.syntax.parser import parse_module
from verifier.harness.gate import CommandImpl, RefimplImpl, judge
from verifier.programs.generators import Features, program_texts


def draw(count: int) -> tuple[list[str], float]:
    texts: list[str] = []

    @settings(
        max_examples=count, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(program_texts(Features()))
    def collect(text: str) -> None:
        parse_module(text, "<gen>")
        texts.append(text)

    t0 = time.perf_counter()
    collect()
    return texts, time.perf_counter() - t0


def timed(fn, texts: list[str]) -> tuple[list[float], Counter]:  # type: ignore[no-untyped-def]
    times, verdicts = [], Counter()
    for t in texts:
        t0 = time.perf_counter()
        verdicts[fn(t)] += 1
        times.append(time.perf_counter() - t0)
    return times, verdicts


def line(name: str, times: list[float], verdicts: Counter | None = None) -> str:
    total = sum(times)
    rate = len(times) / total if total else float("inf")
    v = f"  {dict(verdicts)}" if verdicts else ""
    p90 = sorted(times)[int(0.9 * (len(times) - 1))]
    return (
        f"{name:18} median {statistics.median(times) * 1000:7.1f} ms  p90 {p90 * 1000:7.1f} ms  max {max(times):6.2f} s"
        f"  total {total:7.2f} s  {rate:6.1f} programs/s{v}"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("count", nargs="?", type=int, default=100, help="programs to draw (default 100)")
    count = ap.parse_args().count
    texts, gen_s = draw(count)
    print(
        f"{len(texts)} programs, {sum(len(t) for t in texts) // len(texts)} bytes on average; drawn and parsed in {gen_s:.2f} s"
    )
    ref, ref_v = timed(lambda t: judge(t, RefimplImpl("reference")).verdict, texts)
    print(line("gate/refimpl", ref, ref_v))
    opt = shutil.which("mlir-opt-19")
    if opt is None:
        print("mlir-opt-19 not installed: no comparison")
        return 0
    up, up_v = timed(lambda t: judge(t, CommandImpl((opt, "-gpu-async-region"))).verdict, texts)
    print(line("gate/mlir-opt-19", up, up_v))
    alone, _ = timed(
        lambda t: subprocess.run([opt, "-gpu-async-region", "-"], input=t, capture_output=True, text=True).returncode,
        texts,
    )
    print(line("mlir-opt-19 alone", alone))
    base = statistics.median(alone)
    print(
        f"ratio of medians to mlir-opt-19 alone: gate/refimpl {statistics.median(ref) / base:.1f}x, "
        f"gate/mlir-opt-19 {statistics.median(up) / base:.1f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
