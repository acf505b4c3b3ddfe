"""CPU time and peak memory of `parse_module` alone, as the verifier parses.

    python bench/bench_parse_fast.py FILE [--no-dominance] [--runs 7] [--root DIR] [--rss]

The verifier's CLI parses its input with dominance checked and the rewrite
without (`verifier/__main__.py`, `_read_and_parse`), with the cyclic
collector off. This times exactly that call, `time.process_time` around one
`parse_module`, `--runs` times in one process (a full collection between
runs, untimed: the previous IR is garbage a one-shot tool never has), and
prints each time, the median and the ops/s it gives. Pin it to one core
(`taskset -c 1`) and run the code before a change and after it in turn.

`--root DIR` imports `spec` from another checkout (a worktree of the base
commit), so both are measured with the same script. `--rss` parses once and
prints the process's peak RSS (`ru_maxrss`) and what it was before the
parse: interleaved temporaries fragment pymalloc's arenas, so the peak is
a figure of its own, not the live IR's size.
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import sys
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", type=Path)
    ap.add_argument("--no-dominance", action="store_true", help="parse as the verifier parses the rewrite")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--rss", action="store_true", help="one parse; print peak RSS")
    args = ap.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    from spec.syntax.parser import load_parser, parse_module

    text = args.file.read_text()
    load_parser()
    dominance = not args.no_dominance
    gc.collect()
    gc.disable()
    if args.rss:
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        module = parse_module(text, str(args.file), dominance=dominance)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(
            f"{args.file.name}: peak RSS {peak / 1024:.1f} MiB (before the parse {before / 1024:.1f} MiB), {sum(1 for _ in module.walk())} ops"
        )
        return
    times: list[float] = []
    ops = 0
    for _ in range(args.runs):
        start = time.process_time()
        module = parse_module(text, str(args.file), dominance=dominance)
        times.append(time.process_time() - start)
        ops = sum(1 for _ in module.walk())
        del module
        gc.collect()
    med = statistics.median(times)
    print(
        f"{args.file.name}: median {med:.3f} s CPU of {args.runs} ({' '.join(f'{t:.3f}' for t in times)}), {ops} ops, {ops / med:,.0f} ops/s"
    )


if __name__ == "__main__":
    main()
