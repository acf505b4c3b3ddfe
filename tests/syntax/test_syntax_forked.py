"""`parse_modules`: modules parsed in forked children end as a sequential
parse ends, whatever happens in the child; and the machinery under it
(`parallel`): when to fork (`Jobs`, `can_fork`) and how a child's result
comes back (`Forked`, its pipe)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

import parallel.fork as fork
import parallel.jobs as jobs
import spec.syntax.parse_many as forked
from parallel import Jobs
from spec.diagnostics import DiagnosticError
from spec.ir import Operation, structurally_equal
from spec.syntax.parse_many import parse_modules
from spec.syntax.parser import parse_module
from spec.syntax.printing import print_op

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork on this platform")

CORPUS = sorted((Path(__file__).parents[1] / "corpus").glob("*.mlir"))
BAD = "module {\n  func.func @f() {\n    %0 = arith.addi %x, %x : i32\n    return\n  }\n}\n"
WORSE = "module {\n  func.func @g( {\n}\n"


def _end(parsed: object) -> str:
    if isinstance(parsed, DiagnosticError):
        return "error\n" + "\n".join(d.render({}) for d in parsed.diagnostics)
    return "ok\n" + print_op(parsed)  # type: ignore[arg-type]


def _sequential(text: str, file: str) -> str:
    try:
        return _end(parse_module(text, file))
    except DiagnosticError as exc:
        return _end(exc)


def _sources(*texts: str) -> list[tuple[str, str]]:
    return [(t, f"f{i}.mlir") for i, t in enumerate(texts)]


@pytest.mark.parametrize("fork", [True, False])
def test_corpus_in_children_as_in_sequence(fork: bool) -> None:
    sources = [(p.read_text(), p.name) for p in CORPUS]
    got = [_end(m) for m in parse_modules(sources, fork=fork)]
    assert got == [_sequential(t, f) for t, f in sources]


def test_diagnostics_in_order_from_either_side() -> None:
    good = CORPUS[0].read_text()
    for texts in [(BAD, good), (good, BAD), (BAD, WORSE), (WORSE, BAD, good)]:
        sources = _sources(*texts)
        got = [_end(m) for m in parse_modules(sources, fork=True)]
        assert got == [_sequential(t, f) for t, f in sources]
        assert sum(g.startswith("error") for g in got) == sum(t in (BAD, WORSE) for t in texts)


def test_a_child_that_sends_nothing_is_parsed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # The child's pickling fails (patched before the fork, so in the child
    # too): the caller gets the module anyway, from its own parse.
    parsed_again: list[str] = []
    real = forked._parse

    def counting(text: str, file: str, dominance: bool = True, options: object = None) -> object:
        parsed_again.append(file)
        return real(text, file, dominance, options)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("no pickling")

    monkeypatch.setattr(fork.pickle, "dump", broken)
    monkeypatch.setattr(forked, "_parse", counting)
    a, b = CORPUS[0].read_text(), CORPUS[1].read_text()
    got = parse_modules(_sources(a, b), fork=True)
    assert [_end(m) for m in got] == [_sequential(a, "f0.mlir"), _sequential(b, "f1.mlir")]
    assert sorted(parsed_again) == ["f0.mlir", "f1.mlir"]


def test_a_child_whose_payload_does_not_load_is_parsed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fork.pickle, "dump", lambda obj, pipe, **k: pipe.write(b"not a pickle"))
    a = CORPUS[2].read_text()
    (got, _) = parse_modules(_sources(a, "module {\n}\n"), fork=True)
    assert _end(got) == _sequential(a, "f0.mlir")


def test_a_pickling_that_fails_halfway_is_parsed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # The child streams its pickle into the pipe: a failure after part of it
    # was written leaves a truncated payload, which must not load as a module.
    real = fork.pickle.dumps

    def half(obj: object, pipe: object, **kwargs: object) -> None:
        data = real(obj, protocol=fork.pickle.HIGHEST_PROTOCOL)
        pipe.write(data[: len(data) // 2])  # type: ignore[attr-defined]
        raise RuntimeError("pickling failed halfway")

    monkeypatch.setattr(fork.pickle, "dump", half)
    from bench.bench_verify import generate

    a = generate(3000, seed=2)
    assert len(real(parse_module(a, "f0.mlir"), protocol=fork.pickle.HIGHEST_PROTOCOL)) > 1 << 17  # several frames
    (got, _) = parse_modules(_sources(a, "module {\n}\n"), fork=True)
    assert _end(got) == _sequential(a, "f0.mlir")


def test_small_texts_are_not_forked(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []
    monkeypatch.setattr(forked, "_start", lambda text, file, d, o: started.append(file))
    monkeypatch.setattr(jobs, "can_fork", lambda: True)
    parse_modules(_sources("module {\n}\n", "module {\n}\n"))
    assert started == []


def test_busy_or_single_core_machines_parse_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs.threading, "active_count", lambda: 1)
    if hasattr(os, "sched_getaffinity"):
        monkeypatch.setattr(jobs.os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(jobs, "_busy", lambda: 1.0)
    assert jobs.can_fork()
    monkeypatch.setattr(jobs, "_busy", lambda: 2.0)
    assert not jobs.can_fork()
    monkeypatch.setattr(jobs.threading, "active_count", lambda: 2)
    monkeypatch.setattr(jobs, "_busy", lambda: 0.0)
    assert not jobs.can_fork()
    monkeypatch.setattr(jobs.threading, "active_count", lambda: 1)
    if hasattr(os, "sched_getaffinity"):
        monkeypatch.setattr(jobs.os, "sched_getaffinity", lambda pid: {0})
        assert not jobs.can_fork()


def test_jobs_1_forbids_forking_on_an_idle_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    # `--jobs 1`: an idle 2-core machine that would fork does not.
    monkeypatch.setattr(jobs.threading, "active_count", lambda: 1)
    if hasattr(os, "sched_getaffinity"):
        monkeypatch.setattr(jobs.os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(jobs, "_busy", lambda: 1.0)
    default = Jobs()
    assert default.may_fork() and not default.splits(10, 11) and default.splits(11, 11)
    one = Jobs(1)
    assert not one.may_fork() and not one.splits(10, 11) and not one.splits(11, 11)
    two = Jobs(2)
    assert two.may_fork() and two.splits(1, 11) and not two.splits(0, 11)
    # Forced either way, whatever the size and the load.
    monkeypatch.setattr(jobs, "_busy", lambda: 2.0)
    assert Jobs(1, force=True).splits(0, 11) and not Jobs(2, force=False).splits(11, 11)


def test_jobs_2_forks_small_texts_too(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []
    monkeypatch.setattr(forked, "_start", lambda text, file, d, o: started.append(file))
    monkeypatch.setattr(jobs, "can_fork", lambda: True)
    parse_modules(_sources("module {\n}\n", "module {\n}\n"))
    assert started == []
    parse_modules(_sources("module {\n}\n", "module {\n}\n"), jobs=Jobs(2))
    assert started == ["f0.mlir"]
    # The same call again with the default: no setting of the process stayed behind.
    parse_modules(_sources("module {\n}\n", "module {\n}\n"))
    assert started == ["f0.mlir"]


def test_busy_is_the_least_of_its_snapshots(monkeypatch: pytest.MonkeyPatch) -> None:
    # A task that woke for a moment is in one snapshot; a busy one in all.
    for seen, busy in (([2.0, 1.0, 2.0], 1.0), ([2.0, 2.0, 2.0], 2.0), ([3.0, 2.0, 2.0], 2.0)):
        snapshots = iter(seen)
        monkeypatch.setattr(jobs, "_runnable", lambda: next(snapshots))
        assert jobs._busy() == busy
    monkeypatch.setattr(jobs, "_runnable", lambda: None)
    monkeypatch.setattr(jobs.os, "getloadavg", lambda: (0.5, 0.0, 0.0))
    assert jobs._busy() == 0.5


def test_busy_counts_this_process() -> None:
    # Whatever else runs, this test's own process is runnable while it asks.
    assert jobs._busy() >= 1 or not Path("/proc/loadavg").exists()


def test_a_child_done_before_its_caller_sends_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    # The caller is still busy when the child has pickled: the child keeps
    # what the pipe does not take and sends it when the caller reads; the
    # payload (several pipes full) arrives whole.
    from bench.bench_verify import generate

    a = generate(3000, seed=2)
    child = fork.Forked.start(lambda: parse_module(a, "f0.mlir"))
    assert child is not None
    time.sleep(1.0)  # the caller busy elsewhere
    got = child.result()
    assert isinstance(got, Operation) and structurally_equal(got, parse_module(a, "f0.mlir"))


def test_the_eager_pipe_keeps_what_the_pipe_does_not_take() -> None:
    # No reader yet: 2 MiB of writes return at once (a blocking pipe would
    # stop at 64 KiB), the rest kept in memory; `close` sends it all, in
    # order, to a reader that comes later.
    read_fd, write_fd = os.pipe()
    pipe = fork._EagerPipe(write_fd)
    chunks = [bytes([i]) * 65536 for i in range(32)]
    for c in chunks:
        assert pipe.write(memoryview(c)) == len(c)
    assert pipe.kept  # not everything went in
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(_read_all(read_fd)))
    reader.start()
    pipe.close()
    reader.join()
    assert got == [b"".join(chunks)]


def _read_all(fd: int) -> bytes:
    parts = []
    while part := os.read(fd, 1 << 16):
        parts.append(part)
    os.close(fd)
    return b"".join(parts)
