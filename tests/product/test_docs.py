"""The README and the user's guide say what the tools do.

- Every `console` block of the README and of docs/checking.md that shows a
  `$ gpu-async-verify ...` command is run (as `python -m verifier`, from
  the repository root), and its output must be the one quoted.
- The timeline picture the README and the guide show is what `--svg` draws
  today (the drawing is deterministic).
- The README is short, and neither it nor the guide speaks of issue
  numbers, work sessions or past runs.
- The README's verdict table lists every verdict with the exit code
  `verifier/output/report.py` gives it.
- The Python API page's example runs.
- The performance page holds figures stamped by `make perf-docs`.
- `mkdocs build --strict` passes (warnings, broken links and anchors
  included, are errors) when MkDocs, the `[docs]` extra, is installed.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from verifier.output.report import EXIT_CODES

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
DOCS = REPO / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
USER_TEXTS = [
    README,
    *PAGES,
    REPO / "verifier" / "README.md",
    REPO / "spec" / "README.md",
    REPO / "refimpl" / "README.md",
]

CONSOLE = re.compile(r"```console\n\$ (gpu-async-verify [^\n]*)\n(.*?)```", re.S)


def _quoted_runs() -> list[tuple[str, str, str]]:
    runs = []
    for path in (README, DOCS / "checking.md"):
        for m in CONSOLE.finditer(path.read_text(encoding="utf-8")):
            runs.append((path.name, m.group(1), m.group(2)))
    return runs


@pytest.mark.parametrize(("page", "command", "quoted"), _quoted_runs(), ids=lambda x: str(x)[:60])
def test_quoted_output_is_what_the_command_prints(page: str, command: str, quoted: str, tmp_path: Path) -> None:
    argv = shlex.split(command)[1:]
    # A picture the example writes goes to a scratch directory.
    argv = [str(tmp_path / a) if a.endswith(".svg") else a for a in argv]
    res = subprocess.run(
        [sys.executable, "-m", "verifier", *argv], cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert res.returncode in (0, 1, 4), res.stderr
    assert res.stdout == quoted, f"{page}: `{command}` prints something else now"


def test_at_least_the_first_check_and_a_refutation_are_quoted() -> None:
    readme = [c for p, c, _ in _quoted_runs() if p == "README.md"]
    assert any("--after" in c and "--svg" in c for c in readme)
    assert any(c == "gpu-async-verify check examples/demo.mlir" for c in readme)


def test_the_timeline_shown_is_the_one_drawn(tmp_path: Path) -> None:
    svg = tmp_path / "cex.svg"
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "verifier",
            "check",
            "examples/demo.mlir",
            "--after",
            "examples/demo-late-wait.mlir",
            "--svg",
            str(svg),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 1, res.stderr
    shown = DOCS / "img" / "demo-late-wait.svg"
    assert svg.read_text() == shown.read_text(), "regenerate docs/img/demo-late-wait.svg with the command above"
    assert "docs/img/demo-late-wait.svg" in README.read_text()


def test_readme_is_short() -> None:
    assert len(README.read_text().splitlines()) <= 150


FORBIDDEN = re.compile(
    r"\bissues? #?\d+|\bthis stop\b|\bsession\b|\bpart [0-9]\b|\blast run\b|\bearlier run|\bmet / not met\b|\bloaded (?:2-core )?machine\b",
    re.I,
)


@pytest.mark.parametrize("path", USER_TEXTS, ids=lambda p: str(p.relative_to(REPO)))
def test_no_development_history_in_user_texts(path: Path) -> None:
    hits = [f"{i}: {line.strip()}" for i, line in enumerate(path.read_text().splitlines(), 1) if FORBIDDEN.search(line)]
    assert not hits, f"{path.relative_to(REPO)} speaks of the project's history:\n" + "\n".join(hits)


def test_readme_lists_every_verdict_with_its_exit_code() -> None:
    table = README.read_text().split("## Verdicts and exit codes", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) >= 2 and cells[1].isdigit():
            for word in re.findall(r"`(\w+)`", cells[0]):
                rows[word] = int(cells[1])
    assert rows == {str(v): code for v, code in EXIT_CODES.items()}
    assert "--accept-bounded" in table and "--require-unbounded" in table


def test_api_example_runs() -> None:
    page = (DOCS / "api.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert len(blocks) >= 2
    res = subprocess.run(
        [sys.executable, "-c", "\n".join(blocks)], cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("verified 0\n")


def test_performance_figures_are_generated_and_stamped() -> None:
    res = subprocess.run(
        [sys.executable, "docs/gen_performance.py", "--check"], cwd=REPO, capture_output=True, text=True
    )
    assert res.returncode == 0, res.stderr
    page = (DOCS / "performance.md").read_text()
    assert re.search(
        r"Generated by `python bench/speed_table\.py [^`]*` on \d{4}-\d\d-\d\d \d\d:\d\d UTC, on .+ cores", page
    )


def test_docs_build_strict(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason="MkDocs (the [docs] extra) is not installed: pip install -e '.[docs]'")
    res = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "site" / "checking.html").exists()


def test_run_lines_in_the_guide_use_the_console_scripts() -> None:
    """A lit `RUN:` line the guide shows calls the tools by their installed
    names, as a user's test would, never `python -m`."""
    runs = [line for page in PAGES for line in page.read_text().splitlines() if "RUN:" in line]
    assert any("gpu-async-verify" in line for line in runs)
    assert any("gpu-async-opt" in line for line in runs)
    assert not [line for line in runs if "python -m" in line]
