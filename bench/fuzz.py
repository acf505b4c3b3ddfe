"""Long fuzz run of the parser/printer, outside CI (issue: hostile input).

    python bench/fuzz.py [COUNT] [SEED]

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

from spec.diagnostics import DiagnosticError  # noqa: E402
from spec.syntax.parser import parse_module  # noqa: E402
from spec.syntax.printer import print_op  # noqa: E402
from spec.tool import decode_source, run_per_module  # noqa: E402

TOKENS = [b"%0", b"%arg0", b"{", b"}", b"(", b")", b"[", b"]", b",", b":", b"=", b"->", b"gpu.wait", b"async",
          b"^bb1", b"index", b"!gpu.async.token", b"\n", b"@k", b"0", b"-1", b'"x"', b"scf.yield", b"// -----\n",
          b"<", b">", b"#", b"\xff", b"\x00", b"99999999999999999999", b"memref<?x4xf32>", b"loc(", b"\\"]


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


def classify(data: bytes) -> str:
    try:
        src = decode_source(data, "fuzz.mlir")
    except DiagnosticError:
        return "rejected: encoding"
    text, diags = run_per_module(src, split=True, transform=lambda m: m, generic=False)
    if text is None:
        if any(d.loc.line < 1 or d.loc.col < 1 for d in diags):
            raise AssertionError(f"unlocated diagnostic: {diags[0].message}")
        return "rejected: " + diags[0].message.split("(")[0].split("'")[0].strip()[:40]
    for chunk in filter(None, text.split("// -----\n")):
        if print_op(parse_module(chunk)) + "\n" != chunk:
            raise AssertionError("output is not a fixed point")
    return "accepted"


def main() -> int:
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
            answers[classify(data)] += 1
        except Exception:  # noqa: BLE001 - every other exception is a finding
            findings.append((data, traceback.format_exc(limit=3)))
            answers["FINDING"] += 1
    elapsed = time.perf_counter() - start
    print(f"fuzz inputs: {count} in {elapsed:.0f} s ({count / elapsed:.0f}/s), seed {seed}, {len(seeds)} corpus files")
    for answer, n in answers.most_common():
        print(f"  {n:7d}  {answer}")
    print(f"findings: {len(findings)}")
    for data, tb in findings[:20]:
        print("----", repr(data[:300]))
        print(tb)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
