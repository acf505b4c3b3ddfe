"""A fast path for the op shapes that fill large files, beside the LALR parse.

A generated 10k-GPU-op function and mlir-opt-19's output of it are about
60,000 one-line ops of a dozen shapes (`%a = arith.addi %b, %c : index`,
`memref.load`/`store`, `%t = gpu.memcpy async [%d] ...`, `call @f(...)`,
`gpu.launch_func ...`). The fused lexer+LALR loop (`lark_fast`) spends
about ten table-driven steps and ten regex matches on each; here one
compiled regex per shape reads the whole op, and the op is built by the
grammar's own rule callbacks (`_Builder.memcpy_op`, `async_deps`,
`value_use`'s `use`, `operation`, ...) with the children lark would hand
them: same IR, same value names, same line:col of every op, result and
operand.

Where it runs, and why the parse stays lark's (`FastPath.op`):

- only where the LALR parser is about to read an operation: the fused loop
  has lexed the op's first token (a result name or the op keyword) with the
  state's own lexer, done the reductions lark's table dictates for it, and
  the state has a shift on it and a goto on `operation`. The op then goes
  on the stack as that nonterminal, as if its tokens had been shifted and
  reduced one by one;
- the whole op on one line, and the next token (after blanks, newlines and
  comments) one that cannot continue it: another op's start (`%`, a dotted
  name, `call`, `return`, a generic op's `"`), `}`, `^` or the end. So
  a trailing `loc(...)`, an attr-dict or anything else these shapes do not
  spell leaves the op to the LALR loop;
- every token of a shape is matched as the grammar's terminal would match
  it (whole words for keywords, the `SIMPLE_TYPE` lookahead, greedy value
  names), else no match;
- anything a callback raises (a wrong count, an unregistered dialect, ...)
  undoes what the builder recorded for the op and hands the op to the
  LALR loop, which raises the error again in its own order: a diagnostic
  is always the full parser's.

`tests/test_syntax_fast_path.py` checks the two paths (this one off with
`enabled(False)`) give the same printed IR, generic and custom, and the
same locations of every op and value, on every `.mlir` file of the
repository and on generated programs, and the same diagnostic on broken
variants of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from lark import Token

from spec.ir import Operation

ENABLED = True
"""Whether parses take the fast path (`enabled(False)` turns it off, for the
tests' reference and for benchmarks of the LALR loop alone)."""


@contextmanager
def enabled(on: bool) -> Iterator[None]:
    """Turn the fast path on or off for the parses inside the block."""
    global ENABLED
    saved = ENABLED
    ENABLED = on
    try:
        yield
    finally:
        ENABLED = saved


_new_str = str.__new__

# -- the grammar's terminals, as the shapes spell them -----------------------
# Blanks inside an op: no newline (the op stays on its line, so the loop's
# line count needs no update) and no comment.
_B = r"[ \t]*"
_END_WORD = r"(?![\w$.])"
"""After a keyword or a bare word: lark's lexer reads the longest word, so
`asyncx` or `blocksin` is another token, not the keyword."""
_VALUE = r"%[A-Za-z0-9_$.\-]+(?:#[0-9]+)?"
"""`VALUE_ID`, greedy as the lexer's."""
_V = f"({_VALUE})"
_ELEMENT = r"(?:f16|f32|f64|bf16|index|i[1-9][0-9]*)"
_TYPE = rf"(memref<(?:(?:[0-9]+|\?)x)*{_ELEMENT}>|(?:index|bf16|f16|f32|f64|[su]?i[1-9][0-9]*){_END_WORD})"
"""A `SHAPED_TYPE` memref of a plain element type without layout, or a
`SIMPLE_TYPE` (with its lookahead)."""
_TYPE_NC = rf"(?:memref<(?:(?:[0-9]+|\?)x)*{_ELEMENT}>|(?:index|bf16|f16|f32|f64|[su]?i[1-9][0-9]*){_END_WORD})"
"""`_TYPE` without its group, inside the lists of a shape."""
_SIMPLE = rf"((?:index|bf16|f16|f32|f64|[su]?i[1-9][0-9]*){_END_WORD})"
_SYMBOL = r"(@[A-Za-z_$.][\w$.\-]*)"
_LIST = rf"((?:{_VALUE}(?:{_B},{_B}{_VALUE})*)?)"
"""A possibly empty value list, read again value by value (`_uses`)."""
_DEPS = rf"(?:{_B}(async){_END_WORD})?(?:{_B}\[{_B}{_LIST}{_B}(\]))?"
"""`async_deps`: groups async, the list, and the `]` (set when the brackets are there)."""

_VALUE_RE = re.compile(_VALUE)
_ARG_RE = re.compile(rf"({_VALUE}){_B}:{_B}{_TYPE}")
_HEAD = re.compile(rf"((?:{_B},{_B}{_VALUE})*){_B}={_B}([A-Za-z_][\w$.]*)")
"""After a result name: more names, `=`, the op name (read as the lexer
reads a name: the longest word)."""
_NEXT = re.compile(r"(?:[ \t\f\r\n]++|//[^\n]*+)*+(?:[%}^\"]|[A-Za-z_][\w$]*\.|(?:call|return)(?![\w$.])|\Z)")
"""What may follow an op read here: the next op, the end of its block or
region, or the end of the text (not a `loc(...)`, an attr-dict, ...)."""

_NAMES = frozenset({"BARE_ID", "CUSTOM_OP_NAME"})

ARITH_BINARY = frozenset(
    "addi subi muli shli divsi divui remsi remui andi ori xori maxsi minsi maxui minui shrsi shrui "
    "ceildivsi floordivsi addf subf mulf divf remf maximumf minimumf maxnumf minnumf".split()
)
"""The ops of grammar.lark's `arith_binary` keyword rule."""


def _shape(body: str) -> Any:
    # The op, then a look at what follows it (`_NEXT`), in one match.
    return re.compile(f"{body}(?={_NEXT.pattern})").match


_BINARY = _shape(rf"{_B}{_V}{_B},{_B}{_V}{_B}:{_B}{_TYPE}")
_CMP = _shape(rf"{_B}([A-Za-z_][\w$.]*){_B},{_B}{_V}{_B},{_B}{_V}{_B}:{_B}{_TYPE}")
_CONSTANT = _shape(rf"{_B}(-?[0-9]+)(?![0-9.xX]){_B}:{_B}{_SIMPLE}")
_LOAD = _shape(rf"{_B}{_V}{_B}\[{_B}{_LIST}{_B}\]{_B}:{_B}{_TYPE}")
_STORE = _shape(rf"{_B}{_V}{_B},{_B}{_V}{_B}\[{_B}{_LIST}{_B}\]{_B}:{_B}{_TYPE}")
_DIM = _shape(rf"{_B}{_V}{_B},{_B}{_V}{_B}:{_B}{_TYPE}")
_COPY = _shape(rf"{_DEPS}{_B}{_V}{_B},{_B}{_V}{_B}:{_B}{_TYPE}{_B},{_B}{_TYPE}")
_WAIT = _shape(_DEPS)
_ALLOC = _shape(rf"{_DEPS}{_B}\({_B}\){_B}:{_B}{_TYPE}")
_DEALLOC = _shape(rf"{_DEPS}{_B}{_V}{_B}:{_B}{_TYPE}")
_TRIPLE = rf"\({_B}{_V}{_B},{_B}{_V}{_B},{_B}{_V}{_B}\)"
_LAUNCH = _shape(
    rf"{_DEPS}{_B}{_SYMBOL}(?:{_B}::{_B}{_SYMBOL})?"
    rf"{_B}blocks{_END_WORD}{_B}in{_END_WORD}{_B}{_TRIPLE}"
    rf"{_B}threads{_END_WORD}{_B}in{_END_WORD}{_B}{_TRIPLE}"
    rf"(?:{_B}args{_B}(\(){_B}((?:{_VALUE}{_B}:{_B}{_TYPE_NC}(?:{_B},{_B}{_VALUE}{_B}:{_B}{_TYPE_NC})*)?){_B}\))?"
)
_CALL = _shape(rf"{_B}{_SYMBOL}{_B}\({_B}{_LIST}{_B}\){_B}:{_B}\({_B}((?:{_TYPE_NC}(?:{_B},{_B}{_TYPE_NC})*)?){_B}\){_B}->{_B}(?:\({_B}\)|{_TYPE})")
_TYPES_RE = re.compile(_TYPE)


class FastPath:
    """Reads one op of a common shape at a time, building it with the
    builder's rule callbacks (see module doc). `op` is called by the fused
    loop (`lark_fast.FusedLALRParser`) with the op's first token."""

    def __init__(self, builder: Any) -> None:
        self.builder = builder
        b = builder
        # The callbacks, bound once: `op` runs once per op of the file.
        self.use_at, self.operation, self.results, self.result_def = b.use_at, b.operation, b.results, b.result_def
        self.async_deps = b.async_deps
        self.by_name: dict[str, Callable[..., Any]] = {
            "arith.constant": self._constant,
            "arith.cmpi": self._cmp,
            "memref.load": self._load,
            "memref.store": self._store,
            "memref.dim": self._dim,
            "gpu.memcpy": self._memcpy,
            "gpu.memset": self._memset,
            "gpu.wait": self._wait,
            "gpu.alloc": self._alloc,
            "gpu.dealloc": self._dealloc,
            "gpu.launch_func": self._launch,
            "call": self._call,
            "func.call": self._call,
        }
        for name in ARITH_BINARY:
            self.by_name[f"arith.{name}"] = self._binary

    # -- the entry point ----------------------------------------------------
    def op(self, text: str, pos: int, end: int, first: Token) -> tuple[Operation, int] | None:
        """The op whose first token `first` the loop has just read (ending at
        `pos`), and where it ends; None to leave it to the LALR loop."""
        line_start = first.start_pos - first.column + 1
        if first.type == "VALUE_ID":
            head = _HEAD.match(text, pos, end)
            if head is None:
                return None
            name = head.group(2)
            build = self.by_name.get(name)
            if build is None:
                return None
            names = [first]
            if head.end(1) > head.start(1):
                names += [self._tok("VALUE_ID", m.group(), m.start(), first.line, line_start) for m in _VALUE_RE.finditer(text, head.start(1), head.end(1))]
            kw_at, pos = head.start(2), head.end(2)
        elif first.type in _NAMES:
            # A name lexed as a word, not as the op's keyword: not an op
            # this state reads as one of these shapes.
            return None
        else:
            name = first.value
            build = self.by_name.get(name)
            if build is None:
                return None
            names, kw_at = [], first.start_pos
        b = self.builder
        marks = len(b.bare_names), len(b.deferred_ops), len(b.verify_later)
        try:
            built = build(text, pos, end, name, kw_at, first.line, line_start)
            if built is None:
                return None
            partial, stop = built
            if names:
                op = self.operation([self.results([self.result_def([n]) for n in names]), partial])
            else:
                op = self.operation([partial])
        except Exception:  # noqa: BLE001 - the LALR loop raises it again, in its order
            self._undo(marks)
            return None
        return op, stop

    def _undo(self, marks: tuple[int, int, int]) -> None:
        """Forget what the builder recorded for an op the fast path gave up."""
        b = self.builder
        del b.bare_names[marks[0] :]
        del b.deferred_ops[marks[1] :]
        for key in list(b.verify_later)[marks[2] :]:
            del b.verify_later[key]

    # -- tokens and the small rules ------------------------------------------
    @staticmethod
    def _tok(kind: str, value: str, start: int, line: int, line_start: int) -> Token:
        # As the fused loop builds its tokens (no end position: no callback
        # reads it).
        tok = _new_str(Token, value)
        tok.type = kind
        tok.value = value
        tok.start_pos = start
        tok.line = line
        tok.column = start - line_start + 1
        tok.end_line = tok.end_column = tok.end_pos = None
        return tok

    def _use(self, m: re.Match, group: int, line: int, line_start: int) -> Any:
        # `value_use: VALUE_ID`, `use` of the token (`use_at`: without it).
        return self.use_at(m.group(group), line, m.start(group) - line_start + 1)

    def _uses(self, text: str, start: int, stop: int, line: int, line_start: int) -> list | None:
        # `[value_list]`: None when empty (lark's placeholder).
        if stop == start:
            return None
        if text.find(",", start, stop) < 0:
            # One value (a GPU op's one dependency, a 1-d index).
            return [self.use_at(text[start:stop], line, start - line_start + 1)]
        use_at, col = self.use_at, 1 - line_start
        return [use_at(m.group(), line, m.start() + col) for m in _VALUE_RE.finditer(text, start, stop)]

    def _type(self, m: re.Match, group: int, line: int, line_start: int) -> Token:
        value = m.group(group)
        kind = "SHAPED_TYPE" if value[0] == "m" else "SIMPLE_TYPE"
        return self._tok(kind, value, m.start(group), line, line_start)

    def _deps(self, text: str, m: re.Match, line: int, line_start: int) -> tuple:
        """`async_deps` from groups 1-3 of a shape that starts with `_DEPS`."""
        items: list = []
        if m.start(1) >= 0:
            items.append(self._tok("ASYNC_KW", "async", m.start(1), line, line_start))
        if m.start(3) >= 0:
            items.append(self._uses(text, m.start(2), m.end(2), line, line_start))
        return self.async_deps(items)

    # -- the shapes: each returns (partial op, where it ends) or None ---------
    def _binary(self, text: str, pos: int, end: int, name: str, at: int, line: int, ls: int) -> tuple | None:
        m = _BINARY(text, pos, end)
        if m is None:
            return None
        b = self.builder
        kw = b.arith_binary([self._tok("ARITH_BINARY", name, at, line, ls)])
        items = [kw, self._use(m, 1, line, ls), self._use(m, 2, line, ls), self._type(m, 3, line, ls)]
        return b.arith_binary_op(items), m.end()

    def _cmp(self, text: str, pos: int, end: int, name: str, at: int, line: int, ls: int) -> tuple | None:
        m = _CMP(text, pos, end)
        if m is None:
            return None
        b = self.builder
        kw = b.arith_cmp([self._tok("ARITH_CMP", name, at, line, ls)])
        pred = self._tok("BARE_ID", m.group(1), m.start(1), line, ls)
        items = [kw, pred, self._use(m, 2, line, ls), self._use(m, 3, line, ls), self._type(m, 4, line, ls)]
        return b.arith_cmp_op(items), m.end()

    def _constant(self, text: str, pos: int, end: int, name: str, at: int, line: int, ls: int) -> tuple | None:
        m = _CONSTANT(text, pos, end)
        if m is None:
            return None
        b = self.builder
        value = b.int_attr([self._tok("INT", m.group(1), m.start(1), line, ls), self._type(m, 2, line, ls)])
        return b.arith_constant_op([self._tok("KW_ARITH_CONSTANT", name, at, line, ls), value]), m.end()

    def _load(self, text: str, pos: int, end: int, name: str, at: int, line: int, ls: int) -> tuple | None:
        m = _LOAD(text, pos, end)
        if m is None:
            return None
        items = [
            self._tok("KW_MEMREF_LOAD", name, at, line, ls),
            self._use(m, 1, line, ls),
            self._uses(text, m.start(2), m.end(2), line, ls),
            self._type(m, 3, line, ls),
        ]
        return self.builder.memref_load_op(items), m.end()

    def _store(self, text: str, pos: int, end: int, name: str, at: int, line: int, ls: int) -> tuple | None:
        m = _STORE(text, pos, end)
        if m is None:
            return None
        items = [
            self._tok("KW_MEMREF_STORE", name, at, line, ls),
            self._use(m, 1, line, ls),
            self._use(m, 2, line, ls),
            self._uses(text, m.start(3), m.end(3), line, ls),
            self._type(m, 4, line, ls),
        ]
        return self.builder.memref_store_op(items), m.end()

    def _dim(self, text: str, pos: int, end: int, name: str, at: int, line: int, ls: int) -> tuple | None:
        m = _DIM(text, pos, end)
        if m is None:
            return None
        items = [self._tok("KW_MEMREF_DIM", name, at, line, ls), self._use(m, 1, line, ls), self._use(m, 2, line, ls), self._type(m, 3, line, ls)]
        return self.builder.memref_dim_op(items), m.end()

    def _copy_items(self, text: str, pos: int, end: int, kind: str, name: str, at: int, line: int, ls: int) -> tuple[list, int] | None:
        m = _COPY(text, pos, end)
        if m is None:
            return None
        deps = self._deps(text, m, line, ls)
        items = [
            self._tok(kind, name, at, line, ls),
            deps,
            self._use(m, 4, line, ls),
            self._use(m, 5, line, ls),
            self._type(m, 6, line, ls),
            self._type(m, 7, line, ls),
        ]
        return items, m.end()

    def _memcpy(self, text: str, pos: int, end: int, name: str, at: int, line: int, ls: int) -> tuple | None:
        got = self._copy_items(text, pos, end, "KW_GPU_MEMCPY", name, at, line, ls)
        return None if got is None else (self.builder.memcpy_op(got[0]), got[1])

    def _memset(self, text: str, pos: int, end: int, name: str, at: int, line: int, ls: int) -> tuple | None:
        got = self._copy_items(text, pos, end, "KW_GPU_MEMSET", name, at, line, ls)
        return None if got is None else (self.builder.memset_op(got[0]), got[1])

    def _wait(self, text: str, pos: int, end: int, name: str, at: int, line: int, ls: int) -> tuple | None:
        m = _WAIT(text, pos, end)
        if m is None:
            return None
        items = [self._tok("KW_GPU_WAIT", name, at, line, ls), self._deps(text, m, line, ls)]
        return self.builder.gpu_wait_op(items), m.end()

    def _alloc(self, text: str, pos: int, end: int, name: str, at: int, line: int, ls: int) -> tuple | None:
        m = _ALLOC(text, pos, end)
        if m is None:
            return None
        # `"(" [value_list] ")"` empty: lark's placeholder, None.
        items = [self._tok("KW_GPU_ALLOC", name, at, line, ls), self._deps(text, m, line, ls), None, self._type(m, 4, line, ls)]
        return self.builder.gpu_alloc_op(items), m.end()

    def _dealloc(self, text: str, pos: int, end: int, name: str, at: int, line: int, ls: int) -> tuple | None:
        m = _DEALLOC(text, pos, end)
        if m is None:
            return None
        items = [self._tok("KW_GPU_DEALLOC", name, at, line, ls), self._deps(text, m, line, ls), self._use(m, 4, line, ls), self._type(m, 5, line, ls)]
        return self.builder.gpu_dealloc_op(items), m.end()

    def _launch(self, text: str, pos: int, end: int, name: str, at: int, line: int, ls: int) -> tuple | None:
        m = _LAUNCH(text, pos, end)
        if m is None:
            return None
        b = self.builder
        tok = self._tok
        symbols = [tok("SYMBOL", m.group(g), m.start(g), line, ls) for g in (4, 5) if m.start(g) >= 0]
        items = [
            tok("KW_GPU_LAUNCH_FUNC", name, at, line, ls),
            self._deps(text, m, line, ls),
            b.symbol_ref(symbols),
            b.triple([self._use(m, g, line, ls) for g in (6, 7, 8)]),
            b.triple([self._use(m, g, line, ls) for g in (9, 10, 11)]),
        ]
        if m.start(12) >= 0:
            if m.end(13) == m.start(13):
                args: list = [None]
            else:
                args = [
                    b.launch_arg([self._use(a, 1, line, ls), self._type(a, 2, line, ls)])
                    for a in _ARG_RE.finditer(text, m.start(13), m.end(13))
                ]
            items.append(b.launch_args(args))
        return b.launch_func_op(items), m.end()

    def _call(self, text: str, pos: int, end: int, name: str, at: int, line: int, ls: int) -> tuple | None:
        m = _CALL(text, pos, end)
        if m is None:
            return None
        b = self.builder
        tok = self._tok
        kw = b.call_kw([tok("CALL" if name == "call" else "FUNC_CALL", name, at, line, ls)])
        ins = None
        if m.end(3) > m.start(3):
            ins = b.type_list([self._type(t, 1, line, ls) for t in _TYPES_RE.finditer(text, m.start(3), m.end(3))])
        result = b.fn_result([self._type(m, 4, line, ls)] if m.start(4) >= 0 else [None])
        fn = b.function_type([ins, result])
        items = [kw, tok("SYMBOL", m.group(1), m.start(1), line, ls), self._uses(text, m.start(2), m.end(2), line, ls), fn]
        return b.call_op(items), m.end()
