"""What one check carries from step to step: its options, and per function
the report being filled in.

`CheckOptions` is everything a caller may choose (`verifier.check`'s
keyword arguments, the CLI's flags), down to how many processes may share
the work and where progress is shown; `FunctionRun` is one function going
down the pipeline of `pipeline.py`: the pair of functions, their
correspondence, the `Tally` the proof steps count into, the reasons of
undecided obligations, the loop lemma's evidence, the run's budget and its
timings. The tally is the only mutable part: the function's verdict and
its frozen `FunctionReport` are made from it once, at the end
(`pipeline.conclude`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from parallel import DEFAULT_JOBS, Jobs
from spec.ir import Operation
from spec.semantics.events import DEFAULT_UNROLL, EventGraph
from verifier.match.correspondence import Correspondence
from verifier.output.progress import Progress
from verifier.output.report import Violation
from verifier.proof.budget import Budget
from verifier.proof.lemma import LoopLemma
from verifier.proof.pairs import VerifiedPairs
from verifier.proof.shapes import KnownProofs
from verifier.smt.solver import DEFAULT_SEED, DEFAULT_TIMEOUT_MS, ProvedQueries, SolverSettings, Status

MAX_REASONS = 3
"""Unsupported constructs named in an `unknown` reason; the rest counted."""


@dataclass(frozen=True)
class CheckOptions:
    """How to check a rewrite (`verifier.check`, `python -m verifier check`)."""

    func: str | None = None
    """Only the function of this name (None: every function)."""
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    """Per Z3 query."""
    seed: int = DEFAULT_SEED
    """Z3's random seed."""
    rlimit: int | None = None
    """Z3's deterministic resource limit per query (None: none)."""
    unroll: int = DEFAULT_UNROLL
    """Loop iterations considered (0..unroll trips)."""
    max_paths: int | None = None
    """A function of more paths is `unknown` (None: no limit; paths are
    counted, never enumerated)."""
    budget_s: float | None = None
    """The whole run's time (None: no bound); once spent, what is not
    decided makes the verdict `unknown`."""
    on_overrun: Callable[[Budget], None] | None = field(default=None, compare=False)
    """Called from the budget's watchdog thread if the run has not returned
    `budget.GRACE_S` after its budget was spent (the command line prints
    `unknown` and ends the process); None: the run is only interrupted."""
    require_unbounded: bool = False
    """A verdict that holds only up to the loop bound is `unknown` (not `bounded`)."""
    accept_bounded: bool = False
    """A `bounded` verdict exits 0, as `verified` does (its word stays `bounded`)."""
    compose: bool = True
    """Closed region ops proved apart, region by region (`compose.py`);
    False: every function proved whole, its loops unrolled."""
    induction: bool = True
    """A function `bounded` because its loops carry tokens is proved for
    every trip count by induction on their iterations where it can be
    (`induction.py`); False: it stays `bounded`."""
    jobs: Jobs = DEFAULT_JOBS
    """`--jobs`: whether a forked second process may share the long steps
    of a large check (`second_process.py`); the verdict is the same either
    way."""
    progress: Progress | None = field(default=None, compare=False)
    """Where the run's phases and counts are shown (the command line's
    status line on a terminal); None: nowhere."""
    proofs: ProvedQueries | None = field(default=None, compare=False)
    """Guarded queries proved by earlier checks, which this check may take
    as proved and adds its own to (an exhaustive run shares one table across
    its programs); None: every guarded query asked afresh, so the verdict
    never depends on what was checked before."""
    path_proofs: ProvedQueries | None = field(default=None, compare=False)
    """One-path (straight-line) queries proved by earlier checks, taken as
    proved and added to as `proofs` is (an exhaustive run's table of them);
    None: each function check starts a table of its own."""

    shapes: KnownProofs | None = field(default=None, compare=False)
    """Clean proofs of pairs of graphs by their shape (`shapes.py`), which
    a proof of a pair of the same shape takes instead of proving it again,
    and adds its own to (an exhaustive run's table, shared across its
    programs); None: every pair proved."""
    verified_pairs: VerifiedPairs | None = field(default=None, compare=False)
    """Pairs of functions verified by earlier checks, by their IR
    (`pairs.py`), which the checks of an induction's steps and contexts
    take as verified and add to (an exhaustive run's table); None: every
    pair checked."""
    assignments: bool = False
    """Guarded queries of few decisions decided without Z3, by trying every
    assignment of their decisions (`GuardedProver._by_assignments`: exact,
    the answer Z3 gives short of its timeout; a violation is still asked of
    Z3, for its model). An exhaustive run's shortcut, compared with the
    plain path; False: every query not in `proofs` is asked of Z3."""

    @property
    def solver(self) -> SolverSettings:
        return SolverSettings(self.timeout_ms, self.seed, self.rlimit)


@dataclass
class Tally:
    """What the proof steps of one function (or one region run) count as
    they go: obligations asked and proved, the oracles' agreements, the
    violations found with their picture, the paths, and whether the run
    was stopped early with a verdict of its own."""

    name: str
    unroll: int = 0
    obligations: int = 0
    proved: int = 0
    agreements: int = 0
    violations: list[Violation] = field(default_factory=list)
    bounded: bool = False
    z3_checks: int = 0
    paths: int = 0
    sampled_paths: int = 0
    graph: EventGraph | None = None
    """The output graph the first violation is drawn on (else the first one built)."""
    missing: list[tuple[int, int]] = field(default_factory=list)
    """The orderings `graph` lacks: (end of first, start of second) nodes."""
    regions: int = 0
    stopped: tuple[Status, str] | None = None
    """Set by `FunctionRun.stop`: the verdict (unknown, inconsistent) and
    why, decided before the proof's end."""


@dataclass
class FunctionRun:
    """One function of the input and its counterpart, being checked."""

    fin: Operation
    fout: Operation
    corr: Correspondence
    tally: Tally
    options: CheckOptions
    budget: Budget
    timings: dict[str, float]
    """Seconds per phase, shared by the functions of a run (`Report.timings`)."""
    lemma: LoopLemma
    undecided: list[str] = field(default_factory=list)
    """Per obligation not decided: why."""
    proved: ProvedQueries = field(default_factory=ProvedQueries)
    """Z3 queries proved so far in this function's check, region runs included."""

    def time(self, phase: str, seconds: float) -> None:
        self.timings[phase] = self.timings.get(phase, 0.0) + seconds

    def stop(self, verdict: Status, reason: str) -> None:
        """The function's verdict is decided early (unknown, inconsistent)."""
        self.tally.stopped = (verdict, reason)


def unsupported_reason(unsupported: list[tuple[Operation, str]]) -> str:
    """The `unknown` reason for constructs the model does not follow."""
    reasons = sorted({f"{r} ({op.loc})" for op, r in unsupported})
    more = f"; and {len(reasons) - MAX_REASONS} more" if len(reasons) > MAX_REASONS else ""
    return "; ".join(reasons[:MAX_REASONS]) + more
