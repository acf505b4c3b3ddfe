"""Hostile input to `python -m spec print`: every input gets a located MLIR
diagnostic and exit 1, or the right answer; never a traceback or a hang.

The fuzz part mutates the corpus at byte and token level and draws sentences
from the grammar itself (`hypothesis.extra.lark`); it runs in-process through
the same functions the CLI uses. `bench/fuzz.py` runs the long version.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from spec.syntax.parser import MAX_NESTING
from tests.support.hostile import answer
from tests.support.mutations import byte_mutations, token_mutations

REPO = Path(__file__).resolve().parents[2]
CORPUS = sorted((REPO / "tests" / "corpus").glob("*.mlir"))
LOCATED = re.compile(r"^[^\n:]+:\d+:\d+: error: .+", re.M)

CASES: dict[str, bytes] = {
    "binary": bytes(range(256)) * 4,
    "invalid_utf8": b"func.func @f() {\n  return \xff\xfe\n}\n",
    "nul_byte": b"func.func @f() {\x00}",
    "truncated": b"module {\n  func.func @f(%a: index) {\n    %0 = arith.addi %a,",
    "unbalanced_open": b"module {\n  func.func @f() {\n    return\n",
    "unbalanced_close": b"func.func @f() {\n  return\n}\n}\n",
    "unknown_custom_op": b"func.func @f() {\n  foo.bar %x\n  return\n}\n",
    "undefined_value": b"func.func @f() {\n  return %9 : index\n}\n",
    "redefined_value": b"func.func @f() {\n  %0 = arith.constant 1 : index\n  %0 = arith.constant 2 : index\n  return\n}\n",
    "wrong_operand_count": b'func.func @f(%a: index) {\n  %0 = "arith.addi"(%a) : (index) -> index\n  return\n}\n',
    "wrong_operand_type": b"func.func @f(%a: index, %t: !gpu.async.token) {\n  gpu.wait [%a]\n  return\n}\n",
    "out_of_range_integer": b"func.func @f() {\n  %0 = arith.constant 300 : i8\n  return\n}\n",
    "too_deep": (
        b"func.func @f() {\n"
        + b'"t.a"() ({\n' * (MAX_NESTING + 5)
        + b"}) : () -> ()\n" * (MAX_NESTING + 5)
        + b"return }\n"
    ),
}


def _run_cli(data: bytes, *extra: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "in.mlir"
    path.write_bytes(data)
    return subprocess.run(
        [sys.executable, "-m", "spec", "print", str(path), *extra],
        capture_output=True,
        text=True,
        # A diagnostic shows its source line's bytes, as mlir-opt-19's do.
        errors="surrogateescape",
        timeout=120,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_gets_a_located_diagnostic(name: str, tmp_path: Path) -> None:
    proc = _run_cli(CASES[name], tmp_path=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert LOCATED.search(proc.stderr), proc.stderr


def test_empty_file_is_an_empty_module(tmp_path: Path) -> None:
    proc = _run_cli(b"", tmp_path=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout == "module {\n}\n\n"


def test_failed_run_leaves_existing_output_untouched(tmp_path: Path) -> None:
    out = tmp_path / "out.mlir"
    out.write_text("precious\n")
    proc = _run_cli(CASES["truncated"], "-o", str(out), tmp_path=tmp_path)
    assert proc.returncode == 1
    assert out.read_text() == "precious\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".tmp-")] == []


def _check_in_process(data: bytes) -> None:
    """The contract the CLI relies on (`tests.support.hostile.answer`)."""
    answer(data)


_GRAMMAR = Lark((REPO / "spec" / "syntax" / "grammar.lark").read_text(), parser="lalr", lexer="contextual")
_SENTENCES = from_lark(
    _GRAMMAR,
    explicit={
        "SIMPLE_TYPE": st.sampled_from(["index", "i1", "i32", "f32"]),
        "COMMENT": st.just("// c"),
        "WS": st.just(" "),
    },
)

_FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


@_FUZZ
@given(byte_mutations())
def test_fuzz_byte_mutations(data: bytes) -> None:
    _check_in_process(data)


@_FUZZ
@given(token_mutations())
def test_fuzz_token_mutations(data: bytes) -> None:
    _check_in_process(data)


@_FUZZ
@given(_SENTENCES)
def test_fuzz_grammar_sentences(text: str) -> None:
    _check_in_process(text.encode())


def test_output_file_gets_ordinary_permissions(tmp_path: Path) -> None:
    out = tmp_path / "out.mlir"
    proc = _run_cli(b"func.func @f() {\n  return\n}\n", "-o", str(out), tmp_path=tmp_path)
    assert proc.returncode == 0
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask


def test_top_level_terminator_is_rejected(tmp_path: Path) -> None:
    proc = _run_cli(b"scf.yield scf.yield\n", tmp_path=tmp_path)
    assert proc.returncode == 1 and proc.stdout == ""
    # mlir-opt-19's words: the op's parent constraint fails first.
    assert (
        "in.mlir:1:1: error: 'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for" in proc.stderr
    )


def test_entry_block_types_must_match_the_signature(tmp_path: Path) -> None:
    text = (
        b'"func.func"() <{function_type = (index) -> (), sym_name = "f"}> ({\n'
        b"^bb0(%a: i32):\n"
        b'  "func.return"() : () -> ()\n'
        b"}) : () -> ()\n"
    )
    proc = _run_cli(text, tmp_path=tmp_path)
    assert proc.returncode == 1 and proc.stdout == ""
    assert "must match the type of the corresponding argument" in proc.stderr
