"""What every command-line tool of the project shares: reading input the way
mlir-opt does (a path, `-` or nothing for stdin), `--split-input-file`,
rendering diagnostics, and writing `-o` atomically (an existing file is left
untouched when the tool fails).

Exit codes: 0 success, 1 diagnosed failure (bad input or a failed pass),
or a reader of the output that went away (`| head`), without a traceback.
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

from spec.diagnostics import Diagnostic, DiagnosticError, error, render
from spec.ir import Location, Operation
from spec.syntax.parser import parse_module, split_input
from spec.syntax.printer import join_outputs, print_op

MAX_INPUT_BYTES = 64 * 1024 * 1024
"""Inputs larger than this are refused (see the README's limits)."""


@dataclass
class Source:
    name: str
    """As shown in diagnostics: the path given, or `<stdin>`."""
    text: str


def read_source(path: str | None) -> Source:
    """Read a path or stdin as UTF-8; raises `DiagnosticError` on failure."""
    name = "<stdin>" if path in (None, "-") else path
    assert name is not None
    try:
        if path in (None, "-"):
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            with open(path, "rb") as f:  # type: ignore[arg-type]
                data = f.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise DiagnosticError(error(Location(name, 0, 0), f"could not open input file: {exc.strerror}")) from None
    return decode_source(data, name)


def decode_source(data: bytes, name: str) -> Source:
    """Check size and encoding of raw input; raises `DiagnosticError`."""
    if len(data) > MAX_INPUT_BYTES:
        raise DiagnosticError(error(Location(name, 1, 1), f"input is larger than {MAX_INPUT_BYTES} bytes"))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise DiagnosticError(error(Location(name, line, col), "input is not valid UTF-8")) from None
    if "\x00" in text:
        pos = text.index("\x00")
        line = text.count("\n", 0, pos) + 1
        col = pos - (text.rfind("\n", 0, pos) + 1) + 1
        raise DiagnosticError(error(Location(name, line, col), "unexpected NUL character in input"))
    return Source(name, text)


def parse_chunks(src: Source, split: bool) -> list[tuple[str, int]]:
    return split_input(src.text) if split else [(src.text, 0)]


def write_output(text: str, out: str | None) -> None:
    """Write to stdout, or to `out` atomically (temp file + rename)."""
    if out in (None, "-"):
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    assert out is not None
    directory = os.path.dirname(os.path.abspath(out))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".mlir")
    try:
        # mkstemp makes the file private; give it the mode a plain write
        # would (the existing file's, else 0666 less the umask).
        try:
            mode = os.stat(out).st_mode & 0o777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, out)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def report(diags: list[Diagnostic], src: Source | None) -> None:
    sources = {src.name: src.text} if src else None
    for d in diags:
        sys.stderr.write(render(d, sources))


def run_per_module(
    src: Source,
    split: bool,
    transform: Callable[[Operation], Operation],
    generic: bool,
) -> tuple[str | None, list[Diagnostic]]:
    """Parse each chunk, transform it, print it. Returns the output text (or
    None if any chunk failed) and every diagnostic, chunk by chunk as
    mlir-opt reports them."""
    texts: list[str] = []
    diags: list[Diagnostic] = []
    for chunk, offset in parse_chunks(src, split):
        try:
            module = parse_module(chunk, src.name, offset)
            texts.append(print_op(transform(module), generic))
        except DiagnosticError as exc:
            diags.extend(exc.diagnostics)
    if diags:
        return None, diags
    return join_outputs(texts), []


def run_tool(main: Callable[[], int]) -> NoReturn:
    """Run a tool's `main` as the whole process and exit with its code.

    A run builds large object graphs (the IR of one or two modules) that
    live until it ends, and frees almost nothing: the cyclic collector would
    only rescan them, about 0.18 s of a 1.9 s verifier run at 10k GPU ops,
    so it is off for the run. Nor is the heap torn down at exit, object by
    object (about 0.1 s at 10k): everything is written by the time `main`
    returns, and only the standard streams need flushing."""
    gc.disable()
    try:
        code = main()
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        # The reader went away (`| head`), while `main` wrote or at the
        # flush: exit 1 quietly, not with a traceback.
        code = 1
    os._exit(code)
