"""What the reliability tests share: running the tools as a user does, and
the programs that take the verifier long."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SMALL = """module {
  func.func @f(%m: memref<?xf32>, %v: f32) {
    gpu.memset %m, %v : memref<?xf32>, f32
    return
  }
}
"""
"""A program the verifier decides in well under a second."""


def nested_loops(n: int) -> str:
    """`n` nested `scf.for` around a `gpu.memset` and a `func.call`: each
    loop is proved apart, in about a second even at 10."""
    lines = [
        "module {",
        "  func.func private @g()",
        "  func.func @f(%m: memref<?xf32>, %n: index, %v: f32) {",
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
    ]
    ind = "    "
    for i in range(n):
        lines.append(f"{ind}scf.for %i{i} = %c0 to %n step %c1 {{")
        ind += "  "
    lines += [f"{ind}gpu.memset %m, %v : memref<?xf32>, f32", f"{ind}func.call @g() : () -> ()"]
    for _ in range(n):
        ind = ind[:-2]
        lines.append(f"{ind}}}")
    lines += ["    return", "  }", "}"]
    return "\n".join(lines) + "\n"


def carried_loops(n: int) -> str:
    """`n` nested `scf.for` that carry a `!gpu.async.token` through their
    iterations around a `gpu.memset` and a `func.call`: no loop can be proved
    apart (a token crosses every boundary), so the proof unrolls them all: at
    7, 12,545 obligations, minutes of Z3 without a budget."""
    lines = [
        "module {",
        "  func.func private @g()",
        "  func.func @f(%m: memref<?xf32>, %n: index, %v: f32) {",
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        "    %t = gpu.wait async",
    ]
    ind, prev = "    ", "%t"
    for i in range(n):
        lines.append(
            f"{ind}%r{i} = scf.for %i{i} = %c0 to %n step %c1 iter_args(%a{i} = {prev}) -> (!gpu.async.token) {{"
        )
        prev, ind = f"%a{i}", ind + "  "
    lines += [
        f"{ind}%x = gpu.memset async [{prev}] %m, %v : memref<?xf32>, f32",
        f"{ind}func.call @g() : () -> ()",
        f"{ind}scf.yield %x : !gpu.async.token",
    ]
    for i in reversed(range(n)):
        ind = ind[:-2]
        lines.append(f"{ind}}}")
        if i > 0:
            lines.append(f"{ind}scf.yield %r{i} : !gpu.async.token")
    lines += ["    gpu.wait [%r0]", "    return", "  }", "}"]
    return "\n".join(lines) + "\n"


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    seconds: float


def env(**changes: str | None) -> dict[str, str]:
    """The environment with `changes` (None removes a variable); the
    checkout importable whatever the working directory."""
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    for k, v in changes.items():
        if v is None:
            e.pop(k, None)
        else:
            e[k] = v
    return e


def tool(
    *args: str,
    cwd: Path | str | None = None,
    environ: dict[str, str] | None = None,
    timeout: float = 120,
    python: tuple[str, ...] = (),
    stdin: str | None = None,
) -> Run:
    """`python [python...] -m verifier ARGS` (or `-m refimpl` when args[0] is
    `refimpl`) as a user runs it; bytes decoded as UTF-8 with replacement."""
    module = "refimpl" if args and args[0] == "refimpl" else "verifier"
    rest = args[1:] if module == "refimpl" else args
    t0 = time.monotonic()
    p = subprocess.run(
        [sys.executable, *python, "-m", module, *rest],
        cwd=cwd,
        env=environ if environ is not None else env(),
        input=stdin.encode() if stdin is not None else None,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        timeout=timeout,
    )
    return Run(
        p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), time.monotonic() - t0
    )


def no_traceback(r: Run) -> None:
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout, r.stderr
