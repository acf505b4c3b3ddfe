"""The compositional proof against the whole-function proof, pair by pair.

`verifier/proof/compose.py` proves closed region ops apart and answers only
`verified` or `bounded`; otherwise the function is proved whole, as with
`compose=False`, which stays the reference. On a pair of input and
rewrite the two *agree* when their verdicts are equal, or when the whole
proof says `bounded` and the compositional one `verified` (one run of a
closed loop's body stands for every trip count, which the unrolled proof
can only claim up to its bound). Anything else is a disagreement: a test
fails on it, `bench/compose_agreement.py` counts it.

The pairs: each program with the refimpl's rewrites (reference, mlir19,
seed) and those rewrites with one seeded edit of `verifier.programs.edits.EDITS`
each (wrong rewrites, most of them).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from spec.diagnostics import DiagnosticError
from spec.syntax.parser import parse_module
from spec.syntax.printing import join_outputs, print_op
from verifier import check
from verifier.harness.gate import ImplFailed, RefimplImpl
from verifier.programs.edits import EDITS

MODES = ("reference", "mlir19", "seed")


@dataclass(frozen=True)
class Comparison:
    label: str
    whole: str
    composed: str
    regions: int
    """Region runs the compositional proof proved apart (0: it fell back)."""

    @property
    def agrees(self) -> bool:
        return self.whole == self.composed or (self.whole == "bounded" and self.composed == "verified")


def rewrites(text: str, label: str, edits_per_rewrite: int = 1, seed: int = 0) -> Iterator[tuple[str, str]]:
    """(label, output text) of the refimpl's rewrites of `text` and of edited copies."""
    rng = random.Random(seed)
    for mode in MODES:
        try:
            out = RefimplImpl(mode)(text)
        except ImplFailed:
            continue
        yield f"{label} {mode}", out
        for name in rng.sample(sorted(EDITS), min(edits_per_rewrite, len(EDITS))):
            try:
                module = parse_module(out, "<rewrite>", dominance=False)
            except DiagnosticError:
                break
            if EDITS[name](module, lambda n: rng.randrange(n) if n else 0):
                yield f"{label} {mode}+{name}", join_outputs([print_op(module)])


def compare(input_text: str, output_text: str, label: str, unroll: int = 2) -> Comparison | None:
    """Both proofs of one pair; None if the output does not parse."""
    try:
        whole = check(
            parse_module(input_text, "in.mlir"),
            parse_module(output_text, "out.mlir", dominance=False),
            compose=False,
            unroll=unroll,
        )
        composed = check(
            parse_module(input_text, "in.mlir"), parse_module(output_text, "out.mlir", dominance=False), unroll=unroll
        )
    except DiagnosticError:
        return None
    return Comparison(label, str(whole.verdict), str(composed.verdict), sum(f.regions for f in composed.functions))
