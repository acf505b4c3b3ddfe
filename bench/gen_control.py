"""Host programs with control flow, for the compositional proof's benchmarks.

    python bench/gen_control.py sequence N > file.mlir     # N scf.for in sequence
    python bench/gen_control.py nested D > file.mlir       # D scf.for nested
    python bench/gen_control.py mixed N [--seed S] [--depth 6] [--execute-depth K] > file.mlir

Every loop body of `sequence` and `nested` holds a `gpu.memset` and a
`func.call` (a host effect the memset must stay ordered with). `mixed`
writes a function with about N GPU ops (`gpu.launch_func`, `gpu.memcpy`,
`gpu.memset`) spread over `scf.for`, `scf.if`, `scf.while`,
`async.execute` bodies and `cf` loops, nested up to `--depth`, with host
loads, stores and calls between them. `--execute-depth K` nests at most K
`async.execute` bodies inside each other (the other region ops take the
place of a deeper one): `mlir-opt-19` and `-22` crash on three nested
bodies of some shapes (`docs/upstream-bugs/crashes/01-nested-execute-double-free.md`),
and 2 keeps the program one they rewrite. Same arguments, same text;
`mlir-opt-19` accepts every one.
"""

from __future__ import annotations

import argparse
import random
import sys

T = "memref<1024xf32>"
HEAD = [
    "module attributes {gpu.container_module} {",
    "  gpu.module @kernels {",
    f"    gpu.func @scale(%buf: {T}, %factor: f32) kernel {{",
    "      gpu.return",
    "    }",
    "  }",
    "  func.func private @g()",
    f"  func.func private @use({T})",
]
ARGS = f"%m: {T}, %h: {T}, %n: index, %v: f32, %p: i1"
CONSTS = ["    %c0 = arith.constant 0 : index", "    %c1 = arith.constant 1 : index"]


def _close(body: list[str]) -> str:
    return "\n".join([*HEAD, f"  func.func @f({ARGS}) {{", *CONSTS, *body, "    return", "  }", "}"]) + "\n"


def sequence(n: int) -> str:
    """`n` loops in sequence, each around a memset and a call."""
    body: list[str] = []
    for i in range(n):
        body += [
            f"    scf.for %i{i} = %c0 to %n step %c1 {{",
            f"      gpu.memset %m, %v : {T}, f32",
            "      func.call @g() : () -> ()",
            "    }",
        ]
    return _close(body)


def nested(depth: int) -> str:
    """`depth` loops nested around a memset and a call."""
    body: list[str] = []
    ind = "    "
    for i in range(depth):
        body.append(f"{ind}scf.for %i{i} = %c0 to %n step %c1 {{")
        ind += "  "
    body += [f"{ind}gpu.memset %m, %v : {T}, f32", f"{ind}func.call @g() : () -> ()"]
    for _ in range(depth):
        ind = ind[:-2]
        body.append(f"{ind}}}")
    return _close(body)


class _Mixed:
    """The state of one `mixed` program: the random source, the GPU ops
    still to write, fresh names."""

    def __init__(self, n: int, seed: int, depth: int, execute_depth: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.left = n
        self.depth = depth
        self.execute_depth = execute_depth
        self.executes = 0
        """`async.execute` bodies around the op being written."""
        self.counter = 0

    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"%{stem}{self.counter}"

    def gpu(self, ind: str) -> list[str]:
        self.left -= 1
        roll = self.rng.random()
        if roll < 0.4:
            grid = "blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)"
            return [f"{ind}gpu.launch_func @kernels::@scale {grid} args(%m : {T}, %v : f32)"]
        if roll < 0.7:
            return [f"{ind}gpu.memcpy %m, %h : {T}, {T}"]
        return [f"{ind}gpu.memset %m, %v : {T}, f32"]

    def host(self, ind: str) -> list[str]:
        roll = self.rng.random()
        if roll < 0.4:
            x = self.fresh("x")
            return [f"{ind}{x} = memref.load %h[%c0] : {T}", f"{ind}memref.store {x}, %h[%c1] : {T}"]
        if roll < 0.7:
            return [f"{ind}func.call @use(%h) : ({T}) -> ()"]
        return [f"{ind}func.call @g() : () -> ()"]

    def block(self, ind: str, level: int, size: int) -> list[str]:
        """About `size` GPU ops (fewer once the program's are spent)."""
        out: list[str] = []
        goal = self.left - size
        while self.left > max(goal, 0):
            roll = self.rng.random()
            inner = max(1, min(self.left - max(goal, 0), self.rng.randint(2, 12)))
            if level < self.depth and roll < 0.35:
                out += self.region(ind, level, inner)
            else:
                out += self.gpu(ind)
                if self.rng.random() < 0.6:
                    out += self.host(ind)
        return out

    def region(self, ind: str, level: int, size: int) -> list[str]:
        kind = self.rng.choice(("for", "for", "if", "while", "execute"))
        if kind == "execute" and self.execute_depth is not None and self.executes >= self.execute_depth:
            kind = "for"
        deeper = ind + "  "
        if kind == "for":
            i = self.fresh("i")
            return [f"{ind}scf.for {i} = %c0 to %n step %c1 {{", *self.block(deeper, level + 1, size), f"{ind}}}"]
        if kind == "if":
            then = self.block(deeper, level + 1, max(1, size // 2))
            other = self.block(deeper, level + 1, max(1, size - size // 2))
            return [f"{ind}scf.if %p {{", *then, f"{ind}}} else {{", *other, f"{ind}}}"]
        if kind == "while":
            j, k, c, r = self.fresh("j"), self.fresh("k"), self.fresh("c"), self.fresh("r")
            return [
                f"{ind}{r} = scf.while ({j} = %c0) : (index) -> index {{",
                f"{deeper}{c} = arith.cmpi slt, {j}, %n : index",
                f"{deeper}scf.condition({c}) {j} : index",
                f"{ind}}} do {{",
                f"{ind}^bb0({k}: index):",
                *self.block(deeper, level + 1, size),
                f"{deeper}{k}n = arith.addi {k}, %c1 : index",
                f"{deeper}scf.yield {k}n : index",
                f"{ind}}}",
            ]
        t = self.fresh("t")
        self.executes += 1
        body = self.block(deeper, level + 1, size)
        self.executes -= 1
        return [
            f"{ind}{t} = async.execute {{",
            *body,
            f"{deeper}async.yield",
            f"{ind}}}",
            f"{ind}async.await {t} : !async.token",
        ]


def mixed(n: int, seed: int = 0, depth: int = 6, cf_every: int = 0, execute_depth: int | None = None) -> str:
    """About `n` GPU ops in `scf` regions, `async.execute` bodies and, one in
    every `cf_every` top-level pieces (0: none), a `cf` loop; at most
    `execute_depth` bodies nested (None: up to `depth`)."""
    g = _Mixed(n, seed, depth, execute_depth)
    body: list[str] = []
    blocks = 0
    while g.left > 0:
        piece = g.rng.randint(5, 40)
        if cf_every and g.rng.randrange(cf_every) == 0:
            blocks += 1
            i, i2, c = f"%l{blocks}", f"%l{blocks}n", f"%lc{blocks}"
            body += [
                f"    cf.br ^h{blocks}(%c0 : index)",
                f"  ^h{blocks}({i}: index):",
                f"    {c} = arith.cmpi slt, {i}, %n : index",
                f"    cf.cond_br {c}, ^b{blocks}, ^x{blocks}",
                f"  ^b{blocks}:",
                *g.block("    ", 1, piece),
                f"    {i2} = arith.addi {i}, %c1 : index",
                f"    cf.br ^h{blocks}({i2} : index)",
                f"  ^x{blocks}:",
            ]
        else:
            body += g.region("    ", 1, piece)
    return _close(body)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("family", choices=("sequence", "nested", "mixed"))
    p.add_argument("n", type=int, help="loops (sequence), depth (nested) or GPU ops (mixed)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--depth", type=int, default=6, help="mixed: deepest nesting")
    p.add_argument("--cf-every", type=int, default=0, help="mixed: one top-level piece in this many is a cf loop")
    p.add_argument("--execute-depth", type=int, default=None, help="mixed: async.execute bodies nested at most")
    a = p.parse_args(argv)
    if a.family == "sequence":
        sys.stdout.write(sequence(a.n))
    elif a.family == "nested":
        sys.stdout.write(nested(a.n))
    else:
        sys.stdout.write(mixed(a.n, a.seed, a.depth, a.cf_every, a.execute_depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
