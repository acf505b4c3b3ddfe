"""Helpers shared by the refimpl tests: run the pass in-process and run
mlir-opt on the same text, chunk by chunk, with line numbers preserved."""

from __future__ import annotations

from pathlib import Path

from refimpl import rewrite
from refimpl.__main__ import render_all
from spec.diagnostics import DiagnosticError
from spec.syntax.parser import parse_module, split_input
from spec.syntax.printing import print_op
from verifier.harness.external import run_impl

LIT_DIR = Path(__file__).resolve().parents[1] / "lit" / "refimpl"


def chunks_of(path: Path) -> list[str]:
    """Each `// -----` chunk of a file, padded with blank lines so its line
    numbers are those of the file."""
    return ["\n" * offset + chunk for chunk, offset in split_input(path.read_text())]


def ours(text: str, name: str, mode: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `python -m refimpl --mode MODE` on text."""
    try:
        # `theirs` runs mlir-opt with --allow-unregistered-dialect.
        module = parse_module(text, name, allow_unregistered=True)
    except DiagnosticError as exc:
        return 1, "", render_all(exc.diagnostics, {name: text})
    result = rewrite(module, mode)
    if result.diagnostics:
        return 1, "", render_all(result.diagnostics, {name: text})
    return 0, print_op(module) + "\n", ""


def theirs(binary: str, text: str, path: Path) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `mlir-opt -gpu-async-region` on text
    written to `path` (so diagnostics name the same file). Threading is off:
    with it, how many failing functions 19 reports depends on timing."""
    path.write_text(text)
    run = run_impl([binary, "--allow-unregistered-dialect", "--mlir-disable-threading", "-gpu-async-region"], str(path))
    assert not run.stopped, run.stopped
    return run.returncode, run.stdout.decode(), run.stderr.decode()
