"""`python -m spec`: the language on the command line.

    python -m spec print [FILE|-] [-o OUT] [--mlir-print-op-generic] [--split-input-file]
                         [--allow-unregistered-dialect]

parses and prints like `mlir-opt FILE` with no pass. Exit 0 on success, 1 with
MLIR diagnostics on stderr on failure or when the output cannot be written,
2 on usage and internal errors. With `--split-input-file` a failed chunk
does not stop the others: as mlir-opt-19, stdout has every chunk that parsed
(a failed one leaves only its `// -----` separator), its diagnostics say
`within split at FILE:LINE offset :L:C`, and the exit code is 1; `-o OUT` is
written only when every chunk succeeds.
"""

from __future__ import annotations

import argparse
import sys

from spec.diagnostics import DiagnosticError
from spec.syntax.options import ParseOptions
from spec.tool import add_subcommand, cli_parser, read_source, report, run_per_module, run_tool, write_output


def _print_cmd(args: argparse.Namespace) -> int:
    try:
        src = read_source(args.file)
    except DiagnosticError as exc:
        report(exc.diagnostics, None)
        return 1
    options = ParseOptions(allow_unregistered=args.allow_unregistered_dialect)
    text, errors = run_per_module(src, args.split_input_file, lambda m: m, args.mlir_print_op_generic, options)
    if errors:
        # As mlir-opt-19: the diagnostics, then on stdout every chunk that
        # parsed; an `-o` file is written only on success (19 removes it).
        sys.stderr.write(errors)
        if args.o in (None, "-"):
            write_output(text, None)
        return 1
    write_output(text, args.o)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = cli_parser(
        "python -m spec",
        "The MLIR subset: print, run, explore.",
        "{prog} print {corpus}/scf_if.mlir --mlir-print-op-generic",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = add_subcommand(
        sub,
        "print",
        "parse and print, like mlir-opt with no pass",
        "{prog} {corpus}/scf_if.mlir -o printed.mlir",
    )
    p.add_argument("file", nargs="?", default="-")
    p.add_argument("-o", metavar="OUT", default=None)
    p.add_argument("--mlir-print-op-generic", "-mlir-print-op-generic", action="store_true")
    p.add_argument("--split-input-file", "-split-input-file", action="store_true")
    p.add_argument(
        "--allow-unregistered-dialect",
        "-allow-unregistered-dialect",
        action="store_true",
        help="ops, types and attributes of dialects mlir-opt-19 does not register are opaque, not errors",
    )
    p.set_defaults(func=_print_cmd)
    try:
        from spec.semantics import cli as semantics_cli
    except ImportError:
        semantics_cli = None  # type: ignore[assignment]  # None: the optional module is missing
    if semantics_cli is not None:
        semantics_cli.add_commands(sub)
    args = parser.parse_args(argv)
    # An unexpected exception is `run_tool`'s: `error: internal error: ...`, exit 2.
    return args.func(args)


if __name__ == "__main__":
    run_tool(main)
