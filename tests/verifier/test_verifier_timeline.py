"""`python -m verifier check --svg/--html`: the counterexample as a timeline
(`verifier/output/timeline.py`). The SVG is parsed as XML: lanes for the host,
GPU streams and execute bodies, the two unordered ops highlighted, the
missing edge drawn; nothing written for a verified rewrite."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from spec.syntax.parser import parse_module
from verifier import check
from verifier.output.timeline import streams, timeline_svg

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"
NS = "{http://www.w3.org/2000/svg}"


def _check(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "verifier", "check", *args], cwd=ROOT, capture_output=True, text=True)


def _groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if cls in (g.get("class") or "").split()]


def test_refuted_rewrite_is_drawn(tmp_path: Path) -> None:
    svg, page = tmp_path / "cex.svg", tmp_path / "cex.html"
    res = _check(str(EX / "demo.mlir"), "--after", str(EX / "demo-wrong.mlir"), "--svg", str(svg), "--html", str(page))
    assert res.returncode == 1, res.stderr
    root = ET.parse(svg).getroot()
    lanes = {g.get("data-lane"): g.get("data-kind") for g in _groups(root, "lane")}
    assert lanes["host"] == "host"
    assert "GPU stream 1" in lanes and lanes["GPU stream 1"] == "stream"
    hot = _groups(root, "highlight")
    # the copy (a GPU bar) and the call (a host point) are the unordered pair
    assert any("gpu.memcpy" in (g.get("data-op") or "") for g in hot)
    assert any("func.call" in (g.get("data-point") or "") for g in hot)
    missing = _groups(root, "missing-edge")
    assert len(missing) == 1 and missing[0].find(f"{NS}path") is not None
    assert "gpu.memcpy @14:10 must end before func.call @16:5" in ET.tostring(missing[0], encoding="unicode")
    assert "<svg" in page.read_text() and "verdict: refuted" in page.read_text()


def test_execute_body_gets_a_lane(tmp_path: Path) -> None:
    out = tmp_path / "mlir19.mlir"
    rw = subprocess.run(
        [sys.executable, "-m", "refimpl", "--mode", "mlir19", str(EX / "demo-upstream.mlir")],
        capture_output=True,
        text=True,
        check=True,
    )
    out.write_text(rw.stdout)
    svg = tmp_path / "up.svg"
    res = _check(str(EX / "demo-upstream.mlir"), "--after", str(out), "--svg", str(svg))
    assert res.returncode == 1, res.stderr
    root = ET.parse(svg).getroot()
    kinds = [g.get("data-kind") for g in _groups(root, "lane")]
    assert {"host", "execute", "stream"} <= set(kinds)
    assert len(_groups(root, "missing-edge")) == 1
    assert any("memref.store" in (g.get("data-point") or "") for g in _groups(root, "highlight"))


def test_verified_writes_nothing(tmp_path: Path) -> None:
    svg, page = tmp_path / "none.svg", tmp_path / "old.html"
    page.write_text("kept")
    res = _check(str(EX / "demo.mlir"), "--svg", str(svg), "--html", str(page))
    assert res.returncode == 0, res.stderr
    assert not svg.exists()
    assert page.read_text() == "kept"
    assert "no counterexample schedule to draw" in res.stderr


def test_unwritable_picture_is_exit_2(tmp_path: Path) -> None:
    res = _check(str(EX / "demo.mlir"), "--after", str(EX / "demo-wrong.mlir"), "--svg", str(tmp_path / "no" / "x.svg"))
    assert res.returncode == 2
    assert "cannot open output file" in res.stderr and res.stdout == ""


def test_streams_follow_token_chains() -> None:
    src = (EX / "demo-wrong.mlir").read_text()
    module = parse_module(src, "w.mlir")
    report = check(parse_module((EX / "demo.mlir").read_text(), "demo.mlir"), module)
    fr = report.functions[0]
    g = fr.graph
    of = streams(g, len(g.kinds) - 1)
    by_op = {g.ops[n].loc.line: s for n, s in of.items()}
    # wait async (11), launch (12), launch (13) and the copy (14) are one
    # chain; the blocking wait on the second launch's token forks off it.
    assert by_op[11] == by_op[12] == by_op[13] == by_op[14]
    assert by_op[15] != by_op[14]
    svg = timeline_svg(report)
    assert svg is not None and svg == timeline_svg(report)  # deterministic
