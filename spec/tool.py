"""What every command-line tool of the project shares: reading input the way
mlir-opt does (a path, `-` or nothing for stdin), `--split-input-file`,
rendering diagnostics, writing `-o` (atomically onto regular files, through
devices, pipes and links), and running `main` so that no failure of the
process's surroundings ends in a traceback or a wrong exit code.

Exit codes: 0 success, 1 diagnosed failure (bad input or a failed pass), an
output that cannot be opened or written (as mlir-opt-19: `cannot open output
file 'X': REASON`), or a reader of the output that went away (`| head`); 2
usage or an internal error (`error: internal error: ...`, one line); 128+N
on signal N (130 SIGINT, 143 SIGTERM) after ending every child process and
removing any half-written output. The verifier, whose exit 1 means
"refuted", passes `io_failure=2` to `run_tool`.
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

from spec.diagnostics import Diagnostic, DiagnosticError, Split, error, render
from spec.invariant import InternalError
from spec.ir import Location, Operation
from spec.syntax.options import ParseOptions
from spec.syntax.parser import parse_module, split_input
from spec.syntax.printing import join_outputs, print_op
from spec.syntax.string_literals import BYTES

MAX_INPUT_BYTES = 64 * 1024 * 1024
"""Inputs larger than this are refused (docs/subset.md, Limits)."""

EXIT_INTERNAL = 2
"""An exception the tool did not expect: never 1, which the verifier uses
for "refuted" and the other tools for "your input is wrong"."""

STACK_BYTES = 512 * 1024 * 1024
RECURSION_LIMIT = 200_000
"""`main` runs in a thread with this stack and Python's recursion limit
raised to this: the parser accepts 1000 levels of region nesting, and code
that recurses over regions (the event builders, the printer, pickling a
module for a forked parse) takes several frames per level, far past
Python's default limit of 1000. The stack is address space, used only as
deep as the recursion goes; 512 MiB leaves a few KiB per frame."""


class ToolError(Exception):
    """A failure of the tool's surroundings, not of its input: an output that
    cannot be opened or written. Reported by `run_tool` as one `error: ...`
    line with the tool's I/O exit code."""


@dataclass
class Source:
    name: str
    """As shown in diagnostics: the path given, or `<stdin>`."""
    text: str


def read_source(path: str | None) -> Source:
    """Read a path or stdin (`decode_source`); raises `DiagnosticError` on failure."""
    name = "<stdin>" if path in (None, "-") else path
    if name is None:
        raise InternalError("spec.tool: expected name is not None")
    try:
        if path in (None, "-"):
            if sys.stdin is None:  # Python found fd 0 closed at start-up
                raise OSError(9, os.strerror(9))
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise DiagnosticError(error(Location(name, 0, 0), f"could not open input file: {exc.strerror}")) from None
    return decode_source(data, name)


def decode_source(data: bytes, name: str) -> Source:
    """Check the size of raw input and decode it; raises `DiagnosticError`."""
    if len(data) > MAX_INPUT_BYTES:
        raise DiagnosticError(error(Location(name, 1, 1), f"input is larger than {MAX_INPUT_BYTES} bytes"))
    # MLIR reads bytes: a byte that is not UTF-8 is kept as a lone surrogate
    # (`spec.syntax.string_literals.BYTES`), inside a string literal a byte
    # of its value, elsewhere an unexpected character, as in mlir-opt-19.
    text = data.decode(*BYTES)
    if "\x00" in text:
        pos = text.index("\x00")
        line = text.count("\n", 0, pos) + 1
        col = pos - (text.rfind("\n", 0, pos) + 1) + 1
        raise DiagnosticError(error(Location(name, line, col), "unexpected NUL character in input"))
    return Source(name, text)


def parse_chunks(src: Source, split: bool) -> list[tuple[str, int]]:
    return split_input(src.text) if split else [(src.text, 0)]


def write_output(text: str, out: str | None) -> None:
    """Write to stdout (`out` None or `-`), else to the file `out` (`write_file`)."""
    if out in (None, "-"):
        stdout = sys.stdout
        if stdout is None:
            raise ToolError(f"cannot write to standard output: {os.strerror(9)}")
        stdout.write(text)
        stdout.flush()
        return
    if out is None:
        raise InternalError("spec.tool: expected out is not None")
    write_file(out, text)


def write_file(path: str, text: str) -> None:
    """Write `text` to `path` as mlir-opt would, but never leave a regular
    file half-written: a regular file or a new path gets a temporary file
    in the same directory, renamed over it (an existing file keeps its mode
    and is untouched if the tool fails or is interrupted). A symlink is
    followed (the link stays a link); a device, FIFO or socket is written
    through (`-o /dev/null` must not replace the device by a file). Raises
    `ToolError` with mlir-opt-19's wording: `cannot open output file 'X':
    REASON`."""
    target = os.path.realpath(path) if os.path.islink(path) else path
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise _cannot_open(path, exc) from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise ToolError(f"cannot open output file '{path}': {os.strerror(21)}")
    if st is not None and not stat.S_ISREG(st.st_mode):
        _write_through(path, target, text)
        return
    directory = os.path.dirname(os.path.abspath(target))
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".mlir")
    except PermissionError as exc:
        # A writable file in a directory we may not create files in: write
        # it in place, as mlir-opt does.
        if st is not None and os.access(target, os.W_OK):
            _write_through(path, target, text)
            return
        raise _cannot_open(path, exc) from None
    except OSError as exc:
        raise _cannot_open(path, exc) from None
    _TEMP_FILES.add(tmp)
    try:
        # mkstemp makes the file private; give it the mode a plain write
        # would (the existing file's, else 0666 less the umask).
        if st is not None:
            mode = st.st_mode & 0o777
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.fchmod(fd, mode)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(text)
            os.replace(tmp, target)
        except OSError as exc:
            raise ToolError(f"cannot write output file '{path}': {exc.strerror}") from None
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        _TEMP_FILES.discard(tmp)


def _write_through(path: str, target: str, text: str) -> None:
    try:
        f = open(target, "w", encoding="utf-8", errors="surrogateescape")
    except OSError as exc:
        raise _cannot_open(path, exc) from None
    try:
        with f:
            f.write(text)
    except OSError as exc:
        raise ToolError(f"cannot write output file '{path}': {exc.strerror}") from None


def _cannot_open(path: str, exc: OSError) -> ToolError:
    return ToolError(f"cannot open output file '{path}': {exc.strerror or exc}")


def report(diags: list[Diagnostic], src: Source | None, split: Split | None = None) -> None:
    sources = {src.name: src.text} if src else None
    for d in diags:
        sys.stderr.write(render(d, sources, split))


def chunk_split(src: Source, split: bool, offset: int) -> Split | None:
    """The chunk starting at 0-based line `offset` of a `--split-input-file`
    run, as its diagnostics name it (`within split at FILE:LINE`)."""
    return Split(src.name, offset + 1) if split else None


def run_per_module(
    src: Source,
    split: bool,
    transform: Callable[[Operation], Operation],
    generic: bool,
    options: ParseOptions | None = None,
) -> tuple[str, str]:
    """Parse each chunk (with `options`), transform it, print it, as
    mlir-opt-19 does: the output of every chunk (a failed one prints
    nothing), joined by `// -----` lines, and the rendered diagnostics,
    chunk by chunk (empty: no chunk failed). Diagnostics of a split run are
    `within split at ...`."""
    texts: list[str] = []
    errors: list[str] = []
    sources = {src.name: src.text}
    for chunk, offset in parse_chunks(src, split):
        try:
            module = parse_module(chunk, src.name, offset, options=options)
            texts.append(print_op(transform(module), generic))
        except DiagnosticError as exc:
            texts.append("")
            where = chunk_split(src, split, offset)
            errors.extend(render(d, sources, where) for d in exc.diagnostics)
    return join_outputs(texts), "".join(errors)


# -- the process: children, temporary files, signals ------------------------------

_TEMP_FILES: set[str] = set()
"""Temporary outputs being written, removed if the process is interrupted."""
_CHILD_GROUPS: set[int] = set()
"""Process groups of the subprocesses started (`track_group`), killed if
the process is interrupted."""
_OWNER = os.getpid()
"""The process that owns the sets above: a forked copy inherits them and
must not remove its parent's files."""


def track_group(pgid: int) -> None:
    """Kill this process group (a subprocess started with
    `start_new_session=True`) if the tool is interrupted."""
    _CHILD_GROUPS.add(pgid)


def untrack_group(pgid: int) -> None:
    _CHILD_GROUPS.discard(pgid)


def track_temp(path: str) -> None:
    """Remove this temporary file if the tool is interrupted."""
    _TEMP_FILES.add(path)


def untrack_temp(path: str) -> None:
    _TEMP_FILES.discard(path)


def _end_children_and_temporaries() -> None:
    """What an interrupted run must not leave behind: child processes (the
    verifier's implementation, forked helpers) and half-written outputs."""
    if os.getpid() != _OWNER:
        return
    from parallel import live_children

    for pgid in list(_CHILD_GROUPS):
        try:
            os.killpg(pgid, signal.SIGKILL)
        except OSError:
            pass
    for pid in live_children():
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    for path in list(_TEMP_FILES):
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                import shutil

                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)
        except OSError:
            pass


def exit_now(code: int) -> NoReturn:
    """End the process at once with `code`, from any thread, leaving no child
    process or half-written output behind (the verifier's budget watchdog,
    when a run does not stop on its own). The caller flushed what it printed."""
    _end_children_and_temporaries()
    os._exit(code)


JOIN_POLL_S = 0.05
"""How often the waiting main thread wakes to run a pending signal's handler."""


class _Signalled(BaseException):
    """SIGINT or SIGTERM arrived (raised in the main thread, which only waits)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_signalled(signum: int, frame: object) -> None:
    raise _Signalled(signum)


class _StdoutRaw(io.RawIOBase):
    """fd 1 under `sys.stdout`: a failed write (a full disk, a closed
    descriptor) becomes a `ToolError`, told apart from the tool's own
    OSErrors; a reader that went away stays a `BrokenPipeError`."""

    def writable(self) -> bool:
        return True

    def write(self, b: bytes) -> int:  # type: ignore[override]  # RawIOBase takes any buffer; this one is only given bytes
        try:
            return os.write(1, b)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise ToolError(f"cannot write to standard output: {exc.strerror}") from None


def _guard_standard_streams() -> None:
    """A closed fd 0, 1 or 2 is taken by /dev/null opened the wrong way
    round, so that no file the tool opens lands on it and using it fails
    with EBADF; stdout's failures are made `ToolError`s; stderr is never a
    reason to fail (there is nowhere left to say so)."""
    for fd, flags in ((0, os.O_WRONLY), (1, os.O_RDONLY), (2, os.O_WRONLY)):
        try:
            os.fstat(fd)
        except OSError:
            new = os.open(os.devnull, flags)
            if new != fd:
                os.dup2(new, fd)
                os.close(new)
    encoding = getattr(sys.__stdout__, "encoding", None) or "utf-8"
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(_StdoutRaw()), encoding=encoding, errors="surrogateescape")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")
    elif isinstance(sys.stderr, io.TextIOWrapper):
        # A source line shown under a diagnostic keeps its bytes, as mlir-opt's.
        sys.stderr.reconfigure(errors="surrogateescape")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _start_worker(work: Callable[[], None]) -> threading.Thread:
    """`work` in a thread with a deep stack; where the address space is
    limited (`ulimit -v`), with the default stack and recursion limit."""
    default_limit = sys.getrecursionlimit()
    try:
        threading.stack_size(STACK_BYTES)
        sys.setrecursionlimit(RECURSION_LIMIT)
        worker = threading.Thread(target=work, name="tool-main", daemon=True)
        worker.start()
    except (RuntimeError, ValueError, MemoryError):
        sys.setrecursionlimit(default_limit)
        threading.stack_size(0)
        worker = threading.Thread(target=work, name="tool-main", daemon=True)
        worker.start()
    return worker


def run_tool(main: Callable[[], int], io_failure: int = 1) -> NoReturn:
    """Run a tool's `main` as the whole process and exit with its code.

    Whatever goes wrong is an exit code and at most one line, never a
    traceback: an output that cannot be written (`ToolError`, a full disk,
    a closed stdout) is `io_failure` (1, as mlir-opt; the verifier says 2);
    a reader that went away (`| head`) is `io_failure` quietly; an
    unexpected exception is `error: internal error: ...`, exit 2; SIGINT or
    SIGTERM ends every child and removes half-written outputs, exit 128+N.

    `main` runs in a thread of its own (`STACK_BYTES`, `RECURSION_LIMIT`)
    while the main thread waits, so that deep nesting does not exhaust the
    stack and a signal is handled by a thread that holds nothing.

    A run builds large object graphs (the IR of one or two modules) that
    live until it ends, and frees almost nothing: the cyclic collector would
    only rescan them, about 0.18 s of a 1.9 s verifier run at 10k GPU ops,
    so it is off for the run. Nor is the heap torn down at exit, object by
    object (about 0.1 s at 10k): everything is written by the time `main`
    returns, and only the standard streams need flushing."""
    global _OWNER
    _OWNER = os.getpid()
    gc.disable()
    signal.signal(signal.SIGINT, _raise_signalled)
    signal.signal(signal.SIGTERM, _raise_signalled)
    _guard_standard_streams()
    result: list[int] = []

    def work() -> None:
        code = EXIT_INTERNAL
        try:
            try:
                code = main()
            except SystemExit as exc:  # argparse's usage errors and --help
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else EXIT_INTERNAL)
                if isinstance(exc.code, str):
                    sys.stderr.write(exc.code + "\n")
            sys.stdout.flush()
        except BrokenPipeError:
            # The reader went away (`| head`), while `main` wrote or at the
            # flush: quietly, not with a traceback.
            code = io_failure
        except ToolError as exc:
            sys.stderr.write(f"error: {exc}\n")
            code = io_failure
        except Exception as exc:
            sys.stderr.write(f"error: internal error: {type(exc).__name__}: {_one_line(str(exc))}\n")
            code = EXIT_INTERNAL
        try:
            sys.stderr.flush()
        except OSError:
            pass
        result.append(code)

    from parallel import jobs

    jobs.WAITING_THREADS = 1  # this thread only waits: forking beside it is safe
    try:
        worker = _start_worker(work)
        # Joined in short waits, not one: the kernel may deliver SIGINT to the
        # busy worker thread, and Python runs its handler only when the main
        # thread wakes; a single join would wake at the end of the run.
        while worker.is_alive():
            worker.join(JOIN_POLL_S)
    except _Signalled as sig:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        _end_children_and_temporaries()
        os._exit(128 + sig.signum)
    if not result:
        _end_children_and_temporaries()
        os._exit(EXIT_INTERNAL)
    os._exit(result[0])


DISTRIBUTION = "gpu-async-region-reference"
"""The distribution `spec`, `refimpl` and `verifier` ship in (`pyproject.toml`)."""


def package_version() -> str:
    """The installed distribution's version; from a checkout that was never
    installed, the `pyproject.toml` beside the packages, marked as such;
    else `unknown`. `--version` must work however the code got here, and
    must not claim an installed version it cannot find."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        pass
    import tomllib
    from pathlib import Path

    try:
        project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"]
    except (OSError, ValueError, KeyError):
        return "unknown (not installed)"
    if project.get("name") != DISTRIBUTION:
        return "unknown (not installed)"
    return f"{project.get('version', 'unknown')} (source tree, not installed)"


def cli_parser(prog: str, description: str, example: str) -> argparse.ArgumentParser:
    """A tool's argument parser: `--help` ends with a one-line example (kept
    as written, hence the raw formatter), and `--version` prints
    `PROG VERSION`. A user's first question is what a call looks like.

    In `example`, `{prog}` is the command as invoked (`gpu-async-verify`,
    `python -m verifier`) and `{corpus}` the installed corpus directory
    (`corpus_dir`), so that the example names files that exist wherever the
    distribution is installed and can be pasted as it is."""
    p = argparse.ArgumentParser(
        prog=prog,
        description=description,
        epilog=_example(example, prog),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_version(p, prog)
    return p


def add_subcommand(
    sub: argparse._SubParsersAction, name: str, help: str, example: str, description: str | None = None
) -> argparse.ArgumentParser:
    """A subcommand with its own example and `--version` (the tool's), so
    `python -m verifier check --help` shows a `check` call and
    `python -m verifier check --version` works as well."""
    p = sub.add_parser(
        name,
        help=help,
        description=description or help,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.epilog = _example(example, p.prog)
    _add_version(p, p.prog.rsplit(" ", 1)[0])
    return p


def corpus_dir() -> str:
    """The programs shipped with the distribution (`verifier/corpus/`, the
    gate's corpus), as a path to type in the working directory: relative
    when it is below it (a checkout), else absolute (an installed wheel),
    quoted for a shell if it needs to be."""
    import shlex
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "verifier" / "corpus"
    try:
        shown = str(path.relative_to(Path.cwd()))
    except (OSError, ValueError):  # no working directory, or not below it
        shown = str(path)
    return shlex.quote(shown)


def _example(example: str, prog: str) -> str:
    return "example:\n  " + example.format(prog=prog, corpus=corpus_dir() if "{corpus}" in example else "")


class _VersionAction(argparse.Action):
    """argparse's `version` action, with the version looked up only when
    asked for: finding the distribution's metadata walks `sys.path`, which
    every run of a tool would pay for otherwise."""

    def __init__(self, option_strings: list[str], dest: str, prog: str = "", **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="print the version and exit")
        self.prog = prog

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: object, values: object, option_string: str | None = None
    ) -> None:
        sys.stdout.write(f"{self.prog} {package_version()}\n")
        parser.exit()


def _add_version(p: argparse.ArgumentParser, prog: str) -> None:
    p.add_argument("--version", action=_VersionAction, prog=prog)
