"""`python -m verifier exhaustive`: the table, shards, resuming, batching,
bug signatures and exit codes, on small sizes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.mlir_tools import needs_mlir19
from verifier.harness.exhaustive_runners import split_output
from verifier.programs.enumeration import TINY, programs_up_to

ROOT = Path(__file__).resolve().parents[2]
# A broken implementation: the first memset becomes async and nobody waits
# for its token. It does not take --split-input-file, so the batched run
# fails and each program is run on its own.
BREAK_MEMSET = "sed -e '0,/ gpu.memset %b0/s// %zz = gpu.memset async %b0/'"


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "verifier", "exhaustive", *args], capture_output=True, text=True, cwd=ROOT, timeout=300
    )


def test_reference_table_tiny() -> None:
    r = cli("--max-size", "2", "--alphabet", "tiny")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "| 1 | 4 | 4 | 0 | 0 | 0 |" in r.stdout
    assert "| 2 | 16 | 16 | 0 | 0 | 0 |" in r.stdout
    assert "| all | 20 | 20 | 0 | 0 | 0 |" in r.stdout


def test_json_and_count_only() -> None:
    r = cli("--max-size", "2", "--alphabet", "async", "--format", "json", "--jobs", "2")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert s["totals"]["programs"] == 10 + 145 == s["totals"]["verified"]
    assert s["sizes"]["1"]["programs"] == 10
    c = cli("--max-size", "3", "--alphabet", "async", "--count-only")
    assert c.stdout == "size 1: 10\nsize 2: 145\nsize 3: 3008\n"


def _ids(path: Path) -> list[str]:
    return [json.loads(line)["id"] for line in path.read_text().splitlines() if '"id"' in line]


def test_shards_cover_the_run_once_and_resume(tmp_path: Path) -> None:
    files = [tmp_path / f"s{i}.jsonl" for i in (1, 2, 3)]
    for i, f in enumerate(files, 1):
        r = cli("--max-size", "3", "--alphabet", "tiny", "--shard", f"{i}/3", "--results", str(f))
        assert r.returncode == 0, r.stderr
    ids = [i for f in files for i in _ids(f)]
    assert len(ids) == len(set(ids)) == 84
    assert set(ids) == {p.id for p in programs_up_to(TINY, 3)}
    # Resuming a finished run adds nothing and reports the same table.
    before = files[0].read_text()
    r = cli("--max-size", "3", "--alphabet", "tiny", "--shard", "1/3", "--results", str(files[0]))
    assert r.returncode == 0 and files[0].read_text() == before
    assert f"| all | {len(_ids(files[0]))} |" in r.stdout
    # An interrupted run (lines lost) runs only what is missing.
    lines = before.splitlines(keepends=True)
    files[0].write_text("".join(lines[:10]))
    r = cli("--max-size", "3", "--alphabet", "tiny", "--shard", "1/3", "--results", str(files[0]))
    assert sorted(_ids(files[0])) == sorted(_ids(tmp_path / "s1.jsonl")) and len(_ids(files[0])) == 28
    # A results file of another run is refused.
    r = cli("--max-size", "3", "--alphabet", "tiny", "--mode", "seed", "--results", str(files[0]))
    assert r.returncode == 2 and "holds results of" in r.stderr


def test_refuted_grouped_by_signature(tmp_path: Path) -> None:
    res = tmp_path / "r.jsonl"
    r = cli("--max-size", "2", "--alphabet", "tiny", "--impl", BREAK_MEMSET, "--jobs", "2", "--results", str(res))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "distinct bug(s)" in r.stdout
    # The smallest program of a bug is of size 1: the memset alone.
    assert "smallest 1-" in r.stdout and "(size 1)" in r.stdout
    recs = [json.loads(line) for line in res.read_text().splitlines()[1:]]
    refuted = [x for x in recs if x["verdict"] == "refuted"]
    assert refuted and all("gpu.memset" in x["signature"] and x["text"] for x in refuted)
    # Programs without a memset on %b0 are untouched: verified.
    assert sum(x["verdict"] == "verified" for x in recs) == sum(
        "gpu.memset %b0" not in p.text for p in programs_up_to(TINY, 2)
    )


def test_declined_inputs_are_not_bugs() -> None:
    """The seed rejects user-written tokens: grouped by its message, apart from the bugs."""
    r = cli("--max-size", "1", "--alphabet", "straight", "--mode", "seed")
    assert r.returncode == 1
    assert "input the implementation declined (impl-failed):" in r.stdout
    assert "- 'gpu.memcpy' op is already async:" in r.stdout
    assert "distinct bug" not in r.stdout


def test_usage_errors() -> None:
    assert cli("--max-size", "2", "--shard", "3/2").returncode == 2
    assert cli("--max-size", "0").returncode == 2
    assert cli("--max-size", "1", "--impl", "'unbalanced").returncode == 2


def test_verifier_does_not_import_refimpl() -> None:
    code = "import sys, verifier.__main__, verifier.harness.exhaustive; print('refimpl' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.stdout.strip() == "False", r.stderr


def test_split_output() -> None:
    assert split_output("a\n// -----\nb\n") == ["a\n", "b\n"]
    assert split_output("a\n") == ["a\n"]


@needs_mlir19
def test_mlir_opt_19_batched() -> None:
    r = cli("--max-size", "2", "--alphabet", "straight", "--impl", "mlir-opt-19 -gpu-async-region", "--jobs", "2")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "| all | 819 | 819 |" in r.stdout


def test_readme_smallest_upstream_bugs() -> None:
    """verifier/README.md, "Every small program": the smallest programs of
    upstream's two bugs, by id, are refuted in mlir19 mode with the
    signatures given there, and verified for the reference."""
    from verifier.harness.exhaustive_runners import RefimplRunner
    from verifier.programs.enumeration import ALPHABETS, programs

    cases = {
        ("control", "4-15150"): "before-end: gpu.launch_func -> func.func (cross-thread)",
        ("values", "4-25926"): "before-return: gpu.memset -> func.return (cross-thread)",
    }
    for (alphabet, pid), sig in cases.items():
        (p,) = [p for p in programs(ALPHABETS[alphabet], 4) if p.id == pid]
        (bad,) = RefimplRunner("mlir19", 10_000).run([p])
        assert (bad.verdict, bad.signature) == ("refuted", sig)
        (good,) = RefimplRunner("reference", 10_000).run([p])
        assert good.verdict == "verified"
