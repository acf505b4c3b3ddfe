"""`check --dot FILE`: the clusters are named for what they are.

A program with no `async.execute` has no cluster called so (the function's
end is on its boundary cluster); GPU starts and finishes sit in a cluster
per stream; every node is declared once, in one cluster, and every edge
joins declared nodes.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _dot(tmp_path: Path, *args: str) -> str:
    out = tmp_path / "g.dot"
    res = subprocess.run(
        [sys.executable, "-m", "verifier", "check", *args, "--dot", str(out)], cwd=REPO, capture_output=True, text=True
    )
    assert res.returncode == 1, res.stderr
    return out.read_text()


def _clusters(text: str) -> dict[str, list[str]]:
    """Cluster label -> the labels of the nodes declared in it."""
    found: dict[str, list[str]] = {}
    for block in re.findall(r"subgraph cluster_f\d+_\w+ \{\n(.*?)\n    \}", text, re.S):
        title = re.search(r'label="(.*?)";', block).group(1)  # type: ignore[union-attr]
        found[title] = re.findall(r'f\d+_n\d+ \[label="(.*?)"', block)
    return found


def _well_formed(text: str) -> None:
    assert text.count("{") == text.count("}")
    declared = re.findall(r"^\s+(f\d+_n\d+) \[label=", text, re.M)
    assert len(declared) == len(set(declared)), "a node declared twice"
    for a, b in re.findall(r"(f\d+_n\d+) -> (f\d+_n\d+)", text):
        assert a in declared and b in declared


def test_clusters_of_a_program_without_execute(tmp_path: Path) -> None:
    text = _dot(tmp_path, "examples/demo.mlir", "--after", "examples/demo-late-wait.mlir")
    _well_formed(text)
    clusters = _clusters(text)
    assert set(clusters) == {"host", "boundary of @demo: callers, the runtime, the program's end", "GPU stream 1"}
    assert not any("async.execute" in title for title in clusters)
    assert clusters["boundary of @demo: callers, the runtime, the program's end"] == ["end(func.func@11:3)"]
    assert all(label[0] in "sf" for label in clusters["GPU stream 1"])
    assert "t(func.call@18:5)" in clusters["host"] and "i(gpu.memcpy@17:10)" in clusters["host"]
    assert 'legend [shape=note, label="i issued by its thread' in text
    assert re.search(r'-> f0_n\d+ \[color=red, penwidth=2, style=dashed, label="missing"', text)


def test_an_execute_body_has_its_cluster(tmp_path: Path) -> None:
    out = tmp_path / "mlir19.mlir"
    rw = subprocess.run(
        [sys.executable, "-m", "refimpl", "--mode", "mlir19", "examples/demo-upstream.mlir"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    out.write_text(rw.stdout)
    text = _dot(tmp_path, "examples/demo-upstream.mlir", "--after", str(out))
    _well_formed(text)
    titles = set(_clusters(text))
    assert any(t.startswith("async.execute body at ") for t in titles), titles
    assert "host" in titles and any(t.startswith("GPU stream") for t in titles)
