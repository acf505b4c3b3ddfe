"""The op shapes the fast path reads (`spec.syntax.fast_path`), as regexes.

Each shape is one compiled pattern that reads a whole one-line op after its
name, every token spelt as the grammar's terminal would match it
(`grammar.lark`: whole words for keywords, the `SIMPLE_TYPE` lookahead,
greedy value names), followed by a look at what comes next (`NEXT`): only
another op's start, the end of a block or region, or the end of the text.
Kept apart from the builder of the IR (`fast_path.FastPath`) because the
two change for different reasons: these with the grammar's terminals, that
with the rules' callbacks it stands in for.
"""

from __future__ import annotations

import re
from typing import Any

# -- the grammar's terminals, as the shapes spell them -----------------------
# Blanks inside an op: no newline (the op stays on its line, so the loop's
# line count needs no update) and no comment.
B = r"[ \t]*"
END_WORD = r"(?![\w$.])"
"""After a keyword or a bare word: lark's lexer reads the longest word, so
`asyncx` or `blocksin` is another token, not the keyword."""
VALUE = r"%[A-Za-z0-9_$.\-]++(?:#[0-9]++)?"
"""`VALUE_ID`, greedy as the lexer's: possessive, so that a match never
gives characters back to what follows."""
V = f"({VALUE})"
ELEMENT = r"(?:f16|f32|f64|bf16|index|i[1-9][0-9]*)"
TYPE = rf"(memref<(?:(?:[0-9]+|\?)x)*{ELEMENT}>|(?:index|bf16|f16|f32|f64|[su]?i[1-9][0-9]*){END_WORD})"
"""A `SHAPED_TYPE` memref of a plain element type without layout, or a
`SIMPLE_TYPE` (with its lookahead)."""
TYPE_NC = rf"(?:memref<(?:(?:[0-9]+|\?)x)*{ELEMENT}>|(?:index|bf16|f16|f32|f64|[su]?i[1-9][0-9]*){END_WORD})"
"""`TYPE` without its group, inside the lists of a shape."""
TOKEN_NC = r"(?:!gpu\.async\.token|!async\.token)(?![\w$.<])"
"""The two token types, each spelt out whole (no alias, no `!async.value<...>`)."""
TYPES_NC = rf"(?:{TYPE_NC}|{TOKEN_NC})(?:{B},{B}(?:{TYPE_NC}|{TOKEN_NC}))*"
"""A non-empty `type_list` of those types and tokens, read again type by type (`ANY_TYPE_RE`)."""
SIMPLE = rf"((?:index|bf16|f16|f32|f64|[su]?i[1-9][0-9]*){END_WORD})"
SYMBOL = r"(@[A-Za-z_$.][\w$.\-]*+)"
"""A symbol reference, possessive as `VALUE`: the lexer reads `@kblocks` as
one symbol, never as `@k` and the keyword `blocks`."""
LIST = rf"((?:{VALUE}(?:{B},{B}{VALUE})*)?)"
"""A possibly empty value list, read again value by value (`_uses`)."""
DEPS = rf"(?:{B}(async){END_WORD})?(?:{B}\[{B}{LIST}{B}(\]))?"
"""`async_deps`: groups async, the list, and the `]` (set when the brackets are there)."""

VALUE_RE = re.compile(VALUE)
ARG_RE = re.compile(rf"({VALUE}){B}:{B}{TYPE}")
HEAD = re.compile(rf"((?:{B},{B}{VALUE})*){B}={B}([A-Za-z_][\w$.]*)")
"""After a result name: more names, `=`, the op name (read as the lexer
reads a name: the longest word)."""
head = HEAD.match
NEXT = re.compile(r"(?:[ \t\f\r\n]++|//[^\n]*+)*+(?:[%}^\"]|[A-Za-z_][\w$]*\.|(?:call|return)(?![\w$.])|\Z)")
"""What may follow an op read here: the next op, the end of its block or
region, or the end of the text (not a `loc(...)`, an attr-dict, ...)."""

NAMES = frozenset({"BARE_ID", "CUSTOM_OP_NAME"})

ARITH_BINARY = frozenset(
    "addi subi muli shli divsi divui remsi remui andi ori xori maxsi minsi maxui minui shrsi shrui "
    "ceildivsi floordivsi addf subf mulf divf remf maximumf minimumf maxnumf minnumf".split()
)
"""The ops of grammar.lark's `arith_binary` keyword rule."""


def _shape(body: str) -> Any:
    # The op, then a look at what follows it (`NEXT`), in one match.
    return re.compile(f"{body}(?={NEXT.pattern})").match


BINARY = _shape(rf"{B}{V}{B},{B}{V}{B}:{B}{TYPE}")
CMP = _shape(rf"{B}([A-Za-z_][\w$.]*){B},{B}{V}{B},{B}{V}{B}:{B}{TYPE}")
CONSTANT = _shape(rf"{B}(-?[0-9]+)(?![0-9.xX]){B}:{B}{SIMPLE}")
LOAD = _shape(rf"{B}{V}{B}\[{B}{LIST}{B}\]{B}:{B}{TYPE}")
STORE = _shape(rf"{B}{V}{B},{B}{V}{B}\[{B}{LIST}{B}\]{B}:{B}{TYPE}")
DIM = _shape(rf"{B}{V}{B},{B}{V}{B}:{B}{TYPE}")
COPY = _shape(rf"{DEPS}{B}{V}{B},{B}{V}{B}:{B}{TYPE}{B},{B}{TYPE}")
WAIT = _shape(DEPS)
ALLOC = _shape(rf"{DEPS}{B}\({B}\){B}:{B}{TYPE}")
DEALLOC = _shape(rf"{DEPS}{B}{V}{B}:{B}{TYPE}")
TRIPLE = rf"\({B}{V}{B},{B}{V}{B},{B}{V}{B}\)"
LAUNCH = _shape(
    rf"{DEPS}{B}{SYMBOL}(?:{B}::{B}{SYMBOL})?"
    rf"{B}blocks{END_WORD}{B}in{END_WORD}{B}{TRIPLE}"
    rf"{B}threads{END_WORD}{B}in{END_WORD}{B}{TRIPLE}"
    rf"(?:{B}args{B}(\(){B}((?:{VALUE}{B}:{B}{TYPE_NC}(?:{B},{B}{VALUE}{B}:{B}{TYPE_NC})*)?){B}\))?"
)
CALL = _shape(
    rf"{B}{SYMBOL}{B}\({B}{LIST}{B}\){B}:{B}\({B}((?:{TYPE_NC}(?:{B},{B}{TYPE_NC})*)?){B}\){B}->{B}(?:\({B}\)|{TYPE})"
)
TYPES_RE = re.compile(TYPE)
ANY_TYPE_RE = re.compile(rf"{TYPE_NC}|{TOKEN_NC}")
LINE_ENDS = r"(?=[ \t]*(?:[\r\n}]|//|\Z))"
"""Nothing more on the op's line: where an op's operands are optional and
absent, what follows is not one of them (a value the shape's types did not
cover)."""
RETURN_LIKE = _shape(rf"(?:{B}{LIST}{B}:{B}({TYPES_NC})|{LINE_ENDS})")
"""`scf.yield`, `async.yield`: values and their types, or nothing."""
CONDITION = _shape(rf"{B}\({B}{V}{B}\)(?:{B}{LIST}{B}:{B}({TYPES_NC})|{LINE_ENDS})")
AWAIT = _shape(rf"{B}{V}{B}:{B}(!async\.token)(?![\w$.<])")
"""`async.await` of a token (no result)."""
