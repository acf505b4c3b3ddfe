"""Large valid programs for benchmarks and scale tests.

    python bench/gen_programs.py N [--seed S] > file.mlir

`generate(n_gpu_ops, seed)` writes one module (`gpu.container_module`, a
`gpu.module` declaring the kernels) whose function `@main` is straight-line
code: `n_gpu_ops` synchronous GPU ops (`gpu.launch_func`, `gpu.memcpy`,
`gpu.memset`, `gpu.alloc`/`gpu.dealloc` pairs, `gpu.wait`), mixed with pure
host ops (`arith`, `memref.dim`) and effectful ones (`memref.load`/`store`,
`func.call`), every use defined before it. The same (n, seed) always gives
the same text, and mlir-opt-19 accepts it.
"""

from __future__ import annotations

import argparse
import random
import sys

N_BUFFERS = 4
"""Device buffers passed in as arguments (`%dev0..`), plus one host buffer."""
SIZE = 1024


def _kernels() -> list[str]:
    return [
        "  gpu.module @kernels {",
        f"    gpu.func @scale(%buf: memref<{SIZE}xf32>, %factor: f32) kernel {{",
        "      gpu.return",
        "    }",
        f"    gpu.func @axpy(%x: memref<{SIZE}xf32>, %y: memref<{SIZE}xf32>) kernel {{",
        "      gpu.return",
        "    }",
        "    gpu.func @fill() kernel {",
        "      gpu.return",
        "    }",
        "  }",
    ]


def generate(n_gpu_ops: int, seed: int = 0) -> str:
    """A module with `n_gpu_ops` GPU ops in one straight-line function."""
    rng = random.Random(seed)
    t = f"memref<{SIZE}xf32>"
    lines = ["module attributes {gpu.container_module} {", *_kernels()]
    lines.append(f"  func.func private @host_effect({t})")
    args = ", ".join(f"%dev{i}: {t}" for i in range(N_BUFFERS))
    lines.append(f"  func.func @main({args}, %host: {t}, %n: index, %f: f32) {{")
    body: list[str] = [
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        f"    %c{SIZE} = arith.constant {SIZE} : index",
    ]
    counter = 0
    index_values = ["%c0", "%c1", "%n"]
    buffers = [f"%dev{i}" for i in range(N_BUFFERS)]
    live_allocs: list[str] = []

    def fresh() -> str:
        nonlocal counter
        counter += 1
        return f"%v{counter}"

    gpu_done = 0
    while gpu_done < n_gpu_ops:
        # Host ops between GPU ops: mostly pure, some effectful.
        for _ in range(rng.randint(0, 3)):
            roll = rng.random()
            if roll < 0.45:
                v = fresh()
                a, b = rng.choice(index_values), rng.choice(index_values)
                op = rng.choice(("arith.addi", "arith.muli", "arith.subi", "arith.maxui"))
                body.append(f"    {v} = {op} {a}, {b} : index")
                index_values.append(v)
            elif roll < 0.55:
                v = fresh()
                body.append(f"    {v} = memref.dim {rng.choice(buffers)}, %c0 : {t}")
                index_values.append(v)
            elif roll < 0.65:
                v = fresh()
                body.append(f"    {v} = arith.cmpi ult, {rng.choice(index_values)}, %c{SIZE} : index")
            elif roll < 0.8:
                v = fresh()
                body.append(f"    {v} = memref.load %host[%c0] : {t}")
                body.append(f"    memref.store {v}, %host[%c1] : {t}")
            else:
                body.append(f"    call @host_effect(%host) : ({t}) -> ()")
            # Keep the pool of index values small so uses stay local.
            if len(index_values) > 16:
                del index_values[3:-8]
        roll = rng.random()
        buf = rng.choice(buffers + live_allocs)
        if roll < 0.35:
            kernel = rng.choice(("scale", "axpy", "fill"))
            grid = f"blocks in (%c1, %c1, %c1) threads in (%c{SIZE}, %c1, %c1)"
            if kernel == "scale":
                extra = f" args({buf} : {t}, %f : f32)"
            elif kernel == "axpy":
                extra = f" args({buf} : {t}, {rng.choice(buffers)} : {t})"
            else:
                extra = ""
            body.append(f"    gpu.launch_func @kernels::@{kernel} {grid}{extra}")
        elif roll < 0.55:
            src = rng.choice(buffers + ["%host"])
            body.append(f"    gpu.memcpy {buf}, {src} : {t}, {t}")
        elif roll < 0.7:
            body.append(f"    gpu.memset {buf}, %f : {t}, f32")
        elif roll < 0.82 and len(live_allocs) < 8:
            v = fresh()
            body.append(f"    {v} = gpu.alloc () : {t}")
            live_allocs.append(v)
        elif roll < 0.92 and live_allocs:
            v = live_allocs.pop(rng.randrange(len(live_allocs)))
            body.append(f"    gpu.dealloc {v} : {t}")
        else:
            body.append("    gpu.wait")
        gpu_done += 1
    body.append("    return")
    lines.extend(body)
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, help="number of GPU ops")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    sys.stdout.write(generate(args.n, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
