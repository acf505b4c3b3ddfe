"""No check of the product relies on `assert` (which `python -O` removes):
the product's code has none, the corpus gives the same verdicts under `-O`
as without it, and a broken invariant is an internal error (one line,
exit 2), never a traceback or a verdict."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.reliability.common import ROOT, SMALL, env

PRODUCT = ("spec", "refimpl", "verifier", "parallel")

VERDICTS = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    import refimpl, verifier
    from spec.syntax.parser import parse_module
    from spec.syntax.printing import print_op
    out = {"asserts_active": __debug__}
    for path in sorted(Path(sys.argv[1]).glob("*.mlir")):
        text = path.read_text()
        try:
            fin = parse_module(text, path.name)
        except Exception as exc:
            out[path.name] = "parse: " + type(exc).__name__
            continue
        result = refimpl.rewrite(parse_module(text, path.name), "reference")
        if not result.ok:
            out[path.name] = "refimpl failed"
            continue
        printed = print_op(result.module)
        fout = parse_module(printed, "out.mlir", dominance=False)
        report = verifier.check(fin, fout, timeout_ms=10_000)
        out[path.name] = [str(report.verdict), [(f.name, str(f.verdict), f.proved) for f in report.functions], printed]
    print(json.dumps(out))
    """
)


def test_no_assert_in_product_code() -> None:
    found = []
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path.name.startswith("test_"):
                continue  # the gate's tests are tests: pytest rewrites their asserts
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Assert):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, found


def _verdicts(*python: str) -> dict:
    p = subprocess.run(
        [sys.executable, *python, "-c", VERDICTS, str(ROOT / "tests" / "corpus")],
        capture_output=True,
        text=True,
        env=env(),
        timeout=600,
    )
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_corpus_verdicts_same_under_O() -> None:
    """Every corpus program: the refimpl's output and the verifier's
    verdicts per function, with and without `-O`."""
    normal, optimized = _verdicts(), _verdicts("-O")
    assert normal.pop("asserts_active") is True
    assert optimized.pop("asserts_active") is False
    assert len(normal) >= 40
    assert optimized == normal


def test_internal_error_is_one_line_exit_2(tmp_path: Path) -> None:
    """A broken invariant deep in the check, under `-O`: `error: internal
    error: ...` on stderr, exit 2, nothing on stdout."""
    src = tmp_path / "in.mlir"
    src.write_text(SMALL)
    script = textwrap.dedent(
        f"""
        from spec.invariant import InternalError
        from spec.tool import run_tool
        from verifier.proof import pipeline
        from verifier.__main__ import main
        def broken(*a, **k):
            raise InternalError("verifier.proof.pipeline: expected an invariant")
        pipeline.match_module = broken
        run_tool(lambda: main(["check", {str(src)!r}]), io_failure=2)
        """
    )
    p = subprocess.run([sys.executable, "-O", "-c", script], capture_output=True, text=True, env=env(), timeout=120)
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr == "error: internal error: InternalError: verifier.proof.pipeline: expected an invariant\n"
