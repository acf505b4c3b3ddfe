"""Can the semantic judge find each soundness class by itself?

    python bench/judge_reach.py [--pairs N] [--seed S] [--classes a,b,...]

For each class of wrong rewrite the verifier once called `verified` (group
sizes, a hoisted trapping op, a function moved between modules, a blocking
wait added on an incoming value, a bounded proof taken for a full one, a
changed signature), this bench

1. reverts the verifier's fix for that class: a *mutation of the verifier*,
   applied by patching the one function that holds the fix (the table below
   names it), and nothing else;
2. draws `--pairs` pairs from the judge's own strategy (`verifier.harness.judge_pairs`),
   steered toward the class only by the knobs any judge run has (program
   options, the edit list, the loop bound);
3. judges every pair once with the semantics and checks it twice with the
   verifier, mutated and not.

A class is *reached* when the mutated verifier gives the class's wrong answer
on a pair the semantics calls `wrong` (the judge finds the hole), and *held*
when the real verifier gives it on none of them. The wrong answer is
`verified` for every class but the changed signature, whose defect was a
verdict other than a refutation that names the signature (the class's own
message). The table prints both per class, with the first pair that reached
it.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from unittest.mock import patch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hypothesis import HealthCheck, given, seed, settings

import verifier
from spec.diagnostics import DiagnosticError
from spec.semantics import events
from spec.semantics.judge import UNDECIDED, WRONG, judge_modules
from spec.syntax.parser import parse_module
from verifier.harness.gate import ImplFailed
from verifier.harness.judge_pairs import VERIFIER_BUDGET_S, VERIFIER_TIMEOUT_MS, Pair, output_text, pairs
from verifier.match import correspondence
from verifier.output.report import FunctionReport
from verifier.programs.boundary_programs import ALL, OPTION_NAMES, Options
from verifier.proof import blocking, pipeline
from verifier.smt.solver import Status

Mutation = Callable[[], contextlib.AbstractContextManager[None]]
Defect = Callable[[verifier.Report], bool]
"""Whether a report gives a class's wrong answer."""


def _verified(report: verifier.Report) -> bool:
    return report.verdict == "verified"


def _signature_not_named(report: verifier.Report) -> bool:
    # The class's own message: "the function's signature ... differs".
    named = any("signature" in v.message for f in report.functions for v in f.violations)
    return not (report.verdict == "refuted" and named)


@contextlib.contextmanager
def _ignore_group_size() -> Iterator[None]:
    # Every group followed whatever its size, and an `await_all` waits for
    # the tokens added before it only: the model before sizes counted.
    def wait_for_group(self: Any, group: Any, n: int) -> None:
        here = self.here()
        for c, a in self.groups[group]:
            self.g.edge_when(a, n, self.both(here, c))

    with (
        patch.object(events, "group_plan", lambda create: ""),
        patch.object(events.EventBuilder, "wait_for_group", wait_for_group),
    ):
        yield


def _any_pure_op_moves() -> contextlib.AbstractContextManager[None]:
    # Effect-free taken for speculatable: a division may cross its guard.
    return patch.object(correspondence._Matcher, "speculation_kept", lambda self, ba, bb, moved: True)


def _pair_by_leaf_name() -> contextlib.AbstractContextManager[None]:
    return patch.object(pipeline, "function_name", lambda func: func.properties["sym_name"].value)


def _no_progress_check() -> contextlib.AbstractContextManager[None]:
    return patch.object(pipeline, "added_waits", lambda fin, fout, corr: blocking.Progress([], []))


@contextlib.contextmanager
def _bounded_is_verified() -> Iterator[None]:
    real = pipeline.conclude

    def conclude(run: Any) -> FunctionReport:
        fr = real(run)
        return replace(fr, verdict=Status.VERIFIED) if fr.verdict == Status.BOUNDED else fr

    with patch.object(pipeline, "conclude", conclude):
        yield


def _signature_not_compared() -> contextlib.AbstractContextManager[None]:
    real = correspondence._Matcher.same_interface

    def same_interface(self: Any, a: Any, b: Any) -> bool:
        if "function_type" in a.properties:
            return True
        return bool(real(self, a, b))

    return patch.object(correspondence._Matcher, "same_interface", same_interface)


def _only(*names: str) -> Options:
    """The options with every construct but `names` (and GPU work) off."""
    return ALL.without(*(n for n in OPTION_NAMES if n not in names))


@dataclass(frozen=True)
class SoundnessClass:
    name: str
    fix: str
    """Where the verifier's fix lives (what the mutation patches)."""
    mutation: Mutation
    options: Options = ALL
    edits: list[str] | None = None
    unrolls: list[int] | None = None
    sources: list[str] = field(default_factory=lambda: ["identity", "refimpl"])
    nest: bool | None = None
    defect: Defect = _verified


CLASSES = [
    SoundnessClass(
        "group size",
        "events.group_plan, EventBuilder.wait_for_group",
        _ignore_group_size,
        replace(_only("groups", "execute", "unawaited_execute", "user_tokens"), max_ops=6),
        edits=["hand-over-wait"],
        sources=["identity", "refimpl", "refimpl-mlir19"],
    ),
    SoundnessClass(
        "trapping op hoisted",
        "correspondence._Matcher.speculation_kept",
        _any_pure_op_moves,
        _only("guards"),
        edits=["hoist-trapping"],
    ),
    SoundnessClass(
        "function moved between modules",
        "pipeline.function_name",
        _pair_by_leaf_name,
        edits=["move-to-nested-module"],
        nest=True,
    ),
    SoundnessClass(
        "blocking wait added",
        "pipeline.added_waits",
        _no_progress_check,
        _only("execute", "async_args"),
        edits=["await-incoming"],
    ),
    SoundnessClass(
        "bounded taken for verified",
        "pipeline.conclude",
        _bounded_is_verified,
        _only("loops", "user_tokens"),
        edits=["swap-iter-arg", "swap-yield-token", "drop-dependency", "drop-wait", "move-wait"],
        unrolls=[1],
    ),
    SoundnessClass(
        "signature changed",
        "correspondence._Matcher.same_interface",
        _signature_not_compared,
        edits=["rotate-arguments"],
        defect=_signature_not_named,
    ),
]


@dataclass
class Tally:
    pairs: int = 0
    wrong: int = 0
    reached: int = 0
    """Mutated verifier gives the class's wrong answer, semantics `wrong`."""
    held: int = 0
    """Real verifier gives it, semantics `wrong` (must stay 0)."""
    undecided: int = 0
    skipped: int = 0
    first: str = ""
    seconds: float = 0.0
    mutated: Counter[str] = field(default_factory=Counter)
    """The mutated verifier's verdicts on the pairs the semantics calls wrong."""


def _report(fin: Any, fout: Any, unroll: int) -> verifier.Report | None:
    try:
        return verifier.check(fin, fout, timeout_ms=VERIFIER_TIMEOUT_MS, budget_s=VERIFIER_BUDGET_S, unroll=unroll)
    except DiagnosticError:
        return None


def _draw(cls: SoundnessClass, n: int, at: int) -> list[Pair]:
    drawn: list[Pair] = []

    @seed(at)
    @settings(max_examples=n, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(pairs(cls.options, sources=cls.sources, edits=cls.edits, unrolls=cls.unrolls, nest=cls.nest, legacy=False))
    def collect(pair: Pair) -> None:
        drawn.append(pair)

    collect()
    return drawn


def measure(cls: SoundnessClass, n: int, at: int) -> Tally:
    t, t0 = Tally(), time.process_time()
    for pair in _draw(cls, n, at):
        try:
            out = output_text(pair)
            fin = parse_module(pair.input_text, "in.mlir")
            fout = parse_module(out, "out.mlir", dominance=False)
        except (ImplFailed, DiagnosticError):
            t.skipped += 1
            continue
        t.pairs += 1
        verdicts = [j.verdict for j in judge_modules(fin, fout).values()]
        if WRONG not in verdicts:
            t.undecided += UNDECIDED in verdicts
            continue
        t.wrong += 1
        with cls.mutation():
            mutated = _report(fin, fout, pair.unroll)
        real = _report(fin, fout, pair.unroll)
        t.mutated[str(mutated.verdict) if mutated else "unparsable"] += 1
        if mutated is not None and cls.defect(mutated):
            t.reached += 1
            if not t.first or len(pair.input_text) + len(out) < len(t.first):
                t.first = f"{pair.describe()}\n{out}"
        t.held += real is not None and cls.defect(real)
    t.seconds = time.process_time() - t0
    return t


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pairs", type=int, default=200, help="pairs drawn per class")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--classes", default=",".join(c.name for c in CLASSES), help="comma-separated class names")
    p.add_argument("--show", action="store_true", help="print the smallest pair that reached each class")
    args = p.parse_args(argv)
    chosen = [c for c in CLASSES if c.name in args.classes.split(",")]
    print(
        f"`python bench/judge_reach.py --pairs {args.pairs} --seed {args.seed}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n"
    )
    print(
        "| class | fix reverted (mutation of) | pairs | semantics wrong | mutated verifier on those | reached | held (real verifier verified: 0) | CPU s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    failed = False
    shown: list[tuple[str, str]] = []
    for cls in chosen:
        t = measure(cls, args.pairs, args.seed)
        failed |= t.held > 0
        verdicts = ", ".join(f"{v} {n}" for v, n in t.mutated.most_common()) or "-"
        print(
            f"| {cls.name} | `{cls.fix}` | {t.pairs} | {t.wrong} | {verdicts} | {t.reached} | {t.held} | {t.seconds:.0f} |",
            flush=True,
        )
        if t.first:
            shown.append((cls.name, t.first))
    for name, text in shown if args.show else ():
        print(f"\n---- {name}: {text}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
