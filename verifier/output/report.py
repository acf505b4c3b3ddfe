"""Verdicts and how they are shown: MLIR diagnostics in text, or JSON.

Five verdicts, never blurred: `verified` (every obligation proved by Z3 for
every path and trip count, and reachability agrees), `bounded` (proved for
loops of up to K trips only, with no argument that K covers every trip
count: a proof of less, with its own word and exit code), `refuted` (a
counterexample, or an output that is not a rewrite of the input),
`unknown` (solver gave up, or a construct the model cannot follow; with the
reason) and `inconsistent` (the two oracles disagree: a bug, never expected).
Across functions the worst wins: inconsistent, then refuted, then unknown,
then bounded.

Each obligation kind has its own counterexample message, in MLIR's form:
`out.mlir:14:5: error: 'func.call' op may run before 'gpu.launch_func'
(in.mlir:10:5) has finished`, then notes with the path and the schedule.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from spec.diagnostics import Diagnostic, error, note, render
from spec.ir import UNKNOWN_LOC, Location, Operation
from verifier.proof.obligations import Obligation
from verifier.smt.solver import Status

if TYPE_CHECKING:
    from verifier.proof.replay import Replay

VERIFIED, REFUTED, UNKNOWN, INCONSISTENT = Status.VERIFIED, Status.REFUTED, Status.UNKNOWN, Status.INCONSISTENT
BOUNDED = Status.BOUNDED
EXIT_CODES = {VERIFIED: 0, REFUTED: 1, UNKNOWN: 3, INCONSISTENT: 3, BOUNDED: 4}
"""Exit code per verdict (2 is bad input or usage, never a verdict)."""


def count_text(n: int) -> str:
    """A count that may be astronomically large (paths: trip counts to the
    power of the loops), as digits up to 10^15, else as a power of ten
    (Python will not turn an int of over 4,300 digits into text)."""
    if n < 10**15:
        return str(n)
    return f"about 10^{int(n.bit_length() * 0.30102999566398120)}"


def count_json(n: int) -> int | str:
    """As `count_text`, but a plain JSON number where exact and safe."""
    return n if n < 2**53 else count_text(n)


def worst(verdicts: list[Status]) -> Status:
    """The worst verdict (`Status` is ordered worst first); VERIFIED for none."""
    return min(map(Status, verdicts), default=VERIFIED)


@dataclass(frozen=True)
class Endpoint:
    op: str
    input_loc: Location | None
    output_loc: Location | None

    def to_json(self, prefer_output: bool) -> dict[str, Any]:
        loc = (self.output_loc or self.input_loc) if prefer_output else (self.input_loc or self.output_loc)
        return {
            "op": self.op,
            "loc": str(loc) if loc else None,
            "input_loc": str(self.input_loc) if self.input_loc else None,
            "output_loc": str(self.output_loc) if self.output_loc else None,
        }


@dataclass(frozen=True)
class Violation:
    """One obligation the output breaks (or one way it is no rewrite of the
    input), with the path and schedule that show it."""

    kind: str
    """An obligation kind (`gpu-before-host`, ...), `mismatch` or `ill-formed`."""
    first: Endpoint
    second: Endpoint
    message: str
    path: tuple[str, ...] = ()
    schedule: tuple[tuple[int, str], ...] = ()
    cross_thread: bool = False
    replay: Replay | None = None
    """`verifier.proof.replay.Replay` of the schedule, for the first violation of a function."""

    def diagnostic(self) -> Diagnostic:
        loc = self.second.output_loc or self.second.input_loc or UNKNOWN_LOC
        notes = []
        if self.kind in ("mismatch", "blocks-forever") and self.first.input_loc is not None:
            notes.append(note(self.first.input_loc, f"'{self.first.op}' op of the input is here"))
        if self.path:
            notes.append(note(loc, "path: " + "; ".join(self.path)))
        if self.schedule:
            lines = "\n".join(f"  {t:>4}  {label}" for t, label in self.schedule)
            first = self.first.output_loc or loc
            notes.append(
                note(
                    first,
                    f"'{self.first.op}' op is here; a schedule from the Z3 model (time, point):\n"
                    + lines
                    + "\n"
                    + schedule_legend(first.file),
                )
            )
        if self.replay is not None:
            notes.append(note(loc, self.replay.summary()))
            if getattr(self.replay, "differs", False):
                notes.append(note(loc, self.replay.excerpt()))
        return error(loc, self.message, *notes)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "message": self.message,
            "first": self.first.to_json(prefer_output=False),
            "second": self.second.to_json(prefer_output=True),
            "cross_thread": self.cross_thread,
            "path": list(self.path),
            "schedule": [{"time": t, "point": label} for t, label in self.schedule],
            "replay": self.replay.to_json() if self.replay is not None else None,
        }


def schedule_legend(file: str) -> str:
    """The line under a schedule that says how to read it: the point
    letters (`EventGraph.label`) and whose coordinates `@L:C` are. Every
    point of a schedule is an op of the output, so its coordinates are the
    output's, named here (the error's own location names it too)."""
    return (
        "  legend: i issued by its thread, s started and f finished on the GPU, t a host op ran, "
        "begin/yield an async.execute body starts/yields, end the function returns; "
        f"#n its (n+1)-th run; @L:C line:column in {file}"
    )


def violation_of(
    ob: Obligation,
    a_out: Operation,
    b_out: Operation,
    first_on_gpu: bool,
    path: list[str],
    schedule: list[tuple[int, str]],
    replay: Replay | None = None,
) -> Violation:
    """The violation of obligation `ob` in the output, where its ops are
    `a_out` and `b_out`: on the path `path`, with the model's `schedule`."""
    return Violation(
        ob.kind,
        Endpoint(ob.first.name, ob.first.loc, a_out.loc),
        Endpoint(ob.second.name, ob.second.loc, b_out.loc),
        obligation_message(
            ob.kind,
            ob.first.name,
            ob.first.loc,
            b_out.name,
            first_on_gpu,
            ob.cross_thread,
            ob.first_role,
            ob.second_role,
        ),
        path=tuple(path),
        schedule=tuple(schedule),
        cross_thread=ob.cross_thread,
        replay=replay,
    )


def _number(role: str) -> str:
    return "".join(ch for ch in role.split(".")[0] if ch.isdigit())


def _first_name(first_op: str, first_loc: Location, first_role: str) -> str:
    """How the first event of an obligation is named in its message."""
    if first_role.startswith("arg"):
        inner = " (the token inside the value)" if first_role.endswith(".gpu") else ""
        return f"the caller's work behind argument #{_number(first_role)}{inner} of the function ({first_loc})"
    if first_role.startswith("result"):
        return f"the callee's work behind result #{_number(first_role)} of '{first_op}' ({first_loc})"
    return f"'{first_op}' ({first_loc})"


def obligation_message(
    kind: str,
    first_op: str,
    first_loc: Location,
    second_op: str,
    first_is_gpu: bool,
    cross: bool,
    first_role: str = "",
    second_role: str = "",
) -> str:
    """The counterexample message of each obligation kind."""
    first = _first_name(first_op, first_loc, first_role)
    done = "has finished" if first_is_gpu or first_role else "has run"
    if kind == "before-receiver":
        return (
            f"'{second_op}' op hands out a token (operand #{_number(second_role)}) whose receiver may wait on it "
            f"and go on before {first} {done}"
        )
    if kind == "before-end":
        return (
            f"the program may end before {first} {done}: the runtime waits for every 'async.execute' "
            "to complete, not for GPU work it did not wait for"
        )
    where = " (on another thread)" if cross else ""
    if kind == "caller-work-before":
        verb = "may start before" if second_op.startswith("gpu.") else "may run before"
        return f"'{second_op}' op {verb} {first} {done}{where}"
    verb = {
        "gpu-before-gpu": "may start before",
        "host-before-gpu": "may start before",
        "gpu-before-host": "may run before",
        "host-before-host": "may run before",
        "before-return": "may return before",
    }[kind]
    return f"'{second_op}' op {verb} {first} {done}{where}"


@dataclass(frozen=True)
class FunctionReport:
    """One function's verdict and the proof's figures, built once when the
    function's check ends (`verifier.proof.pipeline.conclude`; the proof
    steps count into a `verifier.proof.run.Tally` until then)."""

    name: str
    verdict: Status = VERIFIED
    obligations: int = 0
    proved: int = 0
    agreements: int = 0
    """Obligations on which Z3 and reachability gave the same answer."""
    violations: tuple[Violation, ...] = ()
    reason: str = ""
    bounded: bool = False
    unroll: int = 0
    z3_checks: int = 0
    paths: int = 0
    """Paths checked (branch choices x loop trip counts up to `unroll`)."""
    sampled_paths: int = 0
    """Guarded proofs: the concrete paths reachability cross-checked (0 when
    every path was checked one by one)."""
    lemma: str = ""
    """Why the loop bound is sufficient, or why it is not claimed to be."""
    graph: object = field(default=None, compare=False)
    """The output's `EventGraph` (for `--dot`; not serialised)."""
    missing: tuple[tuple[int, int], ...] = ()
    """Per violation of an obligation: (end of first, start of second) nodes."""
    regions: int = 0
    """Region runs proved apart (`verifier/proof/compose.py`); 0: proved whole."""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "verdict": self.verdict,
            "obligations": self.obligations,
            "proved": self.proved,
            "oracle_agreements": self.agreements,
            "violations": [v.to_json() for v in self.violations],
            "reason": self.reason,
            "paths": count_json(self.paths),
            "sampled_paths": self.sampled_paths,
            "bounded": self.bounded,
            "unroll": self.unroll if self.bounded else 0,
            "lemma": self.lemma,
            "regions_proved_apart": self.regions,
        }


@dataclass(frozen=True)
class Report:
    """A check's verdict: one record per function (and one for what lies
    outside the functions, if that changed)."""

    functions: tuple[FunctionReport, ...] = ()
    input_file: str = ""
    output_file: str = ""
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds per phase (`match`, `events`, `reach`, `z3`; `z3_cpu`: CPU seconds)."""
    accept_bounded: bool = False
    """`--accept-bounded`: a `bounded` verdict exits 0 (its word stays)."""

    @property
    def verdict(self) -> Status:
        return worst([f.verdict for f in self.functions])

    @property
    def exit_code(self) -> int:
        verdict = self.verdict
        if verdict == BOUNDED and self.accept_bounded:
            return 0
        return EXIT_CODES[verdict]

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "input": self.input_file,
            "output": self.output_file,
            "functions": [f.to_json() for f in self.functions],
        }

    def json_text(self) -> str:
        return json.dumps(self.to_json(), indent=2) + "\n"

    def text(self, sources: dict[str, str] | None = None) -> str:
        out: list[str] = []
        for f in self.functions:
            for v in f.violations:
                out.append(render(v.diagnostic(), sources))
        for f in self.functions:
            # "(module)": what lies outside the functions (`verifier.match.module_match`).
            line = f"{f.name if f.name.startswith('(') else '@' + f.name}: {f.verdict}"
            if f.verdict in (VERIFIED, BOUNDED):
                line += f" ({f.proved} obligations proved by Z3, reachability agrees"
                line += f" on {f.sampled_paths} sampled paths" if f.sampled_paths else ""
                line += f"; {count_text(f.paths)} paths" if f.paths > 1 else ""
                line += f"; {f.regions} region{'s' if f.regions != 1 else ''} proved apart" if f.regions else ""
                line += f"; proved for up to {f.unroll} loop iterations only: {f.lemma})" if f.bounded else ")"
                line += f" [{f.lemma}]" if f.lemma and not f.bounded else ""
            elif f.verdict == REFUTED:
                line += f" ({len(f.violations)} violation{'s' if len(f.violations) != 1 else ''} of {f.obligations} obligations)"
            if f.reason:
                line += f": {f.reason}"
            out.append(line + "\n")
        out.append(f"verdict: {self.verdict}\n")
        return "".join(out)
