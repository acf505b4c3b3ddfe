"""One path of a guarded graph (`guarded_graph.py`): its decisions and its graph.

The verifier asks every path at once, by a solver over the guarded graph;
what needs a concrete path takes it out of that graph here: the second
oracle (graph reachability) on a counterexample's path, rebuilt from the
model's decisions, and on sampled paths (`verifier/proof/every_path.py`),
and the report naming a path's decisions in words (`describe_choice`). A
list of choices names a path as a path builder takes it (`assignment`);
`on_path` is the guarded graph restricted to the nodes and edges whose
condition holds on that path, its `join` nodes contracted. Only the graph
and its conditions are read here, not how the graph was built.
"""

from __future__ import annotations

from collections.abc import Mapping

from spec import registry
from spec.ir import Operation
from spec.semantics.conditions import TRUE, Symbols
from spec.semantics.events import Event, EventGraph
from spec.semantics.guarded_graph import GuardedGraph
from spec.semantics.interp import switch_values


def assignment(
    g: GuardedGraph, sym: Symbols, choices: list[int], free: Mapping[int, int] | None = None
) -> tuple[dict[int, int], list[int]]:
    """The decisions of the path `choices` names, as a path builder takes
    them: the decisions met on the path, in the order met, each taking the
    next entry (missing or out of range: its first option); a decision met
    again (the same condition) keeps the option it took. A free decision
    (`Decision.free`, the output's alone) takes its option from `free`
    (else its first) and no entry. Returns the option of every decision met
    and the path's choices in full."""
    values: dict[int, int] = {}
    taken: list[int] = []
    holds = _Evaluator(sym, values)
    for d, pc in g.met:
        if not holds(pc):
            continue
        if sym.decisions[d].free:
            if d not in values:
                values[d] = (free or {}).get(d, 0)
                holds.forget()
            continue
        if d not in values:
            k = len(taken)
            options = sym.decisions[d].options
            values[d] = choices[k] if k < len(choices) and 0 <= choices[k] < options else 0
            holds.forget()
        taken.append(values[d])
    return values, taken


class _Evaluator:
    """Conditions under a (partial) assignment of the decisions; a decision
    not assigned takes its first option."""

    def __init__(self, sym: Symbols, values: dict[int, int]) -> None:
        self.sym, self.values = sym, values
        self.memo: dict[int, bool] = {TRUE: True}

    def forget(self) -> None:
        self.memo = {TRUE: True}

    def __call__(self, c: int) -> bool:
        v = self.memo.get(c)
        if v is None:
            term = self.sym.conds[c]
            op = term[0]
            if op == "opt":
                v = self.values.get(term[1], 0) == term[2]
            elif op == "runs":
                v = self.values.get(term[1], 0) >= term[2]
            elif op == "and":
                v = self(term[1]) and self(term[2])
            elif op == "or":
                v = any(self(x) for x in term[1])
            elif op == "not":
                v = not self(term[1])
            else:
                v = True
            self.memo[c] = v
        return v


def path_choices(g: GuardedGraph, sym: Symbols, choices: list[int]) -> tuple[int, ...]:
    """`on_path(g, sym, choices).choices`, without building the path's
    graph: the options of the decisions the path meets, in order. Sampling
    many choice lists that name few paths asks this first."""
    values, _ = assignment(g, sym, choices)
    holds = _Evaluator(sym, values)
    return tuple(values[d] for d, pc in g.met if holds(pc) and not sym.decisions[d].free)


FREE_STEP = " (the output's own decision: the input's branches have no effect)"
"""How a path names a free decision (`Decision.free`)."""


def on_path(g: GuardedGraph, sym: Symbols, choices: list[int], free: Mapping[int, int] | None = None) -> EventGraph:
    """The graph of one path: `g` under the assignment `choices` names
    (`assignment`), its nodes and edges those whose condition holds, each
    `join` node contracted into the one alternative present on the path,
    nodes renumbered in order. `choices`, `options` and `path` say which
    decisions the path met (a decision met again has one option, as it
    cannot go another way); `truncated` if the path enters a block more
    often than the bound allows (`GuardedGraph.excluded`). A free decision
    (the output's alone) takes its option from `free` and is named in
    `path` only."""
    values, taken = assignment(g, sym, choices, free)
    holds = _Evaluator(sym, values)
    out = EventGraph(g.func)
    out.bounded = g.bounded
    out.truncated = any(holds(c) for c in g.excluded)
    seen: set[int] = set()
    for (d, pc), op in zip(g.met, g.met_ops):
        if holds(pc) and sym.decisions[d].free:
            out.path.append(describe_choice(op, values[d]) + FREE_STEP)
        elif holds(pc):
            out.choices.append(values[d])
            out.options.append(1 if d in seen else sym.decisions[d].options)
            out.path.append(describe_choice(op, values[d]))
            seen.add(d)
    out.loops = set(g.loops)
    kinds = g.kinds
    # Which node each guarded node is on the path (None: absent); a join is
    # the node of its one present alternative.
    present = [kind != "join" and holds(c) for c, kind in zip(g.guards, kinds)]
    # Threads too: those with a node on the path, renumbered in order.
    tids = sorted({0, *(t for t, p in zip(g.threads, present) if p)})
    thread = {t: k for k, t in enumerate(tids)}
    out.thread_ops = [g.thread_ops[t] for t in tids]
    # `EventGraph.node` and `edge` written out (this runs for every sampled
    # path of every cross-check).
    new: list[int | None] = [None] * len(kinds)
    out_kinds, out_ops, out_threads, out_succ = out.kinds, out.ops, out.threads, out.succ
    ops, threads = g.ops, g.threads
    for n, p in enumerate(present):
        if p:
            new[n] = len(out_kinds)
            out_kinds.append(kinds[n])
            out_ops.append(ops[n])
            out_threads.append(thread[threads[n]])
            out_succ.append([])
    _path_edges(g, holds, new, out)
    for ev in g.events:
        s, e = new[ev.start], new[ev.end]
        if s is not None and e is not None:
            out.add_event(Event(ev.op, ev.kind, s, e, thread[ev.thread], role=ev.role))
    out.iterations = [(op, new[first] or 0, new[end]) for op, first, end in g.iterations if new[end] is not None]  # type: ignore[misc]  # new[end] is filtered to an int; mypy cannot narrow an index
    out.unsupported = list(g.unsupported)
    return out


def _path_edges(g: GuardedGraph, holds: _Evaluator, new: list[int | None], out: EventGraph) -> None:
    """`on_path`'s edges: those of `g` present on the path, between the
    nodes `new` numbers, each edge out of a join made an edge out of the
    join's one present alternative, in order of their ends."""
    kinds, guards = g.kinds, g.guards
    # One pass over the edges present (an edge of condition TRUE always
    # is): into a join, the first one names the alternative the join
    # stands for; into a node on the path, an edge of the path's graph
    # once the joins are resolved.
    preds: dict[int, int] = {}
    present_edges: list[tuple[int, int]] = []
    for n, succ in enumerate(g.succ):
        for m, c in zip(succ, g.eguards[n]):
            if c != TRUE and not holds(c):
                continue
            if kinds[m] == "join":
                if holds(guards[m]):
                    preds.setdefault(m, n)
                continue
            b = new[m]
            if b is not None:
                present_edges.append((n, b))

    def rep(n: int) -> int | None:
        while kinds[n] == "join":
            p = preds.get(n)
            if p is None:
                return None
            n = p
        return new[n]

    edges: list[tuple[int, int]] = []
    for n, b in present_edges:
        a = rep(n)
        if a is not None:
            edges.append((a, b))
    edges.sort()
    forward_only = True
    out_succ = out.succ
    for a, b in edges:
        out_succ[a].append(b)
        if a >= b:
            forward_only = False
    out.edge_count = len(edges)
    out.forward_only = forward_only


def describe_choice(op: Operation, c: int) -> str:
    """A decision at `op` and its option in words, as the report names the path."""
    loc, kind = op.loc, op.name
    flow, jump = registry.region_flow(kind), registry.jump_kind(kind)
    if flow == "then_else":
        return f"{kind} at {loc} takes the {'then' if c == 0 else 'else'} branch"
    if flow == "cases":
        cases = getattr(op.properties.get("cases"), "values", ())
        return f"scf.index_switch at {loc} takes its " + (
            "default region" if c == 0 or c > len(cases) else f"case {cases[c - 1]}"
        )
    if jump == "condition":
        return f"cf.cond_br at {loc} goes to its {'true' if c == 0 else 'false'} successor"
    if jump == "cases":
        values = switch_values(op)
        case = f"case {values[c - 1]}" if 0 < c <= len(values) else f"case #{c - 1}"
        return f"cf.switch at {loc} goes to its {'default' if c == 0 else case} successor"
    if registry.token_use(kind) == "select":
        return f"arith.select at {loc} picks its {'true' if c == 0 else 'false'} operand"
    if flow == "counted":
        return f"{kind} at {loc} runs {c} time{'s' if c != 1 else ''}"
    if flow == "while":
        return f"scf.while at {loc} runs its body {c} time{'s' if c != 1 else ''}"
    return f"scf.parallel at {loc} runs {c} iteration{'s' if c != 1 else ''}"
