"""Hand-written rewrites: the module around a function body, the launch
they share, and checks that demand more than a verdict (both oracles agree,
the identity verifies, the one violation is the expected pair)."""

from __future__ import annotations

from spec.syntax.parser import parse_module
from tests.support.path_reference import check_path_by_path
from verifier import check
from verifier.output.report import BOUNDED, REFUTED, UNKNOWN, VERIFIED, Report

HEAD = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(f32)
  func.func private @consume(memref<4xf32>)
"""


LAUNCH = "@k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)"


def module(body: str) -> str:
    return HEAD + body + "}\n"


def run(inp: str, out: str, **options: object) -> Report:
    r = check(parse_module(inp, "in.mlir"), parse_module(out, "out.mlir"), **options)  # type: ignore[arg-type]
    for f in r.functions:
        if f.verdict in (VERIFIED, BOUNDED, REFUTED) and not any(
            v.kind in ("mismatch", "ill-formed") for v in f.violations
        ):
            assert f.agreements == f.obligations, "Z3 and reachability disagree"
    # The identity rewrite is never refuted (bounded where loops carry tokens).
    ident = check(parse_module(inp, "in.mlir"), parse_module(inp, "in.mlir"))
    assert ident.verdict in (VERIFIED, BOUNDED, UNKNOWN), ident.text()
    return r


def pair(r: Report, end_too: bool = False) -> tuple[str, str, str, int, int]:
    """(kind, first op, second op, first input line, second output line) of
    the only violation; with `end_too`, there must be a `before-end` one
    besides it (GPU work the program may end before)."""
    vs = [v for f in r.functions for v in f.violations]
    assert any(v.kind == "before-end" for v in vs) == end_too, r.text()
    vs = [v for v in vs if v.kind != "before-end"]
    assert len(vs) == 1, r.text()
    v = vs[0]
    assert v.first.input_loc is not None and v.second.output_loc is not None
    return v.kind, v.first.op, v.second.op, v.first.input_loc.line, v.second.output_loc.line


SYNC = module(
    """  func.func @f(%m: memref<4xf32>, %h: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func """
    + LAUNCH
    + """
    gpu.launch_func """
    + LAUNCH
    + """
    gpu.memcpy %h, %m : memref<4xf32>, memref<4xf32>
    call @consume(%h) : (memref<4xf32>) -> ()
    return
  }
"""
)
# Lines of SYNC: 11 first launch, 12 second launch, 13 memcpy, 14 call.


GOOD = module(
    """  func.func @f(%m: memref<4xf32>, %h: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %0 = gpu.wait async
    %1 = gpu.launch_func async [%0] """
    + LAUNCH
    + """
    %2 = gpu.launch_func async [%1] """
    + LAUNCH
    + """
    %3 = gpu.memcpy async [%2] %h, %m : memref<4xf32>, memref<4xf32>
    gpu.wait [%3]
    call @consume(%h) : (memref<4xf32>) -> ()
    return
  }
"""
)
# Lines of GOOD: 14 memcpy, 15 wait, 16 call.


def summary(r: Report) -> list[tuple]:
    return [
        (
            f.name,
            f.verdict,
            f.bounded if f.verdict in (VERIFIED, BOUNDED) else None,
            sorted((v.kind, str(v.first.input_loc), str(v.second.input_loc), tuple(v.path)) for v in f.violations),
        )
        for f in r.functions
    ]


def both(inp: str, out: str) -> tuple[Report, Report]:
    # The whole-function guarded proof against the path-by-path one.
    g = check(parse_module(inp, "in.mlir"), parse_module(out, "out.mlir"), compose=False)
    p = check_path_by_path(parse_module(inp, "in.mlir"), parse_module(out, "out.mlir"))
    return g, p
