"""The compositional proof: each closed region proved once, on its own.

The pass is compositional: every block gets a fresh token and waits for it
at its terminator, so nothing a region starts is pending where it ends.
The proof follows it. A region op (`scf.for`, `scf.if`, `scf.while`, ...)
is *closed* when no token-like value (`!gpu.async.token`, `!async.token`,
`!async.value`, `!async.group`) crosses its boundary, in the input and in
the output: none among its operands, results or region arguments, none
defined outside and used inside. For a closed op

- every run of each of its regions is proved apart (`build_region`): the
  input's obligations of that run, on the output's graph of that run, with
  the closed ops inside already summarised. One run of a loop body stands
  for every iteration: no unrolling, no bound;
- the output's run must leave nothing pending: every event of the run, and
  every `async.execute` body begun in it, ends before the run's last point
  (on every path of the run);
- in the enclosing graph the op is one host point `P` (an event touching
  any memory if the input's regions hold any event).

Why that proves the function (docs/design.md, "compositional proof"):

- two events inside one run: the run's own proof. No path between them
  leaves the run, since nothing crossing the boundary can order them;
- two events in different runs (iteration i, then i+1; `before`, then
  `after` of a while): in the output the first ends before its run's last
  point, which comes before the second run on the host thread;
- an event `x` outside and one inside (or the reverse): the input orders
  them only through the op's entry (exit), so the enclosing input graph
  has `x` before `P` (after), an obligation proved on the enclosing output
  graph, where `P`'s node is the op's entry and exit: entry before every
  inside event, every inside event (checked) before the exit.

Summarising can only add obligations (the input's `P` stands for every
effect, whether or not a path inside has one), so a `verified` or `bounded`
answer is sound. A run refuted on its own is the function's refutation
when no decision in it can contradict the way to it (`independent`) and
that way can be told from the structure (`way_in`): its paths,
prefixed by the way in, are paths of the function. Anything else is not trusted: the
function is proved whole, unrolled, as without composition, and that proof
gives the verdict and the counterexample. The loop lemma and the bound apply per run, where a
loop inside carries tokens and is therefore not closed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from spec import registry
from spec.ir import Block, Operation, Region, Value
from spec.semantics.conditions import Symbols
from spec.semantics.events import is_token_type
from spec.semantics.guarded_builder import RegionGraph, build_block, build_guarded, build_region
from spec.semantics.guarded_graph import ALWAYS, MAX_NODES
from spec.semantics.guarded_path import describe_choice
from verifier.proof.every_path import AllPaths, Undecided, check_all_paths, follows_input, ordered_on_every_path
from verifier.proof.lemma import LoopLemma, crosses_iterations
from verifier.proof.one_path import prove_one_path
from verifier.proof.run import FunctionRun, Tally, unsupported_reason
from verifier.smt.encode_guarded import GuardedProver

COMPOSED_OPS = frozenset(n for n in registry.known_ops() if registry.region_flow(n))
"""Region ops the guarded builder models (the registry's `region_flow`),
and so can prove a region of apart."""


def modelled(op: Operation) -> bool:
    """`op` is one the guarded builder models in full (its refusals, kept:
    a region op it would not follow is not summarised either)."""
    if op.name not in COMPOSED_OPS:
        return False
    flow = registry.region_flow(op.name)
    if flow == "parallel":
        return not op.results and len(op.regions[0].blocks) == 1
    if flow == "counted":
        return len(op.regions[0].blocks) == 1
    return True


def crossing_ops(func: Operation) -> set[Operation]:
    """The ops nested in `func` that a token-like value crosses the boundary
    of: one with an operand, result or region argument (at any depth) of a
    token type, or inside which a token defined outside is used. One walk
    of `func`: a token argument marks the op that owns its block and every
    op around it; a token use marks each op around the user up to the one
    that holds the definition. Asking each region op on its own would walk
    its nest once per enclosing op: quadratic in the nesting depth.

    Each block's chain of enclosing ops (outermost first, `func` left out)
    is made once, when its op is met; the ops around a use that do not
    hold the definition are then the user's chain past its common prefix
    with the definition's chain, with no walk up through parents."""
    crossing: set[Operation] = set()
    # Token-ness by type text, asked once per distinct type (a function of
    # 10,000 GPU ops has a dozen types and 100,000 operands and results).
    token_text: dict[str, bool] = {}

    def tokens(values: Iterable[Value]) -> list[Value]:
        out = []
        for v in values:
            text = v.type.text
            tok = token_text.get(text)
            if tok is None:
                tok = token_text[text] = is_token_type(v.type)
            if tok:
                out.append(v)
        return out

    chains: dict[int, list[Operation]] = {}
    """id of each block of `func` -> the ops around it (the IR keeps the
    blocks alive, so no id is reused during the walk)."""
    todo: list[tuple[Operation, list[Operation]]] = []
    for region in func.regions:
        for block in region.blocks:
            chains[id(block)] = []
            todo.extend((op, []) for op in block.ops)
    uses: list[tuple[Value, list[Operation]]] = []
    while todo:
        op, chain = todo.pop()
        used = tokens(op.operands)
        if used or tokens(op.results):
            crossing.add(op)
        uses.extend((v, chain) for v in used)
        if op.regions:
            inner = [*chain, op]
            for region in op.regions:
                for block in region.blocks:
                    chains[id(block)] = inner
                    if block.args and tokens(block.args):
                        crossing.update(inner)
                    todo.extend((inner_op, inner) for inner_op in block.ops)
    # After the walk: a use may come before its definition (blocks of a
    # CFG in any order).
    held_by: dict[Value, list[Operation]] = {}
    for v, chain in uses:
        held = held_by.get(v)
        if held is None:
            held = held_by[v] = _holders(v, chains)
        k, n = 0, min(len(chain), len(held))
        while k < n and chain[k] is held[k]:
            k += 1
        crossing.update(chain[k:])
    return crossing


def _token_operand_or_result(op: Operation) -> bool:
    """A token-like value is among `op`'s operands or results (so a token
    crosses its boundary: `crossing_ops` has it)."""
    return any(is_token_type(v.type) for v in op.operands) or any(is_token_type(v.type) for v in op.results)


def _holders(v: Value, chains: dict[int, list[Operation]]) -> list[Operation]:
    """The ops inside the walked function that hold `v`'s definition,
    outermost first: the chain of the block it is an argument of, or of
    its defining op's block and that op (none for a value from outside)."""
    owner = v.owner
    if isinstance(owner, Block):
        return chains.get(id(owner), [])
    if isinstance(owner, Operation) and owner.parent is not None and id(owner.parent) in chains:
        return [*chains[id(owner.parent)], owner]
    return []


def _defined_in(v: Value, inside: set[int]) -> bool:
    owner = v.owner
    return owner is not None and id(owner) in inside and (isinstance(owner, (Operation, Block)))


@dataclass
class Composition:
    """What the region proofs established, for the function's proof."""

    summarised_in: dict[Operation, bool] = field(default_factory=dict)
    summarised_out: dict[Operation, bool] = field(default_factory=dict)
    """Closed ops proved apart -> whether their point is an event."""
    runs: int = 0
    """Region runs proved apart."""
    obligations: int = 0
    proved: int = 0
    agreements: int = 0
    z3_checks: int = 0
    bounded_why: str = ""
    """Why a run's proof holds up to the bound only ("" if none is bounded)."""
    proofs: dict[tuple, RunProof] = field(default_factory=dict)
    """Region runs proved so far, by the shape of their pair of graphs
    (`shape`): a run of the same shape is the same proof (a body repeated
    in 1,000 loops is proved once)."""
    refuted: bool = False
    """A run's proof found a violation."""
    refutation: Tally | None = None
    """The violations of a refuted run that stands in its function as it
    stands alone (`independent`): they are the function's."""

    def add(self, proof: RunProof) -> None:
        """One more run proved apart."""
        self.runs += 1
        self.obligations += proof.obligations
        self.proved += proof.proved
        self.agreements += proof.agreements
        self.z3_checks += proof.z3_checks
        self.bounded_why = self.bounded_why or proof.bounded_why


@dataclass(frozen=True)
class RunProof:
    """What one region run's proof established."""

    obligations: int
    proved: int
    agreements: int
    z3_checks: int
    bounded_why: str
    """Why it holds up to the bound only; "" if for every trip count."""
    events: bool
    """The input's run holds an event."""


def shape(rin: RegionGraph, rout: RegionGraph, sym: Symbols) -> tuple:
    """Everything a run's proof reads, with the ops left out: per graph its
    nodes (kind, thread, condition), edges with their conditions, events
    (kind, role, start, end, thread, occurrence), the loops unrolled in it
    and whether a token crosses their iterations, the execute bodies'
    ends; which output event each input event is (by occurrence key); the
    decisions and the conditions' terms. Two runs of equal shape have
    equal proofs: the obligations, the queries and the cross-checks are
    functions of these."""

    def one(rg: RegionGraph) -> tuple:
        g = rg.g
        return (
            tuple(g.kinds),
            tuple(g.threads),
            tuple(g.guards),
            tuple(tuple(s) for s in g.succ),
            tuple(() if e is ALWAYS else tuple(e) for e in g.eguards),
            tuple((ev.kind, ev.role, ev.start, ev.end, ev.thread, ev.occurrence) for ev in g.events),
            tuple(sorted(g.loops)),
            tuple((first, end, crosses_iterations(loop)) for loop, first, end in g.iterations),
            tuple(g.excluded),
            tuple(g.met),
            g.path_count,
            g.bounded,
            rg.exit,
            tuple(rg.completions),
        )

    index = {k: j for j, k in enumerate(rout.g.keys)}
    matched = tuple(index.get(k, -1) for k in rin.g.keys)
    decisions = tuple((d.kind, d.options) for d in sym.decisions)
    return one(rin), one(rout), matched, decisions, tuple(sym.conds)


def prove_composed(run: FunctionRun) -> bool:
    """The compositional proof of `run`'s function. True: its verdict
    (verified or bounded) is in the report; False: nothing was written and
    the function is to be proved whole."""
    t0 = time.perf_counter()
    back = {o: i for i, o in run.corr.to_output.items()}
    comp = Composition()
    # The region ops of the output, innermost first, with their input
    # counterparts: those of one name, both modelled, no token among their
    # own operands and results (an `async.execute` always has one). Which
    # of them a token crosses otherwise is asked only if there is one (a
    # walk of both functions).
    pairs = []
    for op_out in run.fout.post_order():
        if op_out.name not in COMPOSED_OPS or op_out is run.fout:
            continue
        op_in = back.get(op_out)
        if (
            op_in is not None
            and op_in.name == op_out.name
            and modelled(op_in)
            and modelled(op_out)
            and not (_token_operand_or_result(op_in) or _token_operand_or_result(op_out))
        ):
            pairs.append((op_in, op_out))
    crossing = crossing_ops(run.fin) | crossing_ops(run.fout) if pairs else set()
    for op_in, op_out in pairs:
        if op_in in crossing or op_out in crossing:
            continue
        proved = _prove_op(run, comp, op_in, op_out, back)
        if comp.refutation is not None:
            _report_refutation(run, comp.refutation)
            run.time("compose", time.perf_counter() - t0)
            return True
        if comp.refuted:
            return False
        if proved is not None:
            comp.summarised_in[op_in] = comp.summarised_out[op_out] = proved
    run.time("compose", time.perf_counter() - t0)
    if len(run.fin.regions[0].blocks) > 1:
        return _prove_blocks(run, comp, back)
    if not comp.summarised_out:
        return False
    return _prove_function(run, comp, back)


def _prove_op(
    run: FunctionRun, comp: Composition, op_in: Operation, op_out: Operation, back: dict[Operation, Operation]
) -> bool | None:
    """Every region of the pair, one run each, proved: whether the input's
    runs hold any event; None if some run is not verified or bounded (then
    the op is not summarised)."""
    if len(op_in.regions) != len(op_out.regions):
        return None
    events = False
    done: list[RunProof] = []
    for r_in, r_out in zip(op_in.regions, op_out.regions):
        if not r_in.blocks and not r_out.blocks:
            continue
        sym = Symbols()
        unroll = run.options.unroll
        rin = build_region(run.fin, op_in, r_in, sym, None, unroll, comp.summarised_in)
        rout = build_region(run.fout, op_out, r_out, sym, back.get, unroll, comp.summarised_out)
        graphs = _graphs(rin, rout, sym, run)
        if isinstance(graphs, Undecided):
            return None
        key = shape(rin, rout, sym)
        proof = comp.proofs.get(key)
        if proof is None:
            proof = _prove_run(run, comp, rout, graphs, lambda: _trusted_way(op_in, r_in))
            if proof is None:
                return None
            comp.proofs[key] = proof
        events = events or proof.events
        done.append(proof)
    for proof in done:
        comp.add(proof)
    return events


def _prove_run(
    run: FunctionRun, comp: Composition, rout: RegionGraph, graphs: AllPaths, way_in: Callable[[], list[str] | None]
) -> RunProof | None:
    """One region run's obligations proved (and its output leaving nothing
    pending); None if not verified or bounded (`comp.refuted` if refuted;
    where `way_in()`, asked only then, gives a path that reaches the run,
    the run's report, its paths prefixed by it, is `comp.refutation`)."""
    unroll = run.options.unroll
    sub = FunctionRun(
        run.fin,
        run.fout,
        run.corr,
        Tally(run.tally.name),
        run.options,
        run.budget,
        run.timings,
        LoopLemma(unroll),
        proved=run.proved,
    )
    decided = prove_one_path(sub, graphs) if graphs.one_path else check_all_paths(sub, graphs)
    fr = sub.tally
    if fr.violations:
        comp.refuted = True
        entry = way_in() if decided else None
        if entry is not None:
            fr.violations[:] = [replace(v, path=(*entry, *v.path)) for v in fr.violations]
            comp.refutation = fr
    if not decided or fr.violations or sub.undecided or fr.stopped is not None:
        return None
    # After the proof: a run that loses an ordering inside is refuted above,
    # even where its rewrite also leaves work pending.
    if not _leaves_nothing_pending(run, rout, graphs):
        return None
    why = sub.lemma.why if fr.bounded and not sub.lemma.holds else ""
    return RunProof(fr.obligations, fr.proved, fr.agreements, fr.z3_checks, why, bool(graphs.gin.events))


DECIDING_OPS = frozenset(n for n in registry.known_ops() if registry.decides(n))
"""Ops that decide on an operand (the registry's `decides`)."""


@dataclass(frozen=True)
class Way:
    """A way into a region run from the function's entry (`way_in`)."""

    path: list[str]
    """Its decisions, outermost first, in the report's words."""
    gates: frozenset[int]
    """The values (by id) the ops on the way take as operands: a decision
    inside the run on one of them could contradict the way."""


def way_in(op: Operation, region: Region) -> Way | None:
    """A path of the function that runs `region` of `op` once; None where
    that cannot be told from the structure alone: an op on the way that is
    not a structured region op, a block on the way entered by a branch that
    the function's body cannot reach (`cfg_way`), or two decisions on the
    way on one value (they might contradict each other). Decisions are free
    here as in the whole proof's graph (`spec.semantics.guarded_builder`: a trip
    count is 0..unroll, a condition either way, constants or not, one
    decision per condition value), so this is a path the whole proof takes."""
    path: list[str] = []
    gates: set[int] = set()
    cur, reg = op, region
    while True:
        if not reg.blocks or reg.parent is not cur:
            return None
        index = cur.regions.index(reg)
        flow = registry.region_flow(cur.name)
        if flow in ("then_else", "cases"):
            choice = index
        elif cur.name in ENTERED:
            choice = ENTERED[cur.name]
        elif flow == "while":
            choice = index  # the `before` region runs on entry; `do` on one trip
        elif flow == "once":
            choice = -1
        else:
            return None
        if choice >= 0 and (flow != "while" or index == 1):
            path.append(describe_choice(cur, choice))
        ids = {id(v) for v in cur.operands}
        if cur.name in DECIDING_OPS and ids & gates:
            return None
        gates |= ids
        block = cur.parent
        if block is None or block.parent is None or block.parent.parent is None:
            return None
        owner = block.parent.parent
        if registry.is_host_function(owner.name):
            path.reverse()
            if block is block.parent.blocks[0]:
                return Way(path, frozenset(gates))
            cfg = cfg_way(block)
            if cfg is None or cfg.gates & gates:
                return None
            return Way(cfg.path + path, cfg.gates | gates)
        if block is not block.parent.blocks[0]:
            return None
        cur, reg = owner, block.parent


def cfg_way(block: Block) -> Way | None:
    """A shortest branch path from the entry of `block`'s region to it: the
    successors taken, in the report's words; None if `block` cannot be
    reached, a terminator on the way branches in a way not modelled, or two
    branches on the way decide on one value."""
    region = block.parent
    if region is None:
        return None
    entry = region.blocks[0]
    came: dict[int, tuple[Block, int] | None] = {id(entry): None}
    queue = [entry]
    for b in queue:
        if b is block:
            break
        for k, s in enumerate(b.successors()):
            if id(s) not in came and s.parent is region:
                came[id(s)] = (b, k)
                queue.append(s)
    if id(block) not in came:
        return None
    path: list[str] = []
    gates: set[int] = set()
    step = came[id(block)]
    while step is not None:
        b, k = step
        term = b.ops[-1]
        if registry.jump_kind(term.name) in ("condition", "cases"):
            flag = id(term.operands[0])
            if flag in gates:
                return None
            gates.add(flag)
            path.append(describe_choice(term, k))
        elif registry.jump_kind(term.name) != "always":
            return None
        step = came[id(b)]
    path.reverse()
    return Way(path, frozenset(gates))


def independent(ops: Iterable[Operation], way: Way) -> bool:
    """No decision in `ops` (and the ops nested in them) can contradict the
    way in: none decides on a value of `way.gates` defined outside `ops`.
    Then a path of one run is a path of the function wherever the run is
    reached: the decisions inside on values from outside are free in the
    function's graph as in the run's, and none of them gates the way in.
    So what is refuted on the run is refuted on the function: the whole
    proof finds the same pair on the same path, at the cost of unrolling
    everything."""
    ops = list(ops)
    inside: set[int] = set()
    for op in ops:
        for inner in op.walk():
            inside.add(id(inner))
            for region in inner.regions:
                inside.update(id(b) for b in region.blocks)
    for op in ops:
        for inner in op.walk():
            if inner.name in DECIDING_OPS and any(
                id(v) in way.gates for v in inner.operands if not _defined_in(v, inside)
            ):
                return False
    return True


ENTERED = {n: 1 for n in registry.known_ops() if registry.region_flow(n) in ("counted", "parallel")}
"""Loops whose body is run by entering the op with one iteration."""


def _trusted_block_way(block: Block, entry: Block) -> list[str] | None:
    """The branch path to `block` of the function's body (`cfg_way`), if a
    refutation of its run is the function's (`independent`)."""
    way = cfg_way(block) if block is not entry else Way([], frozenset())
    return way.path if way is not None and independent(block.ops, way) else None


def _trusted_way(op: Operation, region: Region) -> list[str] | None:
    """The way into `region` of `op` (`way_in`), if a refutation of its run
    is the function's (`independent`); None otherwise."""
    way = way_in(op, region)
    if way is None or not independent([inner for r in op.regions for b in r.blocks for inner in b.ops], way):
        return None
    return way.path


def _report_refutation(run: FunctionRun, fr: Tally) -> None:
    """A refuted run's violations as the function's (`pipeline.conclude`
    makes the verdict)."""
    out = run.tally
    out.violations.extend(fr.violations)
    out.obligations += fr.obligations
    out.proved += fr.proved
    out.agreements += fr.agreements
    out.z3_checks += fr.z3_checks
    out.graph, out.missing = fr.graph, fr.missing


def _graphs(rin: RegionGraph, rout: RegionGraph, sym: Symbols, run: FunctionRun) -> AllPaths | Undecided:
    """The pair of region graphs, if the proof machinery can take them
    (the checks of `every_path.build_graphs`)."""
    gin, gout = rin.g, rout.g
    if gin.unsupported or gout.unsupported:
        return Undecided(unsupported_reason(gin.unsupported or gout.unsupported))
    if not follows_input(gin, gout):
        return Undecided("the output's control flow does not follow the input's")
    if run.options.max_paths is not None and gin.path_count > run.options.max_paths:
        return Undecided("too many paths")
    if sym.decisions and len(gin.kinds) + len(gout.kinds) > MAX_NODES:
        return Undecided("too many points")
    if sym.decisions and not (gin.forward_but_extern and gout.forward_but_extern):
        return Undecided("a happens-before edge points backwards")
    return AllPaths(sym, gin, gout)


def _leaves_nothing_pending(run: FunctionRun, rout: RegionGraph, graphs: AllPaths) -> bool:
    """The output's run: every event and every `async.execute` body begun
    in it end before its last point, on every path where they occur."""
    g, end, unroll = rout.g, rout.exit, run.options.unroll
    ends = [ev.end for ev in g.events] + [e for _, e in rout.completions]
    if not graphs.one_path:
        opts = run.options
        prover = GuardedProver(
            graphs.sym, graphs.gin, g, unroll, opts.solver, run.budget, opts.proofs, opts.assignments
        )
        return all(ordered_on_every_path(prover, g, n, end) for n in ends)
    # One path: plain reachability, backwards from the last point once.
    seen = {end}
    stack = [end]
    preds = g.preds()
    while stack:
        n = stack.pop()
        for m in preds[n]:
            if m not in seen:
                seen.add(m)
                stack.append(m)
    return all(n in seen for n in ends)


def _prove_function(run: FunctionRun, comp: Composition, back: dict[Operation, Operation]) -> bool:
    """The function with its closed ops summarised; True if that proved it."""
    fin, fout, unroll = run.fin, run.fout, run.options.unroll
    sym = Symbols()
    t0 = time.perf_counter()
    gin = build_guarded(fin, sym, None, unroll, comp.summarised_in)
    gout = build_guarded(fout, sym, back.get, unroll, comp.summarised_out)
    run.time("events", time.perf_counter() - t0)
    rin = RegionGraph(gin, 0, [])
    rout = RegionGraph(gout, 0, [])
    graphs = _graphs(rin, rout, sym, run)
    if isinstance(graphs, Undecided):
        return False
    fr = Tally(run.tally.name, unroll=run.tally.unroll, paths=gin.path_count, bounded=gin.bounded)
    sub = FunctionRun(
        fin, fout, run.corr, fr, run.options, run.budget, run.timings, LoopLemma(unroll), proved=run.proved
    )
    decided = prove_one_path(sub, graphs) if graphs.one_path else check_all_paths(sub, graphs)
    if not decided or fr.violations or sub.undecided or fr.stopped is not None:
        return False
    out = run.tally
    out.obligations, out.proved, out.agreements = (
        fr.obligations + comp.obligations,
        fr.proved + comp.proved,
        fr.agreements + comp.agreements,
    )
    out.z3_checks += fr.z3_checks + comp.z3_checks
    out.paths, out.sampled_paths, out.graph, out.regions = fr.paths, fr.sampled_paths, fr.graph, comp.runs
    # `pipeline.conclude` reads the bound from the report and the lemma.
    out.bounded = fr.bounded or bool(comp.bounded_why)
    if fr.bounded and not sub.lemma.holds:
        run.lemma.holds, run.lemma.why = False, sub.lemma.why
    elif comp.bounded_why:
        run.lemma.holds, run.lemma.why = False, comp.bounded_why
    return True


def _prove_blocks(run: FunctionRun, comp: Composition, back: dict[Operation, Operation]) -> bool:
    """A body of several blocks (`cf` branches) proved block by block: each
    block's run apart, its closed ops summarised, as a closed region's run
    is. It proves the function when no token crosses a block boundary
    (`closed_blocks`) and the output's blocks branch as the input's do:

    - two events in one run of a block: the run's proof;
    - an event `x` of one block run and `y` of a later one (another block,
      or the same block again, around a `cf` loop): the input orders them
      only along the host thread, through the terminator of `x`'s run; in
      the output `x` ends before that terminator (`_leaves_nothing_pending`),
      the host thread goes on along the same branches, and `y` begins after
      its block is entered;
    - the function's end: after the return, which follows every block's
      run on the host thread.

    No `cf` loop is unrolled: the answer holds for every trip count. True
    if proved (the report is written); False: the function is proved whole."""
    fin, fout, unroll = run.fin, run.fout, run.options.unroll
    bin_, bout = fin.regions[0].blocks, fout.regions[0].blocks
    if len(bin_) != len(bout) or not same_branches(bin_, bout) or not (closed_blocks(fin) and closed_blocks(fout)):
        return False
    t0 = time.perf_counter()
    for b_in, b_out in zip(bin_, bout, strict=True):
        sym = Symbols()
        rin = build_block(fin, b_in, sym, None, unroll, comp.summarised_in)
        rout = build_block(fout, b_out, sym, back.get, unroll, comp.summarised_out)
        graphs = _graphs(rin, rout, sym, run)
        if isinstance(graphs, Undecided):
            return False
        key = shape(rin, rout, sym)
        proof = comp.proofs.get(key)
        if proof is None:
            proof = _prove_run(run, comp, rout, graphs, lambda: _trusted_block_way(b_in, bin_[0]))
            if proof is None:
                if comp.refutation is not None:
                    _report_refutation(run, comp.refutation)
                    return True
                return False
            comp.proofs[key] = proof
        comp.add(proof)
    run.time("compose", time.perf_counter() - t0)
    out = run.tally
    out.obligations, out.proved, out.agreements = comp.obligations, comp.proved, comp.agreements
    out.z3_checks += comp.z3_checks
    out.regions = comp.runs
    out.bounded = bool(comp.bounded_why)
    if comp.bounded_why:
        run.lemma.holds, run.lemma.why = False, comp.bounded_why
    return True


def same_branches(bin_: list[Block], bout: list[Block]) -> bool:
    """Block `i` of the output ends as block `i` of the input does: the same
    terminator, branching to the blocks of the same positions."""
    pos_in = {id(b): i for i, b in enumerate(bin_)}
    pos_out = {id(b): i for i, b in enumerate(bout)}
    for a, b in zip(bin_, bout, strict=True):
        ta, tb = (a.ops[-1] if a.ops else None), (b.ops[-1] if b.ops else None)
        if ta is None or tb is None or ta.name != tb.name:
            return False
        if [pos_in.get(id(x)) for x in ta.successors] != [pos_out.get(id(x)) for x in tb.successors]:
            return False
    return True


def closed_blocks(func: Operation) -> bool:
    """No token-like value crosses a block boundary of `func`'s body: none
    among the function's arguments or any block's arguments, none passed by
    a branch, none defined in one block and used in another (or inside a
    region of an op of another)."""
    blocks = func.regions[0].blocks
    if any(is_token_type(a.type) for b in blocks for a in b.args):
        return False
    # One walk: each op and nested block numbered by its top-level block,
    # the token operands kept (a definition may come in a later block);
    # token-ness asked once per type text.
    home: dict[int, int] = {}
    token_text: dict[str, bool] = {}
    used: list[tuple[Value, int]] = []
    for i, b in enumerate(blocks):
        home[id(b)] = i
        for op in b.ops:
            for inner in op.walk():
                home[id(inner)] = i
                for region in inner.regions:
                    for nested in region.blocks:
                        home[id(nested)] = i
                for v in inner.operands:
                    text = v.type.text
                    tok = token_text.get(text)
                    if tok is None:
                        tok = token_text[text] = is_token_type(v.type)
                    if tok:
                        used.append((v, i))
    return all(home.get(id(v.owner)) == i for v, i in used)
