"""The fast paths of matching, well-formedness and the event graphs agree
with the general code they stand for.

Each fast path (`correspondence._same_operands`, `correspondence.movable`,
`GuardedGraph.gpu_nodes`) is written out for speed; these
tests hold it to the general definition on the corpus and on small graphs
built both ways.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from refimpl import functions, rewrite
from spec import registry
from spec.diagnostics import DiagnosticError
from spec.ir import Block, Operation
from spec.semantics.conditions import TRUE, Symbols
from spec.semantics.event_graph import EventGraph
from spec.semantics.guarded_builder import build_guarded
from spec.semantics.guarded_graph import ALWAYS, GuardedGraph
from spec.syntax.parser import parse_module
from verifier.match import correspondence, wellformed
from verifier.match.correspondence import _PLUMBING, _same_operands, _segmented, match, movable
from verifier.match.wellformed import well_formed

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted((ROOT / "verifier" / "corpus").glob("*.mlir"))


def _pairs(path: Path) -> list[tuple[Operation, Operation]]:
    """(input, refimpl output) functions of a corpus file."""
    text = path.read_text()
    fins = functions(parse_module(text, path.name))
    out = parse_module(text, path.name)
    assert rewrite(out).ok
    return list(zip(fins, functions(out)))


def _general_operands(a: Operation, b: Operation, vmap: dict) -> bool:
    """The operand check of `_Matcher.op` as written in general."""
    ga, gb = _segmented(a), _segmented(b)
    if len(ga) != len(gb) or any(len(x) != len(y) for x, y in zip(ga, gb)):
        return False
    return all(vmap.get(x) is y for xs, ys in zip(ga, gb) for x, y in zip(xs, ys))


def _general_movable(op: Operation) -> bool:
    """`movable` as first written: with generators over the operands."""
    info = correspondence.registry.lookup(op.name)
    if not (info.pure and not info.terminator) or op.regions or op.successors:
        return False
    return not any(v.type.text in _PLUMBING for v in op.operands) and not any(
        r.type.text in _PLUMBING for r in op.results
    )


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_operand_fast_path_agrees_on_matched_pairs(path: Path) -> None:
    for fin, fout in _pairs(path):
        corr = match(fin, fout)
        assert not corr.mismatches and not well_formed(fout)
        # The value map as the matcher leaves it: every matched op's results
        # and block arguments, which is all the operand check reads.
        m = correspondence._Matcher()
        m.op(fin, fout)
        vmap = m.vmap
        for a, b in corr.to_output.items():
            # Matched, so the general check passes; the fast path (which may
            # only say "not shown") must not contradict it.
            assert _general_operands(a, b, vmap)
            # An output op of the same name but other operands is taken for
            # `a` only if the general check would take it too.
            for other in corr.to_output.values():
                if other is not b and other.name == b.name and _same_operands(a, other, vmap.get):
                    assert _general_operands(a, other, vmap)
        for op in fout.walk():
            assert movable(op) == _general_movable(op), op.name


def _build(g: EventGraph, cond: int, cur: int | None, deps_from: list[int], use_fast: bool) -> int:
    """A GPU op's nodes after a few nodes, by `gpu_nodes` or by the
    general sequence of `node`, `edge` calls it stands for."""
    op = Operation("gpu.memcpy")
    if isinstance(g, GuardedGraph):
        g.cond = cond
    if use_fast:
        return g.gpu_nodes(cur, op, 0, deps_from)
    i = g.node("issue", op, 0)
    if cur is not None:
        g.edge(cur, i)
    s = g.node("start", op, 0)
    g.edge(i, s)
    for d in deps_from:
        g.edge(d, s)
    f = g.node("finish", op, 0)
    g.edge(s, f)
    return i


def _state(g: GuardedGraph) -> tuple:
    eg = [list(e) if e is not ALWAYS else "always" for e in g.eguards]
    return (
        g.kinds,
        [o.name if o else None for o in g.ops],
        g.threads,
        g.guards,
        g.succ,
        eg,
        g.edge_count,
        g.forward_only,
        g.forward_but_extern,
    )


@pytest.mark.parametrize("guarded_cond", [False, True])
@pytest.mark.parametrize("with_cur", [False, True])
def test_gpu_nodes_is_the_general_sequence(guarded_cond: bool, with_cur: bool) -> None:
    sym = Symbols()
    c = sym.cond(("opt", 0, 1)) if guarded_cond else TRUE
    graphs = []
    for fast in (False, True):
        g = GuardedGraph(Operation("func.func"))
        for _ in range(3):
            g.node("point", None, 0)
        g.edge(0, 1)
        cur = 2 if with_cur else None
        # A dependency that is also `cur`, one with a list of conditions.
        g.edge_when(1, 2, c)
        _build(g, c, cur, [1, 2] if with_cur else [1], fast)
        if fast:
            g.node_after(3, "point", None, 0)
        else:
            g.edge(3, g.node("point", None, 0))
        graphs.append(_state(g))
    assert graphs[0] == graphs[1]
    # The plain graph's `gpu_nodes` is the same sequence too.
    plain = [EventGraph(Operation("func.func")) for _ in range(2)]
    for g, fast in zip(plain, (False, True)):
        g.node("point", None, 0)
        _build(g, TRUE, 0, [0], fast)
    assert (
        plain[0].succ == plain[1].succ
        and plain[0].kinds == plain[1].kinds
        and plain[0].edge_count == plain[1].edge_count
    )


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_guarded_graphs_are_deterministic(path: Path) -> None:
    # Built twice, the graphs are the same (the per-name caches filled by
    # the first build change nothing for the second).
    for fin, fout in _pairs(path):
        states = []
        for _ in range(2):
            sym = Symbols()
            gin = build_guarded(fin, sym, None)
            back = {o: i for i, o in match(fin, fout).to_output.items()}
            gout = build_guarded(fout, sym, back.get)
            states.append((_state(gin), _state(gout)))
        assert states[0] == states[1]


def _undominated_in_general(dom: Any, op: Operation) -> int | None:
    """`first_undominated` written as `dominates` of each operand."""
    return next((k for k, v in enumerate(op.operands) if not dom.dominates(v, op)), None)


DOMINANCE_FILES = sorted(
    p for d in ("verifier/corpus", "tests/corpus", "tests/wide") for p in (ROOT / d).glob("*.mlir")
)


@pytest.mark.parametrize("seed", range(120))
def test_operands_from_other_blocks_are_decided_as_dominance_says(seed: int) -> None:
    # Ops moved to random places of other blocks and regions (at any depth,
    # CFG blocks included), so that some definitions no longer dominate
    # their uses: the per-pair-of-blocks path (`_Dominance.relation`)
    # against `dominates` on every op.
    rng = random.Random(seed)
    path = DOMINANCE_FILES[seed % len(DOMINANCE_FILES)]
    try:
        module = parse_module(path.read_text(), path.name, allow_unregistered=True)
    except DiagnosticError:
        pytest.skip(f"{path.name} is not one module (chunks, or an input that is refused)")
    for func in functions(module):
        blocks = [b for op in func.walk() for r in op.regions for b in r.blocks]
        ops = [op for b in blocks for op in b.ops if not registry.lookup(op.name).terminator]
        for _ in range(min(6, len(ops))):
            op = rng.choice(ops)
            target = rng.choice(blocks)
            if op.parent is None or any(target is b for b in _blocks_inside(op)):
                continue
            op.parent.ops.remove(op)
            target.insert(rng.randrange(len(target.ops) + 1), op)
        fast, general = wellformed._Dominance(), wellformed._Dominance()
        for op in func.nested_ops():
            if op.operands:
                assert fast.first_undominated(op) == _undominated_in_general(general, op), (path.name, op)


def _blocks_inside(op: Operation) -> list[Block]:
    return [b for inner in op.walk() for r in inner.regions for b in r.blocks]
