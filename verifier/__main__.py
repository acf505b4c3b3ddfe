"""`python -m verifier check INPUT [--after OUTPUT | --impl CMD] ...`

Validates one rewrite of INPUT. The rewrite is OUTPUT (`--after`), the
stdout of CMD run with INPUT appended (`--impl`, split like a shell), or by
default the stdout of `python -m refimpl --mode M INPUT`, run as a
subprocess: the verifier treats the reference pass like any other tool.

INPUT or OUTPUT may be `-` (stdin, not both): stdin is read once, and an
implementation gets it as a temporary file, removed afterwards.

Exit codes: 0 verified, 1 refuted, 2 bad input or usage (including an
implementation that failed, timed out, printed nothing or something
unparsable, an output file that cannot be written, and any internal error),
3 unknown or inconsistent, 4 bounded (proved only up to the loop bound;
0 with `--accept-bounded`). Nothing but a verdict is ever 1.
"""

from __future__ import annotations

import argparse
import os
import shlex
import stat
import sys
import threading
from dataclasses import replace

from parallel import Jobs
from spec.diagnostics import Diagnostic, DiagnosticError, error, note, render
from spec.ir import Location, Operation
from spec.syntax.options import ParseOptions
from spec.syntax.parse_many import Parsed, parse_modules
from spec.syntax.string_literals import BYTES
from spec.tool import (
    Source,
    decode_source,
    exit_now,
    read_source,
    run_tool,
    write_file,
)
from verifier import CheckOptions, check, command_line
from verifier.harness import split_check
from verifier.harness.external import ImplProcess
from verifier.output.progress import Progress
from verifier.output.report import FunctionReport, Report
from verifier.proof import budget
from verifier.smt.solver import Status

EXIT_BAD_INPUT = 2


class _Impl:
    """An implementation run on INPUT (the verifier parses INPUT meanwhile):
    `verifier.harness.external.ImplProcess`, its failures as diagnostics on the
    output's label."""

    def __init__(
        self, argv: list[str], input_path: str, label: str, timeout_s: float, private: bool, data: bytes | None
    ) -> None:
        self.label = label
        where = Location(label, 0, 0)
        try:
            self.process = ImplProcess(argv, input_path, timeout_s, private=private, data=data)
        except FileNotFoundError:
            raise DiagnosticError(error(where, f"implementation not found: {argv[0]}")) from None
        except OSError as exc:  # not executable, no shebang (ENOEXEC), ...
            raise DiagnosticError(
                error(where, f"cannot run implementation '{argv[0]}': {exc.strerror or exc}")
            ) from None

    def kill(self) -> None:
        self.process.kill()

    def output(self) -> Source:
        """The implementation's stdout, checked as an input file is (size,
        UTF-8, no NUL), or a DiagnosticError saying why there is none."""
        where = Location(self.label, 0, 0)
        try:
            run = self.process.collect()
        finally:
            self.kill()
        if run.stopped:
            raise DiagnosticError(error(where, run.stopped))
        notes = [note(where, line) for line in run.stderr.decode("utf-8", "replace").strip().splitlines()[:20]]
        if run.returncode != 0:
            raise DiagnosticError(error(where, f"implementation failed (exit {run.returncode})", *notes))
        if not run.stdout.strip():
            # Not a rewrite that deleted every function: a tool that failed
            # without saying so.
            stdin = note(where, "the input is given as the last argument (a path); the implementation's stdin is empty")
            raise DiagnosticError(error(where, "implementation exited 0 but printed nothing", *notes, stdin))
        try:
            return decode_source(run.stdout, self.label)
        except DiagnosticError as exc:
            head = error(where, "the implementation printed something that is not MLIR text")
            raise DiagnosticError([head, *exc.diagnostics]) from None


def _parsed(src: Source, parsed: Parsed, role: str) -> Operation:
    if isinstance(parsed, DiagnosticError):
        head = error(Location(src.name, 0, 0), f"the {role} does not parse")
        raise DiagnosticError([head, *parsed.diagnostics])
    return parsed


def _usage(message: str) -> DiagnosticError:
    return DiagnosticError(error(Location("<command line>", 0, 0), message))


def _read_and_parse(args: argparse.Namespace, sources: dict[str, str]) -> tuple[Source, Operation, Source, Operation]:
    """INPUT and the rewrite, read (or produced) and parsed. With `--after`
    the two files are parsed at once (`parse_modules`); an implementation
    runs while INPUT is parsed. Errors come in order: INPUT's first."""
    if args.input == "-" and args.after == "-":
        raise _usage("INPUT and --after OUTPUT cannot both be read from stdin")
    if args.save_output is not None and args.after is not None:
        raise _usage(
            "--save-output keeps a rewrite the verifier runs (--impl or --mode); with --after it is a file already"
        )
    cmd, label = _impl_command(args)
    src_in = read_source(args.input)
    sources[src_in.name] = src_in.text
    if args.after is not None:
        src_out = read_source(args.after)
        sources.setdefault(src_out.name, src_out.text)
        if not src_out.text.strip() and src_in.text.strip():
            raise DiagnosticError(error(Location(src_out.name, 0, 0), "the output is empty"))
        # The output's dominance is the verifier's to judge (`wellformed`: a
        # use its definition does not dominate refutes the rewrite).
        parsed_in, parsed_out = parse_modules(
            [(src_in.text, src_in.name), (src_out.text, src_out.name)],
            dominance=[True, False],
            options=_parsing(args),
            jobs=_jobs(args),
        )
        return src_in, _parsed(src_in, parsed_in, "input"), src_out, _parsed(src_out, parsed_out, "output")
    # The implementation gets INPUT read from stdin (or from a pipe or a
    # FIFO: read once, it is gone) as a private file, and a user's `--impl`
    # a private copy of INPUT: one that rewrites its input in place must not
    # change the user's file. The refimpl never does.
    impl = _start_impl(args, src_in, cmd, label)
    try:
        (parsed_in,) = parse_modules([(src_in.text, src_in.name)], options=_parsing(args), jobs=_jobs(args))
        module_in = _parsed(src_in, parsed_in, "input")
        src_out = impl.output()
    finally:
        # INPUT reported, the run interrupted or the output collected:
        # nothing of the implementation is left running.
        impl.kill()
    if args.save_output is not None:
        # Saved before it is checked, and named as FILE in the report, so
        # that every `FILE:L:C` of the report points into a file the user has.
        write_file(args.save_output, src_out.text)
        src_out = Source(args.save_output, src_out.text)
    sources.setdefault(src_out.name, src_out.text)
    (parsed_out,) = parse_modules(
        [(src_out.text, src_out.name)], dominance=[False], options=_parsing(args), jobs=_jobs(args)
    )
    return src_in, module_in, src_out, _parsed(src_out, parsed_out, "output")


def _parsing(args: argparse.Namespace) -> ParseOptions:
    """How INPUT and the rewrite are parsed: `--allow-unregistered-dialect`."""
    return ParseOptions(allow_unregistered=args.allow_unregistered_dialect)


def _jobs(args: argparse.Namespace) -> Jobs:
    """`--jobs`: how far a second process may share the parse and the check."""
    return Jobs(args.jobs)


def _impl_command(args: argparse.Namespace) -> tuple[list[str], str]:
    """The implementation to run (`--impl`, else the refimpl in `--mode`)
    and the label its output is named by."""
    if not args.impl_timeout > 0:
        raise _usage("--impl-timeout must be > 0")
    if args.impl is not None:
        try:
            cmd = shlex.split(args.impl)
        except ValueError as exc:
            raise _usage(f"--impl: cannot split the command: {exc}") from None
        if not cmd:
            raise DiagnosticError(error(Location("--impl", 0, 0), "empty implementation command"))
        return cmd, "<impl output>"
    cmd = [sys.executable, "-m", "refimpl", "--mode", args.mode]
    if args.allow_unregistered_dialect:
        cmd.append("--allow-unregistered-dialect")
    if args.split_input_file:
        cmd.append("--split-input-file")
    return cmd, f"<refimpl --mode {args.mode} output>"


def _start_impl(args: argparse.Namespace, src_in: Source, cmd: list[str], label: str) -> _Impl:
    # The implementation gets INPUT read from stdin (or from a pipe or a
    # FIFO: read once, it is gone) as a private file, and a user's `--impl`
    # a private copy of INPUT: one that rewrites its input in place must not
    # change the user's file. The refimpl never does.
    data = src_in.text.encode(*BYTES) if args.input == "-" or not _regular_file(args.input) else None
    path = "stdin.mlir" if args.input == "-" else args.input
    return _Impl(cmd, path, label, args.impl_timeout, private=args.impl is not None, data=data)


def _split_sources(args: argparse.Namespace, sources: dict[str, str]) -> tuple[Source, Source]:
    """INPUT and the whole rewrite, as text (`--split-input-file`)."""
    if args.input == "-" and args.after == "-":
        raise _usage("INPUT and --after OUTPUT cannot both be read from stdin")
    for flag in ("dot", "svg", "html", "save_output", "func"):
        if getattr(args, flag) is not None:
            raise _usage(f"--{flag.replace('_', '-')} takes one check, not one per chunk of --split-input-file")
    cmd, label = _impl_command(args)
    src_in = read_source(args.input)
    sources[src_in.name] = src_in.text
    if args.after is not None:
        src_out = read_source(args.after)
    else:
        impl = _start_impl(args, src_in, cmd, label)
        try:
            src_out = impl.output()
        finally:
            impl.kill()
    sources.setdefault(src_out.name, src_out.text)
    return src_in, src_out


def main(argv: list[str] | None = None, prog: str = "python -m verifier") -> int:
    words = sys.argv[1:] if argv is None else argv
    args = command_line.parser(prog, exhaustive_args=not words or words[0] not in ("check",)).parse_args(argv)
    if args.command == "exhaustive":
        from verifier.harness import exhaustive

        return exhaustive.main(args)
    bar = Progress().start()
    try:
        return _check_command(args, bar)
    finally:
        bar.finish()


def _check_command(args: argparse.Namespace, prog: Progress) -> int:
    sources: dict[str, str] = {}
    if args.jobs is not None and args.jobs < 1:
        _print_diags([_usage("--jobs must be >= 1").diagnostics[0]], sources, prog)
        return EXIT_BAD_INPUT
    if args.split_input_file:
        return _check_chunks(args, prog, sources)
    prog.phase("parse" if args.after is not None else "run the implementation, parse")
    try:
        src_in, module_in, src_out, module_out = _read_and_parse(args, sources)
    except DiagnosticError as exc:
        _print_diags(exc.diagnostics, sources, prog)
        return EXIT_BAD_INPUT
    if _bad_numbers(args, sources, prog):
        return EXIT_BAD_INPUT
    prog.phase("check")
    report = replace(
        check(module_in, module_out, _options(args, module_in, src_in, src_out, prog)),
        input_file=src_in.name,
        output_file=src_out.name,
    )
    prog.phase("report")
    if args.func is not None and not report.functions:
        _print_diags(
            [error(Location(src_in.name, 0, 0), f"no function @{args.func} with a body in the input")], sources, prog
        )
        return EXIT_BAD_INPUT
    if args.dot:
        from verifier.output.dot import graph_dot

        # A ToolError here (`cannot open output file`) is exit 2 with nothing
        # on stdout (`run_tool(main, io_failure=2)`).
        write_file(args.dot, graph_dot(report))
    if args.svg or args.html:
        from verifier.output.timeline import write_pictures

        write_pictures(report, args.svg, args.html, sources)
    text = report.json_text() if args.format == "json" else report.text(sources)
    with _OUTPUT:  # never beside the watchdog's verdict (`_overrun`)
        prog.finish()
        sys.stdout.write(text)
    return report.exit_code


def _bad_numbers(args: argparse.Namespace, sources: dict[str, str], prog: Progress) -> bool:
    if (
        args.unroll < 1
        or args.timeout_ms <= 0
        or (args.max_paths is not None and args.max_paths < 1)
        or (args.budget_s is not None and args.budget_s < 0)
    ):
        _print_diags(
            [
                error(
                    Location("<command line>", 0, 0),
                    "--unroll must be >= 1 (0 would check no loop iteration), --timeout-ms > 0, --budget-s >= 0 "
                    "and --max-paths >= 1",
                )
            ],
            sources,
            prog,
        )
        return True
    return False


def _options(
    args: argparse.Namespace, module_in: Operation, src_in: Source, src_out: Source, prog: Progress
) -> CheckOptions:
    return CheckOptions(
        func=args.func,
        timeout_ms=args.timeout_ms,
        seed=args.seed,
        rlimit=args.rlimit,
        unroll=args.unroll,
        max_paths=args.max_paths,
        budget_s=_budget_seconds(args.budget_s, module_in),
        on_overrun=lambda b: _overrun(b, args, src_in.name, src_out.name, prog),
        require_unbounded=args.require_unbounded,
        accept_bounded=args.accept_bounded,
        compose=not args.no_compose,
        induction=not args.no_induction,
        jobs=_jobs(args),
        progress=prog,
    )


def _check_chunks(args: argparse.Namespace, prog: Progress, sources: dict[str, str]) -> int:
    """`--split-input-file` (`verifier/harness/split_check.py`)."""
    prog.phase("parse" if args.after is not None else "run the implementation, parse")
    try:
        src_in, src_out = _split_sources(args, sources)
        if _bad_numbers(args, sources, prog):
            return EXIT_BAD_INPUT
        reports = split_check.chunk_reports(
            src_in, src_out, lambda module: _options(args, module, src_in, src_out, prog), _parsing(args)
        )
    except DiagnosticError as exc:
        _print_diags(exc.diagnostics, sources, prog)
        return EXIT_BAD_INPUT
    text = split_check.joined_text(reports, sources, args.format == "json")
    with _OUTPUT:
        prog.finish()
        sys.stdout.write(text)
    return split_check.exit_code(reports)


_OUTPUT = threading.Lock()
"""Held by whoever prints the verdict: the run, or the budget's watchdog."""


def _budget_seconds(given: float | None, module_in: Operation) -> float | None:
    """`--budget-s`: None (not given) is the default for this input, 0 none."""
    if given is None:
        return budget.default_seconds(module_in)
    return given or None


def _overrun(b: budget.Budget, args: argparse.Namespace, input_name: str, output_name: str, prog: Progress) -> None:
    """The budget was spent and the run did not return within the grace
    (a long step the watchdog cannot interrupt): the verdict is `unknown`,
    every function not finished with the budget's reason, and the process
    ends here with the verdict's exit code."""
    if not _OUTPUT.acquire(blocking=False):
        return  # the run is printing its own verdict
    functions = list(b.finished)
    reason = b.reason + f"; stopped {budget.GRACE_S:g} s later"
    functions.extend(FunctionReport(name, Status.UNKNOWN, reason=reason) for name in b.names[len(functions) :])
    if not functions:
        functions.append(FunctionReport("(module)", Status.UNKNOWN, reason=reason))
    report = Report(tuple(functions), input_file=input_name, output_file=output_name)
    text = report.json_text() if args.format == "json" else report.text()
    try:
        prog.finish()
        sys.stdout.write(text)
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        exit_now(report.exit_code)


def _print_diags(diags: list[Diagnostic], sources: dict[str, str], prog: Progress) -> None:
    prog.finish()  # the status line cleared before any diagnostic
    for d in diags:
        sys.stderr.write(render(d, sources))


def _regular_file(path: str) -> bool:
    """`path` names a regular file (not a FIFO, a pipe or a device)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def console_main() -> None:
    """The `gpu-async-verify` console script."""
    run_tool(lambda: main(prog="gpu-async-verify"), io_failure=EXIT_BAD_INPUT)


if __name__ == "__main__":
    # 1 is "refuted": an output that cannot be written is 2, like bad input.
    run_tool(main, io_failure=EXIT_BAD_INPUT)
