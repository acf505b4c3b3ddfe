"""`verifier.harness.exhaustive` keeps nothing per program: the summary is counters
and one program per signature, resumed ids are bits, the results file is
whole lines, and a run's IR is collected even under `run_tool`'s collector
switched off."""

from __future__ import annotations

import gc
import json
import random
import subprocess
import sys
from pathlib import Path

from spec.ir import Operation, release
from spec.syntax.parser import parse_module
from tests.verifier.test_verifier_induction import INPUT as INDUCTION_PROGRAM
from verifier import check
from verifier.harness.exhaustive_results import Done, Result, ResultsFile, load_results
from verifier.harness.exhaustive_runners import FULL_COLLECTION_EVERY, _collected_after
from verifier.harness.exhaustive_summary import Summary
from verifier.proof.induction import clone

ROOT = Path(__file__).resolve().parents[2]


def _results() -> list[Result]:
    out = []
    for size in (1, 2, 3):
        for i in range(40):
            verdict = ("verified", "refuted", "unknown", "impl-failed", "bounded")[(i * 7 + size) % 5]
            sig = f"sig{i % 3}" if verdict == "refuted" else ""
            detail = f"x.mlir:1:2: error: declined {i % 2}" if verdict == "impl-failed" else f"d{i}"
            out.append(Result(f"{size}-{i}", size, verdict, i / 1024, sig, f"text {size}-{i}", detail))
    return out


def test_summary_is_the_same_in_any_order_and_keeps_the_smallest() -> None:
    rs = _results()
    want = Summary.of(rs, 1.0).to_json({"h": 1})
    for seed in range(5):
        shuffled = rs[:]
        random.Random(seed).shuffle(shuffled)
        s = Summary.of(shuffled, 1.0)
        assert s.to_json({"h": 1}) == want
        # One result kept per group, not every program.
        assert all(isinstance(g.smallest, Result) for g in [*s.bugs.values(), *s.failures.values()])
    bugs = {b["signature"]: b for b in want["bugs"]}
    refuted = [r for r in rs if r.verdict == "refuted"]
    for sig, b in bugs.items():
        of_sig = [r for r in refuted if r.signature == sig]
        assert b["programs"] == len(of_sig)
        assert b["smallest"]["id"] == min(of_sig, key=lambda r: (r.size, int(r.id.split("-")[1]))).id
    assert want["totals"]["programs"] == len(rs)
    assert sum(f["programs"] for f in want["failures"]) == sum(r.verdict == "impl-failed" for r in rs)


def test_done_bits() -> None:
    d = Done()
    assert "3-5" not in d
    assert d.add("3-5") and not d.add("3-5")
    assert "3-5" in d and "3-4" not in d and "2-5" not in d and "3-6" not in d
    big = 25_000_000
    assert d.add(f"5-{big}") and f"5-{big}" in d and f"5-{big - 1}" not in d and f"5-{big + 1}" not in d
    ids = {f"4-{random.Random(1).randrange(10_000)}" for _ in range(300)}
    for i in ids:
        d.add(i)
    assert all(f"4-{k}" in d for k in range(10_000) if f"4-{k}" in ids)
    assert not any(f"4-{k}" in d for k in range(10_000) if f"4-{k}" not in ids)


def _load(path: Path, header: dict) -> tuple[list[Result], int]:
    got: list[Result] = []
    cut = load_results(path, header, Done(), got.append)
    return got, cut


def test_results_file_whole_lines_and_a_cut_tail(tmp_path: Path) -> None:
    header = {"alphabet": "tiny", "impl": "x"}
    path = tmp_path / "r.jsonl"
    f = ResultsFile(path, header)
    rs = _results()[:5]
    for r in rs:
        f.write(r.__dict__)
    f.close()
    text = path.read_text()
    assert text.endswith("\n") and json.loads(text.splitlines()[0]) == {"header": header}
    # An interrupted run's last line cut short: counted as cut, then removed on open.
    path.write_text(text + text.splitlines(keepends=True)[1][:30])
    got, cut = _load(path, header)
    assert [r.id for r in got] == [r.id for r in rs] and cut == 1
    ResultsFile(path, header).close()
    assert path.read_text() == text
    # A file that is only a cut header starts again from the header.
    path.write_text(text[:10])
    ResultsFile(path, header).close()
    assert path.read_text() == json.dumps({"header": header}) + "\n"
    # A duplicate line counts once.
    path.write_text(text + text.splitlines(keepends=True)[2])
    got, _ = _load(path, header)
    assert [r.id for r in got] == [r.id for r in rs]


LEAK = r"""
import contextlib, gc, io, sys
sys.path.insert(0, {root!r})
import verifier.__main__ as cli
from spec.ir import Operation
gc.disable()  # as run_tool does
with contextlib.redirect_stdout(io.StringIO()):
    cli.main(["exhaustive", "--alphabet", "whole", "--max-size", "2"])
print(sum(1 for o in gc.get_objects() if isinstance(o, Operation)))
"""


def test_a_run_does_not_keep_its_programs_ir() -> None:
    # 411 programs, about 25 ops each when kept (10,320 measured without the
    # collector); a run that frees them keeps a few hundred (caches).
    r = subprocess.run(
        [sys.executable, "-c", LEAK.format(root=str(ROOT))], capture_output=True, text=True, timeout=300, check=False
    )
    assert r.returncode == 0, r.stderr
    assert int(r.stdout.strip()) < 2000


def _operations() -> int:
    return sum(1 for o in gc.get_objects() if isinstance(o, Operation))


def test_an_induction_leaves_no_ir_to_the_collector() -> None:
    # An induction checks copies of both modules (steps split out, the loop
    # a call); they are released when it returns, so that with the cyclic
    # collector off nothing of them is kept. The two checked modules are
    # released the same way (as the exhaustive runner does).
    # (Copies of one parsed module: the parser keeps what it parsed last; and
    # a first check, for what the process makes once.)
    parsed = parse_module(INDUCTION_PROGRAM, "in.mlir")
    check(clone(parsed)[0], clone(parsed)[0])
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        before = _operations()
        a, b = clone(parsed)[0], clone(parsed)[0]
        report = check(a, b)
        assert report.functions[0].lemma.startswith("by induction")
        release(a)
        release(b)
        del a, b, report
        assert _operations() == before
    finally:
        if was:
            gc.enable()


def test_a_batch_collects_once_at_its_end_and_fully_now_and_then() -> None:
    was = gc.isenabled()
    gc.collect()
    try:
        # The collector off: a batch leaves it off and collects nothing.
        gc.disable()
        with _collected_after():
            assert not gc.isenabled()
        assert not gc.isenabled()
        # On: off within the batch, on after it, young generations
        # collected (a cycle made in the batch is gone), and the count of
        # full collections' trigger goes up by one per batch until a full one.
        gc.enable()
        gc.collect()
        collections = [s["collections"] for s in gc.get_stats()]
        for k in range(1, FULL_COLLECTION_EVERY + 1):
            with _collected_after():
                assert not gc.isenabled()
                cycle: list[object] = []
                cycle.append(cycle)
                del cycle
            assert gc.isenabled() and gc.get_count()[0] < 50
            after = [s["collections"] for s in gc.get_stats()]
            if k < FULL_COLLECTION_EVERY:
                assert gc.get_count()[2] == k and after[2] == collections[2]
        assert after[2] == collections[2] + 1 and gc.get_count()[2] == 0
    finally:
        if was:
            gc.enable()
        else:
            gc.disable()


def test_release_unlinks_every_op_region_block_and_value() -> None:
    from verifier.programs.enumeration import ALPHABETS, programs_up_to
    from verifier.programs.program_ir import program_ir

    for p in programs_up_to(ALPHABETS["whole"], 2):
        m = program_ir(p, "<input>")
        assert m is not None
        ops = list(m.walk())
        regions = [r for op in ops for r in op.regions]
        blocks = [b for r in regions for b in r.blocks]
        values = [v for op in ops for v in op.results] + [a for b in blocks for a in b.args]
        release(m)
        assert all(x.parent is None for x in [*ops, *regions, *blocks])
        assert all(v.owner is None for v in values)
