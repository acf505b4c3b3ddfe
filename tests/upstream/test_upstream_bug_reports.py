"""Every report under `docs/upstream-bugs/` still holds.

A report shows an input, the output of the implementation it is about, the
verifier's error for that output, and the reference's output. This test
re-derives each part: the implementation's output (refimpl `mlir19` or
`seed` mode always; `mlir-opt-19` and `mlir-opt-22` when installed) must be
the one shown and be refuted with the error shown; the reference's output
must be the one shown and be verified. When upstream fixes a bug, its report
fails here, loudly, instead of going stale.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

import verifier
from spec.syntax.parser import parse_module
from tests.mlir_tools import MLIR_OPT_19, MLIR_OPT_22
from verifier.harness.gate import RefimplImpl
from verifier.output.report import REFUTED, VERIFIED

REPORTS = Path(__file__).resolve().parents[2] / "docs" / "upstream-bugs"
NAMES = sorted(p.name for p in REPORTS.glob("*.md") if p.name != "README.md")


def section(text: str, heading: str) -> str:
    """The first fenced block after `## heading`."""
    m = re.search(r"^## " + re.escape(heading) + r"\n(.*?)^```\w*\n(.*?)^```", text, re.S | re.M)
    assert m, f"no block under '## {heading}'"
    return m.group(2)


def reported_error(text: str) -> str:
    """The verifier's message in the report, after `error: `."""
    m = re.search(r"^\S+: error: (.*)$", text, re.M)
    assert m, "the report shows no verifier error"
    return m.group(1)


def first_error(report: verifier.Report) -> str:
    m = re.search(r"^\S+: error: (.*)$", report.text(), re.M)
    return m.group(1) if m else ""


def _trimmed(output: str) -> str:
    """An output as a report shows it: without the blank line that ends it."""
    return output.rstrip("\n") + "\n"


def check(input_text: str, output_text: str) -> verifier.Report:
    return verifier.check(parse_module(input_text, "input.mlir"), parse_module(output_text, "out.mlir"))


def test_there_are_reports() -> None:
    assert len(NAMES) >= 3
    index = (REPORTS / "README.md").read_text()
    for name in NAMES:
        assert name in index, f"{name} is not listed in docs/upstream-bugs/README.md"


@pytest.mark.parametrize("name", NAMES)
def test_the_reference_output_is_shown_and_verified(name: str) -> None:
    text = (REPORTS / name).read_text()
    src = section(text, "Input")
    ref = RefimplImpl("reference")(src)
    assert _trimmed(ref) == section(text, "The reference's output")
    r = check(src, ref)
    assert r.verdict == VERIFIED, r.text()


def _implementations(name: str) -> list[tuple[str, object]]:
    if name.startswith("seed-"):
        return [("refimpl --mode seed", RefimplImpl("seed"))]
    impls: list[tuple[str, object]] = [("refimpl --mode mlir19", RefimplImpl("mlir19"))]
    for label, exe in (("mlir-opt-19", MLIR_OPT_19), ("mlir-opt-22", MLIR_OPT_22)):
        if exe is not None:
            impls.append(
                (
                    label,
                    lambda s, exe=exe: (
                        subprocess.run(
                            [exe, "-gpu-async-region"], input=s, capture_output=True, text=True, check=True
                        ).stdout
                    ),
                )
            )
    return impls


@pytest.mark.parametrize("name", NAMES)
def test_the_bug_still_shows(name: str) -> None:
    text = (REPORTS / name).read_text()
    src = section(text, "Input")
    shown = section(text, "The seed's output" if name.startswith("seed-") else "Upstream's output")
    # The message as the report shows it, with the output's own file name.
    want = reported_error(text)
    for label, impl in _implementations(name):
        out = impl(src)  # type: ignore[operator]
        assert _trimmed(out) == shown, f"{label}: the output differs from the report's (fixed upstream?)"
        r = check(src, out)
        assert r.verdict == REFUTED, f"{label}: {r.text()}"
        assert first_error(r) == want, f"{label}: {first_error(r)!r}"


@pytest.mark.skipif(
    MLIR_OPT_19 is None and MLIR_OPT_22 is None,
    reason="mlir-opt-19/22 not installed (apt-get install mlir-19-tools mlir-22-tools; .ci/run does)",
)
def test_upstream_reports_are_checked_against_a_real_binary() -> None:
    # Without a binary only `--mode mlir19` stands for upstream; say so by
    # skipping this test rather than passing silently.
    assert any(not n.startswith("seed-") for n in NAMES)
