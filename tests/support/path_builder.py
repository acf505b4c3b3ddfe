"""The path-by-path event model: the reference the guarded graph is tested against.

The verifier builds one graph per function, the guarded graph of every
path (`spec/semantics/guarded_graph.py`); one path is that graph under one
assignment of its decisions (`guarded_path.on_path`). This module keeps the
older, direct construction as a test oracle: `build` unrolls ONE path (a
list of decisions: `scf.if` then/else, `scf.for`/`scf.while`/`scf.parallel`
trip count 0..unroll, `cf.cond_br` true/false successor, `arith.select` on
tokens true/false operand, `scf.index_switch` default/case region, `cf.switch`
successor; a block entered more than unroll+1 times per
region run makes the path `truncated`) into a straight-line graph, binding
tokens through block arguments, `scf.yield` and region results, and
`paths` enumerates every path up to the bound, depth first. Input and
output take the same decisions in the same order, so one decision list
names the same path in both.

The op-level rules (GPU ops, `async.execute`, the boundary) are the
product's (`events.EventBuilder`); only the control flow (rule 8) is
written here a second time, path by path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from spec import registry
from spec.attributes import DenseArrayAttr
from spec.ir import Block, Operation, Region, Value
from spec.semantics.block_states import cyclic_blocks
from spec.semantics.conditions import TRUE
from spec.semantics.event_graph import EventGraph
from spec.semantics.events import DEFAULT_UNROLL, EventBuilder, defining_block_around, defining_block_before
from spec.semantics.guarded_builder import constant_trip_count
from spec.semantics.guarded_path import describe_choice


class PathBuilder(EventBuilder):
    """The graph of one path, given as its decisions."""

    def __init__(self, func: Operation, choices: list[int], unroll: int) -> None:
        super().__init__(func, unroll)
        self.prefix = choices
        self.forced: dict[tuple, int] = {}
        """`same_condition` key -> the option its first decision took."""
        self.block_runs: dict[Block, int] = {}
        """Per block, how many times this path ran it so far."""
        self.region_visits: dict[Region, dict[Block, int]] = {}
        """Per `cf` region, the blocks its current run has entered."""

    def thread(self, block: Block, cur: int | None, tid: int, depth: int) -> tuple[int | None, Operation | None]:
        self.block_runs[block] = self.block_runs.get(block, 0) + 1
        return super().thread(block, cur, tid, depth)

    # -- paths (rule 8) ----------------------------------------------------------

    def decide(self, options: int, describe: Callable[[int], str], same: tuple | None = None) -> int:
        """The next decision of the path: from the given prefix, else the
        first option. Recorded so an enumerator can try the others. A
        decision on the same condition as an earlier one (`same`, see
        `same_condition`) takes its option and is recorded with one option
        only: a path cannot branch two ways on one value."""
        g = self.g
        k = len(g.choices)
        forced = self.forced.get(same) if same is not None else None
        if forced is not None:
            c = forced
            g.options.append(1)
        else:
            c = self.prefix[k] if k < len(self.prefix) and self.prefix[k] < options else 0
            g.options.append(options)
            if same is not None:
                self.forced[same] = c
        g.choices.append(c)
        g.path.append(describe(c))
        return c

    def same_condition(self, op: Operation, cond: Value) -> tuple | None:
        """The key under which decisions on `cond` at `op` are one decision:
        the value and the run of the block that defines it (a value defined
        in a loop body differs per iteration). The defining block may be an
        earlier block of a `cf` region `op` runs in, while the region's run
        has entered no block on a cycle (each block runs once there). None
        elsewhere: then each decision stays free."""
        block = defining_block_around(op, cond)
        if block is None:
            block = defining_block_before(op, cond)
            region = block.parent if block is not None else None
            if block is None or region is None:
                return None
            visits = self.region_visits.get(region, {})
            if any(visits.get(region.blocks[i], 0) for i in cyclic_blocks(region)):
                return None
        return (cond, self.block_runs.get(block, 0))

    def bind(self, dsts: list[Value], srcs: list[Value]) -> None:
        """Values passed to block arguments or region results: a token's
        completion (or availability) follows it (rule 7)."""
        # All at once (`scf.yield %b, %a` swaps two iter_args): read every
        # source before any destination is bound.
        reads = [
            (
                d,
                self.completion_of(v) if d.type.is_gpu_token else None,
                self.available_of(v) if d.type.is_async_token or d.type.is_async_value else None,
                self.inner.get(v),
            )
            for d, v in zip(dsts, srcs)
        ]
        for d, comp, avail, inner in reads:
            if comp is not None:
                self.completion[d] = comp
            elif avail is not None:
                self.available[d] = avail
                if inner is not None:
                    self.inner[d] = inner
                else:
                    self.inner.pop(d, None)

    def region(
        self, region: Region, args: list[Value], cur: int | None, tid: int, depth: int
    ) -> tuple[int | None, Operation | None]:
        """Run `region` on this path: its entry block gets `args`, then the
        blocks `cf.br`/`cf.cond_br` lead to. Returns the last node and the
        terminator that left the region (None if the path was cut)."""
        g = self.g
        if not region.blocks:
            return cur, None
        block = region.blocks[0]
        self.bind(block.args, args)
        visits: dict[Block, int] = {}
        self.region_visits[region] = visits
        while True:
            visits[block] = visits.get(block, 0) + 1
            if visits[block] > 1:
                g.bounded = True
                g.loops.add("cf")
            if visits[block] > self.unroll + 1:
                g.truncated = True
                return cur, None
            cur, _ = self.thread(block, cur, tid, depth)
            term = block.ops[-1] if block.ops else None
            if term is None or term.name not in registry.BRANCH_OPS:
                if term is not None and term.successors:
                    self.unsupported(term, f"'{term.name}' op branches in a way the model cannot follow")
                    return cur, None
                return cur, term
            if term.name == "cf.br":
                nxt, operands = term.successors[0], term.operands
            elif term.name == "cf.switch":
                same = self.same_condition(term, term.operands[0]) if term.operands else None
                c = self.decide(
                    len(term.successors),
                    lambda c, t=term: describe_choice(t, c),
                    # Option k is the k-th case: one decision only with the same cases.
                    (*same, str(term.properties.get("case_values"))) if same is not None else None,
                )
                nxt, operands = term.successors[c], registry.switch_successor_operands(term)[c]
            else:
                sizes = term.properties.get("operandSegmentSizes")
                n_true = sizes.values[1] if isinstance(sizes, DenseArrayAttr) else 0
                c = self.decide(
                    2,
                    lambda c, t=term: f"cf.cond_br at {t.loc} goes to its {'true' if c == 0 else 'false'} successor",
                    self.same_condition(term, term.operands[0]) if term.operands else None,
                )
                nxt = term.successors[c]
                operands = term.operands[1 : 1 + n_true] if c == 0 else term.operands[1 + n_true :]
            self.bind(nxt.args, operands)
            block = nxt

    def select(self, op: Operation, tid: int) -> None:
        """A token chosen by `arith.select %p, %a, %b` is `%a`'s or `%b`'s:
        a decision on `%p` (one with every `scf.if`/`cf.cond_br` on the same
        value; option 0 is the true operand, as 0 is `scf.if`'s then), after
        which the result completes when the chosen operand does (rule 10)."""
        c = self.decide(
            2,
            lambda c: f"arith.select at {op.loc} picks its {'true' if c == 0 else 'false'} operand",
            self.same_condition(op, op.operands[0]),
        )
        self.bind(op.results, [op.operands[1 + c]])

    def control(self, op: Operation, cur: int | None, tid: int, depth: int) -> int | None:
        """A region op holding GPU or async ops: follow the path into it."""
        name = op.name
        g = self.g
        if name in ("scf.if", "affine.if"):
            c = self.decide(
                2,
                lambda c: f"{name} at {op.loc} takes the {'then' if c == 0 else 'else'} branch",
                self.same_condition(op, op.operands[0]) if op.operands and name == "scf.if" else None,
            )
            if c < len(op.regions) and op.regions[c].blocks:
                cur, term = self.region(op.regions[c], [], cur, tid, depth)
                if term is None:
                    return cur
                self.bind(op.results, term.operands)
            return cur
        if name == "scf.index_switch":
            c = self.decide(len(op.regions), lambda c: describe_choice(op, c))
            cur, term = self.region(op.regions[c], [], cur, tid, depth)
            if term is not None:
                self.bind(op.results, term.operands)
            return cur
        if name in ("scf.execute_region", "memref.alloca_scope"):
            cur, term = self.region(op.regions[0], [], cur, tid, depth)
            if term is not None:
                self.bind(op.results, term.operands)
            return cur
        if name in ("scf.for", "affine.for"):
            g.bounded = True
            g.loops.add(name)
            trips = self.decide(self.unroll + 1, lambda c: f"{name} at {op.loc} runs {c} time{'s' if c != 1 else ''}")
            constant = constant_trip_count(op)
            if constant is not None and trips != min(constant, self.unroll):
                # No run of the function takes this path.
                g.truncated = True
            carried = registry.loop_init_operands(op)
            for _ in range(trips):
                first = len(g.kinds)
                cur, term = self._iteration(op.regions[0], carried, cur, tid, depth)
                if term is None:
                    return cur
                carried = term.operands
                # A point closing the iteration on its thread (no ordering of
                # its own): the loop lemma asks what reaches it.
                end = g.node("iter-end", op, tid)
                if cur is not None:
                    g.edge(cur, end)
                cur = end
                g.iterations.append((op, first, end))
            self.bind(op.results, carried)
            return cur
        if name == "scf.parallel":
            return self.scf_parallel(op, cur, tid, depth)
        if name == "scf.while":
            g.bounded = True
            g.loops.add("scf.while")
            trips = self.decide(
                self.unroll + 1, lambda c: f"scf.while at {op.loc} runs its body {c} time{'s' if c != 1 else ''}"
            )
            carried = list(op.operands)
            for j in range(trips + 1):
                cur, cond = self.region(op.regions[0], carried, cur, tid, depth)
                if cond is None:
                    return cur
                passed = cond.operands[1:]
                if j == trips:
                    self.bind(op.results, passed)
                    return cur
                cur, term = self.region(op.regions[1], passed, cur, tid, depth)
                if term is None:
                    return cur
                carried = term.operands
            return cur
        return super().control(op, cur, tid, depth)

    def _iteration(
        self, region: Region, carried: list[Value], cur: int | None, tid: int, depth: int
    ) -> tuple[int | None, Operation | None]:
        """One iteration of an `scf.for` body: the induction variable is not a
        token, so only the loop-carried values are bound."""
        if not region.blocks:
            return cur, None
        block = region.blocks[0]
        self.bind(block.args[1:], carried)
        if len(region.blocks) == 1:
            cur, _ = self.thread(block, cur, tid, depth)
            return cur, block.ops[-1] if block.ops else None
        self.unsupported(region.parent or self.g.func, "'scf.for' body with several blocks is not modelled")
        return cur, None

    def scf_parallel(self, op: Operation, cur: int | None, tid: int, depth: int) -> int | None:
        """`scf.parallel`: its iterations may run at once, so each is a thread
        of its own, begun where the op is met; the op ends when every
        iteration has (the point it returns). 0..unroll iterations, one
        decision. Reductions (results) are not modelled."""
        g = self.g
        if op.results or len(op.regions[0].blocks) != 1:
            self.unsupported(op, "'scf.parallel' with reductions or several blocks is not modelled")
            return cur
        g.bounded = True
        g.loops.add("scf.parallel")
        trips = self.decide(
            self.unroll + 1, lambda c: f"scf.parallel at {op.loc} runs {c} iteration{'s' if c != 1 else ''}"
        )
        ends = [self.iteration_thread(op, cur, depth) for _ in range(trips)]
        return self.parallel_end(op, cur, tid, [(TRUE, e) for e in ends])


def build(func: Operation, choices: list[int] | None = None, unroll: int = DEFAULT_UNROLL) -> EventGraph:
    """The happens-before graph of `func` (a `func.func` with a body) on the
    path given by `choices` (missing decisions take their first option;
    `EventGraph.choices`/`options` say which decisions were met)."""
    b = PathBuilder(func, list(choices or []), unroll)
    g = b.g
    g.thread_ops.append(None)
    if not func.regions or not func.regions[0].blocks:
        return g
    start = g.node("point", func, 0)
    b.incoming(func)
    last, term = b.region(func.regions[0], [], start, 0, 0)
    if term is not None:
        b.program_end(func, last)
    return g


MAX_PATHS = 256
"""Paths enumerated per function before giving up (`unknown`)."""


class TooManyPaths(Exception):
    """More than the allowed number of paths."""


def paths(func: Operation, unroll: int = DEFAULT_UNROLL, limit: int = MAX_PATHS) -> Iterator[EventGraph]:
    """Every path of `func` up to `unroll` loop iterations, one graph each.

    Depth-first over decision sequences: build a path from a prefix (later
    decisions take their first option), then queue every alternative of each
    decision made after the prefix. Each complete sequence is built once.
    Raises `TooManyPaths` after `limit` paths."""
    stack: list[list[int]] = [[]]
    count = 0
    while stack:
        prefix = stack.pop()
        g = build(func, prefix, unroll)
        count += 1
        if count > limit:
            raise TooManyPaths(f"more than {limit} paths (branch choices x trip counts up to {unroll})")
        for i in range(len(prefix), len(g.choices)):
            for alt in range(g.options[i] - 1, g.choices[i], -1):
                stack.append([*g.choices[:i], alt])
        yield g
