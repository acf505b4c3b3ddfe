"""`python -m verifier check INPUT [--after OUTPUT | --impl CMD] ...`

Validates one rewrite of INPUT. The rewrite is OUTPUT (`--after`), the
stdout of CMD run with INPUT appended (`--impl`, split like a shell), or by
default the stdout of `python -m refimpl --mode M INPUT`, run as a
subprocess: the verifier treats the reference pass like any other tool.

Exit codes: 0 verified, 1 refuted, 2 bad input or usage (including an
implementation that failed or printed something unparsable), 3 unknown or
inconsistent.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys

from spec.diagnostics import Diagnostic, DiagnosticError, error, note, render
from spec.ir import Location, Operation
from spec.semantics.events import DEFAULT_UNROLL
from spec.syntax.forked import Parsed, parse_modules
from spec.tool import Source, read_source, run_tool
from verifier import check
from verifier.encode import DEFAULT_SEED, DEFAULT_TIMEOUT_MS

EXIT_BAD_INPUT = 2
IMPL_TIMEOUT_S = 600


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m verifier", description="Translation validation of -gpu-async-region rewrites."
    )
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="prove that a rewrite keeps every GPU op and host effect ordered")
    c.add_argument("input", metavar="INPUT", help="the program before the rewrite (.mlir)")
    src = c.add_mutually_exclusive_group()
    src.add_argument("--after", metavar="OUTPUT", help="the rewritten program (.mlir)")
    src.add_argument("--impl", metavar="CMD", help="command that gets INPUT appended and prints the rewrite on stdout")
    c.add_argument(
        "--mode",
        choices=["reference", "mlir19", "seed"],
        default="reference",
        help="refimpl mode when neither --after nor --impl is given",
    )
    c.add_argument("--func", metavar="NAME", help="check only this function")
    c.add_argument(
        "--timeout-ms",
        type=int,
        default=DEFAULT_TIMEOUT_MS,
        help=f"Z3 timeout per query (default {DEFAULT_TIMEOUT_MS})",
    )
    c.add_argument("--seed", type=int, default=DEFAULT_SEED, help="Z3 random seed (default 0)")
    c.add_argument("--rlimit", type=int, default=None, help="Z3 resource limit per query (deterministic work bound)")
    c.add_argument(
        "--unroll", type=int, default=DEFAULT_UNROLL, help=f"loop iterations considered (default {DEFAULT_UNROLL})"
    )
    c.add_argument(
        "--max-paths",
        type=int,
        default=None,
        metavar="N",
        help="verdict unknown for a function of more than N paths (default: no limit; paths are counted, not enumerated)",
    )
    c.add_argument("--format", choices=["text", "json"], default="text")
    c.add_argument(
        "--dot", metavar="FILE", help="write the output's happens-before graph (DOT), the missing edge highlighted"
    )
    return p


def _start_impl(argv: list[str], input_path: str, label: str) -> subprocess.Popen[str]:
    """Start an implementation on INPUT; `_impl_output` collects it. The
    verifier parses INPUT while it runs."""
    try:
        return subprocess.Popen([*argv, input_path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except (FileNotFoundError, PermissionError):
        raise DiagnosticError(error(Location(label, 0, 0), f"implementation not found: {argv[0]}")) from None


def _impl_output(proc: subprocess.Popen[str], label: str) -> str:
    """The implementation's stdout, or a DiagnosticError saying why not."""
    where = Location(label, 0, 0)
    try:
        stdout, stderr = proc.communicate(timeout=IMPL_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise DiagnosticError(error(where, f"implementation timed out after {IMPL_TIMEOUT_S} s")) from None
    if proc.returncode != 0:
        notes = [note(where, line) for line in stderr.strip().splitlines()[:20]]
        raise DiagnosticError(error(where, f"implementation failed (exit {proc.returncode})", *notes))
    return stdout


def _parsed(src: Source, parsed: Parsed, role: str) -> Operation:
    if isinstance(parsed, DiagnosticError):
        head = error(Location(src.name, 0, 0), f"the {role} does not parse")
        raise DiagnosticError([head, *parsed.diagnostics])
    return parsed


def _read_and_parse(args: argparse.Namespace, sources: dict[str, str]) -> tuple[Source, Operation, Source, Operation]:
    """INPUT and the rewrite, read (or produced) and parsed. With `--after`
    the two files are parsed at once (`parse_modules`); an implementation
    runs while INPUT is parsed. Errors come in order: INPUT's first."""
    src_in = read_source(args.input)
    sources[src_in.name] = src_in.text
    if args.after is not None:
        src_out = read_source(args.after)
        sources.setdefault(src_out.name, src_out.text)
        parsed_in, parsed_out = parse_modules([(src_in.text, src_in.name), (src_out.text, src_out.name)])
        return src_in, _parsed(src_in, parsed_in, "input"), src_out, _parsed(src_out, parsed_out, "output")
    if args.impl is not None:
        cmd = shlex.split(args.impl)
        if not cmd:
            raise DiagnosticError(error(Location("--impl", 0, 0), "empty implementation command"))
        label = "<impl output>"
    else:
        cmd = [sys.executable, "-m", "refimpl", "--mode", args.mode]
        label = f"<refimpl --mode {args.mode} output>"
    proc = _start_impl(cmd, args.input, label)
    try:
        (parsed_in,) = parse_modules([(src_in.text, src_in.name)])
        module_in = _parsed(src_in, parsed_in, "input")
    except BaseException:
        # INPUT is reported (or the run interrupted): the rewrite is not needed.
        proc.kill()
        proc.communicate()
        raise
    src_out = Source(label, _impl_output(proc, label))
    sources.setdefault(src_out.name, src_out.text)
    (parsed_out,) = parse_modules([(src_out.text, src_out.name)])
    return src_in, module_in, src_out, _parsed(src_out, parsed_out, "output")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    sources: dict[str, str] = {}
    try:
        src_in, module_in, src_out, module_out = _read_and_parse(args, sources)
    except DiagnosticError as exc:
        _print_diags(exc.diagnostics, sources)
        return EXIT_BAD_INPUT
    if args.unroll < 0 or args.timeout_ms <= 0 or (args.max_paths is not None and args.max_paths < 1):
        _print_diags(
            [error(Location("<command line>", 0, 0), "--unroll must be >= 0, --timeout-ms > 0 and --max-paths >= 1")],
            sources,
        )
        return EXIT_BAD_INPUT
    report = check(
        module_in,
        module_out,
        func=args.func,
        timeout_ms=args.timeout_ms,
        seed=args.seed,
        rlimit=args.rlimit,
        unroll=args.unroll,
        max_paths=args.max_paths,
    )
    report.input_file, report.output_file = src_in.name, src_out.name
    if args.func is not None and not report.functions:
        _print_diags(
            [error(Location(src_in.name, 0, 0), f"no function @{args.func} with a body in the input")], sources
        )
        return EXIT_BAD_INPUT
    if args.dot:
        from verifier.dot import write_dot

        write_dot(args.dot, module_in, module_out, report, args.func)
    sys.stdout.write(report.json_text() if args.format == "json" else report.text(sources))
    return report.exit_code


def _print_diags(diags: list[Diagnostic], sources: dict[str, str]) -> None:
    for d in diags:
        sys.stderr.write(render(d, sources))


if __name__ == "__main__":
    run_tool(main)
