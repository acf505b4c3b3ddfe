"""A body that fails passes the error on: the judge must not call the
upstream form of an `async.execute` dependency wrong.

The async runtime does not run a body one of whose dependencies
(`async.execute [%t]`) or operands (`(%v as %a: ...)`) is in the error
state: it sets the body's results to error, and whoever awaits them sees
it. So an execute that depends on a failed body through its token and one
that depends on it through a value the body yields behave the same (neither
runs), which is the rewrite `mlir-opt-19` makes. A rewrite that drops the
dependency lets the body run where the input's does not: wrong.
"""

from __future__ import annotations

import verifier
from spec.semantics.judge import OK, WRONG, judge_modules
from spec.syntax.parser import parse_module

HEAD = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k0(%arg0: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @f(%b0: memref<4xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
"""
LAUNCH = (
    "gpu.launch_func {deps}@kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b0 : memref<4xf32>)"
)

INPUT = (
    HEAD
    + f"""    %e3 = async.execute {{
      %nz = arith.cmpi ne, %n, %c0 : index
      cf.assert %nz, "n is zero"
      %q = arith.divui %c1, %n : index
      {LAUNCH.format(deps="")}
      async.yield
    }}
    %e10 = async.execute [%e3] {{
      {LAUNCH.format(deps="")}
      async.yield
    }}
    return
  }}
}}
"""
)

BODY_OF_E3 = f"""      %nz = arith.cmpi ne, %n, %c0 : index
      cf.assert %nz, "n is zero"
      %q = arith.divui %c1, %n : index
      %w = gpu.wait async
      %t = {LAUNCH.format(deps="async [%w] ")}
      async.yield %t : !gpu.async.token
"""


def _output(dependency: str) -> str:
    return (
        HEAD
        + f"""    %e3, %v = async.execute -> !async.value<!gpu.async.token> {{
{BODY_OF_E3}    }}
    %e10 = async.execute {dependency} {{
      %w = gpu.wait async{" [%a]" if "%a" in dependency else ""}
      %t = {LAUNCH.format(deps="async [%w] ")}
      gpu.wait [%t]
      async.yield
    }}
    return
  }}
}}
"""
    )


UPSTREAM_FORM = _output("[%e3] (%v as %a: !async.value<!gpu.async.token>)")
"""The dependency kept twice, by token and by the yielded value (19's form)."""

VALUE_ONLY = _output("(%v as %a: !async.value<!gpu.async.token>)")
"""The dependency kept by the yielded value alone: the same behaviour."""

DROPPED = _output("")
"""No dependency at all: the second launch runs after the first body failed."""


def _judged(out: str) -> tuple[set[str], str]:
    fin, fout = parse_module(INPUT, "in.mlir"), parse_module(out, "out.mlir")
    verdicts = {j.verdict for j in judge_modules(fin, fout).values()}
    return verdicts, str(verifier.check(parse_module(INPUT, "in.mlir"), fout).verdict)


def test_dependency_through_the_yielded_value_is_judged_ok_and_verified() -> None:
    assert _judged(UPSTREAM_FORM) == ({OK}, "verified")


def test_dependency_through_the_value_alone_is_judged_ok() -> None:
    # The verifier is stricter here, and may be: an execute must keep the
    # dependencies it had (a refutation of a right rewrite is allowed).
    assert _judged(VALUE_ONLY) == ({OK}, "refuted")


def test_dropped_dependency_is_wrong_and_refuted() -> None:
    assert _judged(DROPPED) == ({WRONG}, "refuted")
