"""The verifier's verdict on every corpus program, per implementation.

    python bench/verdicts.py [--markdown]

Runs each program of `verifier/corpus/` and `examples/` through each
implementation: the identity rewrite (the output is the input), the refimpl
in its modes `reference` and `mlir19` (in-process, as the gate runs it) and
`seed` (`python -m refimpl --mode seed --mlir-print-op-generic`: its async
`gpu.alloc` has no custom form in today's syntax), and `mlir-opt-19` /
`mlir-opt-22 -gpu-async-region` where installed. Every output is checked by
`verifier.check`. Prints one row per program (the verdict of each
implementation) and, per implementation, how many programs got each verdict
and how many obligations Z3 and reachability both decided the same way out
of all obligations asked: the oracle-agreement count. An implementation that
fails or prints something unparsable is shown as such, not as a verdict.

Not a test (the gate and `tests/test_verifier_*.py` assert what must hold);
a table for the README and the closing notes.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from spec.diagnostics import DiagnosticError  # noqa: E402
from spec.syntax.parser import parse_module  # noqa: E402
from verifier import check  # noqa: E402
from verifier.gate import CommandImpl, ImplFailed, RefimplImpl  # noqa: E402


def implementations() -> dict[str, Callable[[str], str]]:
    impls: dict[str, Callable[[str], str]] = {"identity": lambda text: text}
    for mode in ("reference", "mlir19"):
        impls[f"refimpl {mode}"] = RefimplImpl(mode)
    # The seed's async `gpu.alloc` (token first) has no custom form today.
    impls["refimpl seed"] = CommandImpl((sys.executable, "-m", "refimpl", "--mode", "seed", "--mlir-print-op-generic"))
    for tool in ("mlir-opt-19", "mlir-opt-22"):
        if shutil.which(tool):
            impls[tool] = CommandImpl((tool, "-gpu-async-region"))
    return impls


def judge(text: str, impl: Callable[[str], str]) -> tuple[str, int, int]:
    """(verdict or failure, obligations, agreements) of one program."""
    module_in = parse_module(text, "<input>")
    try:
        out = impl(text)
    except ImplFailed:
        return "impl-failed", 0, 0
    try:
        module_out = parse_module(out, "<output>")
    except DiagnosticError:
        return "unparsable", 0, 0
    report = check(module_in, module_out)
    return report.verdict, sum(f.obligations for f in report.functions), sum(f.agreements for f in report.functions)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--markdown", action="store_true", help="print the per-program table as Markdown")
    args = ap.parse_args()
    files = sorted((ROOT / "verifier" / "corpus").glob("*.mlir")) + sorted((ROOT / "examples").glob("*.mlir"))
    impls = implementations()
    names = list(impls)
    counts = {name: Counter() for name in names}
    asked = Counter()
    agreed = Counter()
    rows = []
    for path in files:
        text = path.read_text()
        cells = []
        for name in names:
            verdict, obligations, agreements = judge(text, impls[name])
            counts[name][verdict] += 1
            asked[name] += obligations
            agreed[name] += agreements
            cells.append(verdict)
        rows.append((str(path.relative_to(ROOT)), cells))
    sep = " | " if args.markdown else "  "
    head = ["program", *names]
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for file, cells in rows:
            print("| " + " | ".join([f"`{file}`", *cells]) + " |")
    else:
        width = max(len(f) for f, _ in rows)
        print(sep.join([head[0].ljust(width), *(n.ljust(14) for n in names)]))
        for file, cells in rows:
            print(sep.join([file.ljust(width), *(c.ljust(14) for c in cells)]))
    print()
    for name in names:
        tally = ", ".join(f"{v} {n}" for v, n in sorted(counts[name].items()))
        print(f"{name}: {tally}; Z3 and reachability agree on {agreed[name]} of {asked[name]} obligations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
