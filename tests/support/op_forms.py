"""Checks of one op's forms against mlir-opt-19, shared by the syntax tests
that list an op per case (each test file keeps its own cases).

- `assert_round_trip`: the custom and generic prints read back to the same
  module, without 19;
- `assert_as_mlir_opt_19`: the custom and generic prints are 19's, 19's
  generic print reads back to the same module, and `--mode mlir19` rewrites
  the text as `-gpu-async-region` does;
- `waits_before`: how many `gpu.wait`s the rewrite puts before an op;
- `refusal` and `first_error_19`: our first diagnostic and 19's first error
  line, in the same `line:col: message` form;
- `printed`, `first_error` and `run19_file`: the same on a file named
  `in.mlir`, for tests that compare whole printouts and messages.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from refimpl import rewrite
from spec.diagnostics import DiagnosticError
from spec.syntax.parser import parse_module
from spec.syntax.printing import join_outputs, print_op
from tests.mlir_tools import MLIR_OPT_19


def run19(text: str, *flags: str) -> subprocess.CompletedProcess:
    """mlir-opt-19 with `flags` on `text` (the caller is marked `needs_mlir19`)."""
    assert MLIR_OPT_19 is not None
    return subprocess.run([MLIR_OPT_19, *flags, "-"], input=text, capture_output=True, text=True, timeout=120)


def assert_round_trip(text: str, lossy: bool = False) -> None:
    """Custom and generic prints read back to the same module; `lossy`: the
    custom print drops what the generic one keeps (as 19's does), so the
    generic print of the custom one is not compared."""
    module = parse_module(text)
    custom, generic = print_op(module), print_op(module, True)
    assert print_op(parse_module(custom)) == custom
    assert print_op(parse_module(generic)) == custom
    if not lossy:
        assert print_op(parse_module(custom), True) == generic


def assert_as_mlir_opt_19(text: str) -> None:
    """Printed, printed generically and rewritten as mlir-opt-19 does."""
    module = parse_module(text)
    ref = run19(text)
    assert ref.returncode == 0, ref.stderr
    assert print_op(module) + "\n" == ref.stdout
    ref_generic = run19(text, "--mlir-print-op-generic").stdout
    assert print_op(module, True) + "\n" == ref_generic
    assert print_op(parse_module(ref_generic)) + "\n" == ref.stdout
    assert_pass_as_mlir_opt_19(text)


def assert_pass_as_mlir_opt_19(text: str) -> None:
    """`--mode mlir19` rewrites `text` byte for byte as 19's pass does."""
    ref = run19(text, "-gpu-async-region")
    assert ref.returncode == 0, ref.stderr
    result = rewrite(parse_module(text), "mlir19")
    assert not result.diagnostics
    assert print_op(result.module) + "\n" == ref.stdout


def waits_before(text: str, shown: str) -> int:
    """`gpu.wait`s that `--mode mlir19`'s rewrite of `text` puts before the
    first op printed as `shown`."""
    out = print_op(rewrite(parse_module(text), "mlir19").module)
    return re.split(rf"(?<![\w.]){re.escape(shown)}(?![\w.])", out, maxsplit=1)[0].count("gpu.wait [")


def refusal(text: str) -> str:
    """Our first diagnostic on `text`, as `line:col: message`."""
    with pytest.raises(DiagnosticError) as exc:
        parse_module(text)
    d = exc.value.diagnostics[0]
    return f"{d.loc.line}:{d.loc.col}: {d.message}"


def first_error_19(text: str) -> str:
    """mlir-opt-19's first error on `text`, as `line:col: message`."""
    ref = run19(text)
    first = next(line for line in ref.stderr.splitlines() if ": error: " in line)
    return first.removeprefix("<stdin>:").replace(": error: ", ": ", 1)


def printed(text: str, generic: bool = False) -> str:
    """`text` parsed (as `in.mlir`) and printed as `mlir-opt` prints a file."""
    return join_outputs([print_op(parse_module(text, "in.mlir"), generic=generic)])


def first_error(text: str) -> str:
    """Our first diagnostic on `text` (as `in.mlir`), as `line:col: severity: message`."""
    with pytest.raises(DiagnosticError) as info:
        parse_module(text, "in.mlir")
    d = info.value.diagnostics[0]
    return f"{d.loc.line}:{d.loc.col}: {d.severity}: {d.message}"


def run19_file(text: str, tmp_path: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """mlir-opt-19 with `flags` on `text` written to `tmp_path/in.mlir`, run
    there (so its messages name `in.mlir`)."""
    assert MLIR_OPT_19 is not None
    path = tmp_path / "in.mlir"
    path.write_text(text)
    return subprocess.run([MLIR_OPT_19, *flags, path.name], capture_output=True, text=True, cwd=tmp_path, timeout=60)


def refusal_19_file(text: str, tmp_path: Path) -> str:
    """mlir-opt-19's first stderr line on `text` as `in.mlir` (which must
    fail with exit 1), without the file name: `line:col: error: message`."""
    run = run19_file(text, tmp_path)
    assert run.returncode == 1, run.stdout
    first = run.stderr.splitlines()[0]
    assert first.startswith("in.mlir:"), first
    return first.removeprefix("in.mlir:")
