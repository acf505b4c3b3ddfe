"""The fused lexer+parser loop (`spec/syntax/lark_fast.py`) against lark's own.

Whatever the input, parsing through the fast loop and through lark's plain
contextual lexer and LALR driver (same grammar, same builder) must end the
same way: the same printed IR, or the same diagnostic. The inputs are the
corpus, its byte and token mutations (the hostile-input strategies), and
cases aimed at the loop's own logic: blanks and comments between tokens,
tokens inside comments, line counting, errors at the end of the text.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import spec.syntax.parser as parser_module
from spec.diagnostics import DiagnosticError
from spec.syntax.lark_fast import FastContextualLexer, FusedLALRParser
from spec.syntax.parser import parse_module
from spec.syntax.printing import print_op
from tests.support.mutations import byte_mutations, token_mutations

CORPUS = sorted((Path(__file__).parents[1] / "corpus").glob("*.mlir"))


@functools.lru_cache(maxsize=1)
def _plain() -> tuple:
    return parser_module._make_lark(fast=False)


def _outcome(text: str, fast: bool) -> str:
    """The printed module, or the rendered diagnostic."""
    original = parser_module._lark
    if not fast:
        parser_module._lark = _plain  # type: ignore[assignment]
    try:
        return "ok\n" + print_op(parse_module(text, "in.mlir"))
    except DiagnosticError as exc:
        return "error\n" + "\n".join(d.render({"in.mlir": text}) for d in exc.diagnostics)
    finally:
        parser_module._lark = original


def _same(text: str) -> None:
    assert _outcome(text, fast=True) == _outcome(text, fast=False)


def test_the_fast_loop_is_the_one_in_use() -> None:
    parser, _ = parser_module._lark()
    assert isinstance(parser.parser.lexer, FastContextualLexer)
    assert isinstance(parser.parser.parser, FusedLALRParser)
    plain, _ = _plain()
    assert not isinstance(plain.parser.lexer, FastContextualLexer)
    assert not isinstance(plain.parser.parser, FusedLALRParser)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_corpus_parses_the_same(path: Path) -> None:
    for chunk in path.read_text().split("// -----\n"):
        _same(chunk)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n\n  // only a comment\n",
        "// a comment with tokens in it: func.func @f() { %x = arith.constant 1 : index }\n",
        "// (mlir-opt prints `module {` / `}`.)\n",
        "func.func @f() {// comment right after a brace\n  return // and after an op\n}\n",
        "func.func @f() {\n\n\n  %0 = arith.constant 1 : index\n  %1 = arith.addi %0, %2 : index\n  return\n}\n",
        "func.func @f() {\n  return\n",
        "func.func @f() {\n  return\n} }",
        "func.func @f() {\n  %0 = arith.constant 1 : index\n  return\n}\n\x01",
        'func.func @f() {\n  "test.op"() {s = "multi\\nline // not a comment"} : () -> ()\n  return\n}\n',
        "func.func @f() -> index {\n  %0 = arith.constant 7 : index\n  return %0 : index\n}\n// trailing",
        "module {\n  func.func @kernel() {\n    return\n  }\n}\n",
        "func.func @f(%a: memref<\n  4xf32>) {\n  %1 = arith.addi %0, %0 : index\n  return\n}\n",
        'func.func @f() {\n  "test.op"() {c = "a\\\nb"} : () -> ()\n\t// c\n\n  %1 = arith.addi %0, %9 : index\n  return\n}\n',
    ],
    ids=[
        "empty",
        "blanks-only",
        "tokens-in-comment",
        "backquotes-in-comment",
        "comments-after-tokens",
        "undefined-value-lines",
        "unclosed-brace",
        "extra-brace",
        "control-char-at-end",
        "string-with-comment-marker",
        "trailing-comment",
        "keyword-as-symbol",
        "error-in-multi-line-type",
        "error-after-multi-line-string",
    ],
)
def test_edge_cases_parse_the_same(text: str) -> None:
    _same(text)


_FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))


@_FUZZ
@given(byte_mutations())
def test_byte_mutations_end_the_same(data: bytes) -> None:
    _same(data.decode("utf-8", errors="replace"))


@_FUZZ
@given(token_mutations())
def test_token_mutations_end_the_same(data: bytes) -> None:
    _same(data.decode("utf-8", errors="replace"))


def test_cached_table_loads_as_lark_loads_it() -> None:
    # The cached parser's table in both forms, read by `deserialize_table`
    # (the compact form the fused parser writes, and lark's own) and by
    # lark's `IntParseTable.deserialize` (lark's form): the same actions,
    # rules and states as the table the parser runs on.
    from lark.grammar import Rule
    from lark.lexer import TerminalDef
    from lark.parsers.lalr_analysis import IntParseTable
    from lark.utils import SerializeMemoizer

    from spec.syntax.lark_fast import COMPACT, deserialize_table

    lark_parser, _ = parser_module._lark()
    live = lark_parser.parser.parser._parse_table
    data, memo_json = lark_parser.memo_serialize([TerminalDef, Rule])
    compact = data["parser"]["parser"]
    assert COMPACT in compact and "states" not in compact
    memo = SerializeMemoizer.deserialize(memo_json, {"Rule": Rule, "TerminalDef": TerminalDef}, {})
    memoizer = SerializeMemoizer([TerminalDef, Rule])
    lark_form = IntParseTable.serialize(live, memoizer)
    lark_memo = SerializeMemoizer.deserialize(memoizer.serialize(), {"Rule": Rule, "TerminalDef": TerminalDef}, {})
    ours = deserialize_table(compact, memo)
    ours_from_lark_form = deserialize_table(lark_form, lark_memo)
    theirs = IntParseTable.deserialize(lark_form, lark_memo)
    assert len(ours.states) > 1000
    assert ours.states == theirs.states == ours_from_lark_form.states == live.states
    assert (ours.start_states, ours.end_states) == (theirs.start_states, theirs.end_states)
    # Rules are shared through lark's memo, not rebuilt per table entry.
    rules = {id(arg) for row in ours.states.values() for action, arg in row.values() if not isinstance(arg, int)}
    assert len(rules) <= len(lark_parser.rules)


def test_keyword_lookup_only_for_plain_strings() -> None:
    # lark's "unless" callback becomes a dict lookup only where that is the
    # same thing: every keyword a literal string without regex flags.
    from lark.lexer import PatternRE, PatternStr, Scanner, TerminalDef, UnlessCallback

    from spec.syntax.lark_fast import KeywordTable, keyword_lookup

    def unless(*terms: TerminalDef) -> UnlessCallback:
        return UnlessCallback(Scanner(list(terms), 0, re, False))

    plain = keyword_lookup(
        unless(TerminalDef("KW_A", PatternStr("gpu.wait")), TerminalDef("KW_B", PatternStr("scf.if")))
    )
    assert isinstance(plain, KeywordTable) and plain == {"gpu.wait": "KW_A", "scf.if": "KW_B"}
    assert keyword_lookup(unless(TerminalDef("KW_C", PatternStr("ret", flags=("i",))))) is None
    assert keyword_lookup(unless(TerminalDef("KW_D", PatternRE("ret+")))) is None
    assert keyword_lookup(print) is None


def test_keyword_tables_are_larks_unless_callbacks() -> None:
    # `_keyword_tables` decides as lark's `_create_unless` (which keywords a
    # regex terminal folds in, and into which terminal each turns), for the
    # lexer of every state of the grammar's table.
    from spec.syntax.lark_fast import _keyword_tables, keyword_lookup

    parser, _ = parser_module._lark()
    lexer = parser.parser.lexer
    assert isinstance(lexer, FastContextualLexer)
    for state in list(lexer.lexers.states):
        lexer.lexers[state]
    shared = list(lexer.lexers.shared.values())
    assert len(shared) > 100
    for basic in shared:
        ours = _keyword_tables(basic.terminals, basic.g_regex_flags)
        assert ours is not None
        terminals, callbacks = ours
        assert [t.name for t in terminals] == [t.name for t in basic.scanner.terminals]
        larks = {kind: keyword_lookup(cb) for kind, cb in basic.callback.items()}
        assert {k: dict(v) for k, v in callbacks.items()} == {k: dict(v) for k, v in larks.items() if v is not None}
        assert all(v is not None for v in larks.values())


def test_an_unsupported_lark_fails_loudly_with_what_to_do() -> None:
    from spec.syntax.lark_fast import SUPPORTED_LARK, check_lark_version

    for version in ("1.2.2", "1.4.0", "2.0.0", "not-a-version"):
        with pytest.raises(
            ImportError, match=r"supports lark 1\.3\.x; lark .* is installed: pip install 'lark>=1\.3,<1\.4'"
        ):
            check_lark_version(version)
    check_lark_version("1.3.1")
    assert (1, 3) in SUPPORTED_LARK


def test_the_pin_in_pyproject_is_the_supported_range() -> None:
    import tomllib
    from pathlib import Path

    from spec.syntax.lark_fast import SUPPORTED_LARK

    meta = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    pins = [d for d in meta["project"]["dependencies"] if d.startswith("lark")]
    lo, hi = SUPPORTED_LARK[0], SUPPORTED_LARK[-1]
    assert pins == [f"lark>={lo[0]}.{lo[1]},<{hi[0]}.{hi[1] + 1}"]
