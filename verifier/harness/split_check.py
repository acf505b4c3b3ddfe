"""`check --split-input-file`: every `// -----` chunk of INPUT checked on its own.

As `mlir-opt --split-input-file` treats a test file, INPUT is split where a
line holds `// -----` (`spec.syntax.parser.split_input`, the splitter the
refimpl and `spec print` use), and so is the rewrite: the file given with
`--after`, or what the implementation prints for the whole of INPUT (the
refimpl is run with `--split-input-file`; an `--impl` command is run as
given, so it should split too, e.g. `"mlir-opt-19 -gpu-async-region
--split-input-file"`). Chunk k of the rewrite is checked against chunk k
of INPUT, each with its own budget; diagnostics keep the file's line
numbers.

Output: each chunk's report, separated by `// -----` lines (text), or one
JSON report per line (`--format json`). Exit: the worst chunk's (refuted 1,
then unknown or inconsistent 3, then bounded 4, then 0); a chunk that does
not parse, or a rewrite with another number of chunks, is bad input (exit 2)
and nothing is printed on stdout.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from json import dumps

from spec.diagnostics import DiagnosticError, error
from spec.ir import Location, Operation
from spec.syntax.options import ParseOptions
from spec.syntax.parser import parse_module, split_input
from spec.tool import Source
from verifier import CheckOptions, check
from verifier.output.report import Report

EXIT_ORDER = (0, 4, 3, 1)
"""Exit codes from the least to the most severe verdict."""


def chunk_reports(
    src_in: Source,
    src_out: Source,
    options_for: Callable[[Operation], CheckOptions],
    parse_options: ParseOptions | None = None,
) -> list[Report]:
    """One report per chunk pair, each chunk parsed with `parse_options`
    (raises DiagnosticError on a chunk that does not parse or on chunk
    counts that differ)."""
    ins, outs = split_input(src_in.text), split_input(src_out.text)
    if len(ins) != len(outs):
        raise DiagnosticError(
            error(
                Location(src_out.name, 0, 0),
                f"the output has {len(outs)} chunk(s) and the input {len(ins)} (split on '// -----'): chunks are checked pairwise",
            )
        )
    pairs = []
    for (text_in, line_in), (text_out, line_out) in zip(ins, outs):
        pairs.append(
            (
                parse_module(text_in, src_in.name, line_in, options=parse_options),
                parse_module(text_out, src_out.name, line_out, dominance=False, options=parse_options),
            )
        )
    reports = []
    for module_in, module_out in pairs:
        report = check(module_in, module_out, options_for(module_in))
        reports.append(replace(report, input_file=src_in.name, output_file=src_out.name))
    return reports


def joined_text(reports: list[Report], sources: dict[str, str], json: bool) -> str:
    if json:
        return "".join(dumps(r.to_json()) + "\n" for r in reports)
    return "// -----\n".join(r.text(sources) for r in reports)


def exit_code(reports: list[Report]) -> int:
    return max((r.exit_code for r in reports), key=EXIT_ORDER.index, default=0)
