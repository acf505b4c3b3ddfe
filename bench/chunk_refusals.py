"""How many `// -----` chunks mlir-opt-19 accepts that we refuse, and why.

    .venv/bin/python bench/chunk_refusals.py [PATH ...] [--format text|json]

Each PATH is a `.mlir` file or a directory (searched recursively); the
default is `tests/wide/` (upstream-shaped inputs around the pass, written
for this purpose) plus `tests/corpus/` and `tests/sparse/`. Every chunk
mlir-opt-19 parses (with `-allow-unregistered-dialect` off, as a user runs
it) is parsed by `spec`; a refusal is counted under the op it blames (the
name in "custom op 'X' is unknown", or the op keyword at the error), else
under its message. Then the two printouts (custom and generic) and
`--mode mlir19` against `mlir-opt-19 -gpu-async-region` are compared on
the chunks both accept. Why: the surface the tool reads, measured on
real-shaped files, before and after an op is added.
Without mlir-opt-19 every chunk counts as accepted by it.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from refimpl import rewrite  # noqa: E402
from spec.diagnostics import DiagnosticError  # noqa: E402
from spec.syntax.parser import parse_module, split_input  # noqa: E402
from spec.syntax.printing import print_op  # noqa: E402

DEFAULT = [ROOT / "tests" / "wide", ROOT / "tests" / "corpus", ROOT / "tests" / "sparse"]
MLIR19 = shutil.which("mlir-opt-19")


def _files(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        out.extend(sorted(p.rglob("*.mlir")) if p.is_dir() else [p])
    return out


def _mlir19(text: str, *flags: str) -> tuple[int, str]:
    """(exit code, stdout) of mlir-opt-19 on `text`; (0, '') without it."""
    if MLIR19 is None:
        return 0, ""
    r = subprocess.run([MLIR19, *flags, "-"], input=text, capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout


def _blame(message: str, text: str, line: int, col: int) -> str:
    """The op a refusal is counted under."""
    m = re.search(r"custom op '([\w.$]+)' is unknown", message)
    if m:
        return m.group(1)
    m = re.search(r"'([\w.$]+)' op ", message)
    if m:
        return m.group(1)
    lines = text.split("\n")
    if 0 < line <= len(lines):
        src = lines[line - 1]
        words = re.findall(r"\b([a-z_]+\.[\w.]+)\b", src)
        if words:
            return f"{words[0]}: {message.split(chr(10), 1)[0][:50]}"
    return message.split("\n", 1)[0][:60]


def measure(paths: list[Path]) -> dict:
    """Counts over every chunk of every file under `paths`."""
    total = accepted19 = refused = 0
    by_op: collections.Counter[str] = collections.Counter()
    where: dict[str, list[str]] = collections.defaultdict(list)
    same = {"custom": 0, "generic": 0, "mlir19": 0}
    both = 0
    for f in _files(paths):
        for chunk, offset in split_input(f.read_text()):
            total += 1
            label = f"{f.relative_to(ROOT) if f.is_relative_to(ROOT) else f}:{offset + 1}"
            rc, out19 = _mlir19(chunk)
            if rc != 0:
                continue
            accepted19 += 1
            try:
                module = parse_module(chunk, str(f))
            except DiagnosticError as exc:
                refused += 1
                d = exc.diagnostics[0]
                op = _blame(d.message, chunk, d.loc.line, d.loc.col)
                by_op[op] += 1
                where[op].append(label)
                continue
            except Exception as exc:
                refused += 1
                by_op[f"internal: {type(exc).__name__}"] += 1
                where[f"internal: {type(exc).__name__}"].append(label)
                continue
            both += 1
            if MLIR19 is None:
                continue
            same["custom"] += print_op(module) + "\n" == out19
            same["generic"] += print_op(module, True) + "\n" == _mlir19(chunk, "--mlir-print-op-generic")[1]
            result = rewrite(parse_module(chunk, str(f)), "mlir19")
            rc_pass, out_pass = _mlir19(chunk, "-gpu-async-region")
            if result.diagnostics:
                same["mlir19"] += rc_pass != 0
            else:
                same["mlir19"] += rc_pass == 0 and print_op(result.module) + "\n" == out_pass
    return {
        "chunks": total,
        "accepted_by_mlir_opt_19": accepted19,
        "refused_by_us": refused,
        "refused_by_op": dict(by_op.most_common()),
        "where": {k: v for k, v in where.items()},
        "both_accept": both,
        "identical": same,
        "mlir_opt_19": MLIR19 is not None,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog="example: bench/chunk_refusals.py tests/wide"
    )
    ap.add_argument("paths", nargs="*", type=Path)
    ap.add_argument("--format", choices=("text", "json"), default="text")
    args = ap.parse_args(argv)
    r = measure(args.paths or DEFAULT)
    if args.format == "json":
        print(json.dumps(r, indent=2))
        return 0
    print(
        f"chunks {r['chunks']}, accepted by mlir-opt-19 {r['accepted_by_mlir_opt_19']}, refused by us {r['refused_by_us']}"
    )
    for op, n in r["refused_by_op"].items():
        print(f"  {n:3d}  {op}  ({', '.join(r['where'][op][:3])})")
    ident = r["identical"]
    print(
        f"both accept {r['both_accept']}: custom print identical {ident['custom']}, generic {ident['generic']}, --mode mlir19 pass {ident['mlir19']}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
