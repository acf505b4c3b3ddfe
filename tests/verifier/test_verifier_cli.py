"""`python -m verifier check`: exit codes, text and JSON, --impl, --dot."""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.rewrites import GOOD, SYNC

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verifier", "check", *args], capture_output=True, text=True, cwd=ROOT)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    paths = {}
    for name, text in {
        "in": SYNC,
        "good": GOOD,
        "bad": GOOD.replace("    gpu.wait [%3]\n", ""),
        "junk": "func.func @f( {",
    }.items():
        p = tmp_path / f"{name}.mlir"
        p.write_text(text)
        paths[name] = str(p)
    return paths


def test_verified_exit_0(files: dict[str, str]) -> None:
    r = cli(files["in"], "--after", files["good"])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "verdict: verified" in r.stdout


def test_refuted_exit_1_with_diagnostic(files: dict[str, str]) -> None:
    r = cli(files["in"], "--after", files["bad"])
    assert r.returncode == 1
    assert (
        f"{files['bad']}:15:5: error: 'func.call' op may run before 'gpu.memcpy' ({files['in']}:13:5) has finished"
        in r.stdout
    )


def test_json(files: dict[str, str]) -> None:
    r = cli(files["in"], "--after", files["bad"], "--format", "json")
    assert r.returncode == 1
    data = json.loads(r.stdout)
    assert data["verdict"] == "refuted"
    (fn,) = data["functions"]
    # Four orderings inside, and the return before the program's end.
    assert fn["name"] == "f" and fn["verdict"] == "refuted" and fn["obligations"] == 5
    (v,) = fn["violations"]
    assert v["kind"] == "gpu-before-host"
    assert v["first"] == {
        "op": "gpu.memcpy",
        "loc": f"{files['in']}:13:5",
        "input_loc": f"{files['in']}:13:5",
        "output_loc": f"{files['bad']}:14:10",
    }
    assert v["second"]["op"] == "func.call" and v["second"]["loc"] == f"{files['bad']}:15:5"
    times = {s["point"]: s["time"] for s in v["schedule"]}
    # The model's schedule really has the call before the copy finishes.
    assert times["t(func.call@15:5)"] < times["f(gpu.memcpy@14:10)"]


def test_jobs_1_gives_the_same_report_in_one_process(files: dict[str, str]) -> None:
    for name, code in (("good", 0), ("bad", 1)):
        default, single = (
            cli(files["in"], "--after", files[name]),
            cli(files["in"], "--after", files[name], "--jobs", "1"),
        )
        assert (single.returncode, single.stdout) == (default.returncode, default.stdout) and single.returncode == code
    r = cli(files["in"], "--after", files["good"], "-j", "0")
    assert r.returncode == 2 and r.stdout == ""
    assert "<command line>: error: --jobs must be >= 1" in r.stderr


def test_bad_input_exit_2(files: dict[str, str]) -> None:
    assert cli(files["junk"], "--after", files["good"]).returncode == 2
    assert cli(files["in"], "--after", files["junk"]).returncode == 2
    assert cli(files["in"], "--after", "/nonexistent.mlir").returncode == 2
    assert cli("--bogus").returncode == 2


def test_impl_command(files: dict[str, str], tmp_path: Path) -> None:
    # "Implementations": print a fixed file whatever the input; fail; print junk.
    fixed = tmp_path / "fixed.py"
    fixed.write_text(f"import sys\nassert sys.argv[1].endswith('in.mlir')\nprint(open({files['good']!r}).read())\n")
    failing_py = tmp_path / "failing.py"
    failing_py.write_text("import sys\nsys.exit(3)\n")
    junk_py = tmp_path / "junk.py"
    junk_py.write_text("print('}}}}')\n")
    py = shlex.quote(sys.executable)
    r = cli(files["in"], "--impl", f"{py} {shlex.quote(str(fixed))}")
    assert r.returncode == 0, r.stdout + r.stderr
    failing = cli(files["in"], "--impl", f"{py} {shlex.quote(str(failing_py))}")
    assert failing.returncode == 2
    assert "implementation failed (exit 3)" in failing.stderr
    garbage = cli(files["in"], "--impl", f"{py} {shlex.quote(str(junk_py))}")
    assert garbage.returncode == 2
    assert "the output does not parse" in garbage.stderr


def test_dot(files: dict[str, str], tmp_path: Path) -> None:
    dot = tmp_path / "g.dot"
    r = cli(files["in"], "--after", files["bad"], "--dot", str(dot))
    assert r.returncode == 1
    text = dot.read_text()
    assert text.startswith("digraph happens_before {")
    missing = [line for line in text.splitlines() if "missing" in line]
    assert len(missing) == 1 and "color=red" in missing[0]


def test_func_filter(files: dict[str, str]) -> None:
    assert cli(files["in"], "--after", files["bad"], "--func", "f").returncode == 1
    assert cli(files["in"], "--after", files["bad"], "--func", "nope").returncode == 2


def _ifs(tmp_path: Path, n: int) -> Path:
    """A function of `n` `scf.if`s, each launching a kernel: 2^n paths."""
    launch = "gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)"
    # One condition per `scf.if` (two on one value take the same branch).
    ifs = "".join(
        f"    %q{k} = arith.xori %p, %p : i1\n    scf.if %q{k} {{\n      {launch}\n    }}\n" for k in range(n)
    )
    src = tmp_path / f"ifs{n}.mlir"
    src.write_text(
        "module attributes {gpu.container_module} {\n  gpu.module @k {\n    gpu.func @f(%a: memref<4xf32>) kernel {\n"
        "      gpu.return\n    }\n  }\n  func.func @f(%m: memref<4xf32>, %p: i1) {\n    %c1 = arith.constant 1 : index\n"
        f"{ifs}    return\n  }}\n}}\n"
    )
    return src


def test_max_paths(tmp_path: Path) -> None:
    src = _ifs(tmp_path, 9)
    # Proved whole, 2^9 paths: no limit by default, `unknown` (exit 3) past
    # --max-paths. (Region by region, each `scf.if`'s then region is proved apart: 9 runs of
    # one path each, and the function's one path.)
    r = cli(str(src), "--no-compose")
    assert r.returncode == 0 and "512 paths" in r.stdout, r.stdout + r.stderr
    r = cli(str(src))
    assert r.returncode == 0 and "9 regions proved apart" in r.stdout, r.stdout + r.stderr
    r = cli(str(src), "--max-paths", "256", "--no-compose")
    assert r.returncode == 3 and "more than 256 paths" in r.stdout, r.stdout + r.stderr
    r = cli(str(src), "--max-paths", "0")
    assert r.returncode == 2 and "--max-paths >= 1" in r.stderr


def test_guarded_verdict_names_the_sampled_paths(tmp_path: Path) -> None:
    """With control flow, reachability is asked on sampled paths only: the
    text and the JSON say how many."""
    src = _ifs(tmp_path, 5)
    r = cli(str(src), "--no-compose")
    assert r.returncode == 0, r.stdout + r.stderr
    line = next(x for x in r.stdout.splitlines() if x.startswith("@f:"))
    n = int(line.split("reachability agrees on ")[1].split(" sampled paths")[0])
    assert 1 <= n <= 32 and "; 32 paths" in line
    data = json.loads(cli(str(src), "--format", "json", "--no-compose").stdout)
    assert data["functions"][0]["sampled_paths"] == n and data["functions"][0]["paths"] == 32


def test_large_files_parsed_at_once_give_the_same_report(tmp_path: Path) -> None:
    # With `--jobs 2` (or above `MIN_FORKED_BYTES`) the CLI parses INPUT in
    # a forked child while it parses OUTPUT, and hands half of Z3's groups to
    # another; the report must be the one a sequential run gives.
    from bench.bench_verify import generate

    text = generate(2500, seed=3)
    inp = tmp_path / "big.mlir"
    inp.write_text(text)
    out = tmp_path / "big.out.mlir"
    rewrite = subprocess.run(
        [sys.executable, "-m", "refimpl", str(inp)], capture_output=True, text=True, cwd=ROOT, check=True
    )
    # One blocking wait dropped: refuted, with a counterexample to compare.
    out.write_text(re.sub(r"    gpu.wait \[%\d+\]\n", "", rewrite.stdout, count=1))
    r = cli(str(inp), "--after", str(out), "--format", "json", "--jobs", "2")
    data = json.loads(r.stdout)
    assert r.returncode == 1 and data["verdict"] == "refuted"
    import verifier
    from spec.syntax.parser import parse_module

    checked = verifier.check(parse_module(text, str(inp)), parse_module(out.read_text(), str(out)))
    expected = dataclasses.replace(checked, input_file=str(inp), output_file=str(out))
    assert json.loads(expected.json_text()) == data
