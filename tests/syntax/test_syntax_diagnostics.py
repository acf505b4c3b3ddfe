"""The parser's semantic checks and syntax errors, as MLIR diagnostics.

Each case gives an input, the exact diagnostic we report (line, column,
message, and notes), and whether mlir-opt-19 reports the same first error
byte for byte. Where it does, the differential test checks that against the
real binary (skipped without it); where it does not (lark's LALR errors name
what it expected, MLIR's recursive-descent parser words it per construct),
the location still follows MLIR's rule: just past the previous token.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from spec.diagnostics import DiagnosticError
from spec.ir import structurally_equal
from spec.syntax.parser import parse_module, split_input
from spec.syntax.printing import print_op
from tests.mlir_tools import MLIR_OPT_19, needs_mlir19

# Some inputs use ops of unregistered dialects; mlir-opt-19 reads them with
# --allow-unregistered-dialect, and so does every parse here (`allow_unregistered=True`).

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Case:
    name: str
    text: str
    line: int
    col: int
    message: str
    notes: tuple[tuple[int, int, str], ...] = ()
    same_as_mlir: bool = True
    """mlir-opt-19's first error line is `FILE:line:col: error: message`."""


CASES = [
    Case(
        "undefined_value",
        "func.func @f() {\n  %0 = arith.addi %x, %x : i32\n  return\n}\n",
        2,
        19,
        "use of undeclared SSA value name",
    ),
    Case(
        "undefined_forward",
        'func.func @f() {\n  "foo.use"(%later) : (i32) -> ()\n  return\n}\n',
        2,
        13,
        "use of undeclared SSA value name",
    ),
    Case(
        "redefined_value",
        "func.func @f(%a: i32) {\n  %x = arith.addi %a, %a : i32\n  %x = arith.addi %a, %a : i32\n  return\n}\n",
        3,
        3,
        "redefinition of SSA value '%x'",
        ((2, 3, "previously defined here"),),
    ),
    Case(
        "redefined_argument",
        "func.func @f(%a: i32) {\n  %a = arith.addi %a, %a : i32\n  return\n}\n",
        2,
        3,
        "redefinition of SSA value '%a'",
        ((1, 14, "previously defined here"),),
    ),
    Case(
        "redefined_in_nested_region",
        "func.func @f(%p: i1) {\n  %x = arith.constant 1 : i32\n  scf.if %p {\n    %x = arith.constant 2 : i32\n  }\n  return\n}\n",
        4,
        5,
        "redefinition of SSA value '%x'",
        ((2, 3, "previously defined here"),),
    ),
    Case(
        "invalid_result_number",
        'func.func @f() {\n  %0:2 = "foo.two"() : () -> (i32, i32)\n  "foo.use"(%0#2) : (i32) -> ()\n  return\n}\n',
        3,
        13,
        "reference to invalid result number",
    ),
    Case(
        "generic_too_few_operands",
        'func.func @f(%a: i32) {\n  %0 = "arith.addi"(%a) : (i32) -> i32\n  return\n}\n',
        2,
        8,
        "'arith.addi' op expected 2 operands, but found 1",
    ),
    Case(
        "generic_single_operand",
        'func.func @f(%a: memref<4xf32>) {\n  "memref.dealloc"(%a, %a) : (memref<4xf32>, memref<4xf32>) -> ()\n  return\n}\n',
        2,
        3,
        "'memref.dealloc' op requires a single operand",
    ),
    Case(
        "generic_gpu_memcpy_operands",
        'func.func @f(%a: index) {\n  "gpu.memcpy"(%a) : (index) -> ()\n  return\n}\n',
        2,
        3,
        "'gpu.memcpy' op expected 2 or more operands, but found 1",
    ),
    Case(
        "generic_segments_mismatch",
        'func.func @f(%a: index) {\n  %0 = "gpu.alloc"(%a) : (index) -> memref<?xf32>\n  return\n}\n',
        2,
        8,
        "'gpu.alloc' op operand count (1) does not match with the total size (0) specified in attribute 'operandSegmentSizes'",
    ),
    Case(
        "generic_missing_attribute",
        '"func.func"() <{function_type = () -> ()}> ({\n  "func.return"() : () -> ()\n}) : () -> ()\n',
        1,
        1,
        "'func.func' op requires attribute 'sym_name'",
    ),
    Case(
        "generic_operand_types",
        'func.func @f(%a: i32) {\n  "foo.op"(%a, %a) : (i32) -> ()\n  return\n}\n',
        2,
        3,
        "expected 2 operand types but had 1",
        same_as_mlir=False,  # mlir-opt points at the function type (2:22)
    ),
    Case(
        "function_type_for_a_value",
        "func.func @f(%m: memref<4xf32>) {\n  %c0 = arith.constant 0 : index\n  %v = memref.load %m[%c0] : () -> ()\n  return\n}\n",
        3,
        8,
        "custom op 'memref.load' invalid kind of type specified",
        same_as_mlir=False,  # mlir-opt points at the type (3:30)
    ),
    Case(
        "unknown_custom_op",
        "func.func @f() {\n  gpu.frobnicate\n  return\n}\n",
        2,
        3,
        "custom op 'gpu.frobnicate' is unknown",
    ),
    Case(
        "unknown_dialect",
        "func.func @f() {\n  %0 = foo.bar %x : i32\n  return\n}\n",
        2,
        8,
        "Dialect `foo' not found for custom op 'foo.bar' ",
    ),
    Case(
        "type_mismatch",
        "func.func @f(%a: i32) {\n  %0 = arith.addf %a, %a : f32\n  return\n}\n",
        2,
        19,
        "use of value '%a' expects different type than prior uses: 'f32' vs 'i32'",
        ((1, 14, "prior use here"),),
    ),
    Case(
        "type_mismatch_generic",
        'func.func @f(%a: i32) {\n  "foo.use"(%a) : (f32) -> ()\n  return\n}\n',
        2,
        13,
        "use of value '%a' expects different type than prior uses: 'f32' vs 'i32'",
        ((1, 14, "prior use here"),),
    ),
    Case(
        "result_count",
        "func.func @f(%a: i32) {\n  %0, %1 = arith.addi %a, %a : i32\n  return\n}\n",
        2,
        3,
        "operation defines 1 results but was provided 2 to bind",
    ),
    Case(
        "async_needs_name",
        "func.func @f() {\n  gpu.wait async\n  return\n}\n",
        2,
        12,
        "custom op 'gpu.wait' needs to be named when marked 'async'",
    ),
    Case(
        "bad_predicate",
        "func.func @f(%a: i32) {\n  %0 = arith.cmpi foo, %a, %a : i32\n  return\n}\n",
        2,
        19,
        "custom op 'arith.cmpi' expected string or keyword containing one of the following enum values for "
        "attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]",
    ),
    Case("undefined_block", "func.func @f() {\n  cf.br ^bb9\n}\n", 2, 9, "reference to an undefined block"),
    Case(
        "redefined_block",
        "func.func @f() {\n  cf.br ^bb1\n^bb1:\n  cf.br ^bb1\n^bb1:\n  return\n}\n",
        5,
        1,
        "redefinition of block '^bb1'",
    ),
    Case(
        "integer_out_of_range",
        "func.func @f() {\n  %0 = arith.constant 128 : si8\n  return\n}\n",
        2,
        23,
        "integer constant out of range for attribute",
    ),
    # Syntax errors: MLIR's location rule (past the previous token, across
    # line breaks and comments), our own wording.
    Case("eof", "func.func @f() {\n  return\n", 2, 9, "unexpected end of file", same_as_mlir=False),
    Case("bad_character", "func.func @f() {\n  return ?\n}\n", 2, 9, "unexpected character '?'", same_as_mlir=False),
    Case(
        "missing_type",
        "func.func @f(%a: i32) {\n  %0 = arith.addi %a, %a :  // no type\n  return\n}\n",
        2,
        27,
        "unexpected 'return', expected one of: type, '('",
        same_as_mlir=False,
    ),
    Case(
        "missing_attribute_value",
        'func.func @f() {\n  "foo.op"() {a = } : () -> ()\n  return\n}\n',
        2,
        18,
        "unexpected '}', expected one of: attribute, type, 'false', float, integer, '{', '(', '[', ...",
        same_as_mlir=False,
    ),
    Case(
        "generic_missing_colon",
        'func.func @f(%a: i32) {\n  "foo.op"(%a) (i32) -> ()\n}\n',
        2,
        17,
        "expected '{'",
        same_as_mlir=False,  # mlir-opt: "expected '{' to begin a region"
    ),
]


def _diagnose(text: str, file: str = "in.mlir") -> DiagnosticError:
    with pytest.raises(DiagnosticError) as info:
        for chunk, offset in split_input(text):
            parse_module(chunk, file, offset, allow_unregistered=True)
    return info.value


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_diagnostic_is_exact(case: Case) -> None:
    (diag,) = _diagnose(case.text).diagnostics
    assert (diag.severity, diag.loc.file, diag.loc.line, diag.loc.col, diag.message) == (
        "error",
        "in.mlir",
        case.line,
        case.col,
        case.message,
    )
    assert [(n.loc.line, n.loc.col, n.message) for n in diag.notes] == list(case.notes)


@needs_mlir19
@pytest.mark.parametrize("case", [c for c in CASES if c.same_as_mlir], ids=lambda c: c.name)
def test_first_error_matches_mlir_opt_19(case: Case, tmp_path: Path) -> None:
    assert MLIR_OPT_19 is not None
    path = tmp_path / "in.mlir"
    path.write_text(case.text)
    proc = subprocess.run(
        [MLIR_OPT_19, "--allow-unregistered-dialect", str(path)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 1
    first = proc.stderr.splitlines()[0]
    assert first == f"{path}:{case.line}:{case.col}: error: {case.message}"
    # Notes of parse errors come right after the source line and caret.
    theirs = [line for line in proc.stderr.splitlines() if ": note: " in line and "see current operation" not in line]
    theirs = [line for line in theirs if "Registered dialects" not in line]
    assert theirs == [f"{path}:{line}:{col}: note: {msg}" for line, col, msg in case.notes]


def test_split_keeps_original_line_numbers() -> None:
    text = "func.func @ok() {\n  return\n}\n// -----\nfunc.func @bad() {\n  %0 = arith.addi %x, %x : i32\n  return\n}\n"
    (diag,) = _diagnose(text).diagnostics
    assert (diag.loc.line, diag.loc.col) == (6, 19)


def test_split_marker_mid_line_keeps_columns() -> None:
    # mlir-opt splits on the marker anywhere in a line; the next chunk starts
    # right after it, and columns still count from the start of that line.
    (diag,) = _diagnose('"a.b"() : () -> () // ----- %0 = arith.addi %x, %x : i32\n').diagnostics
    assert (diag.loc.line, diag.loc.col, diag.message) == (1, 45, "use of undeclared SSA value name")


@pytest.mark.parametrize("text", ["", "\n\n", "// only a comment\n", "  // two\n// comments\n"])
def test_empty_input_is_an_empty_module(text: str) -> None:
    module = parse_module(text, allow_unregistered=True)
    assert module.name == "builtin.module"
    assert [op.name for op in module.regions[0].blocks[0].ops] == []
    assert print_op(module) == "module {\n}\n"
    assert structurally_equal(module, parse_module(print_op(module, generic=True), allow_unregistered=True))


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spec", "print", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )


def test_cli_renders_error_with_source_line_and_caret(tmp_path: Path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text(CASES[2].text)
    out = tmp_path / "out.mlir"
    out.write_text("keep me")
    proc = _cli(str(path), "-o", str(out))
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr == (
        f"{path}:3:3: error: redefinition of SSA value '%x'\n"
        "  %x = arith.addi %a, %a : i32\n"
        "  ^\n"
        f"{path}:2:3: note: previously defined here\n"
        "  %x = arith.addi %a, %a : i32\n"
        "  ^\n"
    )
    assert out.read_text() == "keep me"


def test_cli_empty_stdin_prints_an_empty_module() -> None:
    proc = _cli("-", stdin="")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "module {\n}\n\n", "")


@needs_mlir19
@pytest.mark.parametrize("text", ["", "// -----", "\n// -----\n", "func.func @a() {\n  return\n}\n// -----\n"])
def test_split_input_edge_cases_match_mlir_opt_19(text: str, tmp_path: Path) -> None:
    """Empty files and splits print exactly what mlir-opt-19 prints (an
    empty file prints nothing at all with `--split-input-file`)."""
    assert MLIR_OPT_19 is not None
    path = tmp_path / "in.mlir"
    path.write_text(text)
    theirs = subprocess.run([MLIR_OPT_19, "--split-input-file", str(path)], capture_output=True, text=True, timeout=60)
    ours = _cli("--split-input-file", str(path))
    assert ours.returncode == theirs.returncode
    assert ours.stdout == theirs.stdout
