"""Loops that carry tokens, proved for every trip count by induction.

An `scf.for` (or `affine.for`, or `scf.while`) whose iterations hand tokens
to each other through `iter_args` is not closed (`compose.py`) and breaks the loop lemma
(`lemma.py`): unrolled, its proof holds up to the bound only (`bounded`).
Yet one iteration is a function of the tokens it gets: it takes the carried
tokens of the iteration before (or the inits), and yields the ones it hands
on. The function's boundary (DESIGN section 4) already says what such a
function must keep, for *any* caller: the caller's work behind each
incoming token stays before what the input orders after it (caller work
touches any memory), what the input completes before a token it hands out
stays before that token's receiver, what it finishes before its return
stays before the return (which reads every buffer), what it finishes
before the program's end stays before the end.

So the loop is proved in two steps, on copies of both modules:

1. **the step**: the body of the input's loop and of the output's, each made
   a function `(iv, carried..., captured...) -> (yielded...)` (`scf.yield`
   becomes `func.return`; every value the body uses from outside the loop
   becomes an argument, paired input to output by the correspondence), are
   checked as any function pair is. Verified: one iteration keeps, against
   tokens from any earlier iteration, every ordering its input keeps;
   A `scf.while` has two steps, which alternate: `before` as a function of
   what it is handed (the inits, or what `after` yielded) returning what
   its `scf.condition` hands on (the flag among them: a value like any
   other), and `after` as a function of that, returning what it yields.
   An ordering that crosses from one region to the other crosses a
   boundary of both, as between two iterations of a counted loop; the
   loop's results are what the last `before` hands on;
2. **the context**: in the enclosing functions the loop becomes a call of an
   opaque function taking the inits and the tokens the body uses from
   outside the loop, and returning the results (a call's
   token operands escape to receivers, its token results stand for callee
   work, the call itself touches any memory), and that pair is checked.

Why the two prove every trip count (the pass is modular in the same way):
an ordering of the input between two events crosses each iteration
boundary it spans either on the host thread (an event done before the
yield, before the next iteration's first op) or through a carried token
(an event before a yielded token, an event after the next iteration's wait
on it). Each crossing is an obligation of the step (`before-return`,
`before-receiver`, `caller-work-before`: obligations include the boundary
events among themselves, so a token passed on untouched is one too), and
the context gives the crossings into the loop and out of it (inits and the
tokens the body uses from outside to receivers, callee work to the users of
the results; zero trips: the results are the inits, the same token on both
sides). A token from outside is the same token in every iteration: each
step has it as caller work, which is all an iteration can know of it. Chaining the
output's orderings across iterations by induction on the trip count
gives every ordering of the input.

Only `verified` answers are taken from these checks: a refuted step may be
one the loop's real context rules out, so the function keeps the verdict
of its unrolled proof (`bounded`, and its counterexamples). Not attempted
(the function stays `bounded`): a loop that uses an `!async.group` from
outside, a loop with a region of several blocks, a body the output captures other values
in than the input's counterparts, a loop the output has not kept,
and `scf.parallel`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from spec import registry
from spec.attributes import Attr, FunctionType, StringAttr, SymbolRefAttr, Type, TypeAttr
from spec.ir import EMPTY_DICT, EMPTY_LIST, Block, Location, Operation, Region, Value, outermost, release
from spec.semantics.events import is_effectful, is_token_type
from verifier.match.correspondence import Correspondence
from verifier.output.report import FunctionReport
from verifier.smt.solver import Status

LOOPS = frozenset(n for n in registry.known_ops() if registry.is_counted_loop(n) or registry.region_flow(n) == "while")
"""The loops proved by induction: the registry's counted loops and its
`while` loops (two alternating steps)."""

CheckPair = Callable[[Operation, Operation], FunctionReport]
"""Checks one pair of functions (the pipeline's `check_function`)."""


def carried_loops(func: Operation) -> list[Operation]:
    """The outermost loops of `func` with effectful events inside: those
    whose iterations carry tokens, use tokens from outside or leave work
    pending, and the closed ones beside them (proved as steps too, which
    costs one body proof each). Inner loops are the step's business: its
    function has them."""
    found: list[Operation] = []
    inside: set[int] = set()
    for op in func.walk():
        if op.parent_op is not None and id(op.parent_op) in inside:
            inside.add(id(op))
            continue
        if op.name in LOOPS and (is_effectful(op) or any(o.dialect in ("gpu", "async") for o in op.nested_ops())):
            found.append(op)
            inside.add(id(op))
    return found


def _inside(loop: Operation) -> tuple[set[int], list[Operation]]:
    ids: set[int] = set()
    ops: list[Operation] = []
    for op in loop.walk():
        ids.add(id(op))
        if op is not loop:
            ops.append(op)
        for region in op.regions:
            for block in region.blocks:
                ids.add(id(block))
    return ids, ops


def captured(loop: Operation) -> list[Value] | None:
    """Values the loop's body uses from outside it, in order of first use;
    None if one is an `!async.group` (adds from every iteration to one
    group: not a step's work). A token among them is an argument of the
    step (caller work, the same token every iteration) and an operand of
    the call that stands for the loop (a receiver)."""
    ids, ops = _inside(loop)
    out: list[Value] = []
    seen: set[int] = set()
    for op in ops:
        for v in op.operands:
            if id(v.owner) in ids or id(v) in seen:
                continue
            if v.type.text == "!async.group":
                return None
            seen.add(id(v))
            out.append(v)
    return out


def _counterpart(v: Value, ops: Callable[[Operation], Operation | None]) -> Value | None:
    """`v`'s value on the other side, its owner mapped by `ops`."""
    owner = v.owner
    if isinstance(owner, Operation):
        other = ops(owner)
        return other.results[v.index] if other is not None and v.index < len(other.results) else None
    if isinstance(owner, Block) and owner.parent_op is not None:
        parent = owner.parent_op
        other = ops(parent)
        if other is None:
            return None
        for r, region in enumerate(parent.regions):
            if owner in region.blocks:
                b = region.blocks.index(owner)
                if r < len(other.regions) and b < len(other.regions[r].blocks):
                    args = other.regions[r].blocks[b].args
                    return args[v.index] if v.index < len(args) else None
    return None


def clone(root: Operation) -> tuple[Operation, dict[int, Operation]]:
    """A deep copy of `root` (what pickling and unpickling it gives: new
    ops, results, regions, blocks and block arguments, new property and
    attribute dicts; the types, attributes and locations, which nothing
    changes, shared; the shared empty dicts and lists kept), and each op of
    `root` (by id) to its copy. Operands and successors are mapped once
    every value and block is made, so a use before its definition in walk
    order (across blocks) is mapped too; one defined outside `root` stays
    the value it is. A third of the time of a pickle round trip."""
    ops: dict[int, Operation] = {}
    values: dict[int, Value] = {}
    blocks: dict[int, Block] = {}
    made: list[tuple[Operation, Operation]] = []
    stack: list[tuple[Operation, Block | None]] = [(root, None)]
    while stack:
        op, parent = stack.pop()
        new = Operation(
            op.name,
            [],
            [],
            op.properties if op.properties is EMPTY_DICT else dict(op.properties),
            op.attributes if op.attributes is EMPTY_DICT else dict(op.attributes),
            loc=op.loc,
            parent=parent,
        )
        for r in op.results:
            v = Value(r.type, new, r.index, r.hint, r.loc)
            values[id(r)] = v
            new.results.append(v)
        ops[id(op)] = new
        made.append((op, new))
        if op.regions is not EMPTY_LIST:
            new.regions = []
            for region in op.regions:
                copy = Region()
                copy.parent = new
                new.regions.append(copy)
                for block in region.blocks:
                    b = Block(block.label, block.loc)
                    b.parent = copy
                    copy.blocks.append(b)
                    blocks[id(block)] = b
                    for a in block.args:
                        v = Value(a.type, b, a.index, a.hint, a.loc)
                        values[id(a)] = v
                        b.args.append(v)
                    stack.extend((o, b) for o in reversed(block.ops))
    for op, new in made:
        new.operands = [values.get(id(v), v) for v in op.operands]
        if op.successors is not EMPTY_LIST:
            new.successors = [blocks.get(id(b), b) for b in op.successors]
        if new.parent is not None:
            new.parent.ops.append(new)
    return ops[id(root)], ops


class _Copy:
    """A copy of the module holding `func`, and the way from its ops and
    values to the copy's."""

    def __init__(self, func: Operation) -> None:
        self.root, self._ops = clone(outermost(func))

    def op(self, op: Operation) -> Operation:
        return self._ops[id(op)]

    def value(self, v: Value) -> Value:
        got = _counterpart(v, lambda o: self._ops.get(id(o)))
        if got is None:
            raise KeyError(v)
        return got


def _replace_uses(root: Operation, by: dict[int, Value]) -> None:
    for op in root.walk():
        if any(id(v) in by for v in op.operands):
            op.operands = [by.get(id(v), v) for v in op.operands]


def _function(
    name: str, inputs: Sequence[Type], results: Sequence[Type], loc: Location, private: bool = False
) -> Operation:
    props: dict[str, Attr] = {
        "sym_name": StringAttr(name),
        "function_type": TypeAttr(FunctionType(tuple(inputs), tuple(results))),
    }
    if private:
        props["sym_visibility"] = StringAttr("private")
    return Operation("func.func", properties=props, loc=loc)


def _alternates(loop: Operation) -> bool:
    """A `while` loop: a `before` and an `after` region, in turn."""
    return registry.region_flow(loop.name) == "while"


def _inits(loop: Operation) -> list[Value]:
    """The values a loop starts from: a `scf.while`'s operands, a counted
    loop's carried inits."""
    return list(loop.operands) if _alternates(loop) else list(registry.loop_init_operands(loop))


def _step_function(region: Region, capture: list[Value], name: str, loc: Location) -> Operation:
    """The function `name` made of `region`'s single block, its arguments
    then `capture` as parameters, its terminator's operands returned (a
    `scf.condition`'s flag among them: a value like any other)."""
    body = region.blocks[0]
    term = body.ops[-1]
    step = _function(
        name, [a.type for a in body.args] + [v.type for v in capture], [v.type for v in term.operands], loc
    )
    block = Block()
    step.add_region(Region([block]))
    fresh = [block.add_arg(a.type, a.hint, a.loc) for a in [*body.args, *capture]]
    for op in list(body.ops[:-1]):
        block.append(op)
    block.append(Operation("func.return", operands=list(term.operands), loc=term.loc))
    _replace_uses(step, {id(old): new for old, new in zip([*body.args, *capture], fresh)})
    return step


def _split(loop: Operation, capture: list[Value], name: str) -> list[Operation]:
    """In a copy: each region of the loop becomes a step function (appended
    to the loop's module: the body of a counted loop; a `scf.while`'s
    `before` and `after`, which alternate), the loop a call of the declared
    `name_loop`."""
    if _alternates(loop):
        steps = [
            _step_function(loop.regions[0], capture, f"{name}_before", loop.loc),
            _step_function(loop.regions[1], capture, f"{name}_after", loop.loc),
        ]
    else:
        steps = [_step_function(loop.regions[0], capture, name, loop.loc)]
    inits = _inits(loop) + [v for v in capture if is_token_type(v.type)]
    decl = _function(f"{name}_loop", [v.type for v in inits], [r.type for r in loop.results], loop.loc, private=True)
    call = Operation("func.call", operands=inits, properties={"callee": SymbolRefAttr(f"{name}_loop")}, loc=loop.loc)
    for r in loop.results:
        call.add_result(r.type, r.hint)
    home = loop.parent
    if home is None:
        raise KeyError(loop)
    home.ops[home.ops.index(loop)] = call
    call.parent = home
    func = loop
    while not registry.is_host_function(func.name) and func.parent_op is not None:
        func = func.parent_op
    _replace_uses(func, {id(old): new for old, new in zip(loop.results, call.results)})
    module = func.parent
    if module is None:
        raise KeyError(func)
    for step in steps:
        module.append(step)
    module.append(decl)
    return steps


def _steps(
    fin: Operation, fout: Operation, corr: Correspondence
) -> Iterator[tuple[Operation, Operation, list[Value], list[Value]]]:
    """Each carried loop of the input with its output counterpart and the
    two capture lists, paired; stops (the caller gives up) at the first
    that cannot be."""
    loops_out = carried_loops(fout)
    mapped = []
    for loop in carried_loops(fin):
        other = corr.to_output.get(loop)
        if other is None or not _single_blocks(loop) or not _single_blocks(other):
            return
        mapped.append((loop, other))
    if {id(o) for _, o in mapped} != {id(o) for o in loops_out}:
        return
    for loop, other in mapped:
        cin, cout = captured(loop), captured(other)
        if cin is None or cout is None:
            return

        def to_out(op: Operation) -> Operation | None:
            return fout if op is fin else corr.to_output.get(op)

        images = [_counterpart(v, to_out) for v in cin]
        if any(v is None for v in images) or {id(v) for v in images} != {id(v) for v in cout}:
            return
        yield loop, other, cin, [v for v in images if v is not None]


def _single_blocks(loop: Operation) -> bool:
    return all(len(r.blocks) == 1 for r in loop.regions)


def prove(fin: Operation, fout: Operation, corr: Correspondence, check: CheckPair) -> str | None:
    """The induction for `fin`'s carried loops: the lemma's words if every
    step and the context are verified, else None (see the module docstring)."""
    found = carried_loops(fin)
    if not found:
        return None
    pairs = list(_steps(fin, fout, corr))
    if len(pairs) != len(found):
        return None
    cin, cout = _Copy(fin), _Copy(fout)
    split: list[Operation] = []
    try:
        return _prove_on_copies(fin, fout, found, pairs, cin, cout, split, check)
    finally:
        # Nothing keeps the copies (only the checks' verdicts are read), nor
        # the loops replaced by calls in them: freed at once, not left to the
        # cyclic collector.
        for root in (cin.root, cout.root, *split):
            release(root)


def _prove_on_copies(
    fin: Operation,
    fout: Operation,
    found: list[Operation],
    pairs: list[tuple[Operation, Operation, list[Value], list[Value]]],
    cin: _Copy,
    cout: _Copy,
    split: list[Operation],
    check: CheckPair,
) -> str | None:
    """`prove` on the copies of both modules: each loop split into its
    steps and a call (the loops replaced go to `split`), every step pair
    and the context checked."""
    steps: list[tuple[Operation, Operation]] = []
    for k, (loop, other, capture_in, capture_out) in enumerate(pairs):
        name = f"__step{k}_{_root_name(fin)}"
        try:
            made_in = _split(cin.op(loop), [cin.value(v) for v in capture_in], name)
            split.append(cin.op(loop))
            made_out = _split(cout.op(other), [cout.value(v) for v in capture_out], name)
            split.append(cout.op(other))
        except KeyError:
            return None
        steps.extend(zip(made_in, made_out, strict=True))
    for a, b in steps:
        if check(a, b).verdict != Status.VERIFIED:
            return None
    if check(cin.op(fin), cout.op(fout)).verdict != Status.VERIFIED:
        return None
    where = ", ".join(f"{loop.name} at {loop.loc}" for loop in found)
    return f"by induction on iterations ({where}): one iteration proved against the tokens and work of any earlier one, for every trip count"


def _root_name(func: Operation) -> str:
    name = func.properties.get("sym_name")
    return getattr(name, "value", "f").replace("::", "_")
