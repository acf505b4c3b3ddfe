"""Property: the dynamic semantics and the static happens-before graph agree.

For small straight-line programs mixing synchronous and asynchronous GPU ops,
token joins, blocking waits and host accesses, exhaustive exploration
(`spec.semantics.schedule.explore(pairs=True)`) finds two effectful events
unordered in some run exactly when the happens-before graph of
`spec.semantics.events` orders neither before the other."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from spec.semantics.interp import default_args
from spec.semantics.schedule import explore
from tests.support import path_builder as hbgraph
from tests.support.explore import func_of

BUFS = ("%dev", "%host")


@st.composite
def programs(draw: st.DrawFn) -> str:
    """Up to five ops, each a GPU op (sync or async, deps drawn from the
    tokens defined so far), a join, a blocking wait, or a host load, store or
    call. Shrinks towards fewer, synchronous ops."""
    tokens = ["%t0"]
    lines = ["%c2f = arith.constant 2.0 : f32", "%t0 = gpu.wait async"]
    n = draw(st.integers(1, 5))
    for i in range(n):
        kind = draw(st.sampled_from(["launch", "memcpy", "memset", "load", "store", "call", "wait", "join"]))
        deps = draw(st.lists(st.sampled_from(tokens), max_size=2, unique=True))
        is_async = draw(st.booleans())
        buf = draw(st.sampled_from(BUFS))
        other = BUFS[1 - BUFS.index(buf)]
        dep_text = ("async " if is_async else "") + (f"[{', '.join(deps)}] " if deps else "")
        res = f"%r{i} = " if is_async and kind in ("launch", "memcpy", "memset") else ""
        if kind == "launch":
            lines.append(f"{res}gpu.launch_func {dep_text}@k::@scale LAUNCH args({buf} : memref<4xf32>)")
        elif kind == "memcpy":
            lines.append(f"{res}gpu.memcpy {dep_text}{buf}, {other} : memref<4xf32>, memref<4xf32>")
        elif kind == "memset":
            lines.append(f"{res}gpu.memset {dep_text}{buf}, %c2f : memref<4xf32>, f32")
        elif kind == "load":
            lines.append(f"%x{i} = memref.load {buf}[%c0] : memref<4xf32>")
        elif kind == "store":
            lines.append(f"memref.store %c2f, {buf}[%c1] : memref<4xf32>")
        elif kind == "call":
            lines.append(f"func.call @consume({buf}) : (memref<4xf32>) -> ()")
        elif kind == "wait" and deps:
            lines.append(f"gpu.wait [{', '.join(deps)}]")
        elif kind == "join":
            lines.append(f"%r{i} = gpu.wait async [{', '.join(deps)}]")
            res = f"%r{i} = "
        if res:
            tokens.append(f"%r{i}")
    return "\n".join("    " + x for x in lines) + "\n    return"


def _reach(g: hbgraph.EventGraph, src: int) -> set[int]:
    seen = {src}
    stack = [src]
    while stack:
        for b in g.succ[stack.pop()]:
            if b not in seen:
                seen.add(b)
                stack.append(b)
    return seen


@settings(max_examples=40, deadline=None)
@given(programs())
def test_exploration_and_happens_before_graph_agree(body):
    f = func_of(body)
    g = hbgraph.build(f)
    # An example the graph does not model checks nothing: rejected, so that
    # Hypothesis fails (Unsatisfiable) if no example applies.
    assume(not g.unsupported)
    ex = explore(f, default_args(f), pairs=True)
    assert ex.complete
    # Straight-line code: every effectful op runs once; key the dynamic
    # events by op location, the static ones by op.
    # Boundary events (the caller, receivers, the end) have no step in the
    # exploration of one function.
    static = {ev.op: ev for ev in g.events if not ev.role}
    concurrent_locs = set()
    for a, b in ex.concurrent:
        concurrent_locs.add(frozenset((a.split("@", 1)[1], b.split("@", 1)[1])))
    ops = [op for op in static]
    reach = {op: _reach(g, static[op].end) for op in ops}
    for i, a in enumerate(ops):
        for b in ops[i + 1 :]:
            ordered = static[b].start in reach[a] or static[a].start in reach[b]
            dynamic = frozenset((str(a.loc), str(b.loc))) in concurrent_locs
            assert ordered != dynamic, (
                f"{a.name}@{a.loc} / {b.name}@{b.loc}: graph ordered={ordered}, exploration unordered={dynamic}\n{body}"
            )
