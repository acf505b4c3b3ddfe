"""The counterexample timeline as a person sees it: rendered by a real
browser (headless Chromium, Debian's `chromium`), not only parsed.

The page embeds the SVG `--svg` writes and a script that asks the browser
for the box of every text it laid out; the test fails when two texts
overlap, when an arrow (a grey edge, the red missing edge) crosses a text,
when a text leaves the picture (a clipped title or label), or when an op
has no hover text (`<title>`). Pictures drawn wrong on purpose check that
the measurement sees each of these. A screenshot is taken too, so a failure
can be looked at. Skipped where no Chromium is installed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = next((c for c in ("chromium", "chromium-browser", "google-chrome") if shutil.which(c)), None)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no headless browser (apt-get install chromium)")

MEASURE = """
<script>
window.addEventListener("load", () => {
  const svg = document.querySelector("svg");
  const frame = svg.getBoundingClientRect();
  const boxes = [...svg.querySelectorAll("text")].map((t) => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, x0: r.left, y0: r.top, x1: r.right, y1: r.bottom};
  });
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      // a pixel of anti-aliasing is not an overlap
      if (Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 1 && Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > 1)
        overlaps.push([a.text, b.text]);
    }
  // Arrows as the browser lays them out, sampled along their length; an
  // arrow that ends at a point may touch it, not its label.
  const origin = frame;
  const arrows = [...svg.querySelectorAll("line.edge, path.edge, g.missing-edge path")].map((a) => {
    const pts = [];
    if (a.tagName === "line") {
      const [x1, y1, x2, y2] = ["x1", "y1", "x2", "y2"].map((k) => a[k].baseVal.value);
      for (let i = 0; i <= 64; i++) pts.push([x1 + (x2 - x1) * i / 64, y1 + (y2 - y1) * i / 64]);
    } else {
      const len = a.getTotalLength();
      for (let i = 0; i <= 64; i++) { const p = a.getPointAtLength(len * i / 64); pts.push([p.x, p.y]); }
    }
    return {name: a.closest("g.missing-edge") ? "missing edge" : "edge", pts: pts.map(([x, y]) => [x + origin.left, y + origin.top])};
  });
  const crossed = [];
  for (const a of arrows)
    for (const b of boxes)
      if (a.pts.some(([x, y]) => x > b.x0 + 1 && x < b.x1 - 1 && y > b.y0 + 1 && y < b.y1 - 1))
        crossed.push([a.name, b.text]);
  const outside = boxes.filter((b) => b.x0 < frame.left - 1 || b.x1 > frame.right + 1 || b.y0 < frame.top - 1 || b.y1 > frame.bottom + 1)
    .map((b) => b.text);
  const untitled = [...svg.querySelectorAll("g.op, g.point")].filter((g) => !g.querySelector(":scope > title"))
    .map((g) => g.getAttribute("data-op") || g.getAttribute("data-point"));
  const out = document.createElement("pre");
  out.id = "measured";
  out.textContent = JSON.stringify({texts: boxes.length, overlaps, crossed, outside, untitled});
  document.body.appendChild(out);
});
</script>
"""


def _svg(tmp_path: Path, *check_args: str) -> str:
    svg = tmp_path / "cex.svg"
    res = subprocess.run(
        [sys.executable, "-m", "verifier", "check", *check_args, "--svg", str(svg)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 1, res.stderr
    return svg.read_text()


def _measure(tmp_path: Path, svg: str) -> dict:
    page = tmp_path / "page.html"
    page.write_text(f"<!DOCTYPE html><html><body style='margin:0'>{svg}{MEASURE}</body></html>")
    base = [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    dom = subprocess.run(
        [*base, "--virtual-time-budget=5000", "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120
    )
    found = re.search(r'<pre id="measured">(.*?)</pre>', dom.stdout, re.S)
    assert found, f"the browser did not run the page: {dom.stderr[-2000:]}"
    width, height = (int(v) for v in re.search(r'width="(\d+)" height="(\d+)"', svg).groups())  # type: ignore[union-attr]
    shot = tmp_path / "timeline.png"
    subprocess.run(
        [*base, f"--window-size={width},{height}", f"--screenshot={shot}", page.as_uri()],
        capture_output=True,
        timeout=120,
    )
    assert shot.exists() and shot.stat().st_size > 1000, "no screenshot"
    return json.loads(
        found.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
    )


CASES = {
    "late-wait": ["examples/demo.mlir", "--after", "examples/demo-late-wait.mlir"],
    "wrong-token": ["examples/demo.mlir", "--after", "examples/demo-wrong.mlir"],
    "seed-diamond": ["examples/seed_diamond.mlir", "--mode", "seed"],
    "seed-loop": ["examples/seed_loop.mlir", "--mode", "seed"],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_labels_do_not_overlap_in_a_browser(case: str, tmp_path: Path) -> None:
    measured = _measure(tmp_path, _svg(tmp_path, *CASES[case]))
    assert measured["texts"] > 10
    assert measured["overlaps"] == [], f"texts drawn over each other: {measured['overlaps']}"
    assert measured["crossed"] == [], f"arrows drawn across texts: {measured['crossed']}"
    assert measured["outside"] == [], f"texts cut off at the picture's edge: {measured['outside']}"
    assert measured["untitled"] == [], f"ops without hover text: {measured['untitled']}"


def test_the_measurement_sees_what_is_wrong(tmp_path: Path) -> None:
    """The demo's picture spoiled four ways; each is reported."""
    svg = _svg(tmp_path, *CASES["late-wait"])
    # a label moved onto another one
    moved = re.sub(r'(<text x=")385\.0(" y=")122\.0', r"\g<1>515.0\g<2>162.0", svg, count=1)
    assert moved != svg
    assert _measure(tmp_path, moved)["overlaps"] != []
    # an arrow drawn through the host lane's title
    across = svg.replace("</svg>", '<line class="edge" x1="0" y1="138" x2="200" y2="138" stroke="#aaa"/></svg>')
    assert ["edge", "host"] in _measure(tmp_path, across)["crossed"]
    # the title pushed past the right edge
    clipped = svg.replace('<text class="title" x="10"', '<text class="title" x="900"', 1)
    assert clipped != svg and _measure(tmp_path, clipped)["outside"] != []
    # an op without its hover text
    bare = re.sub(r"<title>gpu\.wait @19:5:[^<]*</title>", "", svg, count=1)
    assert bare != svg and _measure(tmp_path, bare)["untitled"] == ["gpu.wait @19:5"]


def test_an_execute_lane_is_drawn_without_overlaps(tmp_path: Path) -> None:
    """Upstream's phase-2 race: a lane for the `async.execute` body."""
    out = tmp_path / "mlir19.mlir"
    rw = subprocess.run(
        [sys.executable, "-m", "refimpl", "--mode", "mlir19", "examples/demo-upstream.mlir"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    out.write_text(rw.stdout)
    svg = _svg(tmp_path, "examples/demo-upstream.mlir", "--after", str(out))
    assert 'data-kind="execute"' in svg
    measured = _measure(tmp_path, svg)
    assert measured["overlaps"] == [] and measured["outside"] == [], measured
