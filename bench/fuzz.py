"""Long fuzz runs of the parser/printer, outside CI (hostile input).

    python bench/fuzz.py [COUNT] [SEED]
    python bench/fuzz.py --diff [COUNT] [SEED] [--modes print,pass] [--shrink]
    python bench/fuzz.py --diff --replay SEED:INDEX [--modes ...]

`--diff`: differential run against `mlir-opt-19` (`verifier/harness/fuzz_syntax.py`:
token-level mutants of the corpus, input `i` of seed `s` replayable alone):
per mode, accept/reject agreement, print mismatches, our crashes, and for
each class of disagreement its shortest input (`--shrink`: reduced). Exit 1
if any disagreement or crash of ours was found. `--replay` shows one input,
both answers and the outcome.

Without `--diff`:
Mutates the corpus (byte and token edits, splices of two files) with a seeded
RNG and feeds each input through the same in-process path as
`python -m spec print`. A finding is any exception other than a located
`DiagnosticError`, or valid output that does not re-parse to itself. Prints
the count, the classes of answers and every finding (first 20 in full).
"""

from __future__ import annotations

import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.support.hostile import answer  # noqa: E402
from tests.support.mutations import TOKENS as MUTATION_TOKENS  # noqa: E402

TOKENS = [
    *MUTATION_TOKENS,
    b"<",
    b">",
    b"#",
    b"\xff",
    b"\x00",
    b"99999999999999999999",
    b"memref<?x4xf32>",
    b"loc(",
    b"\\",
]
"""The tests' mutation tokens, and bytes and words a parser finds harder."""


def mutate(rng: random.Random, seeds: list[bytes]) -> bytes:
    data = bytearray(rng.choice(seeds))
    kind = rng.random()
    if kind < 0.4:
        for _ in range(rng.randint(1, 6)):
            pos = rng.randrange(len(data) + 1)
            r = rng.random()
            if r < 0.33 and pos < len(data):
                del data[pos]
            elif r < 0.66 and pos < len(data):
                data[pos] = rng.randrange(256)
            else:
                data[pos:pos] = bytes([rng.randrange(256)])
    elif kind < 0.8:
        words = bytes(data).split(b" ")
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(words))
            r = rng.random()
            if r < 0.3 and len(words) > 1:
                del words[i]
            elif r < 0.5:
                words.insert(i, words[i])
            else:
                words[i] = rng.choice(TOKENS)
        data = bytearray(b" ".join(words))
    else:
        other = rng.choice(seeds)
        cut_a, cut_b = rng.randrange(len(data) + 1), rng.randrange(len(other) + 1)
        data = bytearray(data[:cut_a] + other[cut_b:])
    return bytes(data)


KINDS = ("print-equal", "print-mismatch", "both-reject", "we-accept", "we-reject", "we-crash", "19-crash")


def diff_main(argv: list[str]) -> int:
    import argparse
    import shutil

    from verifier.harness import fuzz_syntax as fz

    p = argparse.ArgumentParser(prog="python bench/fuzz.py --diff")
    p.add_argument("count", nargs="?", type=int, default=20_000)
    p.add_argument("seed", nargs="?", type=int, default=0)
    p.add_argument("--modes", default="print,pass")
    p.add_argument("--replay", default=None, metavar="SEED:INDEX")
    p.add_argument("--shrink", action="store_true")
    p.add_argument("--mlir-opt", default=shutil.which("mlir-opt-19"))
    args = p.parse_args(argv)
    if not args.mlir_opt:
        print("mlir-opt-19 not found", file=sys.stderr)
        return 2
    modes = [m for m in args.modes.split(",") if m]
    if args.replay:
        s, i = (int(x) for x in args.replay.split(":"))
        text = fz.mutant(fz.load_seeds(), s, i)
        print(text)
        for mode in modes:
            o = fz.check_one(args.mlir_opt, text, mode)
            print(f"== {mode}: {o.kind} {o.sig}")
        return 0
    start = time.perf_counter()
    reports = fz.run(args.mlir_opt, args.count, args.seed, modes)
    elapsed = time.perf_counter() - start
    print(
        f"differential fuzz: {args.count} inputs x {len(modes)} modes in {elapsed:.0f} s, seed {args.seed}, against {args.mlir_opt}"
    )
    bad = 0
    for mode, rep in reports.items():
        c = rep.counts
        accept = c.get("print-equal", 0) + c.get("print-mismatch", 0)
        print(
            f"[{mode}] both accept {accept} (print equal {c.get('print-equal', 0)}, mismatch {c.get('print-mismatch', 0)}), "
            f"both reject {c.get('both-reject', 0)}, we accept/19 rejects {c.get('we-accept', 0)}, "
            f"we reject/19 accepts {c.get('we-reject', 0)}, our crashes {c.get('we-crash', 0)}, 19 crashes {c.get('19-crash', 0)}"
        )
        for kind in KINDS[1:]:
            for sig, o in sorted(rep.findings.get(kind, {}).items(), key=lambda kv: len(kv[1].text)):
                bad += kind != "19-crash"
                text = fz.shrink(args.mlir_opt, o.text, mode) if args.shrink and kind != "19-crash" else o.text
                print(f"  {kind:14s} replay {args.seed}:{o.index:<6d} {sig}")
                print("    | " + text.strip()[:400].replace("\n", "\n    | "))
    return 1 if bad else 0


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--diff":
        return diff_main(sys.argv[2:])
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    seeds = [p.read_bytes() for p in sorted((REPO / "tests" / "corpus").glob("*.mlir"))]
    rng = random.Random(seed)
    answers: Counter[str] = Counter()
    findings: list[tuple[bytes, str]] = []
    start = time.perf_counter()
    for _ in range(count):
        data = mutate(rng, seeds)
        try:
            answers[answer(data)] += 1
        except Exception:
            findings.append((data, traceback.format_exc(limit=3)))
            answers["FINDING"] += 1
    elapsed = time.perf_counter() - start
    print(f"fuzz inputs: {count} in {elapsed:.0f} s ({count / elapsed:.0f}/s), seed {seed}, {len(seeds)} corpus files")
    for kind, n in answers.most_common():
        print(f"  {n:7d}  {kind}")
    print(f"findings: {len(findings)}")
    for data, tb in findings[:20]:
        print("----", repr(data[:300]))
        print(tb)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
