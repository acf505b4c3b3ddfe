"""The fast path for common op shapes (`spec/syntax/fast_path.py`) against the
full parser.

Whatever the text, parsing it with the fast path and without it (the LALR
loop reading every token, `ParseOptions(fast_path=False)`) must end the same
way: the same IR, printed in the custom and in the generic form, with the
same location and name of every op, result, block and block argument;
or the same diagnostic, rendered. The texts: every `.mlir` file of the
repository (each `// -----` chunk, with and without unregistered dialects
allowed), generated programs (`bench/gen_programs`, mlir-opt-19's output
of them when it is installed, `verifier.programs.generators`, `verifier.programs.enumeration`),
broken variants of generated op lines (an undefined value, a wrong type, a
truncated line, a trailing location or attribute, a misspelt keyword, ...)
and the corpus mutations of the hostile-input tests.
"""

from __future__ import annotations

import functools
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark.parsers.lalr_parser import LALR_Parser

import spec.syntax.parser as parser_module
from spec.diagnostics import DiagnosticError
from spec.ir import Operation
from spec.syntax.options import ParseOptions
from spec.syntax.parser import parse_module, split_input
from spec.syntax.printing import print_op
from tests.mlir_tools import MLIR_OPT_19
from tests.support.mutations import byte_mutations, token_mutations
from verifier.programs import enumeration
from verifier.programs.generators import Features, program_texts

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from gen_programs import generate  # noqa: E402

FILES = sorted(
    p
    for p in ROOT.rglob("*.mlir")
    if not any(part.startswith(".") or part in {"build", "dist", "node_modules"} for part in p.relative_to(ROOT).parts)
)


def _shape(module: Operation) -> list[Any]:
    """Every op's name and location, its results' and its blocks' names,
    locations and types, which value each operand is (by definition
    order), and its properties and attributes in their order, compared by
    value and by class (the fast path builds ops without the rules'
    callbacks): what printing does not show."""
    number: dict[int, int] = {}
    out: list[Any] = []
    for op in module.walk():
        for v in op.results:
            number[id(v)] = len(number)
        for region in op.regions:
            for block in region.blocks:
                for a in block.args:
                    number[id(a)] = len(number)
        out.append(
            (
                op.name,
                op.loc,
                [(v.hint, v.loc, v.type) for v in op.results],
                [number.get(id(v), getattr(v, "hint", "?")) for v in op.operands],
                [[(b.label, b.loc, [(a.hint, a.loc, a.type) for a in b.args]) for b in r.blocks] for r in op.regions],
                [(k, type(a), a) for k, a in op.properties.items()],
                [(k, type(a), a) for k, a in op.attributes.items()],
                [(type(v.type), type(v.loc)) for v in op.results],
            )
        )
    return out


@contextmanager
def _counting_reparses() -> Iterator[list[int]]:
    """Count the times the fused loop gives a text to lark's own driver
    (which it does on a syntax error: a fast path that read an op wrong
    would be covered up by it, at the cost of a second parse)."""
    count = [0]
    inner = LALR_Parser.parse

    def parse(*args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return inner(*args, **kwargs)

    LALR_Parser.parse = parse  # type: ignore[method-assign]
    try:
        yield count
    finally:
        LALR_Parser.parse = inner  # type: ignore[method-assign]


@contextmanager
def _dominance_always_walked(on: bool) -> Iterator[None]:
    """With `on`, the parser walks every use for dominance, as it did before
    `resolve_ops` said when scoping alone shows it (the reference side of
    the comparison: the fast side skips the walk where it may)."""
    if not on:
        yield
        return
    inner = parser_module.resolve_ops

    def resolve(top: Any) -> bool:
        inner(top)
        return False

    parser_module.resolve_ops = resolve  # type: ignore[assignment]
    try:
        yield
    finally:
        parser_module.resolve_ops = inner


def outcome(
    text: str, fast: bool, allow_unregistered: bool = False, file: str = "in.mlir", line_offset: int = 0
) -> Any:
    """The parse of `text` with or without the fast path (and, without it,
    with every use walked for dominance): the module printed both ways with
    its `_shape`, or the rendered diagnostics. A text that parses must
    parse in one pass."""
    options = ParseOptions(allow_unregistered=allow_unregistered, fast_path=fast)
    with _dominance_always_walked(not fast), _counting_reparses() as reparses:
        try:
            module = parse_module(text, file, line_offset, options=options)
        except DiagnosticError as exc:
            return ("error", [d.render({file: text}) for d in exc.diagnostics])
    assert reparses[0] == 0, "a text that parses was parsed twice"
    # The ops written without their dialect (`call`), where their name is.
    _, builder = parser_module._lark()
    bare = [(op.name, loc, name) for op, loc, name in builder.bare_names]
    return ("ok", print_op(module), print_op(module, generic=True), _shape(module), bare)


def assert_same(text: str, allow_unregistered: bool = False, file: str = "in.mlir", line_offset: int = 0) -> Any:
    fast = outcome(text, True, allow_unregistered, file, line_offset)
    full = outcome(text, False, allow_unregistered, file, line_offset)
    assert fast == full, text[:2000]
    return fast


class Taken:
    """Counts the ops the fast path builds (its `op` wrapped)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        parser, _ = parser_module._lark()
        self.fast = parser.parser.parser.fast_path
        self.count = 0
        inner = self.fast.op

        def op(*args: Any) -> Any:
            built = inner(*args)
            self.count += built is not None
            return built

        monkeypatch.setattr(self.fast, "op", op)


@functools.lru_cache(maxsize=8)
def _mlir_opt_output(n: int, seed: int) -> str | None:
    if MLIR_OPT_19 is None:
        return None
    proc = subprocess.run(
        [MLIR_OPT_19, "-gpu-async-region", "-"], input=generate(n, seed), capture_output=True, text=True, check=True
    )
    return proc.stdout


# -- the fast path is in use, and takes the common shapes ----------------------


def test_the_fast_path_is_installed_and_switchable(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = Taken(monkeypatch)
    text = generate(20, 1)
    parse_module(text)
    assert taken.count > 40
    before = taken.count
    parse_module(text, options=ParseOptions(fast_path=False))
    assert taken.count == before


@pytest.mark.parametrize("output", [False, True], ids=["input", "mlir-opt-19 output"])
def test_almost_every_op_of_a_generated_function_takes_it(monkeypatch: pytest.MonkeyPatch, output: bool) -> None:
    text = _mlir_opt_output(2000, 0) if output else generate(2000, 0)
    if text is None:
        pytest.skip("mlir-opt-19 is not installed")
    taken = Taken(monkeypatch)
    module = parse_module(text)
    ops = sum(1 for _ in module.walk())
    # All but the module, the kernels, the functions and their terminators.
    assert taken.count >= ops - 12, (taken.count, ops)


# -- the same IR -----------------------------------------------------------------


def test_the_repository_has_mlir_files() -> None:
    names = {p.relative_to(ROOT).parts[0] for p in FILES}
    assert {"tests", "verifier", "examples"} <= names
    assert len(FILES) >= 100


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_mlir_file_parses_the_same(path: Path) -> None:
    text = path.read_text(errors="replace")
    for chunk, line_offset in split_input(text):
        for allow in (False, True):
            assert_same(chunk, allow, str(path.name), line_offset)


@pytest.mark.parametrize(("n", "seed"), [(1, 0), (10, 3), (100, 1), (1000, 2)])
def test_generated_programs_parse_the_same(n: int, seed: int) -> None:
    assert assert_same(generate(n, seed))[0] == "ok"


@pytest.mark.parametrize(("n", "seed"), [(10, 3), (100, 1), (1000, 2)])
def test_mlir_opt_outputs_parse_the_same(n: int, seed: int) -> None:
    text = _mlir_opt_output(n, seed)
    if text is None:
        pytest.skip("mlir-opt-19 is not installed")
    assert assert_same(text)[0] == "ok"


@pytest.mark.parametrize(
    "alphabet", [enumeration.TINY, enumeration.STRAIGHT, enumeration.ASYNC, enumeration.VALUES], ids=lambda a: a.name
)
def test_enumerated_programs_parse_the_same(alphabet: enumeration.Alphabet) -> None:
    programs = list(enumeration.programs_up_to(alphabet, 2))
    assert programs
    for program in programs[:150]:
        assert assert_same(program.text)[0] == "ok", program.text


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(program_texts(Features()))
def test_hypothesis_programs_parse_the_same(text: str) -> None:
    assert_same(text)


# -- the same diagnostic -----------------------------------------------------------

_OP_LINE = re.compile(r"^(\s*)(%[^=]+=\s*)?([a-z_]+\.[a-z_]+|call)\b(.*)$")


def _variants(line: str) -> list[str]:
    """Broken or unusual spellings of one op line."""
    out = [
        line[: len(line) // 2],  # truncated
        line + ' loc("x.mlir":1:1)',
        line + " {a = 1}",
        line + " // a comment",
        line + " %extra",
        line + ",",
        line.replace(" : ", " : i32, ", 1),
        line.replace("index", "i32"),
        line.replace("f32>", "f64>", 1),
        line.replace("memref<1024xf32>", "memref<1024 x f32>", 1),
        line.replace("async", "asyn", 1),
        line.replace("async", "async async", 1),
        line.replace("blocks", "block", 1),
        line.replace(" in ", " in", 1),
        line.replace("(", "( ", 1).replace(")", " )", 1),
        line.replace(", ", ",", 2),
        line.replace("[", "[%nowhere, ", 1),
        line.replace("ult", "unknownpred", 1),
        line.replace("@kernels::@", "@", 1),
        line.replace("@host_effect", "@nowhere", 1),
        line.replace(" = ", " = arith.addi %c0, %c0 : index\n", 1),
        line.replace(" = ", ", %second = ", 1),
        line.replace(" = ", ":2 = ", 1),
        line.replace("arith.", "arith.x", 1),
        line.replace("gpu.", "gpu.x", 1),
        line.replace("memref.", "memref.x", 1),
    ]
    m = _OP_LINE.match(line)
    if m is not None and m.group(4):
        ops = re.findall(r"%[\w$.\-]+", m.group(4))
        if ops:
            out.append(line.replace(ops[-1], "%undefined", 1))
            out.append(line.replace(ops[0], ops[0] + "#1", 1))
        if m.group(2):
            out.append(line.replace(m.group(2), "%c0 = ", 1))  # a redefinition
            out.append(line.replace(m.group(2), "", 1))  # results dropped
        else:
            out.append(f"{m.group(1)}%r = {line.strip()}")  # a result where there is none
    return [v for v in out if v != line]


def _programs_to_break() -> list[tuple[str, str]]:
    texts = [("input", generate(12, 5))]
    output = _mlir_opt_output(12, 5)
    if output is not None:
        texts.append(("output", output))
    return texts


@pytest.mark.parametrize(("name", "text"), _programs_to_break(), ids=lambda x: x if len(x) < 10 else "")
def test_broken_variants_fail_the_same(name: str, text: str) -> None:
    lines = text.split("\n")
    kinds: Counter[str] = Counter()
    for i, line in enumerate(lines):
        m = _OP_LINE.match(line)
        if m is None or line.strip().startswith(("func.func", "gpu.func", "gpu.module")):
            continue
        kinds[m.group(3)] += 1
        if kinds[m.group(3)] > 3:
            continue  # three lines of each op are enough
        for variant in _variants(line):
            broken = "\n".join([*lines[:i], variant, *lines[i + 1 :]])
            assert_same(broken)
    assert len(kinds) >= 8, kinds


@pytest.mark.parametrize(
    "text",
    [
        # An op the fast path reads, then what would continue it on the next line.
        "func.func @f() {\n  %t = gpu.wait async\n  return\n}\n",
        "func.func @f() {\n  gpu.wait\n  async\n  return\n}\n",
        "func.func @f() {\n  gpu.wait\n  [%t]\n  return\n}\n",
        "func.func @f(%a: index) {\n  %b = arith.addi %a, %a : index\n  loc(unknown)\n  return\n}\n",
        "func.func @f(%a: index) {\n  %b = arith.addi %a, %a : index\n  {x}\n  return\n}\n",
        "func.func @f(%a: index) {\n  %b = arith.addi %a, %a : index // c\n  // d\n  return\n}\n",
        "func.func @f(%a: index) {\n  %b = arith.addi %a, %a : index\n  %c = arith.addi %b, %b : index}\n",
        "func.func @f(%a: index) {\n  %b = arith.addi %a, %a : index",
        "func.func @f(%a: index) {\n  %b = arith.addi %a,\n %a : index\n  return\n}\n",
        "func.func @f(%a: index) {\n  %b = arith.addi %a, %b : index\n  return\n}\n",
        "func.func @f(%a: index) {\n  %b = arith.addi %a, %c : index\n  %c = arith.addi %a, %a : index\n  return\n}\n",
        "func.func @f(%a: i32) {\n  %b = arith.addi %a, %a : index\n  return\n}\n",
        "func.func @f(%a: index) {\n  %b, %c = arith.addi %a, %a : index\n  return\n}\n",
        "func.func @f(%a: index) {\n  %b = arith.addi %a, %a : index\n  %b = arith.addi %a, %a : index\n  return\n}\n",
        "func.func @f(%a: index) {\n  %b = arith.addi %a, %a : index\n  ^bb1:\n  return\n}\n",
        "func.func @f(%a: index) {\n  %b = arith.addi %a, %a : index\n  cf.br ^bb1\n^bb1:\n  %c = arith.addi %b, %b : index\n  return\n}\n",
        "func.func @f(%a: index) {\n  %b = arith.cmpi ult, %a, %a : index\n  %c = arith.cmpi nope, %a, %a : index\n  return\n}\n",
        "func.func @f(%m: memref<4xf32>, %i: index) {\n  %v = memref.load %m[%i, %i] : memref<4xf32>\n  return\n}\n",
        "func.func @f(%m: memref<4xf32>, %i: index) {\n  %v = memref.load %m[] : memref<4xf32>\n  return\n}\n",
        "func.func @f(%m: memref<?x4xf32>, %i: index) {\n  %v = memref.load %m[%i, %i] : memref<?x4xf32>\n  memref.store %v, %m[%i, %i] : memref<?x4xf32>\n  return\n}\n",
        "func.func @f(%m: memref<4xf32>) {\n  %t = gpu.alloc () : memref<4xf32>\n  %u = gpu.dealloc async %t : memref<4xf32>\n  return\n}\n",
        "func.func @f(%m: memref<4xf32>) {\n  gpu.dealloc async %m : memref<4xf32>\n  return\n}\n",
        "func.func @f(%m: memref<4xf32>) {\n  %a, %t = gpu.alloc async () : memref<4xf32>\n  %u = gpu.memset async [%t] %a, %a : memref<4xf32>, memref<4xf32>\n  return\n}\n",
        "func.func @f() {\n  %c = arith.constant 0x10 : index\n  %d = arith.constant 1.5 : f32\n  %e = arith.constant -3 : i32\n  %g = arith.constant 3 : f32\n  return\n}\n",
        "func.func private @g(index) -> index\nfunc.func @f(%a: index) {\n  %r = call @g(%a) : (index) -> index\n  %s = func.call @g(%r) : (index) -> index\n  call @g(%a) : (index) -> ()\n  return\n}\n",
        "module {\n  %x = arith.constant 0 : index\n  %y = arith.addi %x, %x : index\n}\n",
        "%x = arith.constant 0 : index\n%y = arith.addi %x, %x : index\n",
        'func.func @f(%a: index) {\n  "test.op"() ({\n    %b = arith.addi %a, %a : index\n  }) : () -> ()\n  return\n}\n',
        "func.func @f(%a: index) {\n\t%b = arith.addi\t%a ,%a:index\n  return\n}\n",
        "func.func @f(%a: index) {\n  %b = arith.addi %a, %a : index\r\n  return\n}\n",
        "func.func @f(%a-1.x: index) {\n  %b$ = arith.addi %a-1.x, %a-1.x : index\n  return %b$ : index\n}\n",
        # Uses the fast path binds at once (a result of an earlier op of the
        # same block) and those it must not: another block, a nested region
        # (and the enclosing block after it), another type, a redefinition.
        "func.func @f(%a: index, %c: i1) {\n  %b = arith.addi %a, %a : index\n  scf.if %c {\n    %d = arith.addi %b, %b : index\n"
        "    %e = arith.addi %d, %b : index\n  }\n  %g = arith.addi %b, %b : index\n  return\n}\n",
        "func.func @f(%a: index, %c: i1) {\n  scf.if %c {\n    %d = arith.addi %a, %a : index\n  }\n  %g = arith.addi %d, %d : index\n  return\n}\n",
        "func.func @f(%a: index, %c: i1) {\n  scf.if %c {\n    %d = arith.addi %a, %a : index\n  } else {\n    %d = arith.addi %a, %a : index\n"
        "    %e = arith.addi %d, %d : index\n  }\n  return\n}\n",
        "func.func @f(%a: index) {\n  %b = arith.addi %a, %a : index\n  %c = arith.addi %b, %b : i32\n  return\n}\n",
        "func.func @f(%a: index) {\n  %b = arith.addi %a, %a : index\n  %b = arith.addi %b, %b : index\n  %c = arith.addi %b, %b : index\n  return\n}\n",
        "func.func @f(%a: index) {\n  %b = arith.addi %a, %a : index\n  cf.br ^bb1\n^bb1:\n  %c = arith.addi %b, %b : index\n"
        "  cf.br ^bb2\n^bb2:\n  %b = arith.addi %c, %c : index\n  return\n}\n",
        "func.func @f(%a: index) {\n  %b = arith.addi %a, %a : index\n  %c = arith.addi %b#0, %b#1 : index\n  return\n}\n",
        "func.func @f(%m: memref<4xf32>) {\n  %c = arith.constant 0 : index\n  %v = memref.load %m[%c] : memref<4xf32>\n"
        "  memref.store %v, %m[%c] : memref<4xf32>\n  %w = memref.load %m[%v] : memref<4xf32>\n  return\n}\n",
        "func.func private @g(index, f32) -> index\nfunc.func @f(%m: memref<4xf32>) {\n  %c = arith.constant 0 : index\n"
        "  %v = memref.load %m[%c] : memref<4xf32>\n  %r = call @g(%c, %v) : (index, f32) -> index\n  %s = call @g(%v, %c) : (index, f32) -> index\n"
        "  %t = call @g(%c) : (index, f32) -> index\n  return\n}\n",
        "gpu.module @k {\n  gpu.func @g(%x: memref<4xf32>) kernel {\n    gpu.return\n  }\n}\nfunc.func @f(%m: memref<4xf32>) {\n"
        "  %c = arith.constant 1 : index\n  %t = gpu.wait async\n  %u = gpu.launch_func async [%t] @k::@g blocks in (%c, %c, %c) threads in (%c, %c, %c)"
        " args(%m : memref<4xf32>)\n  %a, %w = gpu.alloc async [%u] () : memref<4xf32>\n"
        "  %z = gpu.launch_func async [%w] @k::@g blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%a : memref<4xf32>)\n"
        "  %y = gpu.launch_func async [%z] @k::@g blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%c : memref<4xf32>)\n"
        "  gpu.wait [%y]\n  return\n}\n",
        # A symbol runs on into the keyword after it (`@gblocks`): the lexer
        # reads one symbol, so the op is an error, not `@g blocks`.
        "gpu.module @k {\n  gpu.func @g() kernel {\n    gpu.return\n  }\n}\nfunc.func @f() {\n  %c = arith.constant 1 : index\n"
        "  gpu.launch_func @k::@gblocks in (%c, %c, %c) threads in (%c, %c, %c)\n  return\n}\n",
        "gpu.module @k {\n  gpu.func @g() kernel {\n    gpu.return\n  }\n}\nfunc.func @f() {\n  %c = arith.constant 1 : index\n"
        "  gpu.launch_func @kblocks in (%c, %c, %c) threads in (%c, %c, %c)\n  return\n}\n",
        "func.func private @g(index) -> index\nfunc.func @f(%a: index) {\n  %r = call @g(%a)(%a) : (index) -> index\n  return\n}\n",
    ],
)
def test_edge_cases_end_the_same(text: str) -> None:
    assert_same(text)
    assert_same(text, allow_unregistered=True)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(byte_mutations(), token_mutations()))
def test_corpus_mutations_end_the_same(data: bytes) -> None:
    assert_same(data.decode("utf-8", errors="replace"))
