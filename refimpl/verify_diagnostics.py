"""`--verify-diagnostics`: MLIR's expected-diagnostic comments.

A comment `// expected-error@+1 {{text}}` (also `-warning`, `-note`,
`-remark`; `-re` for `{{regex}}` pieces inside the text; `@+N`, `@-N`,
`@above`, `@below`, or no designator for the comment's own line) says a
diagnostic of that severity whose message contains the text is produced at
that line. The run succeeds iff every expected diagnostic is produced and
nothing else is; mismatches are reported as mlir-opt reports them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spec.diagnostics import Diagnostic
from spec.ir import Location

_EXPECTED = re.compile(
    r"expected-(error|warning|remark|note)(-re)?\s*(?:@([+-]\d+|above|below|unknown))?\s*\{\{(.*)\}\}"
)
_IGNORED_NOTE = "see current operation:"
"""mlir-opt does not attach this note while verifying diagnostics."""


@dataclass
class Expectation:
    severity: str
    line: int | None
    """Target line (None for `@unknown`)."""
    pattern: re.Pattern[str] | None
    text: str
    loc: Location
    """Where the comment's `expected-...` keyword is."""
    matched: bool = False

    def matches(self, diag: Diagnostic) -> bool:
        if diag.severity != self.severity:
            return False
        line = diag.loc.line if diag.loc.line > 0 else None
        if line != self.line:
            return False
        if self.pattern is not None:
            return self.pattern.search(diag.message) is not None
        return self.text in diag.message


def _regex(text: str) -> re.Pattern[str]:
    """`-re` text: literal, except `{{...}}` pieces which are regexes."""
    out, pos = [], 0
    for m in re.finditer(r"\{\{(.*?)\}\}", text):
        out.append(re.escape(text[pos : m.start()]))
        out.append(f"(?:{m.group(1)})")
        pos = m.end()
    out.append(re.escape(text[pos:]))
    return re.compile("".join(out))


def parse_expectations(text: str, file: str, line_offset: int = 0) -> list[Expectation]:
    """Every expectation in `text` (a chunk starting at `line_offset`)."""
    lines = text.split("\n")
    result = []
    for i, line in enumerate(lines):
        for m in _EXPECTED.finditer(line):
            severity, is_re, where, body = m.groups()
            target: int | None = i
            if where == "unknown":
                target = None
            elif where == "above":
                target = i - 1
                while target > 0 and "expected-" in lines[target]:
                    target -= 1
            elif where == "below":
                target = i + 1
                while target < len(lines) - 1 and "expected-" in lines[target]:
                    target += 1
            elif where:
                target = i + int(where)
            loc = Location(file, i + 1 + line_offset, m.start() + 1)
            pattern = _regex(body) if is_re else None
            result.append(
                Expectation(severity, None if target is None else target + 1 + line_offset, pattern, body, loc)
            )
    return result


def flatten(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics and their notes as one list, as the verifier sees them."""
    out: list[Diagnostic] = []
    for d in diags:
        out.append(Diagnostic(d.severity, d.loc, d.message))
        out.extend(n for n in d.notes if not n.message.startswith(_IGNORED_NOTE))
    return out


@dataclass
class Mismatch:
    """A verification failure, reported as an error at `loc`."""

    loc: Location
    message: str
    caret_len: int = 1


def verify(expectations: list[Expectation], produced: list[Diagnostic]) -> list[Mismatch]:
    """Match produced diagnostics against expectations (each expectation
    matches one diagnostic, the first that fits)."""
    problems: list[Mismatch] = []
    for diag in flatten(produced):
        for exp in expectations:
            if not exp.matched and exp.matches(diag):
                exp.matched = True
                break
        else:
            problems.append(Mismatch(diag.loc, f"unexpected {diag.severity}: {diag.message}"))
    for exp in expectations:
        if not exp.matched:
            problems.append(
                Mismatch(exp.loc, f'expected {exp.severity} "{exp.text}" was not produced', max(len(exp.text), 1))
            )
    return problems
