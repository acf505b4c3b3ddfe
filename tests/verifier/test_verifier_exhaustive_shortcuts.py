"""The exhaustive run's shortcuts change no verdict.

For the reference and the seed (which has bugs): a program's IR built
from its ops instead of parsed (`program_ir`), Z3's answers shared
across programs (guarded queries in `exhaustive_runners.SHARED_PROOFS`, given to
each check as `CheckOptions.proofs`; one-path queries in
`SHARED_PATH_PROOFS`, as `CheckOptions.path_proofs`), proofs of pairs of
graphs shared by shape (`SHARED_SHAPES`, as `CheckOptions.shapes`), the
function pairs of inductions verified before (`SHARED_PAIRS`, as
`CheckOptions.verified_pairs`) and guarded queries of few decisions decided by trying every assignment
(`CheckOptions.assignments`), against the plain path (`--plain`: parsed
twice, every query asked of Z3 afresh, every pair proved): the same
verdict, signature, message and text for every program of `whole` up to
size 2, and (slow) up to size 3 for the reference.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import verifier
from spec.syntax.parser import parse_module
from verifier.harness import exhaustive_runners
from verifier.harness.exhaustive_results import Result
from verifier.harness.exhaustive_runners import RefimplRunner
from verifier.programs.enumeration import WHOLE, batched, programs_up_to
from verifier.smt.encode_guarded import GuardedProver
from verifier.smt.solver import ProvedQueries

SHARED = exhaustive_runners.SHARED_PROOFS
PATHS = exhaustive_runners.SHARED_PATH_PROOFS
SHAPES = exhaustive_runners.SHARED_SHAPES
PAIRS = exhaustive_runners.SHARED_PAIRS


@pytest.fixture
def fresh_caches() -> Iterator[None]:
    for table in (SHARED, PATHS, SHAPES, PAIRS):
        table.clear()
        table.hits = 0
    yield
    for table in (SHARED, PATHS, SHAPES, PAIRS):
        table.clear()


def _run(mode: str, plain: bool, size: int = 2) -> dict[str, tuple[str, str, str, str]]:
    runner = RefimplRunner(mode, 10_000, plain)
    out: dict[str, tuple[str, str, str, str]] = {}
    for batch in batched(programs_up_to(WHOLE, size), 64):
        r: Result
        for r in runner.run(batch):
            out[r.id] = (r.verdict, r.signature, r.detail, r.text)
    return out


@pytest.mark.parametrize("mode", ["reference", "seed"])
def test_shortcuts_agree_with_the_plain_path(fresh_caches: None, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    decided: list[bool | None] = []
    by_assignments = GuardedProver._by_assignments

    def counted(self: GuardedProver, *args: Any) -> bool | None:
        answer = by_assignments(self, *args)
        if self.assignments:
            decided.append(answer)
        return answer

    monkeypatch.setattr(GuardedProver, "_by_assignments", counted)
    plain = _run(mode, True)
    assert all(t.hits == 0 and len(t) == 0 for t in (SHARED, PATHS, SHAPES, PAIRS)) and not decided
    fast = _run(mode, False)
    # The shortcuts are taken, not just allowed.
    assert SHARED.hits > 0 and PATHS.hits > 0 and SHAPES.hits > 0 and PAIRS.hits > 0
    assert False in decided  # a query proved without Z3
    assert len(plain) == 411
    assert fast == plain
    # The seed's bugs: the comparison covers refuted programs and their messages too.
    verdicts = {v for v, *_ in plain.values()}
    assert verdicts >= ({"verified", "bounded", "refuted"} if mode == "seed" else {"verified", "bounded"})


@pytest.mark.slow
def test_shortcuts_agree_with_the_plain_path_to_size_3(fresh_caches: None) -> None:
    plain = _run("reference", True, 3)
    fast = _run("reference", False, 3)
    assert len(plain) == 13_952
    assert fast == plain
    assert {v for v, *_ in plain.values()} == {"verified", "bounded"}


def test_only_the_runs_checks_share_proofs(fresh_caches: None) -> None:
    for batch in batched(programs_up_to(WHOLE, 2), 500):
        RefimplRunner("reference", 10_000).run(batch)
    assert len(SHARED) > 0
    # A check given no table (every check but an exhaustive run's) asks Z3
    # afresh: the run's proofs do not reach it.
    kept, hits = len(SHARED), SHARED.hits
    mine = ProvedQueries(1000)
    for p in programs_up_to(WHOLE, 2):
        before, after = parse_module(p.text, "in.mlir"), parse_module(p.text, "out.mlir")
        verifier.check(before, after)
        verifier.check(before, after, proofs=mine)
    # The table a check is given is the one it uses.
    assert (len(SHARED), SHARED.hits) == (kept, hits) and len(mine) > 0


def test_path_choices_is_on_path_choices() -> None:
    # cross_check_samples skips a sampled choice list by `path_choices`
    # before building its path: it must name the path `on_path` builds.
    import random

    from spec.semantics.conditions import Symbols
    from spec.semantics.guarded_builder import build_guarded
    from spec.semantics.guarded_path import on_path, path_choices
    from spec.syntax.parser import parse_module
    from verifier.proof.pipeline import functions_of

    rng = random.Random(7)
    checked = 0
    for p in programs_up_to(WHOLE, 3):
        if p.size == 3 and rng.random() > 0.1:
            continue
        (func,) = functions_of(parse_module(p.text, "<input>"))
        sym = Symbols()
        g = build_guarded(func, sym)
        if not g.met:
            continue
        n = len(g.met)
        for choices in [[], [1] * n, [2] * n, *([rng.randint(0, 3) for _ in range(n)] for _ in range(6))]:
            assert path_choices(g, sym, choices) == tuple(on_path(g, sym, choices).choices), (p.id, choices)
            checked += 1
    assert checked > 1000
