"""What of a check a second process may do while this one does the rest.

On a large input three steps of a check are long enough for a forked copy
of the process to take part of them (`parallel`), when a core is idle and
the check's `Jobs` (`--jobs`) allow it:

- the output's well-formedness, checked while this process matches the
  output's ops to the input's (`well_formed_while`, from
  `pipeline.correspond`);
- making the queries of the second half of a function's obligations
  (`Sharing.queries`, for `Prover.queries`);
- asking Z3 every other group of distinct queries, with a context and a
  solver of its own (`Sharing.proved`, for `Prover.prove_all`).

Each is worth a fork only from a size up (the `MIN_FORKED_*` thresholds
below); under it the CPU time a second process costs buys too little wall
time. What comes back is small and plain, never IR: a problem as the
index of its op and its message, a query as an index into the distinct
ones, a group as whether it was proved. Anything a child does not send is
done here, so a check's answers are the same with a second process or
without; only the count of Z3 queries may differ (a group the child could
not prove is asked again here).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from parallel import Jobs, beside, halves
from spec.ir import Operation
from verifier.match.correspondence import Mismatch
from verifier.match.wellformed import well_formed
from verifier.smt.encode import IN_TURN, Prover, Query

T = TypeVar("T")

MIN_FORKED_WELL_FORMED_OPS = 100_000
"""Ops of an output function's body from which its well-formedness is
checked in a forked child while this process matches, when a core is idle
(`--jobs 2` forks any size, `--jobs 1` none). At 100k GPU ops (352,000
output ops) that hides about a second of wall time; below, a fork costs
more than it saves."""
MIN_FORKED_GROUPS = 640
"""Fewer groups than this (about 41,000 distinct queries: straight-line
code of any length has a handful, `Prover.query`) are all asked in one
process unless `--jobs 2` asks otherwise: below it the wall time a second
process saves is worth less than the CPU time it costs (see
`spec.syntax.parse_many.MIN_FORKED_BYTES`)."""
MIN_FORKED_QUERIES = 50_000
"""Obligations from which a forked child makes half of the queries when a
core is idle (about 30,000 GPU ops of `bench/gen_programs.py`); below, the
fork costs more than it saves."""


def well_formed_while(fout: Operation, jobs: Jobs, work: Callable[[], T]) -> tuple[T, list[Mismatch]]:
    """`work()` and `well_formed(fout)`, the latter in a forked child while
    `work` runs if `fout` is large enough (`MIN_FORKED_WELL_FORMED_OPS`) and
    `jobs` allow it. The child sends each problem as the index of its op in
    `fout.nested_ops()` order, with its kind and message: a `Mismatch` holds
    the op itself, which would pickle the whole module."""
    blocks = fout.regions[0].blocks if fout.regions else []
    size = sum(len(b.ops) for b in blocks)
    if not jobs.splits(size, MIN_FORKED_WELL_FORMED_OPS):
        return work(), well_formed(fout)
    done, got = beside(lambda: _indexed_problems(fout), work)
    problems = _received_problems(got, fout)
    return done, problems if problems is not None else well_formed(fout)


def _indexed_problems(fout: Operation) -> list[tuple[int, str, str]]:
    """In the child: `well_formed(fout)` as (op index, kind, message)."""
    problems = well_formed(fout)
    if not problems:
        return []
    index = {id(op): i for i, op in enumerate(fout.nested_ops())}
    return [(index[id(m.out_op)], m.kind, m.message) for m in problems]


def _received_problems(got: object, fout: Operation) -> list[Mismatch] | None:
    """The child's problems as `Mismatch`es of this process's ops; None if it
    sent nothing (the caller checks well-formedness itself)."""
    if not isinstance(got, list):
        return None
    if not got:
        return []
    ops = list(fout.nested_ops())
    return [Mismatch(kind, message, ops[i], None) for i, kind, message in got]


@dataclass(frozen=True)
class Sharing:
    """A `Prover`'s `Share`: part of its queries and of its Z3 groups made
    by a forked child, where `jobs` allow it and the work is large enough."""

    jobs: Jobs

    def queries(self, prover: Prover, pairs: list[tuple[int, int]]) -> list[Query]:
        """From `MIN_FORKED_QUERIES` obligations up, a forked child makes the
        queries of the second half (`parallel.halves`: it sends back its
        distinct queries and, per obligation, the index of its query among
        them) while this process makes the first half."""
        if len(pairs) < 2 or not self.jobs.splits(len(pairs), MIN_FORKED_QUERIES):
            return IN_TURN.queries(prover, pairs)
        return halves(lambda pair: prover.query(*pair), pairs)

    def proved(self, prover: Prover, groups: list[list[Query]]) -> set[Query]:
        """From `MIN_FORKED_GROUPS` groups up, every other group is asked by
        a forked child with a solver of its own (`Prover.start_afresh`). It
        sends back only which of its groups are proved; the others
        (violations, unknowns, a child that failed) are asked here, so the
        outcomes are those of `Prover.proved_in_turn`."""
        if len(groups) < 2 or not self.jobs.splits(len(groups), MIN_FORKED_GROUPS):
            return IN_TURN.proved(prover, groups)
        theirs = groups[1::2]
        proved, answer = beside(
            lambda: _proved_afresh(prover, theirs), lambda: prover.proved_in_turn(groups, range(0, len(groups), 2))
        )
        whole: list[bool] = [False] * len(theirs)
        if isinstance(answer, tuple) and len(answer) == 3 and len(answer[0]) == len(theirs):
            whole, checks, cpu = answer
            prover.checks += checks
            prover.helper_cpu += cpu
        for group, ok in zip(theirs, whole, strict=True):
            proved.update(group if ok else prover.proved_queries(group))
        return proved


def _proved_afresh(prover: Prover, groups: list[list[Query]]) -> tuple[list[bool], int, float]:
    """In the child: which of `groups` Z3 proves whole, asked in a Z3
    context of the child's own; the queries asked and the CPU time taken."""
    c0 = time.process_time()
    prover.start_afresh()
    proved = prover.groups_proved(groups)
    return proved, prover.checks, time.process_time() - c0
