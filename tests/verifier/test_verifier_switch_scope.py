"""`scf.index_switch` and `memref.alloca_scope` with GPU work inside.

`scf.index_switch` is one decision with an option per region (its default
region first, then one per case), as `scf.if` is with two; an
`alloca_scope` body runs once, as an `scf.execute_region`'s. Both are
proved region by region when no token crosses them. The reference's
rewrite and an over-synchronised one are verified; a wait dropped in a
case, in the default region or in the scope is refuted, the path naming
the region taken; a case yielding the wrong token is refuted.
"""

from __future__ import annotations

import pytest

from spec.syntax.parser import parse_module
from verifier import check
from verifier.harness.gate import RefimplImpl
from verifier.output.report import REFUTED, VERIFIED

LAUNCH = "@kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<4xf32>)"
HEAD = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k0(%arg0: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<4xf32>)
"""
PROGRAM = (
    HEAD
    + f"""  func.func @f(%b: memref<4xf32>, %n: index, %x: f32) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.index_switch %n
    case 1 {{
      memref.store %x, %b[%c0] : memref<4xf32>
      scf.yield
    }}
    case 5 {{
      gpu.launch_func {LAUNCH}
      scf.yield
    }}
    default {{
      gpu.launch_func {LAUNCH}
      scf.yield
    }}
    memref.alloca_scope {{
      memref.store %x, %b[%c0] : memref<4xf32>
      gpu.launch_func {LAUNCH}
    }}
    func.call @use(%b) : (memref<4xf32>) -> ()
    return
  }}
}}
"""
)

YIELDING = (
    HEAD
    + f"""  func.func @g(%b: memref<4xf32>, %n: index) {{
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t = scf.index_switch %n -> !gpu.async.token
    case 2 {{
      %x = gpu.launch_func async [%t0] {LAUNCH}
      scf.yield %x : !gpu.async.token
    }}
    default {{
      scf.yield %t0 : !gpu.async.token
    }}
    gpu.wait [%t]
    func.call @use(%b) : (memref<4xf32>) -> ()
    return
  }}
}}
"""
)


def verdict(inp: str, out: str):  # type: ignore[no-untyped-def]
    return check(parse_module(inp, "in.mlir"), parse_module(out, "out.mlir"))


def without_wait(text: str, k: int) -> str:
    """`text` without its k-th blocking `gpu.wait [...]` line."""
    lines = text.splitlines(keepends=True)
    waits = [i for i, ln in enumerate(lines) if ln.strip().startswith("gpu.wait [")]
    del lines[waits[k]]
    return "".join(lines)


@pytest.fixture(scope="module")
def rewrite() -> str:
    return RefimplImpl("reference")(PROGRAM)


def test_the_reference_rewrite_is_verified_region_by_region(rewrite: str) -> None:
    r = verdict(PROGRAM, rewrite)
    assert r.verdict == VERIFIED, r.text()
    assert r.functions[0].regions >= 3, r.text()


def test_an_extra_wait_is_verified(rewrite: str) -> None:
    extra = rewrite.replace(
        "      memref.store", "      %9 = gpu.wait async\n      gpu.wait [%9]\n      memref.store", 1
    )
    assert extra != rewrite
    assert verdict(PROGRAM, extra).verdict == VERIFIED


@pytest.mark.parametrize(("k", "path"), [(0, "takes its case 5"), (1, "takes its default region"), (2, "")])
def test_a_dropped_wait_is_refuted(rewrite: str, k: int, path: str) -> None:
    r = verdict(PROGRAM, without_wait(rewrite, k))
    assert r.verdict == REFUTED, r.text()
    (v,) = [v for f in r.functions for v in f.violations][:1]
    assert path in " ".join(v.path), v.path


def test_a_case_yielding_the_wrong_token_is_refuted() -> None:
    assert verdict(YIELDING, YIELDING).verdict == VERIFIED
    wrong = YIELDING.replace("scf.yield %x : !gpu.async.token", "scf.yield %t0 : !gpu.async.token")
    r = verdict(YIELDING, wrong)
    assert r.verdict == REFUTED, r.text()
    assert any("takes its case 2" in p for f in r.functions for v in f.violations for p in v.path)


def _switch(n_cases: int, wrong_case: int | None) -> str:
    cases = ",\n".join(
        f"      {k}: ^bb1({'%f' if k == wrong_case else '%z'} : !gpu.async.token)" for k in range(1, n_cases + 1)
    )
    return (
        HEAD
        + f"""  func.func @s(%b: memref<4xf32>, %n: i32, %x: f32) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = gpu.launch_func async {LAUNCH}
    %f = gpu.wait async
    cf.switch %n : i32, [
      default: ^bb1(%z : !gpu.async.token),
{cases}
    ]
  ^bb1(%t: !gpu.async.token):
    gpu.wait [%t]
    memref.store %x, %b[%c0] : memref<4xf32>
    return
  }}
}}
"""
    )


@pytest.mark.parametrize("wrong_case", [1, 2, 7, 11])
def test_each_option_of_a_many_way_switch_is_its_own_path(wrong_case: int) -> None:
    """A decision of more than two options is one flag per option, exactly
    one set: with two Booleans' worth of encoding, options 0 and 2 were the
    same path and a wrong case 7 of 11 was verified."""
    right = _switch(11, None)
    assert verdict(right, right).verdict == VERIFIED
    r = verdict(right, _switch(11, wrong_case))
    assert r.verdict == REFUTED, r.text()
    assert any(
        f"goes to its case {wrong_case} successor" in p for f in r.functions for v in f.violations for p in v.path
    ), r.text()


def test_the_whole_proof_and_the_path_by_path_reference_agree(rewrite: str) -> None:
    from tests.support.path_reference import check_path_by_path

    for out, expected in (
        (rewrite, VERIFIED),
        (without_wait(rewrite, 0), REFUTED),
        (without_wait(rewrite, 1), REFUTED),
    ):
        fin, fout = parse_module(PROGRAM, "in.mlir"), parse_module(out, "out.mlir")
        assert check(fin, fout, compose=False).verdict == expected
        assert check_path_by_path(fin, fout, compose=False).verdict == expected
