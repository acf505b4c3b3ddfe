"""Path conditions as data: the decisions of a function and the Boolean
conditions over them, hash-consed.

The guarded event model (`guarded.py`) labels every node and edge with the
set of paths on which it exists. Those sets are named here, as small terms
over decisions (an `scf.if`'s or `cf.cond_br`'s option, a loop's "iteration
j runs" flag), shared by the input's and the output's graph so matching
control flow uses the same decisions. The terms are plain data; turning them
into solver terms is the checker's business (`verifier/smt/encode_guarded.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spec import registry
from spec.ir import Operation

TRUE = 0
"""The condition of every path."""


@dataclass(frozen=True)
class Decision:
    kind: str
    """`scf.if`, `cf.cond_br`, `arith.select`, `scf.for`, `scf.while` or
    `scf.parallel` (the deciding op's name)."""
    op: Operation
    """The input op that decides (its location names the path)."""
    options: int
    free: bool = False
    """Taken by the output alone: its input counterpart has no effect
    inside, so the input's events do not depend on it. A path of the input
    does not name it (`guarded_path.assignment` takes its option apart)."""

    @property
    def on_trip_count(self) -> bool:
        """A loop's decision (`registry.is_loop`): a trip count 0..K, encoded
        by monotone "iteration j runs" flags; every other decision picks one
        of its options."""
        return registry.is_loop(self.kind)


class Symbols:
    """Decisions and conditions, shared by the input's and the output's graph.

    A condition is an int naming an entry of `conds`: `("true",)`,
    `("opt", d, o)` (decision d took option o, for the decisions that pick
    one of their options; the solver gives a two-way one a Boolean and a
    many-way one a flag per option, exactly one set),
    `("runs", d, j)` (loop decision d ran at least j iterations), `("and",
    a, b)`, `("or", (a, b, ...))`, `("not", a)`."""

    def __init__(self) -> None:
        self.conds: list[tuple] = [("true",)]
        self._index: dict[tuple, int] = {("true",): TRUE}
        self.decisions: list[Decision] = []
        self._decision_keys: dict[tuple, int] = {}

    def cond(self, term: tuple) -> int:
        i = self._index.get(term)
        if i is None:
            i = self._index[term] = len(self.conds)
            self.conds.append(term)
        return i

    def conj(self, a: int, b: int) -> int:
        if a == TRUE or a == b:
            return b
        if b == TRUE:
            return a
        return self.cond(("and", a, b))

    def disj(self, cs: list[int]) -> int:
        uniq = sorted(set(cs))
        if TRUE in uniq:
            return TRUE
        if len(uniq) == 1:
            return uniq[0]
        return self.cond(("or", tuple(uniq)))

    def neg(self, a: int) -> int:
        return self.cond(("not", a))

    def option(self, d: int, o: int) -> int:
        """Decision `d` took option `o` (for loops: exactly `o` trips)."""
        if self.decisions[d].on_trip_count:
            if o == 0:
                return self.neg(self.cond(("runs", d, 1)))
            runs = self.cond(("runs", d, o))
            if o == self.decisions[d].options - 1:
                return runs
            return self.conj(runs, self.neg(self.cond(("runs", d, o + 1))))
        return self.cond(("opt", d, o))

    def conjuncts(self, c: int) -> set[int]:
        """`c` as a set of conditions whose conjunction it is."""
        out: set[int] = set()
        stack = [c]
        while stack:
            x = stack.pop()
            term = self.conds[x]
            if term[0] == "and":
                stack.extend(term[1:])
            elif x != TRUE:
                out.add(x)
        return out

    def decision(self, key: tuple, make: Callable[[], Decision] | None) -> int | None:
        """The decision named `key` (op and context); created by `make` if
        given, else None when the input has no such decision."""
        d = self._decision_keys.get(key)
        if d is None and make is not None:
            d = self._decision_keys[key] = len(self.decisions)
            self.decisions.append(make())
        return d
