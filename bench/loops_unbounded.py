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

    python bench/loops_unbounded.py [--max-size 3]
"""

from __future__ import annotations

import argparse
import collections
import sys
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


def texts(max_size: int) -> Iterator[tuple[str, str]]:
    for label, folder in (("corpus", "tests/corpus"), ("corpus", "verifier/corpus"), ("wide corpus", "tests/wide")):
        for path in sorted((ROOT / folder).glob("*.mlir")):
            yield label, path.read_text(encoding="utf-8")
    for p in programs_up_to(ALPHABETS["whole"], max_size):
        yield f"whole 1..{max_size}", p.text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python bench/loops_unbounded.py", description=__doc__.splitlines()[0])
    ap.add_argument(
        "--max-size", type=int, default=3, help="programs of the whole alphabet up to this size (default 3)"
    )
    args = ap.parse_args(argv)
    table: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    impl = RefimplImpl("reference")
    for label, text in texts(args.max_size):
        try:
            out = impl(text)
            composed = check(parse_module(text, "in.mlir"), parse_module(out, "out.mlir", dominance=False))
            regions = check(
                parse_module(text, "in.mlir"), parse_module(out, "out.mlir", dominance=False), induction=False
            )
            whole = check(
                parse_module(text, "in.mlir"),
                parse_module(out, "out.mlir", dominance=False),
                compose=False,
                induction=False,
            )
        except (ImplFailed, DiagnosticError):
            continue
        funcs = {f.name: f for f in whole.functions}
        apart = {f.name: f for f in regions.functions}
        module = parse_module(text, "in.mlir")
        looped = {
            op.properties["sym_name"].value
            for op in module.walk()
            if op.name == "func.func" and op.regions and op.regions[0].blocks and has_loop(op)
        }  # type: ignore[attr-defined]
        for f in composed.functions:
            if f.name not in looped or f.name not in funcs:
                continue
            w = funcs[f.name]
            c = table[label]
            c["functions with loops"] += 1
            c[f"default {f.verdict}"] += 1
            c[f"without induction {apart[f.name].verdict}"] += 1
            c[f"whole {w.verdict}"] += 1
            agree = f.verdict == w.verdict or (str(w.verdict) == "bounded" and str(f.verdict) == "verified")
            c["agree" if agree else "DISAGREE"] += 1
    for label, c in table.items():
        print(f"{label}: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
