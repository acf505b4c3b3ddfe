"""Build the bench programs of `bench_verify.kinds` directly as IR (input
and a correct async rewrite), so the verifier can be timed at sizes where
parsing the text is the bottleneck. Run as a script: one `check` in this
process, its phases and peak memory as JSON on stdout.

    python bench/verify_ir.py N [SEED]

The rewrite is built the way the pass would write it: each GPU op async,
chained on the previous token from a fresh `gpu.wait async`, and a blocking
`gpu.wait` on the chain before each host effect and before the return.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_verify import HEAD, LINES, kinds

from spec import gpu_async
from spec.ir import Location, Operation
from spec.syntax.parser import parse_module

TEMPLATE = (
    HEAD
    + "".join(LINES[k].format(i=0) for k in ("launch", "copy", "set", "alloc", "store", "call"))
    + "    return\n  }\n}\n"
)


def _clone(op: Operation, loc: Location) -> Operation:
    return Operation(op.name, list(op.operands), [], dict(op.properties), dict(op.attributes), loc=loc)


def build(ks: list[str], file: str, rewrite: bool) -> Operation:
    module = parse_module(TEMPLATE, file)
    func = next(o for o in module.walk() if o.name == "func.func" and o.regions and o.regions[0].blocks)
    block = func.regions[0].blocks[0]
    consts = [o for o in block.ops if o.name == "arith.constant"]
    tmpl = {o.name: o for o in block.ops}
    ret = block.ops[-1]
    block.ops = []
    for c in consts:
        block.append(c)
    line = 20
    chain = None

    def add(op: Operation) -> Operation:
        nonlocal line
        line += 1
        op.loc = Location(file, line, 5)
        return block.append(op)

    def gpu(op: Operation) -> None:
        nonlocal chain
        if rewrite:
            if chain is None:
                chain = gpu_async.async_token(add(gpu_async.new_wait(None, [], True)))
            gpu_async.set_async_deps(op, [chain])
            chain = gpu_async.make_async(op)
        add(op)

    def sync_point() -> None:
        nonlocal chain
        if rewrite and chain is not None:
            add(gpu_async.new_wait(None, [chain], False))
            chain = None

    name_of = {
        "launch": "gpu.launch_func",
        "copy": "gpu.memcpy",
        "set": "gpu.memset",
        "store": "memref.store",
        "call": "func.call",
    }
    for k in ks:
        if k == "alloc":
            alloc = _clone(tmpl["gpu.alloc"], Location(file, 0, 0))
            mem = alloc.add_result(tmpl["gpu.alloc"].results[0].type)
            gpu(alloc)
            gpu(Operation("gpu.dealloc", [mem], [], {}, {}, loc=Location(file, 0, 0)))
        elif k in ("store", "call"):
            sync_point()
            add(_clone(tmpl[name_of[k]], Location(file, 0, 0)))
        else:
            gpu(_clone(tmpl[name_of[k]], Location(file, 0, 0)))
    sync_point()
    add(ret)
    return module


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("n", type=int, help="GPU ops in the program")
    ap.add_argument("seed", nargs="?", type=int, default=None, help="the generator's seed (default: N)")
    args = ap.parse_args()
    n = args.n
    seed = args.seed if args.seed is not None else n
    ks = kinds(n, seed)
    t0 = time.perf_counter()
    import verifier

    a = build(ks, "in.mlir", rewrite=False)
    b = build(ks, "out.mlir", rewrite=True)
    t_build = time.perf_counter() - t0
    t0 = time.perf_counter()
    r = verifier.check(a, b)
    t_check = time.perf_counter() - t0
    f = r.functions[0]
    print(
        json.dumps(
            {
                "n": n,
                "verdict": r.verdict,
                "obligations": f.obligations,
                "agreements": f.agreements,
                "z3_queries": f.z3_checks,
                "build": t_build,
                "check": t_check,
                **r.timings,
                "maxrss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            }
        )
    )


if __name__ == "__main__":
    main()
