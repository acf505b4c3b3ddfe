"""Text to IR: lark LALR over `grammar.lark`, building the IR during the parse.

The grammar's transformer (`_Builder`) runs as LALR reduces each rule, so no
parse tree is kept. It is one class made of mixins: `rules_core` (ops,
regions, values, attributes, the generic form) and one per dialect
(`spec.syntax.dialects`: `builtin`, `func`, `gpu`, `arith`, `math`, `index`,
`memref`, `vector`, `scf`, `cf`, `async_`, `llvm`, `affine`), over
`build_base`. Operands are first recorded as `UseRef`
placeholders; once the whole text is read, `resolve` binds them with MLIR's
scoping rules. Parse errors become diagnostics in `syntax_errors`; what
MLIR's op verifiers check of generic-form ops is in `op_checks`.

Custom syntax is turned into MLIR's generic model here (properties,
`operandSegmentSizes`, implicit terminators), so the generic printer and every
tool see one representation whichever form was written.
"""

from __future__ import annotations

import functools
import gc
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from lark import Lark, Token
from lark.exceptions import UnexpectedInput

from spec import registry
from spec.attributes import Attr
from spec.diagnostics import DiagnosticError, error
from spec.dialects.affine.syntax import AffineRules
from spec.dialects.arith.syntax import ArithRules
from spec.dialects.async_.syntax import AsyncRules
from spec.dialects.builtin.syntax import BuiltinRules
from spec.dialects.cf.syntax import CfRules
from spec.dialects.func.syntax import FuncRules
from spec.dialects.gpu.device_syntax import GpuDeviceRules
from spec.dialects.gpu.syntax import GpuRules
from spec.dialects.index.syntax import IndexRules
from spec.dialects.llvm.syntax import LLVMRules
from spec.dialects.math.syntax import MathRules
from spec.dialects.memref.syntax import MemrefRules
from spec.dialects.scf.syntax import ScfRules
from spec.dialects.vector.syntax import VectorRules
from spec.ir import Location, Operation, new_module
from spec.syntax.affine import AliasTable
from spec.syntax.build_base import (  # noqa: F401
    CMPF_PREDICATES,
    CMPI_PREDICATES,
    K_DYNAMIC,
    SPLIT_MARKER,
    BuilderBase,
    TokenError,
    UseRef,
)
from spec.syntax.dialect_attrs import AttrTextError
from spec.syntax.dialects import DIALECTS
from spec.syntax.fast_path import FastPath
from spec.syntax.lark_fast import COMPACT, FastContextualLexer, FusedLALRParser
from spec.syntax.options import DEFAULT_OPTIONS, ParseOptions
from spec.syntax.resolve import MAX_NESTING, check_default_dialects, resolve_ops, verify  # noqa: F401
from spec.syntax.rules_core import CoreRules
from spec.syntax.string_literals import first_bad_literal, line_col
from spec.syntax.syntax_errors import syntax_error


class _Builder(
    CoreRules,
    BuiltinRules,
    FuncRules,
    GpuRules,
    GpuDeviceRules,
    ArithRules,
    MathRules,
    IndexRules,
    MemrefRules,
    VectorRules,
    ScfRules,
    CfRules,
    AsyncRules,
    LLVMRules,
    AffineRules,
    BuilderBase,
):
    """Builds IR objects as the LALR parser reduces rules."""


_KEYWORD_FIRST: set[str] = set().union(*(d.KEYWORD_FIRST for d in DIALECTS))
"""Rules whose first child is the op keyword: it is the op's location and is
dropped from the children the callback sees."""
_NAME_FIRST: set[str] = {"generic_op"}.union(*(d.NAME_FIRST for d in DIALECTS))
"""Rules whose first child is a token naming the op: kept, and the location."""


_KEYWORD_RULES: dict[str, str] = {
    **{rule: kind for d in DIALECTS for rule, kind in d.KEYWORDS.items()},
    "bool_kw": "BOOL",
}
"""Keyword choices written as rules of string literals rather than one regex
terminal: lark's lexer prefers `BARE_ID` over a regex terminal matching the
same text (so `return` after `async.await_all %g` lexed as an identifier), but
turns a `BARE_ID` match into a string terminal when that is acceptable. Each
callback hands on the keyword as a token of the old terminal type."""


_new_str = str.__new__


def _keyword(kind: str) -> Any:
    def keyword(self: _Builder, meta: Any, items: list) -> Token:
        # `Token(kind, str(tok), tok.start_pos, tok.line, tok.column)`
        # without lark's deprecation shim in `Token.__new__` (one per
        # `arith.addi`, `call`, ... of the file).
        tok = items[0]
        value = str(tok)
        out = _new_str(Token, value)
        out.type, out.value, out.start_pos, out.line, out.column = kind, value, tok.start_pos, tok.line, tok.column
        out.end_line = out.end_column = out.end_pos = None
        return out

    return keyword


for _rule, _kind in _KEYWORD_RULES.items():
    setattr(_Builder, _rule, _keyword(_kind))


def _wrap(fn: Any, rule: str) -> Any:
    # lark's inline transformer passes only the children; give every callback
    # (meta, items) where meta is the token that locates the construct, and
    # turn any failure of a builder into a located diagnostic.
    # The shape is chosen once per rule, not per call: this runs for every
    # reduction of the parse, so each shape is one function, not two.

    def failed(self: _Builder, items: list, exc: Exception) -> DiagnosticError:
        if isinstance(exc, DiagnosticError):
            return exc
        if isinstance(exc, TokenError) and getattr(exc.tok, "line", None) is not None:
            # The token may span lines (`#spirv.target_env<` then a newline).
            text = str(exc.tok)

            def at(offset: int) -> Location:
                newline = text.rfind("\n", 0, offset)
                if newline < 0:
                    return Location(self.file, exc.tok.line + self.line_offset, exc.tok.column + offset)
                return Location(
                    self.file, exc.tok.line + self.line_offset + text.count("\n", 0, offset), offset - newline
                )

            loc = at(exc.offset)
            return DiagnosticError(
                [
                    error(loc, exc.message),
                    *(error(loc, m) for m in exc.also),
                    *(error(at(offset), m) for offset, m in exc.later),
                ]
            )
        loc = _first_location(items, self.file, self.line_offset)
        if isinstance(exc, TokenError):
            # A token already built into a value (a function type) has no
            # place of its own: the op's is the nearest.
            return DiagnosticError(
                error(loc, f"custom op '{rule.removesuffix('_op').replace('_', '.', 1)}' {exc.message}")
            )
        return DiagnosticError(error(loc, f"malformed '{rule.removesuffix('_op')}': {exc}"))

    if rule in _KEYWORD_FIRST:

        def call(self: _Builder, items: list) -> Any:
            try:
                return fn(self, items[0], items[1:])
            except Exception as exc:
                raise failed(self, items, exc) from None

    elif rule in _NAME_FIRST:

        def call(self: _Builder, items: list) -> Any:
            try:
                return fn(self, items[0], items)
            except Exception as exc:
                raise failed(self, items, exc) from None

    else:

        def call(self: _Builder, items: list) -> Any:
            try:
                for item in items:
                    if type(item) is Token:
                        return fn(self, item, items)
                return fn(self, None, items)
            except Exception as exc:
                raise failed(self, items, exc) from None

    return call


# Every rule callback of the mixins (and the keyword rules above) gets its
# wrapper on `_Builder` itself; the helpers of `BuilderBase` stay as they are.
_RULES = {
    name: fn
    for cls in reversed(_Builder.__mro__)
    if isinstance(cls, type) and issubclass(cls, BuilderBase) and cls is not BuilderBase
    for name, fn in vars(cls).items()
    if not name.startswith("_") and callable(fn) and not getattr(fn, "raw_rule", False)
}
for _name, _fn in _RULES.items():
    setattr(_Builder, _name, _wrap(_fn, _name))


_GRAMMAR = Path(__file__).with_name("grammar.lark")


_VALUE_HEAD = '"builtin.v"() {v = '


@functools.lru_cache(maxsize=1)
def _value_parser() -> tuple[Lark, _Builder]:
    """A parser of its own (the main one may be mid-parse when this runs),
    made on first use: only a target with `flags` or `link`, or a handler
    naming a target, needs it. Made once per process (the tables cost
    seconds); the settings and aliases of each use are given to its
    builder by `parse_attr_value`, so the cache never changes a result."""
    return _make_lark(fast=True)


def parse_attr_value(
    value: str, offset: int, options: ParseOptions = DEFAULT_OPTIONS, aliases: AliasTable | None = None
) -> Attr:
    """`value`, the text of one attribute inside a bigger one (a dialect
    attribute's token), as the attribute grammar reads it with `options`
    and the `#name` aliases defined so far (`aliases`; None: none); an
    error is an `AttrTextError` `offset` characters further into the
    enclosing token. Each builder hands it to `spec.syntax.dialect_attrs`
    as its `ValueParser`, with its own parse's settings and aliases."""
    # A newline is a blank here as anywhere: read as one, so that offsets
    # into the one-line wrapper stay offsets into the value.
    value = value.replace("\n", " ").replace("\r", " ")
    parser, builder = _value_parser()
    builder.options = options
    builder.aliases = aliases if aliases is not None else AliasTable()
    source = f"{_VALUE_HEAD}{value}}} : () -> ()"
    try:
        ops: list[Operation] = parser.parse(source)  # type: ignore[assignment]  # as in parse_module: the op list
    except UnexpectedInput as exc:
        diag = syntax_error(exc, "<attr>", 0, source, parser.terminals).diagnostics[0]
        raise AttrTextError(offset + max(diag.loc.col - 1 - len(_VALUE_HEAD), 0), diag.message) from None
    except DiagnosticError as exc:
        diag = exc.diagnostics[0]
        raise AttrTextError(offset + max(diag.loc.col - 1 - len(_VALUE_HEAD), 0), diag.message) from None
    if len(ops) != 1 or set(ops[0].attributes) != {"v"}:
        # The text closed the wrapper early (`[1]} ...`): not one attribute.
        raise AttrTextError(offset, "expected attribute value")
    return ops[0].attributes["v"]


@functools.lru_cache(maxsize=1)
def _lark() -> tuple[Lark, _Builder]:
    """The parser and its builder, made once per process (from lark's cache
    of its tables). Each parse sets the builder's file, options and state
    first (`parse_ops`): the cache never changes a result."""
    return _make_lark(fast=True)


def _make_lark(fast: bool) -> tuple[Lark, _Builder]:
    """The parser and its builder; `fast=False` gives lark's own lexer and
    LALR driver (the tests check the fast ones against it)."""
    builder = _Builder()
    # Nested attribute values are read with the settings and aliases of the
    # parse under way in this builder, whatever they are when it happens.
    builder.attr_value_parser = lambda value, offset: parse_attr_value(value, offset, builder.options, builder.aliases)
    plugins = {"ContextualLexer": FastContextualLexer, "LALR_Parser": FusedLALRParser} if fast else {}
    grammar = _GRAMMAR.read_text()
    if fast:
        # The fused parser caches its table in its own form
        # (`lark_fast.serialize_table`): a cache key of its own, so that
        # lark's plain parser never reads it.
        grammar += f"\n// parser cache: {COMPACT}\n"
    parser = Lark(
        grammar,
        parser="lalr",
        lexer="contextual",
        # Locations come from the tokens the callbacks see; lark's own
        # position propagation would only add work to every reduction.
        propagate_positions=False,
        maybe_placeholders=True,
        transformer=builder,
        # The LALR tables are cached in the temp dir, keyed by a hash of the
        # grammar and options: building them costs seconds per process.
        # Where no temporary directory is usable (lark would fail asking
        # for one), they are built each time instead.
        cache=_temp_dir_usable(),
        # lark's tables and callbacks, driven by one fused loop (lark_fast.py).
        _plugins=plugins,
    )
    if fast:
        # The common op shapes read whole, by this builder's callbacks.
        parser.parser.parser.fast_path = FastPath(builder)
    return parser, builder


def _temp_dir_usable() -> bool:
    """Whether `tempfile.gettempdir()` finds a writable directory (it raises
    `FileNotFoundError` when `TMPDIR`, /tmp, /var/tmp, /usr/tmp and the
    working directory all refuse a file)."""
    try:
        tempfile.gettempdir()
    except FileNotFoundError:
        return False
    return True


def load_parser() -> None:
    """Load the parser now (from lark's cache: about 0.09 s), not at the
    first parse: a process about to fork does it once for its children."""
    _lark()


def _options(options: ParseOptions | None, allow_unregistered: bool | None) -> ParseOptions:
    """`options` (default: `DEFAULT_OPTIONS`) with `allow_unregistered`
    instead of its own where that is given."""
    opts = options if options is not None else DEFAULT_OPTIONS
    if allow_unregistered is not None and allow_unregistered != opts.allow_unregistered:
        opts = replace(opts, allow_unregistered=allow_unregistered)
    return opts


def parse_ops(
    text: str,
    file: str = "<stdin>",
    line_offset: int = 0,
    allow_unregistered: bool | None = None,
    dominance: bool = True,
    *,
    options: ParseOptions | None = None,
) -> list[Operation]:
    """Parse top-level ops, resolving names; raises `DiagnosticError`.
    `options`: the parse's settings (`ParseOptions`; default: none of them
    on but the fast path); `allow_unregistered`, if given, overrides its
    `allow_unregistered`; `dominance=False` leaves SSA dominance unchecked
    (`resolve.verify`)."""
    parser, builder = _lark()
    builder.file = file
    builder.line_offset = line_offset
    builder.options = _options(options, allow_unregistered)
    builder.start_parse()
    # lark's own parser (the tests' reference) has no fast path.
    fast = getattr(parser.parser.parser, "fast_path", None)
    if fast is not None:
        fast.reset()
    # The parse allocates millions of objects and frees almost none: the
    # cyclic collector would only rescan them (25-35% of the time, and
    # superlinear), so it is paused until the IR is built.
    collecting = gc.isenabled()
    gc.disable()
    try:
        try:
            ops: list[Operation] = parser.parse(text)  # type: ignore[assignment]  # lark says a Tree; the builder's transformer makes the op list
        except UnexpectedInput as exc:
            _bad_literal_first(text, file, line_offset, getattr(exc, "pos_in_stream", None) or _token_pos(exc))
            raise syntax_error(exc, file, line_offset, text, parser.terminals) from None
        except DiagnosticError as exc:
            where = exc.diagnostics[0].loc if exc.diagnostics else None
            if where is not None and where.file == file:
                _bad_literal_first(text, file, line_offset, _offset_of(text, where.line - line_offset, where.col))
            raise
        # What mlir-opt-19 finds while parsing, then what its verifier finds
        # (`verify`: in the verifier's order, after the whole parse).
        if "\\" in text:
            # The grammar takes any escape; mlir-opt-19's lexer does not, and
            # its error comes before those of names (an undeclared value, as
            # checked against it) and of the verifier.
            _bad_literal_first(text, file, line_offset, None)
        check_default_dialects(ops, builder.bare_names, builder.generic_ops)
        # Dominance is walked only where scoping alone does not show it
        # (`resolve_ops`: forward references, regions of several blocks).
        dominated = resolve_ops(ops)
        verify(ops, builder.verify_later, dominance and not dominated)
    finally:
        if fast is not None:
            fast.reset()
        if collecting:
            gc.enable()
    return ops


def _bad_literal_first(text: str, file: str, line_offset: int, pos: int | None) -> None:
    """Raise the diagnostic of the first string literal of `text` that
    mlir-opt-19's lexer refuses, if it starts before offset `pos` (where the
    parse failed otherwise): mlir-opt-19 lexes as it parses, so the first of
    the two is its error."""
    bad = first_bad_literal(text)
    if bad is None or (pos is not None and bad.start > pos):
        return
    line, col = line_col(text, bad.pos)
    raise DiagnosticError(error(Location(file, line + line_offset, col), bad.message)) from None


def _token_pos(exc: UnexpectedInput) -> int | None:
    tok = getattr(exc, "token", None)
    return getattr(tok, "start_pos", None)


def _offset_of(text: str, line: int, col: int) -> int | None:
    """The offset of 1-based `line`, `col` in `text`, or None if there is none."""
    if line < 1:
        return None
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return None
    return start + max(col - 1, 0)


def parse_module(
    text: str,
    file: str = "<stdin>",
    line_offset: int = 0,
    allow_unregistered: bool | None = None,
    dominance: bool = True,
    *,
    options: ParseOptions | None = None,
) -> Operation:
    """Parse one module: a lone top-level `module` is the module itself;
    anything else is wrapped in an implicit `module { ... }`, as mlir-opt does.
    The arguments are `parse_ops`'s."""
    ops = parse_ops(text, file, line_offset, allow_unregistered, dominance, options=options)
    if len(ops) == 1 and registry.is_top_level(ops[0].name) and not ops[0].results:
        ops[0].parent = None
        return ops[0]
    module = new_module(Location(file, 1 + line_offset, 1))
    body = module.regions[0].blocks[0]
    for op in ops:
        body.append(op)
    return module


def split_input(text: str) -> list[tuple[str, int]]:
    """Split on `// -----` as mlir-opt-19's `--split-input-file` does: each
    chunk with the 0-based line it starts at, so diagnostics keep the
    original line numbers.

    LLVM splits on `// ---` anywhere (not only at the start of a line) and
    accepts a split when `--` and one more character other than `-` follow;
    otherwise (`// ------`, a marker at the very end) the text stays in the
    chunk. Empty chunks are dropped, and a leading empty chunk makes the next
    piece a chunk unchecked (so `// -----` alone is a chunk `--`). A chunk
    that starts mid-line is padded with blanks so columns stay right too."""
    pieces = text.split(SPLIT_MARKER[:-2])
    chunks: list[tuple[int, int]] = []
    start, end = 0, len(pieces[0])
    for piece in pieces[1:]:
        piece_start = end + len(SPLIT_MARKER) - 2
        if start == end:
            start, end = piece_start, piece_start + len(piece)
            continue
        if piece.startswith("--") and len(piece) > 2 and piece[2] != "-":
            chunks.append((start, end))
            start, end = piece_start + 2, piece_start + len(piece)
        else:
            end = piece_start + len(piece)
    if start != end:
        chunks.append((start, end))
    out: list[tuple[str, int]] = []
    for a, b in chunks:
        line = text.count("\n", 0, a)
        col = a - (text.rfind("\n", 0, a) + 1)
        out.append((" " * col + text[a:b], line))
    return out


def _first_location(obj: Any, file: str, line_offset: int) -> Location:
    stack = [obj]
    while stack:
        item = stack.pop(0)
        if isinstance(item, Token) and item.line is not None:
            return Location(file, item.line + line_offset, item.column or 1)
        if isinstance(item, (list, tuple)):
            stack[:0] = list(item)
        elif isinstance(item, UseRef):
            return item.loc
    return Location(file, 1 + line_offset, 1)
