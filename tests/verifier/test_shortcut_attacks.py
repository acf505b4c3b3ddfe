"""Wrong rewrites met by an exhaustive run's shared tables are still refuted.

The tables an exhaustive run hands its checks (`exhaustive_runners.Shortcuts`:
Z3's `unsat` answers, proofs of pairs of graphs by shape, function pairs
verified before, guarded queries decided by trying every assignment) are
filled by the reference's rewrites, which are all right. Here the same
tables see, interleaved with right rewrites, rewrites with one random edit
each (`verifier.programs.edits`: a wait dropped or moved, a dependency
dropped, tokens swapped, a branch retargeted, ...), many of them wrong and
most of the same shape as a right one nearby: every check must give what
a check without tables gives, verdict, counts and first violation alike.
A table entry that stood for more than its key says would turn a refuted
edit into `verified` here.
"""

from __future__ import annotations

import random

import pytest

import verifier
from spec.diagnostics import DiagnosticError
from spec.ir import Operation
from spec.syntax.parser import parse_module
from spec.syntax.printing import join_outputs, print_op
from verifier.harness import reference_impl
from verifier.harness.exhaustive_runners import Shortcuts
from verifier.programs.edits import EDITS
from verifier.programs.enumeration import WHOLE, programs_up_to
from verifier.proof.pairs import VerifiedPairs
from verifier.proof.shapes import KnownProofs
from verifier.smt.solver import ProvedQueries

EDITED = [
    "drop-wait",
    "move-wait",
    "move-await",
    "drop-dependency",
    "swap-return-token",
    "swap-yield-token",
    "swap-iter-arg",
    "swap-block-arg",
    "swap-wait-token",
    "retarget-branch",
    "drop-execute-wait",
    "hand-over-wait",
    "drop-await",
    "hoist-trapping",
    "duplicate-wait",
    "add-dependency",
]
"""The edits tried: those that can lose an ordering, and two that only add
one (`duplicate-wait`, `add-dependency`: right rewrites of new shapes)."""


def _answer(report: verifier.Report) -> tuple:
    first = next((v for fr in report.functions for v in fr.violations), None)
    return (
        str(report.verdict),
        [(fr.name, str(fr.verdict), fr.obligations, fr.proved, fr.bounded) for fr in report.functions],
        None if first is None else (first.kind, first.message),
    )


def _edited(text: str, name: str, rng: random.Random) -> str | None:
    module = parse_module(text, "<rewrite>", dominance=False)
    if not EDITS[name](module, lambda n: rng.randrange(n) if n else 0):
        return None
    return join_outputs([print_op(module)])


def _outputs(before_text: str, rng: random.Random) -> list[str]:
    result = reference_impl.rewrite(parse_module(before_text, "<input>"), "reference")
    assert result.ok
    right = join_outputs([print_op(result.module)])
    out = [right]
    # Up to four edits that change something, tried in a random order.
    for name in rng.sample(EDITED, len(EDITED)):
        edited = _edited(right, name, rng)
        if edited is not None and edited != right:
            out.append(edited)
            if len(out) > 4:
                break
    return out


def _parsed(text: str) -> Operation | None:
    try:
        return parse_module(text, "<output>", dominance=False)
    except DiagnosticError:
        return None


@pytest.mark.slow
def test_edited_rewrites_checked_with_shared_tables_answer_as_without() -> None:
    rng = random.Random(20261207)
    tables: Shortcuts = {
        "proofs": ProvedQueries(2_000),
        "path_proofs": ProvedQueries(20_000),
        "shapes": KnownProofs(2_000),
        "verified_pairs": VerifiedPairs(2_000),
        "assignments": True,
    }
    verdicts: dict[str, int] = {}
    for p in programs_up_to(WHOLE, 3):
        if p.size == 3 and rng.random() > 0.12:
            continue
        before = parse_module(p.text, "<input>")
        for text in _outputs(p.text, rng):
            after = _parsed(text)
            if after is None:
                continue
            plain = _answer(verifier.check(before, after))
            shared = _answer(verifier.check(before, _parsed(text), **tables))  # type: ignore[arg-type]  # parsed just above
            assert shared == plain, f"{p.id}:\n{text}"
            verdicts[plain[0]] = verdicts.get(plain[0], 0) + 1
    # Wrong rewrites were met, and the tables answered for many checks.
    assert verdicts.get("refuted", 0) > 500, verdicts
    assert verdicts.get("verified", 0) > 1_000, verdicts
    assert tables["shapes"].hits > 500 and tables["path_proofs"].hits > 500
