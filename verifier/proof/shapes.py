"""Proofs of pairs of graphs shared across checks, by the pairs' shape.

Many small functions have the same pair of event graphs up to the ops the
events stand for: a launch or a memset, a store or a call, make the same
nodes, edges and events. The proof of a pair (`every_path.check_all_paths`
over all paths, `one_path.prove_one_path` on the one path) reads the
graphs, the correspondence and the options only through what `proof_key`
keeps, so two pairs of equal keys get the same proof: the same obligations,
each proved (or not) the same way, the same cross-checks by reachability on
the same sampled paths. An exhaustive run hands its checks one table
(`CheckOptions.shapes`): a pair whose key is there is not proved again; its
counts are taken from the table.

What the key keeps, per graph: its nodes (kind, thread, condition), edges
with their conditions, events (kind, role, start, end, thread, occurrence)
and which events are of one op, the loops unrolled in it and whether a
token crosses their iterations, the excluded and met conditions, the path
count, the bound, the edge-direction flags the slices read; across the two:
which output event each input event is (by occurrence key, as the guarded
prover maps them) and which output op each input op is (by the
correspondence, as the one-path proof and the cross-checks map them); the
decisions (kind, options, free) and the conditions' terms; the unroll bound
and the seed of the sampled paths. The ops themselves, their names and
locations, are read only to word a violation or a reason, and only proofs
with neither are kept: every obligation proved and cross-checked, nothing
undecided, no verdict decided early. The loop lemma is not kept: it is
checked on the graphs at hand each time (`LoopLemma` names the loop's
location).
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING

from spec.semantics.guarded_graph import ALWAYS
from verifier.proof.lemma import crosses_iterations
from verifier.recent import Recent

if TYPE_CHECKING:
    from spec.semantics.conditions import Symbols
    from spec.semantics.guarded_graph import GuardedGraph
    from verifier.match.correspondence import Correspondence
    from verifier.proof.run import FunctionRun


@dataclass(frozen=True)
class KnownProof:
    """What a clean proof of a pair of graphs added to its function's tally."""

    obligations: int
    proved: int
    agreements: int
    sampled_paths: int


class KnownProofs(Recent[KnownProof]):
    """Clean proofs of pairs of graphs by `proof_key`, the most recent
    `capacity` of them (the bound keeps a run's memory flat). `hits` counts
    the proofs taken from the table."""

    def __init__(self, capacity: int = 2_000) -> None:
        super().__init__(capacity)


_EVENT = attrgetter("kind", "role", "start", "end", "thread", "occurrence")


def graph_shape(g: GuardedGraph) -> tuple:
    """One graph's part of `proof_key` (see the module docstring)."""
    ops: dict[int, int] = {}
    return (
        tuple(g.kinds),
        tuple(g.threads),
        tuple(g.guards),
        tuple(map(tuple, g.succ)),
        tuple([() if e is ALWAYS else tuple(e) for e in g.eguards]),
        tuple(map(_EVENT, g.events)),
        tuple([ops.setdefault(id(ev.op), len(ops)) for ev in g.events]),
        tuple(sorted(g.loops)),
        tuple([(first, end, crosses_iterations(loop)) for loop, first, end in g.iterations]),
        tuple(g.excluded),
        tuple(g.met),
        g.path_count,
        g.bounded,
        g.forward_only,
        g.forward_but_extern,
    )


def proof_key(kind: str, run: FunctionRun, sym: Symbols, gin: GuardedGraph, gout: GuardedGraph) -> tuple:
    """The key of the proof `kind` ("all" or "one") of the pair `gin`,
    `gout` in `run` (see the module docstring)."""
    corr: Correspondence = run.corr
    index = {k: j for j, k in enumerate(gout.keys)}
    matched = tuple(index.get(k, -1) for k in gin.keys)
    out_ops: dict[int, int] = {}
    for ev in gout.events:
        out_ops.setdefault(id(ev.op), len(out_ops))
    in_ops: dict[int, int] = {}
    mapped: list[int] = []
    for ev in gin.events:
        if id(ev.op) not in in_ops:
            in_ops[id(ev.op)] = len(in_ops)
            other = corr.to_output.get(ev.op)
            mapped.append(out_ops.get(id(other), -1) if other is not None else -1)
    decisions = tuple((d.kind, d.options, d.free) for d in sym.decisions)
    opts = run.options
    return (
        kind,
        opts.unroll,
        opts.seed,
        graph_shape(gin),
        graph_shape(gout),
        matched,
        tuple(mapped),
        decisions,
        tuple(sym.conds),
    )
