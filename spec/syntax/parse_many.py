"""Parsing several modules at once, one per core: the parse entry point
of a tool that reads more than one file.

A tool that reads two large files (the verifier reads a program and its
rewrite) spends most of its time parsing them, one after the other, in one
Python process. Here each module but the last may be parsed by a forked
child (`parallel.Forked`), which hands the built IR back pickled, while the
caller parses the last. On the project's quiet 2-core machine the
verifier's 10k benchmark pair takes 0.96-1.01 s this way against
1.33-1.36 s in turn: the two processes slow each other by about a third,
and the pickling is extra.

The results are exactly those of `parse_module` called in order: a child
only ever sends a module it built. If its parse fails (or the child dies, or
its pickle does not load) the caller parses that text itself, so every
diagnostic comes from the caller's own parse, the same one a sequential run
gives. Whether to fork is the caller's `Jobs` (`parallel.jobs`): by default
only for texts of `MIN_FORKED_BYTES` or more, and only when a core is idle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from parallel import DEFAULT_JOBS, Forked, Jobs
from spec.diagnostics import DiagnosticError
from spec.ir import Operation
from spec.syntax.options import ParseOptions
from spec.syntax.parser import load_parser, parse_module

MIN_FORKED_BYTES = 4_000_000
"""Below this a text is parsed in the caller unless `--jobs 2` asks
otherwise (`parallel.Jobs.n`). The fork saves wall time at a CPU
price: on the project's 2-core machine, the verifier's 10k-GPU-op pair
(INPUT 1.6 MB) took 1.8-2.1 s wall and 2.4-2.9 s CPU forked, against
2.1-2.4 s of both in one process. Above about 4 MB (some 25,000 GPU ops
of `bench/gen_programs.py`) the saving passes half a second; at 100k
(16.6 MB) it is 3.5-5 s (16-18 s against 21-22 s)."""

Parsed = Operation | DiagnosticError
"""A module, or the diagnostics its parse raised."""


def parse_modules(
    sources: Sequence[tuple[str, str]],
    fork: bool | None = None,
    dominance: Sequence[bool] | None = None,
    *,
    options: ParseOptions | None = None,
    jobs: Jobs = DEFAULT_JOBS,
) -> list[Parsed]:
    """Parse each `(text, file)` as `parse_module(text, file, dominance=d,
    options=options)` would, `d` from `dominance` (default: checked for all):
    a list of modules or `DiagnosticError`s, in the order given. Each but
    the last is parsed in a forked child where `jobs` says it pays (see the
    module doc); `fork`, if given, overrides that (`Jobs.force`: True forks
    wherever `os.fork` exists, whatever the size; False never forks)."""
    if not sources:
        return []
    if fork is not None:
        jobs = replace(jobs, force=fork)
    checks = list(dominance) if dominance is not None else [True] * len(sources)
    *others, last = sources
    *other_checks, last_check = checks
    wanted = [jobs.worth(len(text), MIN_FORKED_BYTES) for text, _ in others]
    use_fork = any(wanted) and jobs.may_fork()  # asked only where it matters: it takes 5 ms
    if use_fork:
        load_parser()  # once, before the fork, so the children inherit it
    workers = [
        _start(text, file, d, options) if use_fork and w else None
        for (text, file), w, d in zip(others, wanted, other_checks, strict=True)
    ]
    try:
        parsed_last = _parse(*last, last_check, options)
    finally:
        received = [w.result() if w is not None else None for w in workers]
    # A child sends only a module it built: anything else (nothing, a parse
    # that failed) is parsed here, so diagnostics are the caller's own.
    out: list[Parsed] = [
        module if isinstance(module, Operation) else _parse(text, file, d, options)
        for module, (text, file), d in zip(received, others, other_checks, strict=True)
    ]
    out.append(parsed_last)
    return out


def _start(text: str, file: str, dominance: bool, options: ParseOptions | None) -> Forked | None:
    return Forked.start(lambda: parse_module(text, file, dominance=dominance, options=options))


def _parse(text: str, file: str, dominance: bool = True, options: ParseOptions | None = None) -> Parsed:
    try:
        return parse_module(text, file, dominance=dominance, options=options)
    except DiagnosticError as exc:
        return exc
