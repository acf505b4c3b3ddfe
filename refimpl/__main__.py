"""`python -m refimpl`: the pass on the command line, like `mlir-opt`.

    python -m refimpl [FILE|-] [-gpu-async-region] [--mode M] [-o OUT]
                      [--split-input-file] [--verify-diagnostics]
                      [--mlir-print-op-generic]
    gpu-async-opt ...   (the same, installed as a console script)

The pass can also be named as mlir-opt names it in a pipeline,
`--pass-pipeline='builtin.module(func.func(gpu-async-region))'` (it is a
function pass); any other pipeline is a usage error, since this tool has no
other pass.

Options take one or two dashes, as mlir-opt's do. They are all checked
before the input is read: a bad one is a usage error (exit code 2) with a
message of its own (an unknown option or mode, a pipeline other than the
pass, a pipeline given with the pass's own flag). On failure the diagnostics
go to stderr in MLIR's format, the exit code is 1 and an existing `-o` file
is left untouched (mlir-opt-19 removes it); stdout gets nothing, but with
`--split-input-file` every chunk that succeeded, as mlir-opt-19 prints them
(a failed chunk leaves only its `// -----` separator), and the diagnostics
of a chunk say `within split at FILE:LINE offset :L:C` as 19's do. With
`--verify-diagnostics` the exit code is 0 iff the produced diagnostics are
exactly the expected ones; outputs of chunks without errors are printed
either way (as mlir-opt does).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass

from refimpl import rewrite
from refimpl.modes import NAMES, Mode, mode_named
from refimpl.verify_diagnostics import parse_expectations, verify
from spec.diagnostics import Diagnostic, DiagnosticError, Split, render
from spec.ir import Location
from spec.syntax.parser import parse_module, split_input
from spec.syntax.printing import join_outputs, print_op
from spec.tool import Source, chunk_split, cli_parser, read_source, run_tool, write_output


def render_all(diags: list[Diagnostic], sources: dict[str, str], split: Split | None = None) -> str:
    """MLIR's rendering; a note at its error's own location shows no source
    line (mlir-opt shows the line only where the note points elsewhere).
    `split`: the `--split-input-file` chunk they are in."""
    text = ""
    for d in diags:
        text += render(Diagnostic(d.severity, d.loc, d.message), sources, split)
        for n in d.notes:
            text += render(n, None if n.loc == d.loc else sources, split)
    return text


def _caret_render(
    file_text: dict[str, str], loc: Location, message: str, length: int, split: Split | None = None
) -> str:
    head = render(Diagnostic("error", loc, message), file_text, split)
    if length > 1 and head.endswith("^\n"):
        head = head[:-1] + "~" * (length - 1) + "\n"
    return head


PIPELINES = re.compile(r"builtin\.module\(\s*(?:func\.func\(\s*gpu-async-region\s*\)|gpu-async-region)\s*\)")
"""The pipelines that mean this pass: `gpu-async-region` is a function pass,
which mlir-opt nests under `func.func`; under `builtin.module` alone mlir-opt
nests it implicitly, so both spellings are accepted."""


def _parser(prog: str = "python -m refimpl") -> argparse.ArgumentParser:
    p = cli_parser(
        prog,
        "The reference -gpu-async-region pass, used like `mlir-opt -gpu-async-region`.",
        "{prog} {corpus}/scf_if.mlir --mode mlir19 -o out.mlir",
    )
    p.add_argument("file", nargs="?", default="-", help="input .mlir file, or - for stdin (the default)")
    p.add_argument("-gpu-async-region", "--gpu-async-region", action="store_true", help="accepted: it is the only pass")
    p.add_argument(
        "-pass-pipeline",
        "--pass-pipeline",
        metavar="PIPELINE",
        help="as mlir-opt's: only 'builtin.module(func.func(gpu-async-region))' (the pass) is accepted",
    )
    p.add_argument("-mode", "--mode", choices=NAMES, default="reference", help="reference (default), mlir19 or seed")
    p.add_argument("-o", metavar="OUT", default=None, help="output file (written only on success)")
    p.add_argument("-split-input-file", "--split-input-file", action="store_true")
    p.add_argument("-verify-diagnostics", "--verify-diagnostics", action="store_true")
    p.add_argument("-mlir-print-op-generic", "--mlir-print-op-generic", action="store_true")
    p.add_argument(
        "-allow-unregistered-dialect",
        "--allow-unregistered-dialect",
        action="store_true",
        help="ops, types and attributes of dialects mlir-opt-19 does not register are opaque, not errors",
    )
    return p


@dataclass(frozen=True)
class Options:
    """The command line, checked: every option is valid before any input is
    read, and the mode is looked up once, here."""

    file: str
    mode: Mode
    o: str | None
    split_input_file: bool
    verify_diagnostics: bool
    mlir_print_op_generic: bool
    allow_unregistered_dialect: bool


def parse_options(argv: list[str] | None, prog: str = "python -m refimpl") -> Options:
    """Parse and check `argv`; a bad option exits with code 2 and its own
    message (argparse's for unknown options and modes)."""
    parser = _parser(prog)
    args = parser.parse_args(argv)
    if args.pass_pipeline is not None:
        if args.gpu_async_region:
            # mlir-opt's rule: a pipeline and individual pass flags do not mix.
            parser.error("'-pass-pipeline' option can't be used with individual pass options")
        if not PIPELINES.fullmatch(args.pass_pipeline.strip()):
            parser.error(
                f"unknown pass pipeline '{args.pass_pipeline}': only "
                "'builtin.module(func.func(gpu-async-region))' is available"
            )
    return Options(
        file=args.file,
        mode=mode_named(args.mode),
        o=args.o,
        split_input_file=args.split_input_file,
        verify_diagnostics=args.verify_diagnostics,
        mlir_print_op_generic=args.mlir_print_op_generic,
        allow_unregistered_dialect=args.allow_unregistered_dialect,
    )


def main(argv: list[str] | None = None, prog: str = "python -m refimpl") -> int:
    args = parse_options(argv, prog)
    try:
        src: Source = read_source(args.file)
    except DiagnosticError as exc:
        sys.stderr.write(render_all(exc.diagnostics, {}))
        return 1
    sources = {src.name: src.text}
    chunks = split_input(src.text) if args.split_input_file else [(src.text, 0)]
    texts: list[str] = []
    failed = False
    errors = ""
    for chunk, offset in chunks:
        where = chunk_split(src, args.split_input_file, offset)
        diags: list[Diagnostic] = []
        try:
            module = parse_module(chunk, src.name, offset, allow_unregistered=args.allow_unregistered_dialect)
        except DiagnosticError as exc:
            diags = exc.diagnostics
        else:
            result = rewrite(module, args.mode)
            diags = result.diagnostics
        if args.verify_diagnostics:
            for m in verify(parse_expectations(chunk, src.name, offset), diags):
                failed = True
                errors += _caret_render(sources, m.loc, m.message, m.caret_len, where)
            texts.append("" if diags else print_op(module, args.mlir_print_op_generic))
        elif diags:
            failed = True
            errors += render_all(diags, sources, where)
            texts.append("")
        else:
            texts.append(print_op(module, args.mlir_print_op_generic))
    # A chunk that failed, or whose (expected) errors were verified, prints
    # nothing, not even the blank line that follows each printed module.
    output = join_outputs(texts)
    if failed and not args.verify_diagnostics:
        # As mlir-opt-19: every chunk that succeeded is still printed on
        # stdout; an `-o` file is written only on success.
        sys.stderr.write(errors)
        if args.o in (None, "-"):
            write_output(output, None)
        return 1
    write_output(output, args.o)
    # Verification problems are reported after the output, as mlir-opt does.
    sys.stderr.write(errors)
    return 1 if failed else 0


def console_main() -> None:
    """The `gpu-async-opt` console script."""
    run_tool(lambda: main(prog="gpu-async-opt"))


if __name__ == "__main__":
    run_tool(main)
