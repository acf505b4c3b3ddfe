"""(program, rewrite) pairs judged twice: by the verifier and by the semantics.

A pair is a generated program (`verifier.programs.boundary_programs`, or
`verifier.programs.generators` for the rest of the subset), a rewrite of it (the
identity, the refimpl in `reference` or `mlir19` mode, or `mlir-opt-19
-gpu-async-region` when installed) and zero to two edits of that rewrite
(`verifier.programs.edits`). `evaluate` runs `verifier.check` on it and
`spec.semantics.judge.judge_modules`, and returns both answers in a `Row`.

The requirement is that no row is `verified` by the verifier and
`wrong` for the semantics (`Row.unsound`); `refuted` where the semantics
sees nothing wrong is allowed and counted apart.

`pairs(...)` is the Hypothesis strategy. It shrinks as its parts do: the
program as its generator says, the rewrite source toward the identity (the
first entry), the edit list toward no edit, each edit toward the first
entry of `EDITS` and its site toward the first site.
"""

from __future__ import annotations

import functools
import shutil
from dataclasses import dataclass

from hypothesis import strategies as st

import verifier
from spec.diagnostics import DiagnosticError
from spec.invariant import InternalError
from spec.semantics.events import DEFAULT_UNROLL
from spec.semantics.judge import OK, UNDECIDED, WRONG, Judgement, judge_modules
from spec.syntax.parser import parse_module
from spec.syntax.printing import join_outputs, print_op
from verifier.harness.gate import CommandImpl, Failure, ImplFailed, RefimplImpl
from verifier.programs.boundary_programs import ALL, Options, boundary_programs
from verifier.programs.edits import EDITS
from verifier.programs.generators import Features, programs
from verifier.smt.solver import Status

MLIR_OPT = shutil.which("mlir-opt-19")
SOURCES = ["identity", "refimpl", "refimpl-mlir19", *(["mlir-opt-19"] if MLIR_OPT else [])]
SMALL_FEATURES = Features(scf=True, cf=True, max_functions=1, max_ops=3, max_depth=1)
"""`verifier.programs.generators` programs small enough to explore exhaustively."""
VERIFIER_TIMEOUT_MS = 5000
VERIFIER_BUDGET_S = 20.0
"""The verifier's whole-run budget per pair: a pair over it is `unknown`
(counted, never `verified`), so one hard pair cannot stall a long run."""


@dataclass(frozen=True)
class Pair:
    input_text: str
    source: str
    edits: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """Each edit by name with the site choices it made (replayable)."""
    unroll: int = DEFAULT_UNROLL
    """The verifier's loop bound: 1 puts a race between two iterations past
    it, where the verdict must be `bounded` (or refuted), never `verified`."""

    def describe(self) -> str:
        bound = f" (--unroll {self.unroll})" if self.unroll != DEFAULT_UNROLL else ""
        return self.source + "".join(f" + {name}{list(sites)}" for name, sites in self.edits) + bound


@functools.lru_cache(maxsize=1024)
def _rewrite(text: str, source: str) -> str:
    if source == "identity":
        return text
    if source == "refimpl":
        return RefimplImpl("reference")(text)
    if source == "refimpl-mlir19":
        return RefimplImpl("mlir19")(text)
    if MLIR_OPT is None:
        raise InternalError("verifier.harness.judge_pairs: expected MLIR_OPT is not None")
    return CommandImpl((MLIR_OPT, "-gpu-async-region"))(text)


def output_text(pair: Pair) -> str:
    """The rewrite of `pair`'s input with its edits applied (raises
    `ImplFailed` if the rewrite fails, `DiagnosticError` if it does not parse)."""
    out = _rewrite(pair.input_text, pair.source)
    if not pair.edits:
        return out
    module = parse_module(out, "<rewrite>", dominance=False)
    for name, sites in pair.edits:
        it = iter(sites)
        EDITS[name](module, lambda n: next(it, 0) % n if n else 0)
    return join_outputs([print_op(module)])


@dataclass
class Row:
    pair: Pair
    verdict: Status | Failure
    """The verifier's verdict, or why there is none."""
    judgement: str
    """`ok`, `wrong`, `undecided`, or `-` when there was nothing to judge."""
    output: str = ""
    detail: str = ""
    """The semantic violations (or the verifier's message)."""
    semantic: Judgement | None = None
    why: str = ""
    """The verifier's reason, for a verdict other than `verified`/`refuted`."""

    @property
    def unsound(self) -> bool:
        """`verified` where the semantics sees a violation. (`bounded` and
        wrong is no unsound verdict: it claims the bound only.)"""
        return self.verdict == "verified" and self.judgement == WRONG


def evaluate(pair: Pair, bound: int | None = None, steps: int | None = None) -> Row:
    try:
        out = output_text(pair)
        fin = parse_module(pair.input_text, "in.mlir")
        fout = parse_module(out, "out.mlir", dominance=False)
    except ImplFailed as exc:
        return Row(pair, Failure.IMPL_FAILED, "-", detail=str(exc)[:300])
    except DiagnosticError:
        return Row(pair, Failure.UNPARSABLE, "-")
    report = verifier.check(fin, fout, timeout_ms=VERIFIER_TIMEOUT_MS, budget_s=VERIFIER_BUDGET_S, unroll=pair.unroll)
    judgements = judge_modules(fin, fout, **({"bound": bound} if bound else {}), **({"steps": steps} if steps else {}))
    verdicts = [j.verdict for j in judgements.values()]
    judgement = WRONG if WRONG in verdicts else UNDECIDED if UNDECIDED in verdicts else OK
    worst = next((j for j in judgements.values() if j.verdict == judgement), None)
    detail = worst.text() if worst is not None else ""
    why = "; ".join(f.reason for f in report.functions if f.reason and f.verdict not in ("verified", "refuted"))
    return Row(pair, report.verdict, judgement, out, detail, worst, why)


# -- strategies ------------------------------------------------------------------


def nested(text: str) -> str:
    """The program `text` (one top-level module) as `module @A` inside an
    unnamed module, beside a `module @B` with the same kernels and
    declarations: its functions have the symbol paths `A::@f`, and a
    rewrite can move one to `B::@f` and keep the IR valid."""
    lines = text.rstrip("\n").splitlines()
    body = lines[1:-1]
    first_func = next(k for k, ln in enumerate(body) if ln.lstrip().startswith("func.func") and "private" not in ln)
    indent = ["  " + ln if ln else ln for ln in body]
    head = lines[0].replace("module ", "module @A ", 1)
    other = [lines[0].replace("module ", "module @B ", 1), *body[:first_func], "}"]
    return "\n".join(["module {", "  " + head, *indent, "  }", *("  " + ln for ln in other), "}", ""])


EDIT_NAMES = list(EDITS)


@st.composite
def pairs(
    draw: st.DrawFn,
    options: Options = ALL,
    sources: list[str] | None = None,
    edits: list[str] | None = None,
    legacy: bool = True,
    unrolls: list[int] | None = None,
    nest: bool | None = None,
) -> Pair:
    """A `Pair`: the program from `boundary_programs(options)` (or, one time
    in four when `legacy`, from `verifier.programs.generators` with small features),
    one in eight of the latter as `module @A` beside a `module @B`
    (`nested`, shrinking toward not nested; `nest`: always or never), a rewrite source, up to two edits with their site choices, and the
    verifier's loop bound (shrinking toward the default; `unrolls`: the
    bounds to draw from instead)."""
    if legacy and draw(st.integers(0, 3)) == 3:
        text = draw(programs(SMALL_FEATURES)).text
    else:
        text = draw(boundary_programs(options))
        if nest or (nest is None and draw(st.integers(0, 7)) == 7):
            text = nested(text)
    source = draw(st.sampled_from(sources or SOURCES))
    names = edits if edits is not None else EDIT_NAMES
    chosen = draw(st.lists(st.sampled_from(names), max_size=2)) if names else []
    unroll = draw(st.sampled_from(unrolls or [DEFAULT_UNROLL, 1]))
    return Pair(
        text,
        source,
        tuple((n, tuple(draw(st.lists(st.integers(0, 30), min_size=3, max_size=3)))) for n in chosen),
        unroll,
    )
