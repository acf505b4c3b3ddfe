"""Metamorphic checks of the verifier on the gate's corpus and generated programs.

- Identity: a program is a correct rewrite of itself (it adds nothing and
  every op stays where it was), so `check(P, P)` is never refuted, and is
  verified wherever the verifier models the program.
- Redundant waits: adding a wait can only add ordering, so a verified
  rewrite stays verified after every blocking `gpu.wait` is doubled and a
  no-op `gpu.wait` is put in front of every op.
- No waits: removing every blocking `gpu.wait` from the refimpl's rewrite is
  refuted whenever a synchronous GPU op sits at the top level of a
  single-block function (its `func.return`, an effectful event that the
  input orders after the GPU op, is then unordered with it).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import verifier
from spec.gpu_async import is_gpu_async, new_wait
from spec.ir import Operation
from spec.syntax.parser import parse_module
from spec.syntax.printing import print_op
from tests.support.profiles import examples
from verifier.harness.gate import RefimplImpl
from verifier.programs.generators import STRAIGHT, Features, programs

CORPUS = sorted((Path(__file__).parents[2] / "verifier" / "corpus").glob("*.mlir"))
SETTINGS = settings(
    max_examples=examples(15),
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


def _verdict(input_text: str, output_text: str) -> str:
    return verifier.check(parse_module(input_text, "<input>"), parse_module(output_text, "<output>")).verdict


def _blocks(module: Operation) -> list:
    return [b for op in module.walk() if op.name == "func.func" for o in op.walk() for r in o.regions for b in r.blocks]


def add_redundant_waits(text: str) -> str:
    """Double every blocking wait; put a no-op `gpu.wait` before every op of
    the functions' own blocks, user waits and awaits included (not in nested
    regions, where a GPU op makes the verifier model the region op in
    detail)."""
    module = parse_module(text, "<rewrite>")
    for block in _blocks(module):
        new_ops = []
        for op in block.ops:
            top = block.parent_op is not None and block.parent_op.name == "func.func"
            if top:
                new_ops.append(new_wait(op.loc, [], False))
            new_ops.append(op)
            if op.name == "gpu.wait" and not op.results and op.operands:
                new_ops.append(new_wait(op.loc, list(op.operands), False))
        block.ops[:] = []
        for op in new_ops:
            block.append(op)
    return print_op(module)


def remove_blocking_waits(text: str) -> str:
    module = parse_module(text, "<rewrite>")
    for block in _blocks(module):
        block.ops[:] = [op for op in block.ops if not (op.name == "gpu.wait" and not op.results)]
    return print_op(module)


def _has_sync_gpu_op_at_top(text: str) -> bool:
    for func in (op for op in parse_module(text, "<input>").walk() if op.name == "func.func"):
        blocks = func.regions[0].blocks if func.regions else []
        if len(blocks) == 1 and any(
            is_gpu_async(op) and op.name != "gpu.wait" and not op.results for op in blocks[0].ops
        ):
            return True
    return False


def _identity(text: str) -> None:
    verdict = _verdict(text, text)
    # `bounded` where loops carry tokens: proved up to the bound, not refuted.
    assert verdict in ("verified", "bounded", "unknown"), f"the identity rewrite is {verdict}:\n{text}"


def _redundant(text: str) -> None:
    out = RefimplImpl("reference")(text)
    base = _verdict(text, out)
    if base not in ("verified", "bounded"):
        return
    padded = add_redundant_waits(out)
    verdict = _verdict(text, padded)
    assert verdict in (base, "verified"), (
        f"adding redundant waits makes a verified rewrite {verdict}:\n{text}\n{padded}"
    )


def _no_waits(text: str) -> bool:
    if not _has_sync_gpu_op_at_top(text):
        return False
    out = RefimplImpl("reference")(text)
    if _verdict(text, out) not in ("verified", "bounded"):  # a program the verifier does not model
        return False
    stripped = remove_blocking_waits(out)
    verdict = _verdict(text, stripped)
    assert verdict == "refuted", f"removing every wait is {verdict}, not refuted:\n{text}\n{stripped}"
    return True


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_identity_on_corpus(path: Path) -> None:
    _identity(path.read_text())


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_redundant_waits_on_corpus(path: Path) -> None:
    _redundant(path.read_text())


def test_no_waits_on_corpus() -> None:
    applicable = [p.name for p in CORPUS if _no_waits(p.read_text())]
    assert len(applicable) >= 5, applicable


@SETTINGS
@given(program=programs(Features(max_functions=1)))
def test_identity_on_generated(program) -> None:
    _identity(program.text)


@SETTINGS
@given(program=programs(STRAIGHT))
def test_identity_verifies_straight_line(program) -> None:
    # Straight-line code is fully modelled: the identity must verify.
    assert _verdict(program.text, program.text) == "verified", program.text


@SETTINGS
@given(program=programs(Features(max_functions=1)))
def test_redundant_waits_on_generated(program) -> None:
    _redundant(program.text)


@SETTINGS
@given(program=programs(STRAIGHT))
def test_no_waits_on_generated(program) -> None:
    _no_waits(program.text)


@pytest.mark.parametrize("name", ["user_tokens.mlir", "async_execute_await.mlir", "gpu_then_await_token.mlir"])
def test_redundant_wait_before_a_user_wait(name: str) -> None:
    # Regression: the verifier's op matching once paired an added no-op wait
    # with the input's own `gpu.wait async` / `async.await` and refuted.
    text = (Path(__file__).parents[2] / "verifier" / "corpus" / name).read_text()
    out = RefimplImpl("reference")(text)
    assert _verdict(text, out) == "verified"
    assert _verdict(text, add_redundant_waits(out)) == "verified"
