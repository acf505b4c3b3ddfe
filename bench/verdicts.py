"""The verifier's verdict on every corpus program, per implementation.

    python bench/verdicts.py [--markdown]

Runs each program of `verifier/corpus/` and `examples/` through each
implementation: the identity rewrite (the output is the input), the refimpl
in its modes `reference` and `mlir19` (in-process, as the gate runs it) and
`seed` (`python -m refimpl --mode seed --mlir-print-op-generic`: its async
`gpu.alloc` has no custom form in today's syntax), and `mlir-opt-19` /
`mlir-opt-22 -gpu-async-region` where installed. Every output is checked by
`verifier.check`. Prints one row per program (the verdict of each
implementation) and, per implementation, how many programs got each verdict
and how many obligations Z3 and reachability both decided the same way out
of all obligations asked: the oracle-agreement count. An implementation that
fails or prints something unparsable is shown as such, not as a verdict.

With `--generated N` it also draws N programs the way the gate's `ci`
profile does (derandomized Hypothesis, `verifier.programs.generators.Features()`) and
runs them through the identity, the refimpl's `reference` and `mlir19`
modes and every mutant of `verifier.programs.mutants` (a wrong rewrite made by
editing the refimpl's right one; a mutant that changes nothing in a program
is not counted for it), giving the same per-implementation totals.

Not a test (the gate and `tests/verifier/test_verifier_*.py` assert what must hold);
a table for docs/performance.md.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verifier.harness.gate import CommandImpl, ImplFailed, RefimplImpl, judge  # noqa: E402


def implementations() -> dict[str, Callable[[str], str]]:
    impls: dict[str, Callable[[str], str]] = {"identity": lambda text: text}
    for mode in ("reference", "mlir19"):
        impls[f"refimpl {mode}"] = RefimplImpl(mode)
    # The seed's async `gpu.alloc` (token first) has no custom form today.
    impls["refimpl seed"] = CommandImpl((sys.executable, "-m", "refimpl", "--mode", "seed", "--mlir-print-op-generic"))
    for tool in ("mlir-opt-19", "mlir-opt-22"):
        if shutil.which(tool):
            impls[tool] = CommandImpl((tool, "-gpu-async-region"))
    return impls


def generated(count: int) -> list[str]:
    """`count` programs drawn as the gate's `ci` profile draws them."""
    from hypothesis import HealthCheck, given, settings

    from verifier.programs.generators import Features, program_texts

    texts: list[str] = []

    @settings(
        max_examples=count, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(program_texts(Features()))
    def collect(text: str) -> None:
        texts.append(text)

    collect()
    return texts


class Tally:
    """Verdicts of one implementation over programs, and how many
    obligations Z3 and reachability both decided the same way."""

    def __init__(self) -> None:
        self.verdicts: Counter = Counter()
        self.asked = self.agreed = 0

    def add(self, text: str, impl: Callable[[str], str]) -> str:
        """Judge one program as the gate does; its verdict or failure."""
        outcome = judge(text, impl)
        self.verdicts[outcome.verdict] += 1
        if outcome.report is not None:
            self.asked += sum(f.obligations for f in outcome.report.functions)
            self.agreed += sum(f.agreements for f in outcome.report.functions)
        return outcome.verdict

    def line(self, name: str) -> str:
        if not self.verdicts:
            return f"{name}: changes none of the programs"
        counts = ", ".join(f"{v} {n}" for v, n in sorted(self.verdicts.items()))
        return f"{name}: {counts}; Z3 and reachability agree on {self.agreed} of {self.asked} obligations"


def tally_mutants(texts: list[str], impls: dict[str, Callable[[str], str]]) -> None:
    """`Tally` per mutant, over the programs whose output it changes (the
    refimpl's output is the one it edits)."""
    reference = RefimplImpl("reference")
    expected: dict[str, str | None] = {}
    for name, impl in impls.items():
        t = Tally()
        for text in texts:
            if text not in expected:
                try:
                    expected[text] = reference(text)
                except ImplFailed:
                    expected[text] = None
            try:
                out = impl(text)
            except ImplFailed:
                out = None
            if out is not None and out == expected[text]:
                continue
            t.add(text, impl if out is None else (lambda _text, out=out: out))
        print(t.line(name))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--markdown", action="store_true", help="print the per-program table as Markdown")
    ap.add_argument(
        "--generated",
        type=int,
        default=0,
        metavar="N",
        help="also N generated programs through the refimpl and the mutants",
    )
    args = ap.parse_args()
    files = sorted((ROOT / "verifier" / "corpus").glob("*.mlir")) + sorted((ROOT / "examples").glob("*.mlir"))
    impls = implementations()
    names = list(impls)
    tallies = {name: Tally() for name in names}
    rows = []
    for path in files:
        text = path.read_text()
        rows.append((str(path.relative_to(ROOT)), [tallies[name].add(text, impls[name]) for name in names]))
    sep = " | " if args.markdown else "  "
    head = ["program", *names]
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for file, cells in rows:
            print("| " + " | ".join([f"`{file}`", *cells]) + " |")
    else:
        width = max(len(f) for f, _ in rows)
        print(sep.join([head[0].ljust(width), *(n.ljust(14) for n in names)]))
        for file, cells in rows:
            print(sep.join([file.ljust(width), *(c.ljust(14) for c in cells)]))
    print()
    for name in names:
        print(tallies[name].line(name))
    if args.generated:
        from verifier.programs.mutants import MUTANTS, MutantImpl

        texts = generated(args.generated)
        print(f"\n{len(texts)} generated programs:")
        gen_impls: dict[str, Callable[[str], str]] = {"identity": lambda text: text}
        gen_impls.update({f"refimpl {m}": RefimplImpl(m) for m in ("reference", "mlir19")})
        for name, impl in gen_impls.items():
            t = Tally()
            for text in texts:
                t.add(text, impl)
            print(t.line(name))
        tally_mutants(texts, {f"mutant {m}": MutantImpl(m) for m in MUTANTS})
    return 0


if __name__ == "__main__":
    sys.exit(main())
