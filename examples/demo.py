"""`make demo`: what the tool is for, in three acts.

1. The reference pass rewrites `examples/demo.mlir` (two kernels and a copy,
   written synchronously) and the verifier proves that the rewrite keeps
   every GPU op and host effect ordered (exit 0, `verified`).
2. A wrong rewrite, `examples/demo-late-wait.mlir` (the right one,
   hand-edited: the blocking `gpu.wait` on the copy's token moved below the
   host call), is refuted with a counterexample schedule (exit 1), replayed
   in the executable semantics, where the call reads a different `%host`
   than the input's (the race, in the values), and the schedule is drawn as
   a timeline (`--svg`).
3. When `mlir-opt-19` is installed: upstream's own output on
   `examples/demo-upstream.mlir` (an `async.execute` whose value is awaited
   before its token) is refuted, and the reference mode's output of the same
   program is verified.

Each step is run as a user would type it, its command echoed; a refuted
verdict is the expected outcome of acts 2 and 3, so the script checks every
exit code against the one expected and fails (exit 1) only when one differs.

    python examples/demo.py [--python PYTHON] [--out DIR]

Example: `.venv/bin/python examples/demo.py --out build/demo`.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MLIR_OPT = "mlir-opt-19"


def _run(cmd: list[str], expect: int, stdout_file: Path | None = None) -> bool:
    """Run `cmd` from the repository root, echo it, show its output; True
    iff it exits with `expect`."""
    shown = " ".join(shlex.quote(c) for c in cmd) + (f" > {_rel(stdout_file)}" if stdout_file else "")
    print(f"$ {shown}", flush=True)
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if stdout_file is not None:
        stdout_file.write_text(res.stdout, encoding="utf-8")
    else:
        sys.stdout.write(res.stdout)
    sys.stdout.write(res.stderr)
    ok = res.returncode == expect
    print(f"[exit {res.returncode}{'' if ok else f', expected {expect}: UNEXPECTED'}]\n", flush=True)
    return ok


def _rel(path: Path) -> Path:
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def _title(text: str) -> None:
    print(f"== {text}", flush=True)


WRONG = "examples/demo-late-wait.mlir"
"""Act 2's wrong rewrite: the reference's, with the blocking wait moved below the call."""


def _tool(py: str, script: str, module: str) -> list[str]:
    """The installed command `script` beside the interpreter `py` (as a
    user runs it), else `py -m module`."""
    path = Path(py).absolute().parent / script
    return [str(_rel(path))] if path.exists() else [py, "-m", module]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python examples/demo.py",
        description="Show the rewrite and its proof, a wrong rewrite refuted, and upstream's bug refuted.",
        epilog="example: .venv/bin/python examples/demo.py --out build/demo",
    )
    ap.add_argument("--python", default=sys.executable, help="interpreter that has the project installed")
    ap.add_argument("--out", default="build/demo", help="directory for the rewrites and pictures (default build/demo)")
    args = ap.parse_args(argv)
    py = args.python
    opt = _tool(py, "gpu-async-opt", "refimpl")
    verify = _tool(py, "gpu-async-verify", "verifier")
    out = (ROOT / args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if out.is_relative_to(ROOT):
        out = out.relative_to(ROOT)  # shorter commands and diagnostics (they run from ROOT)
    ok = True

    _title("1. the rewrite and its proof: examples/demo.mlir")
    print((ROOT / "examples/demo.mlir").read_text(encoding="utf-8"))
    ok &= _run([*opt, "examples/demo.mlir"], 0)
    ok &= _run([*verify, "check", "examples/demo.mlir"], 0)

    _title("2. a wrong rewrite: examples/demo-late-wait.mlir waits for the copy only after the call")
    right = out / "demo-right.mlir"
    ok &= _run([*opt, "examples/demo.mlir"], 0, ROOT / right)
    ok &= _run(["diff", "-u", "--label", str(right), "--label", WRONG, str(right), WRONG], 1)
    svg = out / "demo-late-wait.svg"
    # The replay in the last notes shows the race in the values: the call
    # reads %host while the copy into it is still running.
    ok &= _run([*verify, "check", "examples/demo.mlir", "--after", WRONG, "--svg", str(svg)], 1)
    print(f"the counterexample as a timeline: {svg} (open it in a browser)\n")

    _title("3. upstream's own output: examples/demo-upstream.mlir")
    if shutil.which(MLIR_OPT) is None:
        print(f"{MLIR_OPT} is not installed: skipped (apt-get install mlir-19-tools)\n")
    else:
        print((ROOT / "examples/demo-upstream.mlir").read_text(encoding="utf-8"))
        up = out / "demo-upstream.mlir19.mlir"
        ok &= _run([MLIR_OPT, "-gpu-async-region", "examples/demo-upstream.mlir"], 0, ROOT / up)
        ok &= _run(
            [
                *verify,
                "check",
                "examples/demo-upstream.mlir",
                "--after",
                str(up),
                "--svg",
                str(out / "demo-upstream.svg"),
            ],
            1,
        )
        print("the reference pass keeps the body's wait (docs/refimpl.md, deviation 1):\n")
        ok &= _run([*opt, "--mode", "reference", "examples/demo-upstream.mlir"], 0)
        ok &= _run([*verify, "check", "examples/demo-upstream.mlir", "--mode", "reference"], 0)

    print("demo: every exit code as expected" if ok else "demo: SOME EXIT CODE WAS NOT THE EXPECTED ONE")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
