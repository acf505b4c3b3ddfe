"""Z3 as the verifier uses it: one set of settings, one factory, one outcome.

Every Z3 query of a check runs with the same settings (`SolverSettings`:
the per-query timeout, Z3's random seed, its deterministic resource limit)
so that a run is reproducible, and every solver is made by `new_solver`.
The logic is part of the settings a solver is made with:

- `Logic.DIFFERENCE`: only `x <= y` / `x < y` over Ints (one path's
  happens-before graph, `encode.py`). The plain incremental solver with
  its Bellman-Ford difference-logic theory (`smt.arith.solver=1`), complete
  for it. Measured at 10k GPU ops: 0.40 s of Z3 in one process against
  0.49 s with `SolverFor("QF_IDL")`, whose push/pop queries run the general
  arithmetic solver.
- `Logic.GUARDED`: difference constraints under Boolean guards (all paths
  at once, `encode_guarded.py`): `SolverFor("QF_IDL")`.

`ObligationResult` is the answer to one obligation, by either prover; `Status` is
also the verdict of a function and of a run (`report.py`). Statuses are
ordered from worst to best, as CrossHair orders its analysis results:
inconsistent < refuted < unknown < bounded < verified (`min` is the worst).
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

import z3

from verifier.recent import RecentKeys

DEFAULT_TIMEOUT_MS = 10_000
DEFAULT_SEED = 0


class Status(enum.StrEnum):
    """An obligation's or a verdict's status. A `str` (its value is the
    word printed and written to JSON), ordered by how bad it is:
    `INCONSISTENT < REFUTED < UNKNOWN < BOUNDED < VERIFIED`."""

    INCONSISTENT = "inconsistent"
    """The two oracles disagree (a bug, never expected)."""
    REFUTED = "refuted"
    """A counterexample: for an obligation, Z3 found a violating schedule."""
    UNKNOWN = "unknown"
    """Not decided (Z3 gave up, a construct the model does not follow)."""
    BOUNDED = "bounded"
    """Proved only for the paths up to a bound (loops unrolled up to K
    trips) with no argument that the bound covers every trip count: a
    verdict of its own, never `verified` (a function's verdict only)."""
    VERIFIED = "verified"
    """Proved (for an obligation: Z3 answered `unsat`)."""

    @property
    def rank(self) -> int:
        return _RANK[self]

    # Statuses compare by rank, and only with statuses: ordering one against
    # a plain word (a results table's `timeout`) is a mistake, not an order.
    def _ranks(self, other: object) -> tuple[int, int]:
        if not isinstance(other, Status):
            raise TypeError(f"a Status is ordered against Statuses only, not {other!r}")
        return _RANK[self], _RANK[other]

    def __lt__(self, other: object) -> bool:
        a, b = self._ranks(other)
        return a < b

    def __le__(self, other: object) -> bool:
        a, b = self._ranks(other)
        return a <= b

    def __gt__(self, other: object) -> bool:
        a, b = self._ranks(other)
        return a > b

    def __ge__(self, other: object) -> bool:
        a, b = self._ranks(other)
        return a >= b

    __hash__ = str.__hash__


_RANK = {Status.INCONSISTENT: 0, Status.REFUTED: 1, Status.UNKNOWN: 2, Status.BOUNDED: 3, Status.VERIFIED: 4}


class Logic(enum.Enum):
    DIFFERENCE = "difference"
    GUARDED = "guarded"


@dataclass(frozen=True)
class SolverSettings:
    """The settings of every Z3 query of one check."""

    timeout_ms: int = DEFAULT_TIMEOUT_MS
    seed: int = DEFAULT_SEED
    rlimit: int | None = None


def new_solver(settings: SolverSettings, logic: Logic = Logic.DIFFERENCE, ctx: z3.Context | None = None) -> z3.Solver:
    """A fresh solver for `logic` with `settings` (in `ctx`: None is Z3's
    main context)."""
    if logic is Logic.DIFFERENCE:
        solver = z3.SimpleSolver(ctx=ctx)
        solver.set("smt.arith.solver", 1)
    else:
        solver = z3.SolverFor("QF_IDL", ctx=ctx)
    solver.set("timeout", int(settings.timeout_ms))
    solver.set("random_seed", int(settings.seed))
    if settings.rlimit is not None:
        solver.set("rlimit", int(settings.rlimit))
    return solver


@dataclass
class ObligationResult:
    """The answer to one obligation "`a` ends before `b` starts"."""

    status: Status
    """VERIFIED (proved), REFUTED (violated), UNKNOWN, or INCONSISTENT (Z3
    contradicted itself between the slice and the counterexample window)."""
    reason: str = ""
    schedule: list[tuple[int, str]] = field(default_factory=list)
    """(time, node label) in time order, from the Z3 model (one path)."""
    slice_size: int = 0
    times: dict[int, int] = field(default_factory=dict)
    """The model's time per node of the counterexample window (one path)."""
    choices: list[int] = field(default_factory=list)
    """The path of the counterexample, as `guarded_path.on_path` takes it (all paths)."""
    active: set[int] = field(default_factory=set)
    """Input nodes present on that path (all paths)."""
    free: dict[int, int] = field(default_factory=dict)
    """The options the output's free decisions (`Decision.free`) take on that path."""

    @property
    def z3_says(self) -> str:
        """The answer in the solver's words, for an `inconsistent` reason."""
        return {Status.VERIFIED: "proved", Status.REFUTED: "violated"}.get(self.status, str(self.status))


class ProvedQueries(RecentKeys):
    """Queries Z3 has answered `unsat`, the most recent `capacity` of them,
    each as a key that is its formula up to the names of its unknowns
    (`encode.Query`, `encode_guarded.GuardedProver.query_key`), so a query
    proved once is proved wherever it comes up again. Only `unsat` answers
    are kept; the bound keeps memory flat. One per function check for the
    straight-line encoding (`verifier.proof.run.FunctionRun.proved`: thousands of
    region runs of one function ask the same few queries), so a verdict
    never depends on what the process checked before; a table of guarded
    queries only where a check is given one (`CheckOptions.proofs`: an
    exhaustive run's, `verifier.harness.exhaustive_runners.SHARED_PROOFS`). `hits`
    counts the answers given from the table."""

    def __init__(self, capacity: int = 50_000) -> None:
        super().__init__(capacity)

    def add_all(self, keys: Iterable[Hashable]) -> None:
        for k in keys:
            self.add(k)
