"""The conformance gate's core: run an implementation on one program and judge it.

An *implementation* is anything that turns the text of a module into the
text of its rewrite. Three kinds:

- `CommandImpl`: an external command (`--impl CMD`, split like a shell), the
  input path appended and the output read from stdout, the convention of
  `python -m verifier check --impl`;
- `RefimplImpl`: the refimpl in one of its modes, called in-process (the same
  parse, `refimpl.rewrite`, print as `python -m refimpl`, without paying a
  Python start-up per generated program);
- any callable `str -> str` (the mutants of `verifier.programs.mutants`).

`judge` parses the input, runs the implementation, parses its output and
asks `verifier.check`; with `expect` it also requires the output to equal
the refimpl's in that mode (`spec.ir.structurally_equal`). The `GateResult`
carries everything a failure message needs: the program, the output and the
counterexample. Verdicts: `verified` passes; `refuted`, `inconsistent`, an
implementation that fails or prints something unparsable, and an output that
differs from the expected one fail; `unknown` (the verifier cannot decide,
e.g. a construct it does not model) and `bounded` (proved only up to the
loop unroll bound) are neither and are reported as such.
"""

from __future__ import annotations

import enum
import os
import shlex
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from spec.diagnostics import DiagnosticError, render
from spec.ir import structurally_equal
from spec.syntax.parser import parse_module
from spec.syntax.printing import join_outputs, print_op
from spec.tool import decode_source
from verifier.harness import reference_impl
from verifier.harness.external import run_impl
from verifier.output.report import Report
from verifier.proof.budget import default_seconds
from verifier.smt.solver import Status

PASS, FAIL, UNDECIDED = "pass", "fail", "undecided"


class ImplFailed(Exception):
    """The implementation exited non-zero (its stderr is the message)."""


Implementation = Callable[[str], str]


@dataclass(frozen=True)
class CommandImpl:
    """An external command: `argv + [input path]`, output on stdout, run by
    `verifier.harness.external.run_impl` (its timeout, its process group killed)."""

    argv: tuple[str, ...]

    @classmethod
    def parse(cls, cmd: str) -> CommandImpl:
        return cls(tuple(shlex.split(cmd)))

    def __call__(self, text: str) -> str:
        # One private file per call, so parallel workers (xdist) never share one.
        fd, path = tempfile.mkstemp(suffix=".mlir", prefix="gate-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(text)
            run = run_impl(self.argv, path)
        finally:
            os.unlink(path)
        stderr = run.stderr.decode("utf-8", "replace")
        if run.stopped:
            raise ImplFailed(f"{run.stopped}\n{stderr}")
        if run.returncode != 0:
            raise ImplFailed(f"exit {run.returncode}\n{stderr}")
        if not run.stdout.strip():
            # Not a rewrite that deleted every function: a tool that failed
            # without saying so (or read its input from stdin, which is empty).
            raise ImplFailed(f"exited 0 but printed nothing (the input is its last argument; stdin is empty)\n{stderr}")
        try:
            return decode_source(run.stdout, "<output>").text
        except DiagnosticError as exc:
            raise ImplFailed(f"printed something that is not MLIR text: {_render(exc, '')}\n{stderr}") from None

    def __str__(self) -> str:
        return shlex.join(self.argv)


@dataclass(frozen=True)
class RefimplImpl:
    """The refimpl in `mode`, in-process."""

    mode: str = "reference"

    def __call__(self, text: str) -> str:
        try:
            module = parse_module(text, "<input>")
        except DiagnosticError as exc:
            raise ImplFailed(_render(exc, text)) from None
        result = reference_impl.rewrite(module, self.mode)
        if not result.ok:
            raise ImplFailed("".join(render(d, {"<input>": text}) for d in result.diagnostics))
        return join_outputs([print_op(result.module)])

    def __str__(self) -> str:
        return f"{sys.executable} -m refimpl --mode {self.mode} (in-process)"


def default_impl(cmd: str | None) -> Implementation:
    """`--impl CMD` if given, else the refimpl's reference mode."""
    return CommandImpl.parse(cmd) if cmd else RefimplImpl("reference")


class Failure(enum.StrEnum):
    """Why a program got no verifier verdict (the word printed and stored
    where a verdict would be)."""

    IMPL_FAILED = "impl-failed"
    """The implementation exited non-zero, timed out or printed nothing."""
    UNPARSABLE = "unparsable"
    """Its output is not IR the parser takes."""
    DIFFERS = "differs"
    """Verified, but not the output of the refimpl mode it was asked to match."""
    TIMEOUT = "timeout"
    """The whole judgement took longer than its harness allows."""


@dataclass
class GateResult:
    status: str
    """`pass`, `fail` or `undecided` (verifier said unknown or bounded)."""
    verdict: Status | Failure
    """The verifier's verdict, or why there is none."""
    input_text: str
    output_text: str = ""
    detail: str = ""
    """The counterexample, the implementation's stderr, or the reason."""
    report: Report | None = None
    """The verifier's report, when the output parsed."""

    def message(self, impl: object) -> str:
        return (
            f"gate: {self.verdict} for implementation {impl}\n"
            f"===== input program =====\n{self.input_text}"
            f"===== implementation output =====\n{self.output_text}"
            f"===== {self.verdict} =====\n{self.detail}"
        )


def _render(exc: DiagnosticError, text: str, name: str = "<input>") -> str:
    return "".join(render(d, {name: text}) for d in exc.diagnostics)


def judge(
    text: str,
    impl: Implementation,
    expect: str | None = None,
    timeout_ms: int | None = None,
    budget_s: float | None = None,
) -> GateResult:
    """Run `impl` on `text` and validate its output (see the module docstring).
    The verifier's budget is `budget_s`, by default that of `python -m
    verifier check` for this program (`verifier.proof.budget.default_seconds`),
    so no program holds the gate for long: one over it is `unknown`."""
    import verifier

    module_in = parse_module(text, "<input>")
    try:
        out = impl(text)
    except ImplFailed as exc:
        return GateResult(FAIL, Failure.IMPL_FAILED, text, "", str(exc))
    try:
        module_out = parse_module(out, "<output>", dominance=False)
    except DiagnosticError as exc:
        return GateResult(FAIL, Failure.UNPARSABLE, text, out, _render(exc, out, "<output>"))
    kwargs: dict[str, Any] = {"timeout_ms": timeout_ms} if timeout_ms else {}
    seconds = budget_s if budget_s is not None else default_seconds(module_in)
    report = verifier.check(module_in, module_out, budget_s=seconds, **kwargs)
    verdict = report.verdict
    detail = report.text({"<input>": text, "<output>": out})
    if verdict == Status.VERIFIED and expect is not None:
        try:
            ref = RefimplImpl(expect)(text)
        except ImplFailed as exc:
            return GateResult(
                FAIL, Failure.DIFFERS, text, out, f"the refimpl --mode {expect} fails on this input:\n{exc}", report
            )
        if not structurally_equal(module_out, parse_module(ref, "<expected>")):
            return GateResult(
                FAIL,
                Failure.DIFFERS,
                text,
                out,
                f"output differs from refimpl --mode {expect}, which prints:\n{ref}",
                report,
            )
    if verdict == Status.VERIFIED:
        return GateResult(PASS, verdict, text, out, detail, report)
    if verdict in (Status.UNKNOWN, Status.BOUNDED):
        # `bounded` held only up to the unroll bound: not a pass, not a bug.
        return GateResult(UNDECIDED, verdict, text, out, detail, report)
    return GateResult(FAIL, verdict, text, out, detail, report)
