"""Measure the project against mlir-opt-19 on a directory of real .mlir files.

    python bench/real_files.py DIR [--limit N] [--timeout S]

Each file is cut into chunks at `// -----` lines (as `--split-input-file`
does); each chunk is run through `mlir-opt-19` and `python -m spec print`
(custom form), and through `mlir-opt-19 -gpu-async-region` and
`python -m refimpl --mode mlir19`. Printed: chunks 19 accepts that we print
byte-identically, pass outputs identical to 19's, chunks 19 rejects that we
reject too (and with the same first message), and tracebacks. The files are
the user's: none of them is part of this repository.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

SPLIT = re.compile(rb"^// -----.*$", re.MULTILINE)
MLIR19 = "mlir-opt-19"


def _run(cmd: list[str], path: Path, timeout: float) -> tuple[int, bytes, bytes]:
    try:
        p = subprocess.run([*cmd, str(path)], capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return -1, b"", b"timeout"
    return p.returncode, p.stdout, p.stderr


def _first_error(stderr: bytes) -> str:
    """The first `error: ...` message, without its location (the chunk files differ)."""
    for line in stderr.decode("utf-8", "replace").splitlines():
        m = re.search(r"error: (.*)$", line)
        if m:
            return m.group(1).strip()
    return ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--limit", type=int, default=0, help="at most this many chunks (0: all)")
    ap.add_argument("--timeout", type=float, default=20.0)
    args = ap.parse_args(argv)
    py = sys.executable
    counts = dict.fromkeys(
        ("chunks", "accepted19", "print_same", "pass_same", "rejected19", "rejected_too", "same_first", "tracebacks"), 0
    )
    with tempfile.TemporaryDirectory() as tmp:
        for f in sorted(Path(args.dir).rglob("*.mlir")):
            for i, chunk in enumerate(SPLIT.split(f.read_bytes())):
                if args.limit and counts["chunks"] >= args.limit:
                    break
                path = Path(tmp) / f"{f.stem}.{i}.mlir"
                path.write_bytes(chunk)
                counts["chunks"] += 1
                rc19, out19, err19 = _run([MLIR19], path, args.timeout)
                rc, out, err = _run([py, "-m", "spec", "print"], path, args.timeout)
                if b"Traceback" in err or rc == 2:
                    counts["tracebacks"] += 1
                if rc19 == 0:
                    counts["accepted19"] += 1
                    counts["print_same"] += rc == 0 and out == out19
                    prc19, pout19, _ = _run([MLIR19, "-gpu-async-region"], path, args.timeout)
                    prc, pout, _ = _run([py, "-m", "refimpl", "--mode", "mlir19"], path, args.timeout)
                    counts["pass_same"] += prc == prc19 and pout == pout19
                else:
                    counts["rejected19"] += 1
                    if rc != 0:
                        counts["rejected_too"] += 1
                        counts["same_first"] += _first_error(err) == _first_error(err19)
    print("| measure | result |\n|---|---|")
    print(f"| chunks | {counts['chunks']} |")
    print(f"| 19 accepts, printed byte-identically | {counts['print_same']} of {counts['accepted19']} |")
    print(f"| `--mode mlir19` identical to `-gpu-async-region` | {counts['pass_same']} of {counts['accepted19']} |")
    print(
        f"| 19 rejects, rejected too | {counts['rejected_too']} of {counts['rejected19']} ({counts['same_first']} same first message) |"
    )
    print(f"| tracebacks / internal errors | {counts['tracebacks']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
