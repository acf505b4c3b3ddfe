"""Functions for the schedule explorer: a body wrapped in a module with two
kernels, and exploration on the default arguments."""

from __future__ import annotations

from spec.semantics.interp import default_args
from spec.semantics.schedule import explore
from spec.syntax.parser import parse_module

HEADER = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @scale(%buf: memref<4xf32>) kernel {
      gpu.return
    }
    gpu.func @two(%a: memref<4xf32>, %b: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func private @consume(memref<4xf32>)
"""


LAUNCH = "blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)"


def func_of(body: str, sig: str = "(%dev: memref<4xf32>, %host: memref<4xf32>)", name: str = "f"):
    text = (
        HEADER
        + f"  func.func @{name}{sig} {{\n    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n{body}\n  }}\n}}\n"
    )
    text = text.replace("LAUNCH", LAUNCH)
    module = parse_module(text, "t.mlir")
    return next(
        op for op in module.walk() if op.name == "func.func" and str(op.properties["sym_name"]).strip('"') == name
    )


def explore_default(func, **kw):
    return explore(func, default_args(func), **kw)
