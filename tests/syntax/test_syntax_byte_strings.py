"""String attributes are byte strings: bytes that are not
UTF-8 (a `gpu.binary` blob) round-trip exactly and print as `mlir-opt-19`
prints them, and the lexer takes the escapes 19 takes and no others.

The inputs are this project's own. Against `mlir-opt-19` where it is
installed: same exit code, stdout and stderr, byte for byte."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec.attributes import StringAttr
from spec.syntax.parser import parse_module
from spec.syntax.printing import print_op
from spec.syntax.string_literals import BYTES, first_bad_literal, quote, unescape
from tests.mlir_tools import MLIR_OPT_19, needs_mlir19
from tests.support.against_mlir19 import REPO, each_output, ours, theirs, write_input

ALL_BYTES = bytes(range(256))
ESCAPED_ALL = "".join(f"\\{b:02X}" for b in ALL_BYTES).encode()


def _value(data: bytes) -> str:
    return data.decode(*BYTES)


# -- the value: bytes in, the same bytes out ----------------------------------------


@given(st.binary(max_size=64))
def test_quote_then_unescape_is_the_identity_on_bytes(data: bytes) -> None:
    text = quote(_value(data))
    assert text.isascii()
    assert unescape(text).encode(*BYTES) == data
    assert first_bad_literal(text) is None


def test_quote_prints_as_llvm_print_escaped_string() -> None:
    printed = quote(_value(ALL_BYTES))
    printable = "".join(chr(b) for b in range(0x20, 0x7F) if b not in (0x22, 0x5C))
    assert printable in printed.replace("\\22", "").replace("\\\\", "")
    assert "\\22" in printed and "\\\\" in printed and "\\7F" in printed and "\\FF" in printed and "\\0A" in printed
    assert quote("caf\u00e9") == '"caf\\C3\\A9"'
    assert quote('a"b\\c\n\t') == '"a\\22b\\\\c\\0A\\09"'


def test_escapes_mlir_takes() -> None:
    assert unescape('"\\n\\t\\"\\\\\\0a\\Ff"') == '\n\t"\\\n' + _value(b"\xff")


def test_a_blob_is_kept_exactly_in_the_ir() -> None:
    module = parse_module(b'func.func @f() attributes {blob = "\\FF\\00\\C3\\A9\\80"} {\n  return\n}\n'.decode())
    (func,) = module.regions[0].blocks[0].ops
    blob = func.attributes["blob"]
    assert isinstance(blob, StringAttr)
    assert blob.value.encode(*BYTES) == b"\xff\x00\xc3\xa9\x80"
    assert "\ufffd" not in print_op(module)
    assert '"\\FF\\00\\C3\\A9\\80"' in print_op(module)


@pytest.mark.parametrize(
    ("text", "pos", "message"),
    [
        ('x = "ab\\rc"', 7, "unknown escape in string literal"),
        ('x = "ab\\1"', 7, "unknown escape in string literal"),
        ('x = "ab\ny"', 7, "expected '\"' in string literal"),
        ('x = "ab', 7, "expected '\"' in string literal"),
        ('// "\\r"\nx = "\\22"', None, None),
    ],
)
def test_first_bad_literal(text: str, pos: int | None, message: str | None) -> None:
    bad = first_bad_literal(text)
    if pos is None:
        assert bad is None
    else:
        assert bad is not None and (bad.pos, bad.message) == (pos, message)


# -- against mlir-opt-19 -------------------------------------------------------------

ACCEPTED = {
    "every-byte-escaped": (
        b"module attributes {gpu.container_module} {\n"
        b'  gpu.binary @blob [#gpu.object<#nvvm.target, "' + ESCAPED_ALL + b'">]\n'
        b'  gpu.binary @named [#gpu.object<#nvvm.target<chip = "sm_70">, bin = "\\7F\\45LF\\02\\01">]\n'
        b'  func.func @f() attributes {s = "' + ESCAPED_ALL + b'"} {\n'
        b"    return\n  }\n}\n"
    ),
    "raw-bytes-in-literals-and-comments": (
        b'// a comment with \xff\xfe in it\nfunc.func @f() attributes {raw = "\xff\x80 \xe2\x82\xac \x7f\x01\t", u = "caf\xc3\xa9 \\n\\t\\"\\\\"} {\n'
        b"  return\n}\n"
    ),
    "symbol-and-assert-bytes": (
        b'func.func @"\\FF\\80x"(%c: i1) {\n  cf.assert %c, "bad \\FF\\0A byte"\n  return\n}\n'
        b'func.func @g() attributes {"key \\FF" = "v"} {\n  return\n}\n'
    ),
    "unregistered-attribute-body-kept": b'func.func @f() attributes {a = #foo<"\xff\\FF">, b = "\\\\"} {\n  return\n}\n',
    "spirv-entry-point-abi": (
        b"module attributes {gpu.container_module} {\n  gpu.module @m {\n"
        b"    gpu.func @k() kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {\n"
        b"      gpu.return\n    }\n  }\n"
        b"  func.func @f() attributes {a = #spirv.entry_point_abi<subgroup_size = 8, workgroup_size = [4,2,  1]>, "
        b"b = #spirv.entry_point_abi<>, c = #spirv.entry_point_abi<target_width = 32, workgroup_size = [0x10, true]>} {\n"
        b"    return\n  }\n}\n"
    ),
}

REFUSED = {
    "unknown-escape": b'func.func @f() attributes {a = "ab\\rc"} {\n  return\n}\n',
    "one-hex-digit": b'func.func @f() attributes {a = "ab\\1"} {\n  return\n}\n',
    "unknown-escape-in-dialect-attribute": b'func.func @f() attributes {a = #foo<"a\\r">} {\n  return\n}\n',
    "newline-in-string": b'func.func @f() attributes {a = "ab\nc"} {\n  return\n}\n',
    "raw-byte-outside-a-string": b"func.func @f() {\n  return \xff\n}\n",
    "stray-character": b"func.func @f() {\n  return ~\n}\n",
    "bad-escape-after-a-syntax-error": b'func.func @f() {\n  return %x : i32\n}\nfunc.func @g() attributes {a = "\\r"} {\n  return\n}\n',
    "bad-escape-before-a-syntax-error": b'func.func @g() attributes {a = "\\r"} {\n  return %x : i32\n}\n',
    "bad-escape-before-a-verifier-error": b'func.func @g() attributes {a = "\\r"} {\n  %0 = arith.addi %0, %0 : i32\n  return\n}\n',
    "entry-point-abi-attribute-list": b"func.func @f() attributes {a = #spirv.entry_point_abi<workgroup_size = [4 : i32]>} {\n  return\n}\n",
    "entry-point-abi-not-a-list": b"func.func @f() attributes {a = #spirv.entry_point_abi<workgroup_size = 4>} {\n  return\n}\n",
}


FIRST_ONLY = frozenset({"entry-point-abi-attribute-list", "entry-point-abi-not-a-list"})
"""Where 19 adds a second error (`failed to parse SPIRV_EntryPointABIAttr
parameter ...`) after the first, which is the one compared."""


def _same(tool: str, path: Path, *options: str, first_only: bool = False) -> None:
    mine, ref = ours(tool, path, *options), theirs(tool, path, *options)
    err, ref_err = mine.stderr.decode(*BYTES), ref.stderr.decode(*BYTES)
    if first_only:
        ref_err = "".join(ref_err.splitlines(keepends=True)[: len(err.splitlines())])
    assert (mine.returncode, err) == (ref.returncode, ref_err)
    assert mine.stdout == ref.stdout
    assert "\ufffd".encode() not in mine.stdout


@needs_mlir19
@pytest.mark.parametrize("name", sorted(ACCEPTED))
@each_output
def test_accepted_bytes_print_as_mlir_opt_19(name: str, tool: str, options: tuple[str, ...], tmp_path: Path) -> None:
    path = write_input(tmp_path, ACCEPTED[name])
    _same(tool, path, "--allow-unregistered-dialect", *options)
    assert ours(tool, path, "--allow-unregistered-dialect", *options).returncode == 0


@needs_mlir19
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_literals_as_mlir_opt_19(name: str, tmp_path: Path) -> None:
    path = write_input(tmp_path, REFUSED[name])
    _same("print", path, "--allow-unregistered-dialect", first_only=name in FIRST_ONLY)
    assert ours("print", path, "--allow-unregistered-dialect").returncode == 1


def test_the_printed_blob_parses_back_to_the_same_bytes(tmp_path: Path) -> None:
    path = write_input(tmp_path, ACCEPTED["raw-bytes-in-literals-and-comments"])
    first = ours("print", path)
    assert first.returncode == 0, first.stderr
    again = ours("print", write_input(tmp_path, first.stdout, "again.mlir"))
    assert again.returncode == 0 and again.stdout == first.stdout
    assert b'raw = "\\FF\\80 \\E2\\82\\AC \\7F\\01\\09"' in first.stdout


@needs_mlir19
def test_the_verifier_refutes_a_rewrite_that_changes_a_blob(tmp_path: Path) -> None:
    """The issue's failure: a blob printed with U+FFFD in place of a byte is
    another program; the verifier must say so, not `verified`."""
    source = (
        b'module attributes {gpu.container_module} {\n  gpu.binary @b [#gpu.object<#nvvm.target, "\\03\\02\\23\\07\\FF">]\n'
        b"  func.func @f(%m: memref<4xf32>, %c: f32) {\n    gpu.memset %m, %c : memref<4xf32>, f32\n    return\n  }\n}\n"
    )
    path = write_input(tmp_path, source)
    impl = tmp_path / "replacing.sh"
    impl.write_text(
        f'#!/bin/sh\n{MLIR_OPT_19} -gpu-async-region "$1" | sed "s/\\\\\\\\FF/\\\\\\\\EF\\\\\\\\BF\\\\\\\\BD/"\n'
    )
    impl.chmod(0o755)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    honest = subprocess.run(
        [sys.executable, "-m", "verifier", "check", str(path)], capture_output=True, text=True, timeout=300, env=env
    )
    assert honest.returncode == 0, honest.stdout + honest.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "verifier", "check", str(path), "--impl", str(impl)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "'gpu.binary' op @b has attributes different from the input's" in bad.stdout + bad.stderr
