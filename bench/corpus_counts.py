"""The real-world-shaped corpus (`tests/wide/`) against mlir-opt-19 and -22,
chunk by chunk: identical / rejected as it rejects / other, for the custom
print, the generic print and the pass (`--mode mlir19` against
`-gpu-async-region`); and the verifier's verdicts on each chunk's rewrite.

    .venv/bin/python bench/corpus_counts.py [PATH ...] [--no-verify] [--format text|json]

"identical": both accept and the bytes are equal; "rejected as it
rejects": both reject with the same first error line (its `FILE:L:C:`
prefix aside); "other": anything else (one accepts, or different bytes or
messages). mlir-opt-22 prints some constructs differently from 19 (docs/subset.md,
Differences between mlir-opt-19 and mlir-opt-22): those chunks count as
"other" against 22.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from refimpl import rewrite  # noqa: E402
from spec.diagnostics import DiagnosticError  # noqa: E402
from spec.syntax.parser import parse_module, split_input  # noqa: E402
from spec.syntax.printing import print_op  # noqa: E402

TOOLS = {"mlir-opt-19": shutil.which("mlir-opt-19"), "mlir-opt-22": shutil.which("mlir-opt-22")}


def _run(tool: str, text: str, *flags: str) -> tuple[int, str, str]:
    r = subprocess.run([tool, *flags, "-"], input=text, capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout, r.stderr


def _first_error(stderr: str) -> str:
    for line in stderr.splitlines():
        m = re.match(r"[^:]*:\d+:\d+: error: (.*)", line)
        if m:
            return m.group(1)
    return stderr.split("\n", 1)[0]


def _ours(text: str, mode: str) -> tuple[bool, str]:
    try:
        module = parse_module(text, "<stdin>")
    except DiagnosticError as exc:
        return False, exc.diagnostics[0].message
    if mode == "pass":
        result = rewrite(module, "mlir19")
        if result.diagnostics:
            return False, result.diagnostics[0].message
        return True, print_op(result.module) + "\n"
    return True, print_op(module, mode == "generic") + "\n"


def _verdict(text: str) -> str:
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
    r = subprocess.run(
        [sys.executable, "-m", "verifier", "check", f.name, "--mode", "mlir19"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    Path(f.name).unlink()
    return {0: "verified", 1: "refuted", 3: "unknown"}.get(r.returncode, f"exit {r.returncode}")


def measure(paths: list[Path], verify: bool) -> dict:
    files = [f for p in paths for f in (sorted(p.glob("*.mlir")) if p.is_dir() else [p])]
    chunks = [("\n" * off + c, f"{f.name}:{off + 1}") for f in files for c, off in split_input(f.read_text())]
    out: dict = {"chunks": len(chunks), "tools": {}}
    flags = {"custom": (), "generic": ("--mlir-print-op-generic",), "pass": ("-gpu-async-region",)}
    for tool, path in TOOLS.items():
        if path is None:
            continue
        counts = {mode: collections.Counter() for mode in flags}
        others: dict[str, list[str]] = collections.defaultdict(list)
        for text, label in chunks:
            for mode, fl in flags.items():
                rc, stdout, stderr = _run(path, text, *fl)
                ok, ours = _ours(text, mode)
                if ok and rc == 0 and ours == stdout:
                    counts[mode]["identical"] += 1
                elif not ok and rc != 0 and _first_error(stderr) == ours:
                    counts[mode]["rejected as it rejects"] += 1
                else:
                    counts[mode]["other"] += 1
                    others[mode].append(label)
        out["tools"][tool] = {m: dict(c) for m, c in counts.items()} | {"other_chunks": dict(others)}
    if verify:
        out["verdicts"] = dict(collections.Counter(_verdict(text) for text, _ in chunks))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog="example: bench/corpus_counts.py tests/wide --no-verify"
    )
    ap.add_argument("paths", nargs="*", type=Path)
    ap.add_argument("--no-verify", action="store_true", help="leave out the verifier's verdicts")
    ap.add_argument("--format", choices=("text", "json"), default="text")
    args = ap.parse_args(argv)
    r = measure(args.paths or [ROOT / "tests" / "wide"], not args.no_verify)
    if args.format == "json":
        print(json.dumps(r, indent=2))
        return 0
    print(f"chunks {r['chunks']}")
    for tool, modes in r["tools"].items():
        for mode in ("custom", "generic", "pass"):
            c = modes[mode]
            print(
                f"  {tool} {mode:8s} identical {c.get('identical', 0)}, rejected as it rejects {c.get('rejected as it rejects', 0)}, other {c.get('other', 0)}  {' '.join(modes['other_chunks'].get(mode, [])[:6])}"
            )
    if "verdicts" in r:
        print("verifier (--mode mlir19): " + ", ".join(f"{k} {v}" for k, v in sorted(r["verdicts"].items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
