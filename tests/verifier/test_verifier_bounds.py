"""Bounds and budgets are never verdicts (issue: failures that look like
verdicts): `--unroll 0` is refused, a proof that holds only up to the
unrolling bound is `bounded` (exit 4, 0 with `--accept-bounded`),
`--require-unbounded` turns it into `unknown`, `--budget-s` ends a long run `unknown`, and an
astronomically large path count prints in every format."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.rewrites import LAUNCH, module

# An `scf.parallel` whose body waits on a token from outside: its
# iterations run in any order, which neither the loop lemma (a token
# crosses the loop) nor the induction on iterations covers, so its proof
# is the unrolled one, bounded.
LOOP = module(
    """  func.func @f(%m: memref<4xf32>, %n: index, %p: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a0 = gpu.wait async
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      %x = gpu.launch_func async [%a0] """
    + LAUNCH
    + """
      gpu.wait [%x]
      scf.reduce
    }
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
)


# An `scf.while` carrying a token from one iteration to the next: right as
# written, proved for every trip count by induction on its iterations.
CARRIED = module(
    """  func.func @f(%m: memref<4xf32>, %n: index, %p: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a0 = gpu.wait async
    %r = scf.while (%a = %a0) : (!gpu.async.token) -> !gpu.async.token {
      scf.condition(%p) %a : !gpu.async.token
    } do {
    ^bb0(%a1: !gpu.async.token):
      %x = gpu.launch_func async [%a1] """
    + LAUNCH
    + """
      scf.yield %x : !gpu.async.token
    }
    gpu.wait [%r]
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
)


def nested_loops(n: int) -> str:
    lines = [
        "  func.func @f(%m: memref<4xf32>, %n: index) {",
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
    ]
    ind = "    "
    for i in range(n):
        lines.append(f"{ind}scf.for %i{i} = %c0 to %n step %c1 {{")
        ind += "  "
    lines += [f"{ind}gpu.launch_func {LAUNCH}", f"{ind}func.call @consume(%m) : (memref<4xf32>) -> ()"]
    for _ in range(n):
        ind = ind[:-2]
        lines.append(f"{ind}}}")
    return module("\n".join([*lines, "    return", "  }", ""]))


def verifier(tmp_path: Path, text: str, *args: str) -> subprocess.CompletedProcess[str]:
    f = tmp_path / "in.mlir"
    f.write_text(text)
    return subprocess.run(
        [sys.executable, "-m", "verifier", "check", str(f), *args], capture_output=True, text=True, timeout=300
    )


def test_unroll_zero_is_refused(tmp_path: Path) -> None:
    r = verifier(tmp_path, LOOP, "--unroll", "0")
    assert r.returncode == 2 and r.stdout == ""
    assert "--unroll must be >= 1 (0 would check no loop iteration)" in r.stderr


def test_a_bounded_proof_has_its_own_verdict_and_exit_code(tmp_path: Path) -> None:
    r = verifier(tmp_path, LOOP)
    assert r.returncode == 4, r.stdout
    assert "@f: bounded (" in r.stdout and "proved for up to 2 loop iterations only" in r.stdout
    assert r.stdout.endswith("verdict: bounded\n")
    r = verifier(tmp_path, LOOP, "--format", "json")
    assert r.returncode == 4 and json.loads(r.stdout)["verdict"] == "bounded"
    r = verifier(tmp_path, LOOP, "--accept-bounded")
    assert r.returncode == 0 and "verdict: bounded" in r.stdout


def test_a_bounded_proof_at_unroll_1_misses_a_two_iteration_race(tmp_path: Path) -> None:
    """At `--unroll 1` a race between iterations 1 and 2 is out of reach
    and the induction's step refutes the rewrite: the verdict must not be
    `verified` (exit 0) but `bounded`; at the default bound the race is
    refuted. The input itself is verified for every trip count."""
    wrong = CARRIED.replace("%x = gpu.launch_func async [%a1]", "%x = gpu.launch_func async []")
    out = tmp_path / "out.mlir"
    out.write_text(wrong)
    r = verifier(tmp_path, CARRIED, "--after", str(out), "--unroll", "1")
    assert r.returncode == 4 and "verdict: bounded" in r.stdout, r.stdout
    r = verifier(tmp_path, CARRIED, "--after", str(out))
    assert r.returncode == 1, r.stdout
    r = verifier(tmp_path, CARRIED, "--unroll", "1")
    assert r.returncode == 0 and "by induction on iterations (scf.while" in r.stdout, r.stdout


def test_require_unbounded_makes_a_bounded_verdict_unknown(tmp_path: Path) -> None:
    r = verifier(tmp_path, LOOP, "--require-unbounded")
    assert r.returncode == 3, r.stdout
    assert "unknown: proved only up to 2 loop iterations and --require-unbounded was given" in r.stdout


def test_budget_spent_is_unknown(tmp_path: Path) -> None:
    # The whole proof (unrolled): its many paths outlast the budget.
    r = verifier(tmp_path, nested_loops(5), "--budget-s", "0.5", "--no-compose")
    assert r.returncode == 3, r.stdout
    assert "the run's time budget of 0.5 s (--budget-s) was spent" in r.stdout


def test_astronomical_path_count_in_json(tmp_path: Path) -> None:
    r = verifier(tmp_path, nested_loops(14), "--format", "json", "--no-compose")
    assert r.returncode == 3, r.stderr
    (fn,) = json.loads(r.stdout)["functions"]
    assert fn["verdict"] == "unknown" and fn["paths"].startswith("about 10^")
    # Region by region, each loop's body is proved once: 14 runs, unbounded.
    r = verifier(tmp_path, nested_loops(14), "--format", "json")
    assert r.returncode == 0, r.stdout
    (fn,) = json.loads(r.stdout)["functions"]
    assert fn["verdict"] == "verified" and fn["regions_proved_apart"] == 14 and not fn["bounded"]


def test_tools_take_their_own_output_at_the_nesting_limit(tmp_path: Path) -> None:
    """998 nested `scf.if`s parse; the printed output (with its explicit
    `module {`) must parse too: levels are counted from the module on both
    sides."""
    n = 998
    f = tmp_path / "deep.mlir"
    f.write_text("func.func @f(%p: i1) {\n" + "  scf.if %p {\n" * n + "  }\n" * n + "  return\n}\n")
    once = subprocess.run([sys.executable, "-m", "spec", "print", str(f)], capture_output=True, text=True, timeout=300)
    assert once.returncode == 0, once.stderr
    out = tmp_path / "out.mlir"
    out.write_text(once.stdout)
    again = subprocess.run(
        [sys.executable, "-m", "spec", "print", str(out)], capture_output=True, text=True, timeout=300
    )
    assert again.returncode == 0, again.stderr[:500]
    assert again.stdout == once.stdout


def test_spent_budget_never_refutes_a_paired_function() -> None:
    """Once the budget is spent, each remaining function is `unknown`; its
    output counterpart is still paired with it, not reported as a function
    "with no counterpart in the input" (which made the verdict `refuted`)."""
    import verifier
    from spec.syntax.parser import parse_module

    src = """func.func @a(%m: memref<4xf32>) {
  %c = arith.constant 0.0 : f32
  gpu.memset %m, %c : memref<4xf32>, f32
  return
}
func.func @b() {
  return
}
"""
    r = verifier.check(parse_module(src, "in.mlir"), parse_module(src, "out.mlir"), budget_s=1e-9)
    assert [(f.name, f.verdict) for f in r.functions] == [("a", "unknown"), ("b", "unknown")]
    assert r.verdict == "unknown"
