"""Long functions, where the proof takes its shortcuts for size: obligations
that end at one node from far before it share one reduction of the graph
(`Prover.prepare`), and uses defined in another block are decided once per
pair of blocks (the parser's and the verifier's dominance). Wrong rewrites
of the kinds those touch are refuted, right ones verified:

- GPU work early in a long function left running past its end (the last
  wait dropped, or one early op's token never waited on);
- a token from a block that does not dominate its use (a branch's block),
  and a wait moved into a loop body's block;
- the reference rewrite, the same with an extra wait, and the same with
  its values renamed.
"""

from __future__ import annotations

import re

import pytest

from spec.syntax.parser import parse_module
from verifier import check
from verifier.harness.gate import RefimplImpl
from verifier.output.report import REFUTED, VERIFIED
from verifier.smt import encode

HEAD = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
"""


def straight(n: int) -> str:
    """One function of `n` launches, a host effect after every fourth: far
    more than `encode.FAR` graph nodes from the first to the end."""
    body = [
        "  func.func @f(%b: memref<16xf32>, %x: f32) {",
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
    ]
    for i in range(n):
        body.append(
            "    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<16xf32>)"
        )
        if i % 4 == 3:
            body.append("    func.call @use(%b) : (memref<16xf32>) -> ()")
    body += ["    return", "  }", "}"]
    return HEAD + "\n".join(body) + "\n"


def executes(n: int) -> str:
    """One function of `n` `async.execute` bodies, each a launch, a host
    call and a launch, none awaited: each body's last launch must be over
    by the function's end, far from the first bodies."""
    launch = "      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<16xf32>)"
    body = ["  func.func @f(%b: memref<16xf32>) {", "    %c1 = arith.constant 1 : index"]
    for i in range(n):
        body += [
            f"    %t{i} = async.execute {{",
            launch,
            "      func.call @use(%b) : (memref<16xf32>) -> ()",
            launch,
            "      async.yield",
            "    }",
        ]
        body.append("    func.call @use(%b) : (memref<16xf32>) -> ()")
    body += ["    return", "  }", "}"]
    return HEAD + "\n".join(body) + "\n"


def blocks(n: int) -> str:
    """A CFG: an entry that branches to a loop header, a body of `n`
    launches that branches back, and an exit."""
    launch = "    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<16xf32>)"
    return (
        HEAD
        + "\n".join(
            [
                "  func.func @f(%b: memref<16xf32>, %p: i1) {",
                "    %c1 = arith.constant 1 : index",
                "    cf.br ^head",
                "  ^head:",
                "    cf.cond_br %p, ^body, ^exit",
                "  ^body:",
                *([launch] * n),
                "    func.call @use(%b) : (memref<16xf32>) -> ()",
                "    cf.br ^head",
                "  ^exit:",
                "    return",
                "  }",
                "}",
            ]
        )
        + "\n"
    )


def verdict(inp: str, out: str) -> str:
    r = check(parse_module(inp, "in.mlir"), parse_module(out, "out.mlir", dominance=False))
    return str(r.verdict)


@pytest.fixture(scope="module", params=["straight", "executes"])
def long_pair(request: pytest.FixtureRequest) -> tuple[str, str]:
    text = straight(120) if request.param == "straight" else executes(60)
    return text, RefimplImpl("reference")(text)


def test_the_long_function_takes_the_shared_reduction(monkeypatch: pytest.MonkeyPatch) -> None:
    # Not vacuous: the far obligations of the bodies' work to the end do
    # share a reduction of the graph.
    made: list[int] = []
    inner = encode._Toward.__init__

    def counting(self: encode._Toward, succ: list[list[int]], dst: int, ends: list[int]) -> None:
        made.append(len(ends))
        inner(self, succ, dst, ends)

    monkeypatch.setattr(encode._Toward, "__init__", counting)
    text = executes(60)
    assert verdict(text, RefimplImpl("reference")(text)) == VERIFIED
    assert made and max(made) >= encode.SHARED_END


def test_right_rewrites_of_a_long_function_are_verified(long_pair: tuple[str, str]) -> None:
    text, out = long_pair
    assert verdict(text, out) == VERIFIED
    extra = out.replace("    return\n", "    gpu.wait\n    return\n", 1)
    assert extra != out and verdict(text, extra) == VERIFIED
    renamed = re.sub(r"%(\d+)\b", lambda m: f"%tok{m.group(1)}", out)
    assert renamed != out and verdict(text, renamed) == VERIFIED


def test_work_left_running_past_the_end_of_a_long_function_is_refuted(long_pair: tuple[str, str]) -> None:
    text, out = long_pair
    lines = out.splitlines(keepends=True)
    waits = [i for i, ln in enumerate(lines) if ln.strip().startswith("gpu.wait [") and "=" not in ln]
    # The last wait, the first, and the second (in the first execute body:
    # the wait before its yield, so that its last launch runs past the
    # function's end, far away).
    for at in (waits[-1], waits[0], waits[1]):
        dropped = "".join(lines[:at] + lines[at + 1 :])
        assert verdict(text, dropped) == REFUTED, at
    # The first launch's token never waited on: its dependent is made
    # independent of it, and nothing else waits for it.
    first = next(i for i, ln in enumerate(lines) if "gpu.launch_func async" in ln)
    name = re.match(r"\s*(%\S+) =", lines[first])
    assert name is not None
    cut = "".join(ln.replace(f"[{name.group(1)}]", "[]") if i > first else ln for i, ln in enumerate(lines))
    assert cut != out and verdict(text, cut) == REFUTED


def test_a_token_from_a_block_that_does_not_dominate_its_use_is_refuted() -> None:
    text = blocks(3)
    out = RefimplImpl("reference")(text)
    assert verdict(text, out) == VERIFIED
    lines = out.splitlines(keepends=True)
    body = lines.index("  ^bb2:  // pred: ^bb1\n") if "  ^bb2:  // pred: ^bb1\n" in lines else None
    # The first launch's token defined in the loop body, used at the exit
    # (which the body does not dominate): ill-formed, so refuted.
    launch = next(i for i, ln in enumerate(lines) if "gpu.launch_func async" in ln)
    token = re.match(r"\s*(%\S+) =", lines[launch])
    assert token is not None
    ret = max(i for i, ln in enumerate(lines) if ln.strip() == "return")
    bad = "".join(lines[:ret] + [f"    gpu.wait [{token.group(1)}]\n"] + lines[ret:])
    assert verdict(text, bad) == REFUTED, (body, bad)


def test_a_wait_moved_out_of_the_loop_body_is_refuted() -> None:
    text = blocks(3)
    out = RefimplImpl("reference")(text)
    lines = out.splitlines(keepends=True)
    waits = [i for i, ln in enumerate(lines) if ln.strip().startswith("gpu.wait [")]
    assert waits
    # The body's wait before its host call, taken out: the call races the launches.
    dropped = "".join(ln for i, ln in enumerate(lines) if i != waits[0])
    assert verdict(text, dropped) == REFUTED
