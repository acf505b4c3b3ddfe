"""How often the compositional proof agrees with the whole-function proof.

The whole proof (`compose=False`: every region op unrolled into the
function's one graph) is the reference the compositional one is checked
against (`tests/support/compose_agreement.py` says what agreeing means: the
same verdict, or `verified` where the whole proof can only say `bounded`).
Counted per set of pairs, each an input with one of the refimpl's rewrites
(reference, mlir19, seed) or such a rewrite with one seeded edit (wrong
rewrites, most of them):

- `corpus`: the `.mlir` files of `tests/corpus`, `verifier/corpus` and
  `tests/wide`;
- `loops`: `bench/gen_control.py`'s loops in sequence (1 to 6) and nested
  (1 to 5), the shapes whose whole proof grows with the product of trip
  choices;
- `judge`: with `--judge N`, the first N pairs `bench/judge.py` draws for
  `--seed` (generated programs, nested modules among them, each with a
  rewrite by the identity, the refimpl or `mlir-opt-19` and up to two
  edits, at the pair's own loop bound);
- `whole 1..N`: every program of the `whole` alphabet up to `--max-size`,
  with the reference rewrite and one edit of it (`--all-modes`: the three
  modes, each with an edit). Their IR is built from the enumerator's ops
  (`program_ir`, what their text parses to), rewritten and edited in
  process, with no printing or parsing, and the checks share the Z3
  answers proved before in the process as an exhaustive run's do
  (`SHARED_PROOFS`): the same verdicts, at a fraction of the cost, so
  that every program up to size 4 is a run of some CPU-minutes.

Printed per set: pairs, agreements, disagreements (each listed with its
label and verdicts), how many pairs the compositional proof proved at least
one region of apart, and how many it verified where the whole proof said
`bounded`.

    python bench/compose_agreement.py [--max-size 3] [--every N] [--jobs 2] [--all-modes] [--judge N [--seed S]]
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import pickle
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from gen_control import nested, sequence  # noqa: E402
from judge import drawn_pairs  # noqa: E402

from spec.diagnostics import DiagnosticError  # noqa: E402
from spec.ir import Operation  # noqa: E402
from spec.syntax.parser import parse_module  # noqa: E402
from tests.support.compose_agreement import MODES, Comparison, compare, rewrites  # noqa: E402
from verifier import check  # noqa: E402
from verifier.harness import reference_impl  # noqa: E402
from verifier.harness.exhaustive_runners import SHARED_PATH_PROOFS, SHARED_PROOFS  # noqa: E402
from verifier.harness.gate import ImplFailed, RefimplImpl  # noqa: E402
from verifier.harness.judge_pairs import SOURCES, Pair, output_text  # noqa: E402
from verifier.programs.boundary_programs import ALL  # noqa: E402
from verifier.programs.edits import EDITS  # noqa: E402
from verifier.programs.enumeration import ALPHABETS, Program, programs_up_to  # noqa: E402
from verifier.programs.program_ir import program_ir  # noqa: E402

Job = tuple[str, str, bool] | tuple[str, Program, bool] | tuple[str, Pair, bool]
"""(set, input text or enumerated program, all modes): one input, every
pair made of it."""


def inputs(max_size: int, all_modes: bool, every: int = 1, judge: int = 0, at_seed: int = 0) -> Iterator[Job]:
    for folder in ("tests/corpus", "verifier/corpus", "tests/wide"):
        for path in sorted((ROOT / folder).glob("*.mlir")):
            yield "corpus", path.read_text(encoding="utf-8"), True
    for n in range(1, 7):
        yield "loops", sequence(n), True
    for d in range(1, 6):
        yield "loops", nested(d), True
    if judge:
        for pair in drawn_pairs(judge, at_seed, ALL, SOURCES, lambda: False):
            yield "judge", pair, False
    name = f"whole 1..{max_size}" + (f", one in {every}" if every > 1 else "")
    for k, p in enumerate(programs_up_to(ALPHABETS["whole"], max_size)):
        if k % every == 0:
            yield name, p, all_modes


def pairs_of(job: Job) -> tuple[str, list[Comparison]]:
    """Both proofs of every pair made of one input."""
    label, source, all_modes = job
    if isinstance(source, Program):
        return label, _program_pairs(source, all_modes)
    if isinstance(source, Pair):
        try:
            out = output_text(source)
        except (ImplFailed, DiagnosticError):
            return label, []
        c = compare(source.input_text, out, f"{source.describe()}\n{source.input_text}", unroll=source.unroll)
        return label, [c] if c is not None else []
    text = source
    found: list[Comparison] = []
    if all_modes:
        made = list(rewrites(text, label))
    else:
        made = [(f"{label} reference", out) for out in _reference(text)]
        made += [(lab, out) for lab, out in rewrites(text, label) if lab.startswith(f"{label} reference+")]
    for name, out in made:
        c = compare(text, out, f"{name}\n{text}")
        if c is not None:
            found.append(c)
    return label, found


def _program_pairs(p: Program, all_modes: bool) -> list[Comparison]:
    """Both proofs of the pairs made of an enumerated program, in process:
    each mode's rewrite of its IR and one edit of that rewrite, the edit
    drawn by a generator seeded with the program's id."""
    rng = random.Random(p.id)
    found: list[Comparison] = []
    for mode in MODES if all_modes else ("reference",):
        made = _ir(p)
        result = reference_impl.rewrite(made, mode)
        if not result.ok:
            continue
        outs = [(f"{mode}", result.module)]
        edited = pickle.loads(pickle.dumps(result.module, pickle.HIGHEST_PROTOCOL))
        name = rng.choice(sorted(EDITS))
        if EDITS[name](edited, lambda n: rng.randrange(n) if n else 0):
            outs.append((f"{mode}+{name}", edited))
        for tag, out in outs:
            verdicts = []
            for compose in (False, True):
                r = check(_ir(p), out, compose=compose, unroll=2, proofs=SHARED_PROOFS, path_proofs=SHARED_PATH_PROOFS)
                verdicts.append(r)
            whole, composed = verdicts
            regions = sum(f.regions for f in composed.functions)
            found.append(
                Comparison(f"whole {p.id} {tag}\n{p.text}", str(whole.verdict), str(composed.verdict), regions)
            )
    return found


def _ir(p: Program) -> Operation:
    built = program_ir(p, "in.mlir")
    return built if built is not None else parse_module(p.text, "in.mlir")


def _reference(text: str) -> list[str]:
    try:
        return [RefimplImpl("reference")(text)]
    except ImplFailed:
        return []


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python bench/compose_agreement.py", description=__doc__.splitlines()[0])
    ap.add_argument("--max-size", type=int, default=3, help="programs of `whole` up to this size (default 3)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--every", type=int, default=1, help="only every N-th program of `whole`, in enumeration order")
    ap.add_argument("--all-modes", action="store_true", help="`whole` programs with every mode's rewrite too")
    ap.add_argument("--judge", type=int, default=0, metavar="N", help="also the first N pairs bench/judge.py draws")
    ap.add_argument("--seed", type=int, default=0, help="the judge's seed for --judge (default 0)")
    args = ap.parse_args(argv)
    sys.setrecursionlimit(100_000)
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    wrong: list[Comparison] = []
    t0 = time.perf_counter()
    jobs = inputs(args.max_size, args.all_modes, args.every, args.judge, args.seed)
    with multiprocessing.Pool(args.jobs) if args.jobs > 1 else _Serial() as pool:
        for label, found in pool.imap_unordered(pairs_of, jobs, chunksize=16):
            c = counts[label]
            for cmp in found:
                c["pairs"] += 1
                c["agree" if cmp.agrees else "DISAGREE"] += 1
                c["regions proved apart"] += cmp.regions > 0
                c["verified where the whole proof is bounded"] += cmp.whole == "bounded" and cmp.composed == "verified"
                if not cmp.agrees:
                    wrong.append(cmp)
    print(f"compositional against whole proof ({time.perf_counter() - t0:.0f} s, --max-size {args.max_size}):")
    keys = ["pairs", "agree", "DISAGREE", "regions proved apart", "verified where the whole proof is bounded"]
    print("| set | " + " | ".join(keys) + " |")
    print("|---|" + "---|" * len(keys))
    for label, c in counts.items():
        print(f"| {label} | " + " | ".join(f"{c[k]:,}" for k in keys) + " |")
    for cmp in wrong:
        print(f"\nDISAGREE: whole {cmp.whole}, compositional {cmp.composed}: {cmp.label}")
    return 1 if wrong else 0


class _Serial:
    """`multiprocessing.Pool`'s `imap_unordered` in this process (`--jobs 1`)."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap_unordered(
        self, fn: Callable[[Job], tuple[str, list[Comparison]]], items: Iterable[Job], chunksize: int = 1
    ) -> Iterator[tuple[str, list[Comparison]]]:
        return map(fn, items)


if __name__ == "__main__":
    sys.exit(main())
