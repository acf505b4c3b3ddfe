"""Tables that keep their most recent entries only.

A check may be handed what earlier checks established (Z3's `unsat`
answers, proofs of pairs of graphs by shape, function pairs verified):
an exhaustive run hands the same tables to hundreds of thousands of
checks, so each keeps at most `capacity` entries, the most recently used,
and the run's memory stays flat however long it runs. `hits` counts the
answers a table gave, for the benches and the tests that check the tables
are used.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Recent(Generic[V]):
    """Key -> value, the most recently used `capacity` entries."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.hits = 0
        self._entries: OrderedDict[Hashable, V] = OrderedDict()

    def get(self, key: Hashable) -> V | None:
        """The value of `key` (now the most recent), or None."""
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
            self.hits += 1
        return value

    def put(self, key: Hashable, value: V) -> None:
        """`key` -> `value`, the most recent entry; the least recent go past `capacity`."""
        entries = self._entries
        entries[key] = value
        entries.move_to_end(key)
        while len(entries) > self.capacity:
            entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()


class RecentKeys(Recent[bool]):
    """A set of the most recently used `capacity` keys."""

    def __contains__(self, key: Hashable) -> bool:
        return self.get(key) is not None

    def add(self, key: Hashable) -> None:
        self.put(key, True)
