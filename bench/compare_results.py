"""Compare two `exhaustive --results` files program by program.

    python bench/compare_results.py PLAIN.jsonl FAST.jsonl

The way an exhaustive run's shortcuts are checked against the plain path
on runs too long for a test: run the same alphabet and sizes once with
`--plain` and once without, each with `--results FILE`, then compare. Each
program (by id) must have the same verdict, signature, message (`detail`)
and text in both files, and both files must hold the same ids. Prints the
counts per verdict and every difference (the first 20 of each kind); exits
0 when there is none, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

FIELDS = ("verdict", "signature", "detail", "text")
"""What must be equal; `time_s` is not compared."""


def load(path: Path) -> dict[str, tuple[str, ...]]:
    """Each program's compared fields, by id (a resumed file's repeated id: its first line)."""
    out: dict[str, tuple[str, ...]] = {}
    with path.open() as f:
        for line in f:
            if not line.strip():
                continue
            rec = json.loads(line)
            if "id" in rec and rec["id"] not in out:
                out[rec["id"]] = tuple(str(rec.get(k, "")) for k in FIELDS)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("plain", type=Path, help="results of the run with --plain")
    ap.add_argument("fast", type=Path, help="results of the run without")
    args = ap.parse_args()
    plain, fast = load(args.plain), load(args.fast)
    only_plain = sorted(plain.keys() - fast.keys())
    only_fast = sorted(fast.keys() - plain.keys())
    differ = sorted(k for k in plain.keys() & fast.keys() if plain[k] != fast[k])
    print(f"{args.plain}: {len(plain)} programs; {args.fast}: {len(fast)} programs")
    print("verdicts (plain):", dict(sorted(Counter(v[0] for v in plain.values()).items())))
    print("verdicts (fast): ", dict(sorted(Counter(v[0] for v in fast.values()).items())))
    print(f"only in plain: {len(only_plain)}, only in fast: {len(only_fast)}, different: {len(differ)}")
    for k in only_plain[:20]:
        print(f"  only in plain: {k}")
    for k in only_fast[:20]:
        print(f"  only in fast: {k}")
    for k in differ[:20]:
        fields = [f for f, a, b in zip(FIELDS, plain[k], fast[k], strict=True) if a != b]
        print(f"  {k}: {', '.join(fields)} differ: plain {plain[k][:2]}, fast {fast[k][:2]}")
    return 1 if only_plain or only_fast or differ else 0


if __name__ == "__main__":
    sys.exit(main())
