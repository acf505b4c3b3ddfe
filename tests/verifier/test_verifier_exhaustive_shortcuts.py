"""The exhaustive run's shortcuts change no verdict.

For the reference and the seed (which has bugs): a program parsed once and copied by pickling for the refimpl, and Z3
answers of guarded queries shared across programs
(`encode_guarded.PROVED_GUARDED`), against the plain path (`--plain`:
parsed twice, every query asked afresh): the same verdict, signature,
message and text for every program of `whole` up to size 2.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from verifier.harness.exhaustive import RefimplRunner, Result, set_plain
from verifier.programs.enumeration import WHOLE, batched, programs_up_to
from verifier.smt import encode_guarded
from verifier.smt.solver import ProvedQueries


@pytest.fixture
def fresh_caches() -> Iterator[None]:
    encode_guarded.PROVED_GUARDED.clear()
    encode_guarded.PROVED_GUARDED.hits = 0
    yield
    encode_guarded.PROVED_GUARDED.enabled = False


def _run(mode: str, plain: bool) -> dict[str, tuple[str, str, str, str]]:
    runner = RefimplRunner(mode, 10_000, plain)
    out: dict[str, tuple[str, str, str, str]] = {}
    for batch in batched(programs_up_to(WHOLE, 2), 64):
        r: Result
        for r in runner.run(batch):
            out[r.id] = (r.verdict, r.signature, r.detail, r.text)
    return out


@pytest.mark.parametrize("mode", ["reference", "seed"])
def test_shortcuts_agree_with_the_plain_path(fresh_caches: None, mode: str) -> None:
    plain = _run(mode, True)
    assert encode_guarded.PROVED_GUARDED.hits == 0 and len(encode_guarded.PROVED_GUARDED) == 0
    hits = encode_guarded.PROVED_GUARDED.hits
    fast = _run(mode, False)
    # The shortcut is taken, not just allowed.
    assert encode_guarded.PROVED_GUARDED.hits > hits
    assert len(plain) == 411
    assert fast == plain
    # The seed's bugs: the comparison covers refuted programs and their messages too.
    verdicts = {v for v, *_ in plain.values()}
    assert verdicts >= ({"verified", "bounded", "refuted"} if mode == "seed" else {"verified", "bounded"})


def test_sharing_is_on_only_while_a_run_checks_its_programs(fresh_caches: None) -> None:
    assert not encode_guarded.PROVED_GUARDED.enabled
    set_plain(False)
    assert encode_guarded.PROVED_GUARDED.enabled
    set_plain(True)
    assert not encode_guarded.PROVED_GUARDED.enabled
    for batch in batched(programs_up_to(WHOLE, 2), 500):
        RefimplRunner("reference", 10_000).run(batch)
    assert not encode_guarded.PROVED_GUARDED.enabled and len(encode_guarded.PROVED_GUARDED) > 0


def test_path_choices_is_on_path_choices() -> None:
    # cross_check_samples skips a sampled choice list by `path_choices`
    # before building its path: it must name the path `on_path` builds.
    import random

    from spec.semantics.conditions import Symbols
    from spec.semantics.union_graph import build_guarded, on_path, path_choices
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


def test_proved_guarded_is_bounded_and_most_recent_first() -> None:
    cache = ProvedQueries(3)
    for k in range(5):
        cache.add([("q", k)])
    assert len(cache) == 3 and ("q", 0) not in cache and ("q", 1) not in cache
    assert ("q", 2) in cache  # a hit makes it the most recent
    cache.add([("q", 5)])
    assert ("q", 2) in cache and ("q", 3) not in cache
    cache.enabled = False
    assert ("q", 2) not in cache
    cache.add([("q", 6)])
    cache.enabled = True
    assert ("q", 6) not in cache
