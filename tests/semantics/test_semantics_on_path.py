"""One path is the guarded graph under one assignment of its decisions
(`guarded_path.on_path`): on every path of hand-written and generated
control flow it is the graph the path-by-path reference builds
(`tests/support/path_builder.py`), node for node, edge for edge."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from spec.ir import Operation
from spec.semantics.conditions import Symbols
from spec.semantics.event_graph import EventGraph
from spec.semantics.guarded_builder import build_guarded
from spec.semantics.guarded_path import on_path
from spec.syntax.parser import parse_module
from tests.support import control_programs, path_builder
from verifier.programs.generators import Features, programs

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted(ROOT.joinpath("verifier", "corpus").glob("*.mlir")) + sorted(
    ROOT.joinpath("tests", "wide_verify").glob("*.mlir")
)
"""The gate's corpus and the `affine.for`/`affine.if`/`cf.switch` programs."""
PROGRAMS = {
    name: getattr(control_programs, name)
    for name in dir(control_programs)
    if name.endswith(("_IN", "_GOOD")) and isinstance(getattr(control_programs, name), str)
}


def shape(g: EventGraph) -> tuple:
    edges = [list(bs) for bs in g.succ]
    evs = [(id(e.op), e.kind, e.start, e.end, e.thread, e.occurrence, e.role) for e in g.events]
    return (list(zip(g.kinds, map(id, g.ops), g.threads)), edges, evs, g.choices, g.options, g.path, g.truncated)


def functions(text: str, name: str) -> list[Operation]:
    m = parse_module(text, name)
    return [op for op in m.walk() if op.name == "func.func" and op.regions and op.regions[0].blocks]


def same_on_every_path(func: Operation, unroll: int = 2) -> int:
    sym = Symbols()
    g = build_guarded(func, sym, None, unroll)
    n = 0
    try:
        refs = list(path_builder.paths(func, unroll))
    except path_builder.TooManyPaths:
        return n
    for ref in refs:
        if ref.unsupported:
            return n
        mine = on_path(g, sym, ref.choices)
        if ref.truncated:
            # Not checked by either: the reference stops where the bound cuts.
            assert mine.truncated and mine.choices[: len(ref.choices)] == ref.choices, ref.path
            continue
        assert shape(mine) == shape(ref), ref.path
        n += 1
    return n


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_corpus(path: Path) -> None:
    for f in functions(path.read_text(), path.name):
        same_on_every_path(f)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("unroll", [1, 2])
def test_control_programs(name: str, unroll: int) -> None:
    assert sum(same_on_every_path(f, unroll) for f in functions(PROGRAMS[name], "in.mlir")) > 0


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(programs(Features(max_functions=1, max_ops=4, max_depth=2)))
def test_generated(p) -> None:  # type: ignore[no-untyped-def]
    for f in functions(p.text, "gen.mlir"):
        same_on_every_path(f)
