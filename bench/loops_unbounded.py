"""How many functions with loops are proved for every trip count, region by
region and by induction, against the whole proof that unrolls them.

For each program (the corpus `tests/corpus` and `verifier/corpus`, the
wide corpus `tests/wide`, and every program of the `whole` alphabet up to
`--max-size`), the reference rewrite is checked three times: the default
proof (closed regions apart, loops that carry tokens by induction), the
same without induction (`--no-induction`), and the whole proof
(`--no-compose --no-induction`, loops unrolled to the bound). Counted per
set, over the functions that hold a loop (`scf.for`, `scf.while`,
`scf.parallel`, `affine.for`, or a `cf` block entered from a later one):
verified for every trip count, bounded, and anything else, by each proof;
and how often the default and the whole proof agree (the same verdict, or
the whole proof bounded where the default verified).

    python bench/loops_unbounded.py [--max-size 3] [--every N] [--jobs N]
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from spec.diagnostics import DiagnosticError  # noqa: E402
from spec.ir import Operation  # noqa: E402
from spec.syntax.parser import parse_module  # noqa: E402
from verifier import check  # noqa: E402
from verifier.harness.gate import ImplFailed, RefimplImpl  # noqa: E402
from verifier.programs.enumeration import ALPHABETS, programs_up_to  # noqa: E402

LOOPS = frozenset({"scf.for", "scf.while", "scf.parallel", "affine.for"})


def has_loop(func: Operation) -> bool:
    if any(op.name in LOOPS for op in func.walk()):
        return True
    blocks = func.regions[0].blocks if func.regions else []
    index = {id(b): i for i, b in enumerate(blocks)}
    return any(index.get(id(s), len(blocks)) <= i for i, b in enumerate(blocks) for s in b.successors())


def texts(max_size: int, every: int = 1) -> Iterator[tuple[str, str]]:
    for label, folder in (("corpus", "tests/corpus"), ("corpus", "verifier/corpus"), ("wide corpus", "tests/wide")):
        for path in sorted((ROOT / folder).glob("*.mlir")):
            yield label, path.read_text(encoding="utf-8")
    name = f"whole 1..{max_size}" + (f", one in {every}" if every > 1 else "")
    for k, p in enumerate(programs_up_to(ALPHABETS["whole"], max_size)):
        if k % every == 0:
            yield name, p.text


def verdicts(job: tuple[str, str]) -> tuple[str, list[tuple[str, str, str]]]:
    """(set, [(default, without induction, whole) verdict per function that
    holds a loop]) of one input; none for an input without a loop (the
    three proofs are not run: most programs of `whole` have none)."""
    label, text = job
    try:
        module = parse_module(text, "in.mlir")
    except DiagnosticError:
        return label, []
    looped = {
        op.properties["sym_name"].value  # type: ignore[attr-defined]  # a func.func's sym_name is a StringAttr
        for op in module.walk()
        if op.name == "func.func" and op.regions and op.regions[0].blocks and has_loop(op)
    }
    if not looped:
        return label, []
    try:
        out = RefimplImpl("reference")(text)
        composed = check(parse_module(text, "in.mlir"), parse_module(out, "out.mlir", dominance=False))
        regions = check(parse_module(text, "in.mlir"), parse_module(out, "out.mlir", dominance=False), induction=False)
        whole = check(
            parse_module(text, "in.mlir"),
            parse_module(out, "out.mlir", dominance=False),
            compose=False,
            induction=False,
        )
    except (ImplFailed, DiagnosticError):
        return label, []
    funcs = {f.name: f for f in whole.functions}
    apart = {f.name: f for f in regions.functions}
    return label, [
        (str(f.verdict), str(apart[f.name].verdict), str(funcs[f.name].verdict))
        for f in composed.functions
        if f.name in looped and f.name in funcs
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python bench/loops_unbounded.py", description=__doc__.splitlines()[0])
    ap.add_argument(
        "--max-size", type=int, default=3, help="programs of the whole alphabet up to this size (default 3)"
    )
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--every", type=int, default=1, help="only every N-th program of `whole`, in enumeration order")
    args = ap.parse_args(argv)
    sys.setrecursionlimit(100_000)
    table: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    t0 = time.perf_counter()
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    results = (
        pool.imap_unordered(verdicts, texts(args.max_size, args.every), chunksize=64)
        if pool
        else map(verdicts, texts(args.max_size, args.every))
    )
    for label, found in results:
        c = table[label]
        for default, without, whole in found:
            c["functions with loops"] += 1
            c[f"default {default}"] += 1
            c[f"without induction {without}"] += 1
            c[f"whole {whole}"] += 1
            agree = default == whole or (whole == "bounded" and default == "verified")
            c["agree" if agree else "DISAGREE"] += 1
    if pool:
        pool.close()
        pool.join()
    print(f"{time.perf_counter() - t0:.0f} s")
    for label, c in table.items():
        print(f"{label}: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
