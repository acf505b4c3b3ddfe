"""The interpreter on concrete values: arithmetic, memrefs and views, control
flow, faults, unsupported ops, argument defaults, and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from spec.diagnostics import DiagnosticError
from spec.semantics.interp import DEFAULT_DYNAMIC_DIM, DEFAULT_INDEX, View, default_args
from spec.semantics.schedule import explore, run
from spec.syntax.parser import parse_module

# The inputs use ops of unregistered dialects; mlir-opt-19 reads them with
# --allow-unregistered-dialect, and so does every parse here (`allow_unregistered=True`).

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"


def func(text: str, name: str | None = None):
    module = parse_module(text, "t.mlir", allow_unregistered=True)
    funcs = [op for op in module.walk() if op.name == "func.func" and op.regions and op.regions[0].blocks]
    if name is None:
        return funcs[0]
    return next(f for f in funcs if str(f.properties["sym_name"]).strip('"') == name)


def returned(text: str, **over) -> str:
    f = func(text)
    out = run(f, default_args(f, over)).outcome
    (obs,) = [o for _, obs in out.observations for o in obs if o.kind == "return"]
    return obs.detail


@pytest.mark.parametrize(
    "body, expected",
    [
        ("%r = arith.addi %a, %b : i32", "10"),
        ("%r = arith.subi %a, %b : i32", "4"),
        ("%r = arith.muli %a, %b : i32", "21"),
        ("%r = arith.divsi %n, %b : i32", "-2"),
        ("%r = arith.remsi %n, %b : i32", "-1"),
        ("%r = arith.floordivsi %n, %b : i32", "-3"),
        ("%r = arith.ceildivsi %a, %b : i32", "3"),
        ("%r = arith.divui %n, %b : i32", "1431655763"),
        ("%r = arith.maxui %n, %a : i32", "-7"),
        ("%r = arith.shli %a, %b : i32", "56"),
        ("%r = arith.shrsi %n, %b : i32", "-1"),
        ("%r = arith.xori %a, %b : i32", "4"),
        ("%r = arith.addi %big, %big : i32", "-2"),
    ],
)
def test_integer_arithmetic(body, expected):
    text = f"""func.func @f() -> i32 {{
  %a = arith.constant 7 : i32
  %b = arith.constant 3 : i32
  %n = arith.constant -7 : i32
  %big = arith.constant 2147483647 : i32
  {body}
  return %r : i32
}}"""
    assert returned(text) == expected


def test_comparisons_select_and_casts():
    text = """func.func @f(%x: index) -> (i1, i1, index, f32, i64) {
  %m1 = arith.constant -1 : index
  %lt = arith.cmpi slt, %m1, %x : index
  %ult = arith.cmpi ult, %m1, %x : index
  %s = arith.select %lt, %x, %m1 : index
  %i = arith.index_cast %s : index to i64
  %f = arith.sitofp %i : i64 to f32
  %h = arith.constant 0.5 : f32
  %g = arith.addf %f, %h : f32
  return %lt, %ult, %s, %g, %i : i1, i1, index, f32, i64
}"""
    assert returned(text) == f"1, 0, {DEFAULT_INDEX}, {DEFAULT_INDEX + 0.5}, {DEFAULT_INDEX}"
    assert returned(text, x=5) == "1, 0, 5, 5.5, 5"


def test_float_rounding_to_f32():
    text = """func.func @f() -> f32 {
  %a = arith.constant 0.1 : f32
  %b = arith.constant 0.2 : f32
  %r = arith.addf %a, %b : f32
  return %r : f32
}"""
    assert returned(text) == "0.30000001192092896"


def test_subview_aliases_its_source_and_copy_moves_data():
    text = """func.func @f(%m: memref<4x4xf32>) -> (f32, f32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 42.0 : f32
  %sv = memref.subview %m[1, 1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  memref.store %v, %sv[%c1, %c0] : memref<2x2xf32, strided<[4, 1], offset: 5>>
  %a = memref.alloc() : memref<4x4xf32>
  memref.copy %m, %a : memref<4x4xf32> to memref<4x4xf32>
  %c2 = arith.constant 2 : index
  %x = memref.load %a[%c2, %c1] : memref<4x4xf32>
  %y = memref.load %m[%c1, %c1] : memref<4x4xf32>
  %d = memref.dim %sv, %c0 : memref<2x2xf32, strided<[4, 1], offset: 5>>
  return %x, %y, %d : f32, f32, index
}"""
    x, y, d = returned(text).split(", ")
    assert x == "42.0" and y != "42.0" and d == "2"


def test_dynamic_memref_argument_gets_default_size():
    text = """func.func @f(%m: memref<?xf32>) -> index {
  %c0 = arith.constant 0 : index
  %d = memref.dim %m, %c0 : memref<?xf32>
  return %d : index
}"""
    assert returned(text) == str(DEFAULT_DYNAMIC_DIM)


def test_memref_arguments_have_distinct_contents():
    f = func("func.func @f(%a: memref<4xf32>, %b: memref<4xf32>) {\n  return\n}")
    a, b = default_args(f)
    assert isinstance(a, View) and isinstance(b, View)
    assert len(set(a.buffer.data)) == 4 and not set(a.buffer.data) & set(b.buffer.data)


def test_scf_while_parallel_and_execute_region():
    text = """func.func @f(%m: memref<8xi32>) -> (index, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %w = scf.while (%i = %c0) : (index) -> index {
    %cond = arith.cmpi slt, %i, %c5 : index
    scf.condition(%cond) %i : index
  } do {
  ^bb0(%j: index):
    %n = arith.addi %j, %c1 : index
    scf.yield %n : index
  }
  scf.parallel (%i) = (%c0) to (%c5) step (%c1) {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %m[%i] : memref<8xi32>
    scf.reduce
  }
  %r = scf.execute_region -> i32 {
    %x = memref.load %m[%c5] : memref<8xi32>
    cf.br ^bb1(%x : i32)
  ^bb1(%y: i32):
    %z = memref.load %m[%c1] : memref<8xi32>
    %s = arith.addi %y, %z : i32
    scf.yield %s : i32
  }
  return %w, %r : index, i32
}"""
    w, r = returned(text).split(", ")
    assert w == "5"
    f = func(text)
    (m,) = default_args(f)
    assert int(r) == m.buffer.data[5] + 1


@pytest.mark.parametrize(
    "body, message",
    [
        ("%x = memref.load %m[%c9] : memref<4xf32>", "out of bounds"),
        ("%z = arith.divsi %c9, %c0 : index", "division by zero"),
        ('%f = arith.cmpi eq, %c0, %c9 : index\n  cf.assert %f, "nine"', "assertion failed"),
        ("memref.dealloc %m : memref<4xf32>\n  %x = memref.load %m[%c0] : memref<4xf32>", "freed"),
    ],
)
def test_faults_are_observations(body, message):
    text = f"""func.func @f(%m: memref<4xf32>) {{
  %c0 = arith.constant 0 : index
  %c9 = arith.constant 9 : index
  {body}
  return
}}"""
    f = func(text)
    out = run(f, default_args(f)).outcome
    # A failed assert is a defined stop (`abort`), the others undefined behaviour.
    kind = "abort" if "assert" in message else "fault"
    faults = [o for _, obs in out.observations for o in obs if o.kind in ("fault", "abort")]
    assert len(faults) == 1 and message in faults[0].detail and faults[0].kind == kind
    assert not [o for _, obs in out.observations for o in obs if o.kind == "return"]


def test_unsupported_op_is_a_diagnostic():
    f = func('func.func @f() {\n  "foo.bar"() : () -> ()\n  return\n}')
    with pytest.raises(DiagnosticError) as info:
        run(f, [])
    assert "'foo.bar' op is not supported" in info.value.diagnostics[0].message
    assert info.value.diagnostics[0].loc.line == 2


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.mlir")), ids=lambda p: p.name)
def test_synchronous_corpus_programs_are_deterministic(path):
    module = parse_module(path.read_text(), str(path), allow_unregistered=True)
    for f in [op for op in module.walk() if op.name == "func.func" and op.regions and op.regions[0].blocks]:
        if any(op.name.startswith("async.") or (op.results and op.results[-1].type.is_gpu_token) for op in f.walk()):
            continue
        try:
            ex = explore(f, default_args(f))
        except DiagnosticError:
            continue  # unsupported constructs are reported, not run
        assert ex.deterministic and not ex.races and not ex.out_of_order, f"{path.name} @{f.properties['sym_name']}"


# -- command line ------------------------------------------------------------------


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "spec", *args], capture_output=True, text=True, cwd=ROOT, input=stdin, timeout=120
    )


RACY = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @scale(%buf: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @racy(%dev: memref<4xf32>, %n: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dev : memref<4xf32>)
    %v = memref.load %dev[%n] : memref<4xf32>
    return %v : f32
  }
}
"""


def test_cli_explore_json(tmp_path):
    p = tmp_path / "racy.mlir"
    p.write_text(RACY)
    r = cli("explore", str(p), "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    (fn,) = data["functions"]
    assert fn["name"] == "racy" and fn["outcomes"] >= 2 and fn["deterministic"] is False
    race = fn["races"][0]
    assert race["first"]["op"] == "gpu.launch_func" and race["first"]["loc"] == f"{p}:11:11"
    assert race["second"]["op"] == "memref.load" and race["second"]["loc"] == f"{p}:12:10"
    assert any(s.startswith("start gpu.launch_func") for s in race["schedule"])
    r2 = cli("explore", str(p), "--schedules", "10", "--seed", "3", "--format", "json")
    assert json.loads(r2.stdout)["functions"][0]["schedules"] == 10


def test_cli_run_and_args(tmp_path):
    p = tmp_path / "racy.mlir"
    p.write_text(RACY)
    r = cli("run", str(p), "--arg", "n=3")
    assert r.returncode == 0, r.stderr
    assert "func @racy" in r.stdout and "load" in r.stdout
    bad = cli("run", str(p), "--arg", "n=9")
    assert bad.returncode == 0 and "out of bounds" in bad.stdout
    r = cli("run", str(p), "--func", "nope")
    assert r.returncode == 1 and "no function named 'nope'" in r.stderr


def test_cli_bad_input_is_a_diagnostic(tmp_path):
    p = tmp_path / "bad.mlir"
    p.write_text('func.func @f() {\n  "foo.bar"() : () -> ()\n  return\n}\n')
    r = cli("explore", "--allow-unregistered-dialect", str(p))
    assert r.returncode == 1 and f"{p}:2:3: error: 'foo.bar' op is not supported" in r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    r = cli("run", "-", stdin="func.func @f( {")
    assert r.returncode == 1 and "error" in r.stderr and "Traceback" not in r.stderr


def test_non_terminating_loop_is_cut_off(monkeypatch):
    from spec.semantics import schedule

    monkeypatch.setattr(schedule, "MAX_STEPS", 300)
    text = """func.func @f(%m: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %t = arith.constant true
  %v = arith.constant 1.0 : f32
  scf.while : () -> () {
    memref.store %v, %m[%c0] : memref<4xf32>
    scf.condition(%t)
  } do {
    scf.yield
  }
  return
}"""
    f = func(text)
    out = run(f, default_args(f)).outcome
    faults = [o for _, obs in out.observations for o in obs if o.kind == "fault"]
    assert len(faults) == 1 and "cut off after 300 steps" in faults[0].detail
    assert explore(f, default_args(f)).schedules_explored == 1
