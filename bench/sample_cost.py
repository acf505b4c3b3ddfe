"""Benchmark: what an exhaustive run of one size costs, measured on samples.

    python bench/sample_cost.py [--alphabet whole] [--size 5] [--every 3000000] [--window 5000]

A run too long for one machine (`whole` at size 5: about 31 million
programs) is priced before it is started: the programs of `--size` are
enumerated in the run's order, and every `--every` programs the next
`--window` are checked as `python -m verifier exhaustive` checks them (the
refimpl in-process, `--mode`, with the run's shortcuts and its tables
shared across the windows, as they are across a run). Reported: the
programs enumerated, the windows, the CPU per program of the checks
(median over the windows, and over all), the CPU per program of the
enumeration alone, and what the whole size costs in CPU-hours at those
rates. `--prefix` checks the first `--window` programs only (no full
enumeration: the total is then not known, so no projection unless
`--total N` is given).
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verifier.harness.exhaustive import _collecting  # noqa: E402
from verifier.harness.exhaustive_runners import RefimplRunner  # noqa: E402
from verifier.programs.enumeration import ALPHABETS, batched, programs  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--alphabet", default="whole", choices=sorted(ALPHABETS))
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--every", type=int, default=3_000_000, help="a window starts every N programs")
    ap.add_argument("--window", type=int, default=5_000, help="programs checked per window")
    ap.add_argument("--prefix", action="store_true", help="check the first --window programs only")
    ap.add_argument("--total", type=int, help="the number of programs of the size, for --prefix's projection")
    ap.add_argument("--mode", default="reference", choices=["reference", "mlir19", "seed"])
    args = ap.parse_args()
    runner = RefimplRunner(args.mode, 10_000)
    alphabet = ALPHABETS[args.alphabet]
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}")
    print(f"date:    {datetime.datetime.now(datetime.UTC).strftime('%Y-%m-%d %H:%M:%S UTC')}")
    windows: list[float] = []
    checked = 0
    check_cpu = enum_cpu = 0.0
    pos = 0
    verdicts: dict[str, int] = {}
    it = programs(alphabet, args.size)
    with _collecting():
        while True:
            # Windows start at 0, --every, 2 x --every, ...: enumerate up to the next.
            t0 = time.process_time()
            start = len(windows) * args.every
            while pos < start and next(it, None) is not None:
                pos += 1
            window = list(itertools.islice(it, args.window))
            pos += len(window)
            enum_cpu += time.process_time() - t0
            if not window:
                break
            t1 = time.process_time()
            for batch in batched(iter(window), 64):
                for r in runner.run(batch):
                    verdicts[str(r.verdict)] = verdicts.get(str(r.verdict), 0) + 1
            dt = time.process_time() - t1
            check_cpu += dt
            checked += len(window)
            windows.append(1000 * dt / len(window))
            print(
                f"window at {pos - len(window):>10,}: {len(window)} programs, {windows[-1]:.3f} ms/program", flush=True
            )
            if args.prefix:
                break
    total = pos if not args.prefix else args.total
    per_check = 1000 * check_cpu / checked
    print(f"\nchecked {checked:,} programs in {len(windows)} window(s): {per_check:.3f} ms/program "
          f"(windows: median {statistics.median(windows):.3f}, min {min(windows):.3f}, max {max(windows):.3f})")  # fmt: skip
    print(f"verdicts: {dict(sorted(verdicts.items()))}")
    if not args.prefix:
        per_enum = 1000 * enum_cpu / pos
        print(f"enumerated {pos:,} programs of size {args.size}: {per_enum * 1000:.1f} us/program")
    if total:
        enum_ms = 1000 * enum_cpu / pos if not args.prefix else 0.0
        hours = total * (per_check + enum_ms) / 1000 / 3600
        print(f"projected: {total:,} programs x {per_check + enum_ms:.3f} ms = {hours:.1f} CPU-hours")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
