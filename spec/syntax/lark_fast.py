"""lark's LALR parser and contextual lexer with a faster inner loop.

The parse of a large file spends its time per token: lark's contextual lexer
matches a regex per blank run between tokens, updates a line counter per
match and builds each `Token` through a deprecation shim; its LALR driver
then looks the token up and runs the reductions, one generator step and
several attribute lookups later. Together that was about four fifths of a
parse.

This module keeps everything lark computes (the grammar's terminals, their
order and priorities, the "unless" callbacks that turn an identifier into a
keyword, the LALR tables, the rule callbacks with their child filters) and
replaces the two loops with one, `FusedLALRParser._fused`:

- one compiled pattern per lexer state (`FastContextualLexer.patterns`,
  compiled when the parse first reaches the state) that skips blanks and `//` comments before the token: one match per token,
  lines counted with `str.count` over the skipped text;
- tokens built without `Token.__new__`'s shim, and not at all for
  punctuation that every rule filters out;
- shifts and reductions over action tables (converted from lark's per state
  on first use) whose entries are the next state or the reduction's (size,
  rule name, callback).

Errors are lark's, unchanged: when the fused loop meets anything it does not
expect (a character no terminal matches, a token the state has no action
for), it stops and the text is parsed again by lark's own lexer loop and
driver, which raise the exception they always raise. A failed parse costs
two passes; a good one, one. Builder callbacks run in the same order either
way, so a diagnostic raised by a callback is the same too.

Both classes are installed through lark's `_plugins` option
(`ContextualLexer`, `LALR_Parser`); `tests/syntax/test_syntax_lark_fast.py` checks
the fused loop against lark's own on the corpus, edge cases and mutations.
"""

from __future__ import annotations

import marshal
import re
from collections.abc import Callable, Collection
from copy import copy
from typing import Any

import lark
from lark.grammar import Rule
from lark.lexer import BasicLexer, ContextualLexer, LexerState, LexerThread, Token, UnlessCallback
from lark.parse_tree_builder import ExpandSingleChild
from lark.parsers.lalr_analysis import IntParseTable, Reduce, Shift
from lark.parsers.lalr_parser import LALR_Parser, _Parser

from spec.syntax import fast_path

SUPPORTED_LARK = ((1, 3),)
"""The lark (major, minor) versions whose private tables and classes this
module drives (checked against each: the fused loop and lark's own parse the
corpus and generated text the same). `pyproject.toml` pins the same range."""


def check_lark_version(version: str) -> None:
    """Raise `ImportError` with what to do when `version` is not supported:
    lark's private interfaces change between minor versions, and a silent
    mismatch would surface as an `AttributeError` deep inside a parse."""
    try:
        major_minor = tuple(int(part) for part in version.split(".")[:2])
    except ValueError:
        major_minor = ()
    if major_minor not in SUPPORTED_LARK:
        wanted = ", ".join(f"{a}.{b}.x" for a, b in SUPPORTED_LARK)
        raise ImportError(
            f"spec.syntax.lark_fast drives lark's private parser tables and supports lark {wanted}; "
            f"lark {version} is installed: pip install 'lark>={SUPPORTED_LARK[0][0]}.{SUPPORTED_LARK[0][1]},<{SUPPORTED_LARK[-1][0]}.{SUPPORTED_LARK[-1][1] + 1}'"
        )


check_lark_version(lark.__version__)

_BLANKS = r"(?:[ \t\f\r\n]++|//[^\n]*+)*+"
"""The grammar's ignored terminals (`WS`, `COMMENT`), skipped before a token.
Possessive (Python 3.11+): a failed token match must not backtrack into a
comment and find a token inside it."""
_ONLY_BLANKS = re.compile(_BLANKS)


class _StatePattern:
    """The fast pattern of one lexer state, with lark's callbacks."""

    __slots__ = ("match", "callback", "multiline")

    def __init__(self, lexer: BasicLexer) -> None:
        unless = (
            None if lexer.user_callbacks or lexer.use_bytes else _keyword_tables(lexer.terminals, lexer.g_regex_flags)
        )
        if unless is None:
            scanner = lexer.scanner  # builds lark's "unless" callbacks too
            terminals = scanner.terminals
            callbacks: dict[str, Any] = {kind: keyword_lookup(cb) or cb for kind, cb in lexer.callback.items()}
        else:
            terminals, callbacks = unless
        terms = [t for t in terminals if t.name not in lexer.ignore_types]
        body = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terms)
        self.match = re.compile(f"{_BLANKS}(?:{body})", lexer.g_regex_flags).match
        self.callback = callbacks
        self.multiline = frozenset(lexer.newline_types)


_WHOLE_MATCHES: dict[tuple[str, str, int], bool] = {}
"""(a regex terminal's pattern, a keyword, flags) -> whether the pattern
matches the whole keyword: what lark's `_create_unless` asks, once per
lexer state, for every pair of the state's terminals."""


def _keyword_tables(terminals: Collection[Any], flags: int) -> tuple[list, dict[str, Any]] | None:
    """lark's `_create_unless` for one lexer state, as `KeywordTable`s: the
    terminals left once keywords a regex terminal matches whole are folded
    into it, and per regex terminal the table that turns such a match into
    its keyword. The same decisions as lark's (a string terminal of the
    same priority whose text the regex matches whole; folded when its
    flags are among the regex's), with each match asked once per process
    rather than once per state, and without compiling the scanners lark
    would build and the fused loop never uses. None where a keyword has
    flags (then `keyword_lookup` does not apply: lark's own way)."""
    strings = [t for t in terminals if t.pattern.type == "str"]
    if any(t.pattern.flags for t in strings):
        return None
    folded: set[str] = set()
    callbacks: dict[str, Any] = {}
    for retok in terminals:
        if retok.pattern.type != "re":
            continue
        regexp = retok.pattern.to_regexp()
        table = KeywordTable()
        for strtok in strings:
            if strtok.priority != retok.priority:
                continue
            word = strtok.pattern.value
            key = (regexp, word, flags)
            whole = _WHOLE_MATCHES.get(key)
            if whole is None:
                m = re.match(regexp, word, flags)
                whole = _WHOLE_MATCHES[key] = m is not None and m.group(0) == word
            if whole:
                # lark's `UnlessCallback` takes the first keyword in its
                # scanner's order, the terminals' order: keep the first.
                table.setdefault(word, strtok.name)
                folded.add(strtok.name)  # no flags: always among the regex's
        if table:
            callbacks[retok.name] = table
    return [t for t in terminals if t.name not in folded], callbacks


class KeywordTable(dict):
    """lark's "unless" callback where every keyword is a plain string: the
    token's text looked up, not matched against an alternation of them."""

    def __call__(self, tok: Token) -> Token:
        kind = self.get(tok.value)
        if kind is not None:
            tok.type = kind
        return tok


def keyword_lookup(callback: Any) -> KeywordTable | None:
    # `UnlessCallback` turns a token into the first string terminal its
    # whole text matches; with literal strings and no regex flags that is
    # the terminal whose string equals the text.
    if type(callback) is not UnlessCallback:
        return None
    terminals = callback.scanner.terminals
    if any(t.pattern.type != "str" or t.pattern.flags for t in terminals):
        return None
    return KeywordTable((t.pattern.value, t.name) for t in terminals)


class FastContextualLexer(ContextualLexer):
    """lark's contextual lexer, one regex match per token (see module doc)."""

    def __init__(self, conf: Any, states: dict, always_accept: Any = ()) -> None:
        if set(conf.ignore) - {"WS", "COMMENT"}:
            raise ValueError(f"the fast lexer skips WS and COMMENT only, the grammar ignores {sorted(conf.ignore)}")
        # lark's own makes the root lexer and one lexer per distinct set of
        # acceptable terminals (189 sets here) at once; `_Lexers` makes them
        # as lark does, the first time the parse reaches a state.
        super().__init__(conf, {}, always_accept)
        self.lexers = _Lexers(self.BasicLexer, conf, states, always_accept)
        self.patterns = _Patterns(self.lexers)


class _Lexers(dict):
    """State -> lark's `BasicLexer` for the terminals the state accepts (plus
    the ignored ones), made on first use and shared by states with the same
    set, as `ContextualLexer.__init__` makes them."""

    def __init__(self, basic: Any, conf: Any, states: dict, always_accept: Any) -> None:
        super().__init__()
        self.basic, self.states = basic, states
        self.extra = set(conf.ignore) | set(always_accept)
        self.conf = copy(conf)
        self.conf.terminals = list(conf.terminals)
        self.shared: dict[frozenset[str], Any] = {}

    def __missing__(self, state: int) -> Any:
        accepts = self.states[state]  # KeyError for a state the table lacks, as lark's dict
        key = frozenset(accepts)
        lexer = self.shared.get(key)
        if lexer is None:
            conf = copy(self.conf)
            by_name = conf.terminals_by_name
            conf.terminals = [by_name[n] for n in set(accepts) | self.extra if n in by_name]
            lexer = self.shared[key] = self.basic(conf, None)
        self[state] = lexer
        return lexer


class _Patterns(dict):
    """State -> its `_StatePattern`, compiled on first use (states sharing a
    terminal set share one): a small file reaches few states, and compiling
    all of them would cost a short run more than its parse."""

    def __init__(self, lexers: dict[int, Any]) -> None:
        super().__init__()
        self.lexers = lexers
        self.shared: dict[int, _StatePattern] = {}

    def __missing__(self, state: int) -> _StatePattern:
        lexer = self.lexers[state]
        pattern = self.shared.get(id(lexer))
        if pattern is None:
            pattern = self.shared[id(lexer)] = _StatePattern(lexer)
        self[state] = pattern
        return pattern


_LAZY: Any = object()
"""`FusedLALRParser._fused`'s token not built yet."""


_token = fast_path.make_token


def _early_reduction(actions: Any, op_state: int) -> Any:
    """The callback of `op_list: op_list operation` when the fused loop may
    reduce it as soon as the fast path has put an operation after a
    block's `op_list` (the operation's goto being `op_state`), before the
    next token is lexed; else False.

    It may when every action of `op_state` is that one reduction, done
    whatever the next token is: the loop then lexes the next token as
    `op_state` would (its lexer), refuses it if `op_state` has no action
    for it, and goes on in the block's state, where the reduction leads
    back to. The same tokens, the same reductions in the same order: the
    loop only skips pushing the op and popping it again."""
    row = actions[op_state]
    reductions = set(row.values())
    if len(reductions) != 1:
        return False
    (act,) = reductions
    if act.__class__ is not tuple or act[0] != 2 or act[1] != "op_list" or act[2] is None:
        return False
    return act[2]


def _unless_identity(rule: Any, callback: Any) -> Any:
    """The reduction's callback, or None where lark's callback returns its one
    child unchanged (a `?rule` with one symbol and no child filter)."""
    if len(rule.expansion) == 1 and type(callback) is ExpandSingleChild:
        return None
    return callback


class _Actions(dict):
    """State -> its row of the fused action table, converted from lark's on
      first use: token or rule name -> the next state (an int) for a shift or
      goto, or (size, rule name, callback) for a reduction; the callback is None
    where lark's would hand back the one child unchanged. lark keeps
      `(Shift|Reduce, arg)` pairs there and looks a `Rule`'s parts up on
      every reduction."""

    def __init__(self, states: dict[int, dict], callbacks: dict) -> None:
        super().__init__()
        self.states = states
        self.callbacks = callbacks

    def __missing__(self, state: int) -> dict[str, Any]:
        callbacks = self.callbacks
        row = {
            name: arg
            if action is Shift
            else (len(arg.expansion), arg.origin.name, _unless_identity(arg, callbacks[arg]))
            for name, (action, arg) in self.states[state].items()
        }
        self[state] = row
        return row


def _dropped_terminals(rules: Any) -> frozenset[str]:
    """Terminals that every rule using them filters out (anonymous
    punctuation in rules without `!`): no callback ever sees their tokens,
    so the fused loop does not build them. lark's child filters skip their
    positions whatever is there."""
    dropped: set[str] = set()
    kept: set[str] = set()
    for rule in rules:
        for sym in getattr(rule, "expansion", ()):
            if sym.is_term:
                (dropped if sym.filter_out and not rule.options.keep_all_tokens else kept).add(sym.name)
    return frozenset(dropped - kept)


class _Unexpected(Exception):
    """The fused loop met an error: lark's driver will say which."""


COMPACT = "fused-compact-1"
"""The key of `serialize_table`'s format in a cached parser (its version)."""


def serialize_table(table: IntParseTable, memo: Any) -> dict | None:
    """The LALR table in the form the parser cache keeps: every action one
    integer (a shift: the next state, >= 0; a reduction: -1 - the rule's
    index in lark's memo), all states in one `marshal` blob.

    lark's own form is a dict per state holding a dict per reduction, about
    350,000 of them for this grammar; unpickling those was four fifths of
    loading the cached parser (0.34 of 0.43 s). A blob of integers loads in
    a few milliseconds. None where a rule is not in the memo (lark then
    keeps its own form)."""
    tokens: dict[str, int] = {}
    states: dict[int, dict[int, int]] = {}
    for state, actions in table.states.items():
        row: dict[int, int] = {}
        for token, (action, arg) in actions.items():
            if action is Reduce:
                ref = arg.serialize(memo)
                if not isinstance(ref, dict) or set(ref) != {"@"}:
                    return None
                code = -1 - ref["@"]
            else:
                code = arg
            row[tokens.setdefault(token, len(tokens))] = code
        states[state] = row
    return {
        COMPACT: marshal.dumps(states),
        "tokens": list(tokens),
        "start_states": table.start_states,
        "end_states": table.end_states,
    }


class _CodedActions(dict):
    """Code in the compact table -> the action tuple (`coded_action`), made
    on first use: there are a few thousand distinct codes for 347,000
    entries."""

    def __init__(self, make: Callable[[int], tuple]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, code: int) -> tuple:
        act = self[code] = self.make(code)
        return act


def deserialize_table(data: dict, memo: dict) -> IntParseTable:
    """The table of a cached parser, in `serialize_table`'s form or lark's.

    lark's form is read with each reduction's rule looked up in lark's memo
    directly (lark's generic `Serialize.deserialize` builds a namespace dict
    before it finds the memo reference, once per table entry). Either way,
    equal actions share one tuple (there are far fewer distinct actions than
    entries), so an entry costs a dict lookup, not a new tuple."""
    tokens = data["tokens"]
    shifts: dict[int, tuple] = {}
    reduces: dict[int, tuple] = {}

    def reduce_action(arg: dict) -> tuple:
        ref = arg.get("@")
        if ref is None:
            return (Reduce, Rule.deserialize(arg, memo))
        act = reduces.get(ref)
        if act is None:
            act = reduces[ref] = (Reduce, memo[ref])
        return act

    def shift_action(arg: int) -> tuple:
        act = shifts.get(arg)
        if act is None:
            act = shifts[arg] = (Shift, arg)
        return act

    def coded_action(code: int) -> tuple:
        if code >= 0:
            return shift_action(code)
        act = reduces.get(code)
        if act is None:
            act = reduces[code] = (Reduce, memo[-1 - code])
        return act

    blob = data.get(COMPACT)
    if blob is not None:
        coded: dict[int, dict[int, int]] = marshal.loads(blob)
        # Each row built by `map`s over C-level lookups, not a Python-level
        # call per entry: 0.19 -> 0.04 s for the 347,000 entries.
        name, action = tokens.__getitem__, _CodedActions(coded_action).__getitem__
        states = {state: dict(zip(map(name, row.keys()), map(action, row.values()))) for state, row in coded.items()}
    else:
        states = {
            state: {
                tokens[token]: reduce_action(arg) if action == 1 else shift_action(arg)
                for token, (action, arg) in actions.items()
            }
            for state, actions in data["states"].items()
        }
    return IntParseTable(states, data["start_states"], data["end_states"])


class FusedLALRParser(LALR_Parser):
    """lark's LALR parser whose `parse` runs the fused loop (see module doc)."""

    _tables: dict[str, tuple] | None = None
    fast_path: fast_path.FastPath | None = None
    """Reads common op shapes whole (`spec.syntax.fast_path`), set by the
    parser that owns the builder; None: every token through the tables."""

    @classmethod
    def deserialize(cls, data: Any, memo: Any, callbacks: Any, debug: bool = False) -> FusedLALRParser:  # type: ignore[override]  # lark's stub says Serialize's; LALR_Parser's own takes callbacks and debug too
        # As lark's, with the faster table loading of the cached parser.
        inst = cls.__new__(cls)
        inst._parse_table = deserialize_table(data, memo)  # type: ignore[assignment]  # lark declares ParseTable; an LALR parser's is the IntParseTable it builds
        inst.parser = _Parser(inst._parse_table, callbacks, debug)
        return inst

    def serialize(self, memo: Any = None) -> dict[str, Any]:
        # What lark's cache keeps (see `serialize_table`); lark's own form
        # where the compact one does not apply.
        return serialize_table(self._parse_table, memo) or super().serialize(memo)  # type: ignore[arg-type]  # as in deserialize: an IntParseTable

    def _fused_tables(self, start: str) -> tuple:
        if self._tables is None:
            self._tables = {}
        tables = self._tables.get(start)
        if tables is None:
            table = self._parse_table
            actions = _Actions(table.states, self.parser.callbacks)  # type: ignore[arg-type]  # an IntParseTable's states are ints
            tables = self._tables[start] = (
                actions,
                table.start_states[start],
                table.end_states[start],
                _dropped_terminals(self.parser.callbacks),
            )
        return tables

    def parse(self, lexer: Any, start: str, on_error: Any = None) -> Any:
        fast = isinstance(lexer, LexerThread) and isinstance(lexer.lexer, FastContextualLexer) and on_error is None
        if fast and not self.parser.debug:
            try:
                return self._fused(lexer.lexer, lexer.state, start)
            except _Unexpected:
                lexer = LexerThread.from_text(lexer.lexer, lexer.state.text)
        return super().parse(lexer, start, on_error)

    def _fused(self, lexer: FastContextualLexer, lexer_state: LexerState, start: str) -> Any:  # noqa: C901 - one case per fused grammar shape
        actions, state, end_state, dropped = self._fused_tables(start)
        fast_op = self.fast_path.op if self.fast_path is not None and self.fast_path.builder.options.fast_path else None
        dropped = dropped - lexer.root_lexer.newline_types  # type: ignore[attr-defined]  # lark types root_lexer abstractly; it is a BasicLexer
        patterns = lexer.patterns
        text, end = lexer_state.text.text, lexer_state.text.end
        counter = lexer_state.line_ctr
        pos, line, line_start = counter.char_pos, counter.line, counter.line_start_pos
        # The first newline at or after `pos` (past the end if none): blanks
        # that do not reach it hold no newline, so only a token that starts
        # on a new line costs a count (once per line, not once per token).
        no_newline = len(text) + 1
        next_nl = text.find("\n", pos)
        if next_nl < 0:
            next_nl = no_newline
        states = [state]
        values: list[Any] = []
        early: dict[int, Any] = {}
        reduced: int | None = None
        # Bound once: the loop below pushes about five times per token.
        push_state, push_value = states.append, values.append
        # The parts of the last token read (see `_LAZY`).
        value, begin, tok_line, tok_line_start = "", 0, line, line_start
        while True:
            if reduced is None:
                pattern = patterns[state]
            else:
                # The token after an op whose `op_list` reduction is done
                # (below): lexed in the state it would have been lexed in.
                pattern = patterns[reduced]
            m = pattern.match(text, pos, end)
            kind = m.lastgroup if m is not None else None
            if m is None or kind is None:
                # No token: the end of the text if only blanks are left.
                if _ONLY_BLANKS.match(text, pos, end).end() != end:  # type: ignore[union-attr]  # a pattern that matches the empty text never fails
                    raise _Unexpected
                kind, tok = "$END", None
            else:
                # `_token`, inlined: this loop runs once per token of the file.
                begin = m.start(kind)
                if begin > next_nl:
                    line += text.count("\n", pos, begin)
                    line_start = text.rindex("\n", pos, begin) + 1
                    next_nl = text.find("\n", begin)
                    if next_nl < 0:
                        next_nl = no_newline
                if kind in dropped:
                    # Punctuation no callback sees: no token to build.
                    pos = m.end()
                    tok = None
                else:
                    value = m.group(kind)
                    # The token is built when it is shifted or a callback
                    # reads it (`tok` is then set), not for the first token
                    # of an op the fast path reads: the fast path gets its
                    # parts (`value`, `begin`, `line`, `line_start`).
                    tok = _LAZY
                    tok_line, tok_line_start = line, line_start
                    pos = m.end()
                    if kind in pattern.multiline and "\n" in value:
                        line += value.count("\n")
                        line_start = begin + value.rindex("\n") + 1
                        next_nl = text.find("\n", pos)
                        if next_nl < 0:
                            next_nl = no_newline
                    callback = pattern.callback.get(kind)
                    if callback is not None:
                        tok = callback(_token(kind, value, begin, tok_line, tok_line_start))
                        kind = tok.type
            if reduced is not None:
                if kind not in actions[reduced]:
                    raise _Unexpected  # that state had no action for it
                reduced = None
            act = actions[state].get(kind)
            while act.__class__ is tuple:
                size, origin, callback = act
                if callback is None:
                    # A `?rule` of one child: the value stays, the state moves.
                    state = states[-1] = actions[states[-2]][origin]
                else:
                    if size:
                        children = values[-size:]
                        del states[-size:]
                        del values[-size:]
                    else:
                        children = []
                    push_value(callback(children))
                    state = actions[states[-1]][origin]
                    push_state(state)
                if state == end_state:  # reached on `$END` only
                    return values[-1]
                act = actions[state].get(kind)
            if act is None or tok is None and kind == "$END":
                raise _Unexpected
            if fast_op is not None and tok is not None:
                # The parser is about to read an operation whose first token
                # this is (`fast_path`): the op goes on the stack whole, as
                # the `operation` its tokens would have reduced to.
                goto = actions[state].get("operation")
                if goto is not None:
                    # The ops of the block being read, when the symbol on top
                    # of the stack is `op_list` (an LALR state is entered on
                    # one symbol only): the fast path binds uses of results
                    # of earlier ops of that same block at once.
                    block = values[-1] if len(states) > 1 and actions[states[-2]].get("op_list") == state else None
                    built = fast_op(text, pos, end, kind, value, begin, tok_line, tok_line_start, block)
                    if built is not None:
                        op, pos = built
                        if block is not None:
                            # `op_list: op_list operation`, reduced now
                            # rather than after the next token (`_early_reduction`).
                            reduce = early.get(goto)
                            if reduce is None:
                                reduce = early[goto] = _early_reduction(actions, goto)
                            if reduce:
                                values[-1] = reduce([block, op])
                                reduced = goto
                                continue
                        state = goto
                        push_state(state)
                        push_value(op)
                        continue
            state = act
            push_state(state)
            push_value(_token(kind, value, begin, tok_line, tok_line_start) if tok is _LAZY else tok)
