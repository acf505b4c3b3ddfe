"""Guarded queries decided by trying every assignment give Z3's answers.

`GuardedProver(assignments=True)` (`CheckOptions.assignments`, an
exhaustive run's shortcut) decides a query of few decisions without Z3
(`_by_assignments`). Here every guarded query of the checks of real
rewrites (the reference's and the seed's, which has bugs, so that
violations come up) is decided both ways and the answers compared:
`prove`'s (violated somewhere, or not) and `ordered_everywhere`'s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from spec.semantics.conditions import Symbols
from spec.semantics.guarded_graph import GuardedGraph
from verifier.harness.exhaustive_runners import RefimplRunner
from verifier.programs.enumeration import ALPHABETS, WHOLE, batched, programs_up_to
from verifier.proof.budget import Budget
from verifier.smt import encode_guarded
from verifier.smt.encode_guarded import GuardedProver
from verifier.smt.solver import ObligationResult, SolverSettings, Status


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Every guarded query of the checks run meanwhile answered by Z3 and
    by assignments; the answers counted (and asserted equal)."""
    seen: Counter[str] = Counter()
    prove, everywhere = GuardedProver.prove, GuardedProver.ordered_everywhere

    def both_everywhere(self: GuardedProver, g: GuardedGraph, src: int, dst: int) -> bool | None:
        self.assignments = False
        z3_says = everywhere(self, g, src, dst)
        self.assignments = True
        mine = everywhere(self, g, src, dst)
        self.assignments = False
        assert mine == z3_says
        seen[f"everywhere: {mine}"] += 1
        return z3_says

    def both_prove(
        self: GuardedProver, a_in: int, b_in: int, a_out: int, b_out: int, minimise: bool = True
    ) -> ObligationResult:
        nodes_in = self.ordered_slice(self.gin, a_in, b_in)
        nodes_out = self.slice_between(self.gout, a_out, b_out)
        self.assignments = True
        mine = self._violated_somewhere(a_in, b_in, nodes_in, a_out, b_out, nodes_out)
        self.assignments = False
        proofs, self.proofs = self.proofs, None
        z3_says = prove(self, a_in, b_in, a_out, b_out, minimise)
        self.proofs = proofs
        assert z3_says.status in (Status.VERIFIED, Status.REFUTED)
        # The other question on the same graphs: is the pair ordered on
        # every path of the output (of the input) where its first is?
        both_everywhere(self, self.gout, a_out, b_out)
        both_everywhere(self, self.gin, a_in, b_in)
        if mine is None:
            seen["prove: not tried"] += 1
        else:
            assert mine == (z3_says.status == Status.REFUTED)
            seen[f"prove: {'violated' if mine else 'proved'}"] += 1
        return z3_says

    monkeypatch.setattr(GuardedProver, "prove", both_prove)
    monkeypatch.setattr(GuardedProver, "ordered_everywhere", both_everywhere)
    yield seen


def _check_all(mode: str, alphabet: str, size: int) -> None:
    runner = RefimplRunner(mode, 10_000, plain=True)
    for batch in batched(programs_up_to(ALPHABETS[alphabet], size), 64):
        runner.run(batch)


def test_assignments_give_z3s_answers(compared: Counter[str]) -> None:
    for mode, alphabet, size in [
        ("reference", "whole", 2),
        ("seed", "whole", 2),
        ("seed", "control", 3),
        ("reference", "full", 2),
        ("reference", "control", 3),
    ]:
        _check_all(mode, alphabet, size)
    # Both answers of both questions came up, and nearly every query was tried.
    assert compared["prove: proved"] > 500 and compared["prove: violated"] > 20
    assert compared["everywhere: True"] > 20 and compared["everywhere: False"] > 20
    assert compared["prove: not tried"] < compared["prove: proved"] // 10


@pytest.mark.slow
def test_assignments_give_z3s_answers_to_size_3(compared: Counter[str]) -> None:
    _check_all("reference", "whole", 3)
    _check_all("seed", "whole", 3)
    assert compared["prove: violated"] > 0 and compared["prove: proved"] > 5_000


def _prover(sym: Symbols, gin: GuardedGraph, gout: GuardedGraph) -> GuardedProver:
    return GuardedProver(sym, gin, gout, 2, SolverSettings(), assignments=True)


def test_not_tried_beyond_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # A query of more assignments than the limit is Z3's; up to it, decided.
    from spec.semantics.guarded_builder import build_guarded
    from spec.syntax.parser import parse_module
    from verifier.proof.pipeline import functions_of

    for p in programs_up_to(WHOLE, 3):
        (func,) = functions_of(parse_module(p.text, "<input>"))
        sym = Symbols()
        g = build_guarded(func, sym)
        if len({d for d, _ in g.met}) >= 2 and len(set(g.guards)) >= 3:
            break
    prover = _prover(sym, g, g)
    conds = set(g.guards)
    decisions = set().union(*(prover._decisions_of(c) or set() for c in conds))
    count = 1
    for d in decisions:
        dec = sym.decisions[d]
        count *= dec.options if dec.on_trip_count or dec.options > 2 else 2
    assert count >= 4
    assert prover._by_assignments(conds, lambda holds: False) is False
    assert prover._by_assignments(conds, lambda holds: all(holds(c) for c in conds)) is not None
    monkeypatch.setattr(encode_guarded, "MAX_ASSIGNMENTS", count - 1)
    assert prover._by_assignments(conds, lambda holds: False) is None
    monkeypatch.setattr(encode_guarded, "MAX_ASSIGNMENTS", count)
    assert prover._by_assignments(conds, lambda holds: False) is False
    prover.assignments = False
    assert prover._by_assignments(conds, lambda holds: False) is None
    # Past the run's budget: Z3's, as on the plain path.
    prover.assignments = True
    prover.budget = Budget(0.0)
    assert prover.budget.spent() and prover._by_assignments(conds, lambda holds: False) is None
