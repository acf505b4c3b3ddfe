"""Where an op may stand and which names and types a dialect has.

Inputs the long fuzz run found accepted (and printed in a form that did not
parse again) while mlir-opt-19 rejects them: a terminator outside the op it
belongs to (`HasParent`), a misspelled op of a dialect that allows no
unknown ops, an unknown `!gpu.` or `!async.` type. Each gets mlir-opt-19's
first line, location included (compared with mlir-opt-19 itself when it is
installed), and exit code 1 from `python -m spec print`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from spec import registry
from spec.diagnostics import DiagnosticError
from spec.syntax.parser import parse_module
from tests.mlir_tools import MLIR_OPT_19

ROOT = Path(__file__).resolve().parent.parent


def _fn(body: str, arg: str = "") -> str:
    return f"func.func @f({arg}) {{\n{body}}}\n"


CASES = {
    "module-end-at-top": ('"gpu.module_end"() : () -> ()\n', "1:1: error: 'gpu.module_end' op expects parent op 'gpu.module'"),
    "return-at-top": ('"func.return"() : () -> ()\n', "1:1: error: 'func.return' op expects parent op 'func.func'"),
    "return-in-gpu-module": ('gpu.module @m {\n  "func.return"() : () -> ()\n}\n', "2:3: error: 'func.return' op expects parent op 'func.func'"),
    "gpu-return-in-func": (_fn("  gpu.return\n"), "2:3: error: 'gpu.return' op expects parent op 'gpu.func'"),
    "async-yield-in-func": (_fn('  "async.yield"() : () -> ()\n'), "2:3: error: 'async.yield' op expects parent op 'async.execute'"),
    "gpu-terminator-in-func": (_fn('  "gpu.terminator"() : () -> ()\n'), "2:3: error: 'gpu.terminator' op expects parent op 'gpu.launch'"),
    "condition-in-func": (_fn('  "scf.condition"(%c) : (i1) -> ()\n', "%c: i1"), "2:3: error: 'scf.condition' op expects parent op 'scf.while'"),
    "reduce-in-func": (_fn('  "scf.reduce"() : () -> ()\n'), "2:3: error: 'scf.reduce' op expects parent op 'scf.parallel'"),
    "reduce-return-in-func": (_fn('  "scf.reduce.return"(%c) : (i1) -> ()\n', "%c: i1"), "2:3: error: 'scf.reduce.return' op expects parent op 'scf.reduce'"),
    "yield-at-top": (
        _fn("  return\n") + '"scf.yield"() : () -> ()\n',
        "4:1: error: 'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'",
    ),
    "misspelled-scf-op": (
        _fn('  "scf.yeield"() : () -> ()\n  return\n'),
        "2:3: error: unregistered operation 'scf.yeield' found in dialect ('scf') that does not allow unknown operations",
    ),
    "unknown-cf-op": (
        _fn('  "cf.jump"() : () -> ()\n  return\n'),
        "2:3: error: unregistered operation 'cf.jump' found in dialect ('cf') that does not allow unknown operations",
    ),
    "unknown-gpu-type": (_fn("  return\n", "%a: !gpu.asyn"), "1:23: error: unknown gpu type: asyn"),
    "unknown-gpu-type-nested": (_fn("  return\n", "%a: memref<4x!gpu.asyn>"), "1:32: error: unknown gpu type: asyn"),
    "unknown-async-type": (_fn("  return\n", "%a: !async.tok"), "1:25: error: unknown  type `tok` in dialect `async`"),
    "unknown-async-type-nested": (_fn("  return\n", "%a: !async.value<!gpu.asy>"), "1:36: error: unknown gpu type: asy"),
}

ACCEPTED = {
    "known-gpu-types": _fn("  return\n", "%a: !gpu.async.token, %b: !gpu.sparse.spmat_handle, %c: !gpu.mma_matrix<16x16xf16, \"AOp\">"),
    "known-async-types": _fn("  return\n", "%a: !async.token, %b: !async.group, %c: !async.value<f32>, %d: !async.coro.id"),
    "other-dialects-stay-open": _fn('  "arith.fancy"() : () -> ()\n  return\n'),
}


def _first_line(text: str) -> str:
    try:
        parse_module(text, "in.mlir")
    except DiagnosticError as exc:
        return str(exc.diagnostics[0].render()).splitlines()[0]
    return "accepted"


@pytest.mark.parametrize("name", CASES)
def test_rejected_with_mlir_opt_19s_message(name: str) -> None:
    text, want = CASES[name]
    assert _first_line(text) == f"in.mlir:{want}"


@pytest.mark.parametrize("name", ACCEPTED)
def test_accepted(name: str) -> None:
    assert _first_line(ACCEPTED[name]) == "accepted"


@pytest.mark.skipif(MLIR_OPT_19 is None, reason="mlir-opt-19 not installed (apt-get install mlir-19-tools)")
@pytest.mark.parametrize("name", CASES)
def test_messages_are_mlir_opt_19s(name: str, tmp_path: Path) -> None:
    text, want = CASES[name]
    path = tmp_path / "in.mlir"
    path.write_text(text)
    proc = subprocess.run([str(MLIR_OPT_19), str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[0] == f"{path}:{want}"


@pytest.mark.skipif(MLIR_OPT_19 is None, reason="mlir-opt-19 not installed (apt-get install mlir-19-tools)")
def test_listed_dialects_are_complete_and_exact(tmp_path: Path) -> None:
    """Every name the registry lists is an op mlir-opt-19 registers (it may
    reject the bare op for other reasons, never as unregistered)."""
    names = sorted(n for ops in registry.COMPLETE_DIALECTS.values() for n in ops)
    path = tmp_path / "ops.mlir"
    for name in names:
        path.write_text(_fn(f'  "{name}"() : () -> ()\n  return\n'))
        proc = subprocess.run([str(MLIR_OPT_19), str(path)], capture_output=True, text=True, timeout=60)
        assert "unregistered operation" not in proc.stderr, name


def test_cli_exit_code_and_location(tmp_path: Path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text(CASES["misspelled-scf-op"][0])
    proc = subprocess.run([sys.executable, "-m", "spec", "print", str(path)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith(f"{path}:2:3: error: unregistered operation 'scf.yeield'")
