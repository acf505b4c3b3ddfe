"""Replaying a counterexample in the executable semantics.

A Z3 model gives every point of the output's graph a time. The interpreter
(`spec.semantics.schedule.Machine`) runs the output function stepping, at
each moment, the enabled step whose point the model puts earliest; the
input function runs in program order (it is synchronous). Both get the same
concrete arguments (`spec.semantics.interp.default_args` of the input). The
report says whether the outcomes (observations of host effects, final
buffer contents) differ: a differing outcome confirms the race changes what
the program computes; the same outcome means the race exists on this
schedule but these concrete values do not show it.

Steps are matched to points by label (`issue`/`start`/`finish`/`host`/
`begin` and `op@loc`) and occurrence; steps with no point in the model
(pure joins, ops outside the window) take the order of the graph.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from spec import registry
from spec.diagnostics import DiagnosticError
from spec.ir import Operation
from spec.semantics.events import EventGraph

if TYPE_CHECKING:
    from spec.semantics.outcome import Outcome
    from spec.semantics.schedule import Machine

MAX_STEPS = 100_000
"""Steps of the output's run; one that does not end within them is not
compared (its outcome would be a prefix)."""
MAX_REPLAY_OPS = 10_000
"""Functions of more ops than this (the input's, nested ones included) are
not replayed: the interpreter takes about 0.15 ms an op, so at 10k GPU ops
(27,152 ops) the replay was 9 s of an 11 s run. The counterexample is Z3's
model either way; the replay only shows what the race changes."""
EXCERPT_CONTEXT = 3
"""Outcome lines shown before and after the first difference (text report)."""
_KIND_WORD = {"issue": "issue", "start": "start", "finish": "finish", "point": "host", "yield": "host", "body": "begin"}
_FAR = 10**12


@dataclass
class Replay:
    replayed: bool
    differs: bool = False
    reason: str = ""
    """Why it was not replayed, if it was not."""
    schedule: list[str] = field(default_factory=list)
    input_outcome: str = ""
    output_outcome: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "replayed": self.replayed,
            "outcome_differs": self.differs,
            "reason": self.reason,
            "schedule": self.schedule[:60],
            "input_outcome": self.input_outcome,
            "output_outcome": self.output_outcome,
        }

    def excerpt(self) -> str:
        """The two outcomes around their first differing line (the text
        report's note; JSON has them whole): `EXCERPT_CONTEXT` lines before
        and after, each side saying how many lines it left out; short
        outcomes whole."""
        ins, outs = self.input_outcome.splitlines(), self.output_outcome.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(ins, outs)) if a != b), min(len(ins), len(outs)))
        short = max(len(ins), len(outs)) <= 4 * EXCERPT_CONTEXT  # shown whole
        lo = 0 if short else max(first - EXCERPT_CONTEXT, 0)

        def part(name: str, lines: list[str]) -> str:
            hi = len(lines) if short else min(first + EXCERPT_CONTEXT + 1, len(lines))
            shown = [*([f"... {lo} line(s) as in the other"] if lo else []), *lines[lo:hi]]
            if hi < len(lines):
                shown.append(f"... {len(lines) - hi} more line(s)")
            return f"{name} outcome (first difference at line {first + 1} of {len(lines)}):\n" + "".join(
                f"{x}\n" for x in shown
            )

        return part("input", ins) + part("output", outs)

    def summary(self) -> str:
        if not self.replayed:
            return f"not replayed in the executable semantics: {self.reason}"
        if self.differs:
            return "replayed in the executable semantics: the output's outcome differs from the input's"
        return (
            "replayed in the executable semantics: same outcome on this schedule (the values used do not show the race)"
        )


def _base(label: str) -> str:
    label = label.split(" in ", 1)[0]
    return label.split("#", 1)[0]


def priorities(g: EventGraph, times: dict[int, int]) -> dict[tuple[str, int], int]:
    """(step label without suffix, occurrence) -> time, for every point of
    `g`: the model's time in the window, the graph order outside it."""
    lo, hi = (min(times), max(times)) if times else (0, -1)
    out: dict[tuple[str, int], int] = {}
    seen: dict[str, int] = {}
    for n, kind in enumerate(g.kinds):
        word = _KIND_WORD.get(kind)
        op = g.ops[n]
        if word is None or op is None or registry.is_host_function(op.name):
            continue
        key = f"{word} {op.name}@{op.loc}"
        k = seen.get(key, 0)
        seen[key] = k + 1
        if n in times:
            t = times[n]
        else:
            t = n - _FAR if n < lo else n + _FAR
        out[(key, k)] = t
    return out


def replay(
    fin: Operation,
    fout: Operation,
    gout: EventGraph,
    times: dict[int, int],
    to_output: dict[Operation, Operation] | None = None,
) -> Replay:
    """Run `fin` in order and `fout` on the model's schedule and compare the
    outcomes. `to_output` (input op -> output op, the correspondence) names
    what the output's ops allocate, and the threads its `async.execute`s
    start, by the input op's location: buffers are seeded by name, so the
    two runs start from the same values, and an outcome differs only where
    what was computed differs (not where the rewrite moved a line)."""
    aliases = {str(b.loc): str(a.loc) for a, b in (to_output or {}).items()}
    try:
        from spec.semantics import interp, schedule
    except ImportError as exc:  # the semantics is optional for the verifier
        return Replay(False, reason=f"executable semantics unavailable ({exc})")
    size = sum(1 for _ in fin.walk())
    if size > MAX_REPLAY_OPS:
        return Replay(
            False,
            reason=f"the function has {size:,} ops, more than the {MAX_REPLAY_OPS:,} the replay runs (the schedule is Z3's model)",
        )
    try:
        prio = priorities(gout, times)
        args_in = interp.default_args(fin)
        ran_in = schedule.run(fin, args_in)
        m = schedule.Machine(fout, interp.default_args(fin), aliases)
        counts: dict[str, int] = {}
        labels: list[str] = []
        for _ in range(MAX_STEPS):
            en = m.enabled()
            if not en:
                break
            best, best_t = en[0], None
            for pid in en:
                base = _base(m.label(pid))
                t = prio.get((base, counts.get(base, 0)))
                if t is not None and (best_t is None or t < best_t):
                    best, best_t = pid, t
            label = m.label(best)
            base = _base(label)
            counts[base] = counts.get(base, 0) + 1
            labels.append(label)
            m.step(best)
        else:
            if m.enabled():
                return Replay(False, reason=f"the output's run did not end within {MAX_STEPS:,} steps")
        out = m.outcome()
    except DiagnosticError as exc:
        return Replay(False, reason=exc.diagnostics[0].message if exc.diagnostics else str(exc))
    except Exception as exc:
        return Replay(False, reason=f"{type(exc).__name__}: {exc}")
    return Replay(True, _values(ran_in.outcome) != _values(out, m), "", labels, ran_in.outcome.render(), out.render())


def _values(outcome: Outcome, m: Machine | None = None) -> tuple[object, object]:
    """An outcome without source locations (input and output differ there):
    observations without their own location, threads named as `m` names
    values (by the input's locations), buffers as named."""
    rename = m.value_name if m is not None else (lambda name: name)
    obs = tuple(sorted((rename(t), tuple((o.kind, o.detail) for o in seq)) for t, seq in outcome.observations))
    return obs, outcome.buffers
