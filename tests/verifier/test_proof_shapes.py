"""Proofs of pairs of graphs shared by shape (`verifier.proof.shapes`).

A check given a table of known proofs (`CheckOptions.shapes`) reports what
a check without one reports: verdict and counts, whether its pairs are
proved or taken from the table; the key tells apart pairs that differ in
what a proof reads; the table is bounded.
"""

from __future__ import annotations

import copy
import random

import verifier
from spec.semantics.conditions import Symbols
from spec.semantics.event_graph import Event
from spec.semantics.guarded_builder import build_guarded
from spec.syntax.parser import parse_module
from verifier.harness import reference_impl
from verifier.programs.enumeration import WHOLE, programs_up_to
from verifier.proof.pipeline import functions_of
from verifier.proof.shapes import KnownProofs, graph_shape


def _counts(report: verifier.Report) -> list[tuple]:
    return [
        (fr.name, fr.verdict, fr.obligations, fr.proved, fr.agreements, fr.bounded, fr.lemma, fr.regions)
        for fr in report.functions
    ]


def test_a_check_with_known_proofs_reports_what_one_without_does() -> None:
    rng = random.Random(3)
    table = KnownProofs(500)
    checked = 0
    for p in programs_up_to(WHOLE, 3):
        if p.size == 3 and rng.random() > 0.15:
            continue
        before = parse_module(p.text, "<input>")
        result = reference_impl.rewrite(parse_module(p.text, "<input>"), "reference")
        assert result.ok
        plain = verifier.check(before, result.module)
        # Twice with the table: the first fills it, the second takes from it.
        for _ in range(2):
            shared = verifier.check(before, result.module, shapes=table)
            assert _counts(shared) == _counts(plain), p.id
        checked += 1
    assert checked > 2_000 and table.hits > checked


def test_the_key_tells_the_ops_of_events_apart() -> None:
    p = next(p for p in programs_up_to(WHOLE, 3) if p.text.count("gpu.launch_func") == 2 and "scf." not in p.text)
    (func,) = functions_of(parse_module(p.text, "<input>"))
    g = build_guarded(func, Symbols())
    ops = {id(ev.op) for ev in g.events}
    assert len(ops) >= 2
    # The same graph with every event one op's: another partition of the events.
    same = copy.copy(g)
    first = g.events[0].op
    same.events = [Event(first, ev.kind, ev.start, ev.end, ev.thread, ev.occurrence, ev.role) for ev in g.events]
    assert graph_shape(same) != graph_shape(g)
    assert graph_shape(copy.copy(g)) == graph_shape(g)


def test_nothing_is_taken_from_the_tables_past_the_budget() -> None:
    # A run past its budget leaves what is left undecided, with or without
    # the tables: a known proof is not `verified` there.
    from verifier.proof.pairs import VerifiedPairs

    shapes, pairs = KnownProofs(500), VerifiedPairs(500)
    programs = [p for p in programs_up_to(WHOLE, 3) if "scf.for" in p.text and "gpu.launch_func" in p.text][:40]
    for p in programs:
        before = parse_module(p.text, "<input>")
        result = reference_impl.rewrite(parse_module(p.text, "<input>"), "reference")
        assert result.ok
        verifier.check(before, result.module, shapes=shapes, verified_pairs=pairs, assignments=True)
        hits = (shapes.hits, pairs.hits)
        late = verifier.check(
            before, result.module, shapes=shapes, verified_pairs=pairs, assignments=True, budget_s=1e-9
        )
        plain = verifier.check(before, result.module, budget_s=1e-9)
        assert (shapes.hits, pairs.hits) == hits
        assert [f.verdict for f in late.functions] == [f.verdict for f in plain.functions] != ["verified"], p.id
