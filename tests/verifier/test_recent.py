"""The tables of most recent entries (`verifier.recent`) that checks share:
bounded, the least recently used entry dropped first, a hit counted and
made the most recent."""

from __future__ import annotations

from verifier.proof.pairs import VerifiedPairs
from verifier.proof.shapes import KnownProof, KnownProofs
from verifier.recent import Recent, RecentKeys
from verifier.smt.solver import ProvedQueries


def test_the_least_recently_used_entry_goes_first() -> None:
    table: Recent[int] = Recent(2)
    for k in range(3):
        table.put(("k", k), k)
    assert len(table) == 2 and table.get(("k", 0)) is None
    assert table.get(("k", 1)) == 1  # a hit makes it the most recent
    table.put(("k", 3), 3)
    assert table.get(("k", 1)) == 1 and table.get(("k", 2)) is None
    assert table.hits == 2
    table.clear()
    assert len(table) == 0 and table.get(("k", 1)) is None


def test_a_set_of_keys_the_same_way() -> None:
    keys = RecentKeys(3)
    for k in range(5):
        keys.add(("q", k))
    assert len(keys) == 3 and ("q", 0) not in keys and ("q", 1) not in keys
    assert ("q", 2) in keys  # a hit makes it the most recent
    keys.add(("q", 5))
    assert ("q", 2) in keys and ("q", 3) not in keys
    assert keys.hits == 2


def test_the_checks_tables_are_bounded_so() -> None:
    proved = ProvedQueries(2)
    proved.add_all([("q", 0), ("q", 1), ("q", 2)])
    assert len(proved) == 2 and ("q", 0) not in proved
    pairs = VerifiedPairs(1)
    pairs.add("a")
    pairs.add("b")
    assert "a" not in pairs and "b" in pairs
    shapes = KnownProofs(1)
    shapes.put("a", KnownProof(1, 1, 1, 0))
    shapes.put("b", KnownProof(2, 2, 2, 0))
    assert shapes.get("a") is None and shapes.get("b") == KnownProof(2, 2, 2, 0)
