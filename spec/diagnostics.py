"""Diagnostics as data, with one renderer in MLIR's format.

Every tool reports problems as `Diagnostic` records (severity, location,
message, notes) and renders them here, so `spec`, `refimpl` and `verifier`
print the same `FILE:LINE:COL: error: ...` lines, the source line and a caret
that mlir-opt prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spec.ir import UNKNOWN_LOC, Location


@dataclass(frozen=True)
class Diagnostic:
    severity: str
    """`error`, `warning`, `note` or `remark`."""
    loc: Location
    message: str
    notes: tuple[Diagnostic, ...] = field(default=())

    def render(self, sources: dict[str, str] | None = None) -> str:
        return render(self, sources)


class DiagnosticError(Exception):
    """Raised to abandon work on a diagnosed input; carries the diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic) -> None:
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics = diagnostics
        super().__init__(diagnostics[0].message if diagnostics else "error")


def error(loc: Location, message: str, *notes: Diagnostic) -> Diagnostic:
    return Diagnostic("error", loc, message, tuple(notes))


def note(loc: Location, message: str) -> Diagnostic:
    return Diagnostic("note", loc, message)


MAX_SHOWN_LINE = 160
"""Source lines longer than this are shown as a window around the caret."""


def _source_line(loc: Location, sources: dict[str, str] | None) -> str | None:
    if not sources or loc.file not in sources or loc.line <= 0:
        return None
    lines = sources[loc.file].split("\n")
    if loc.line > len(lines):
        return None
    return lines[loc.line - 1].rstrip("\r")


@dataclass(frozen=True)
class Split:
    """The `--split-input-file` chunk a diagnostic was found in: its file and
    the 1-based line it starts on (the line of the `// -----` before it)."""

    file: str
    line: int


def _where(loc: Location, split: Split | None) -> str:
    """`FILE:LINE:COL`; in a split chunk of that file mlir-opt-19's `within
    split at FILE:START offset :LINE:COL`, LINE counted from the chunk's."""
    if split is not None and loc.file == split.file:
        return f"within split at {split.file}:{split.line} offset :{loc.line - split.line + 1}:{loc.col}"
    return str(loc)


def render(diag: Diagnostic, sources: dict[str, str] | None = None, split: Split | None = None) -> str:
    """MLIR's rendering: `loc: severity: message`, the source line and a
    caret under the column when the source is known (no caret under a line
    that is not all ASCII), then each note (a
    note at the error's own location without its source line). `split`:
    the chunk of a `--split-input-file` run the diagnostic is in."""
    out: list[str] = []
    if diag.loc is UNKNOWN_LOC or diag.loc.line <= 0:
        head = f"{diag.loc.file if diag.loc.file != '<unknown>' else 'loc(unknown)'}"
        out.append(f"{head}: {diag.severity}: {diag.message}")
    else:
        out.append(f"{_where(diag.loc, split)}: {diag.severity}: {diag.message}")
        line = _source_line(diag.loc, sources)
        if line is not None:
            col = max(diag.loc.col - 1, 0)
            if len(line) > MAX_SHOWN_LINE:
                # Show a window around the column rather than a huge line.
                start = max(0, col - MAX_SHOWN_LINE // 2)
                line = line[start : start + MAX_SHOWN_LINE]
                col -= start
            out.append(line)
            if line.isascii():
                # LLVM's SourceMgr draws no caret under a line holding any
                # byte past ASCII (UTF-8 or not: checked against mlir-opt-19).
                out.append(" " * col + "^")
    text = "\n".join(out) + "\n"
    # mlir-opt shows no source line for a note at its error's own location.
    for n in diag.notes:
        text += render(n, None if n.loc == diag.loc else sources, split)
    return text
