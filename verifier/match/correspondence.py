"""Correspondence: which op of the output is which op of the input.

docs/design.md section 4, "Correspondence". Output ops map 1:1 and in order onto
input ops, except what a rewrite of this kind may add: `gpu.wait` ops,
`async.await` of GPU tokens, and token plumbing (new `[deps]`, token results,
extra `async.execute` results and body operands, block arguments, extra
`async.yield` operands). Plumbing is recognised by type: `!gpu.async.token`
and `!async.value<!gpu.async.token>`. Every input op must appear with the
same name, attributes (operand segment sizes aside), non-plumbing operands
(through the value map built while matching), result types and regions.
Anything else is a mismatch, reported with both locations.

Token operands are deliberately not compared: what a token orders is the
business of the happens-before proof, which sees every token of the output.

The output must also be well formed: that is `verifier.match.wellformed`.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, field

from spec import registry
from spec.attributes import GPU_TOKEN, Type, async_value_of
from spec.ir import Block, Location, Operation, Region, Value

SEGMENTS = "operandSegmentSizes"
RESULT_SEGMENTS = "resultSegmentSizes"
CASE_SEGMENTS = "case_operand_segments"


_PLUMBING = frozenset({GPU_TOKEN.text, async_value_of(GPU_TOKEN).text})


def is_plumbing(t: Type) -> bool:
    """Types a rewrite may add or rewire: GPU tokens and async values of them."""
    # By canonical text: matching asks this about every value of both
    # functions (about 100,000 times at 10k GPU ops).
    return t.text in _PLUMBING


def is_addable(op: Operation) -> bool:
    """Ops a rewrite may add: `gpu.wait`, `async.await` of a GPU token."""
    if registry.is_gpu_wait(op.name):
        return True
    return registry.awaits_one(op.name) and len(op.operands) == 1 and is_plumbing(op.operands[0].type)


@dataclass(frozen=True)
class Mismatch:
    kind: str
    """`mismatch` (not a rewrite of the input) or `ill-formed` (not valid IR)."""
    message: str
    out_op: Operation | None
    in_op: Operation | None

    @property
    def out_loc(self) -> Location | None:
        return self.out_op.loc if self.out_op is not None else None

    @property
    def in_loc(self) -> Location | None:
        return self.in_op.loc if self.in_op is not None else None


@dataclass
class Correspondence:
    to_output: dict[Operation, Operation] = field(default_factory=dict)
    added: list[Operation] = field(default_factory=list)
    dropped: list[Operation] = field(default_factory=list)
    """Input synchronization ops missing from the output: a mismatch, but
    reported only if the proof does not already show what goes wrong."""
    mismatches: list[Mismatch] = field(default_factory=list)


def _segmented(op: Operation) -> list[list[Value]]:
    """The non-plumbing operands, by operand segment when the op has them."""
    plumbing = _PLUMBING
    sizes = op.properties.get(SEGMENTS) if op.properties else None
    if sizes is None or not hasattr(sizes, "values"):
        return [[v for v in op.operands if v.type.text not in plumbing]]
    groups, i = [], 0
    for n in sizes.values:
        groups.append([v for v in op.operands[i : i + n] if v.type.text not in plumbing])
        i += n
    return groups


def _same_operands(a: Operation, b: Operation, get: Callable[[Value], Value | None]) -> bool:
    """True if the operand check of `_Matcher.op` passes for sure: segment
    by segment (`_segmented`; the whole list where neither op has
    segments), the non-plumbing operands pair up in order, each output
    operand the value mapped from the input's. False means "not shown"
    (also for sizes that do not add up to the operands, or one op
    segmented and the other not), and the caller runs the general check,
    which says what differs. (The general check builds the segment lists;
    this walks the operands once, and runs for every matched op.)"""
    pa, pb = a.properties, b.properties
    xs, ys = a.operands, b.operands
    sa = pa.get(SEGMENTS) if pa else None
    sb = pb.get(SEGMENTS) if pb else None
    if sa is None and sb is None:
        sizes_a: tuple[int, ...] | list[int] = (len(xs),)
        sizes_b: tuple[int, ...] | list[int] = (len(ys),)
    else:
        sizes_a, sizes_b = getattr(sa, "values", None), getattr(sb, "values", None)  # type: ignore[assignment]  # None is refused just below
        if (
            sizes_a is None
            or sizes_b is None
            or len(sizes_a) != len(sizes_b)
            or sum(sizes_a) != len(xs)
            or sum(sizes_b) != len(ys)
            or min(sizes_a, default=0) < 0
            or min(sizes_b, default=0) < 0
        ):
            return False
    plumbing = _PLUMBING
    i = j = 0
    for na, nb in zip(sizes_a, sizes_b):
        ea, eb = i + na, j + nb
        while i < ea:
            x = xs[i]
            i += 1
            if x.type.text in plumbing:
                continue
            while j < eb and ys[j].type.text in plumbing:
                j += 1
            if j == eb or get(x) is not ys[j]:
                return False
            j += 1
        while j < eb:
            if ys[j].type.text not in plumbing:
                return False
            j += 1
    return True


def _plumbing_count(vs: list[Value]) -> int:
    """How many of `vs` are plumbing."""
    n = 0
    for v in vs:
        if v.type.text in _PLUMBING:
            n += 1
    return n


def same_props(a: Operation, b: Operation) -> bool:
    """Equal properties, operand segment sizes aside, and a property written
    with its default value (`registry.OpInfo.elided_defaults`: the registry
    is the one source of these) the same as its absence: mlir-opt elides
    such a value when it prints, so a rewrite may lose it."""
    pa, pb = a.properties, b.properties
    if pa == pb:
        return True
    if SEGMENTS in pa or SEGMENTS in pb:
        pa = {k: v for k, v in pa.items() if k != SEGMENTS}
        pb = {k: v for k, v in pb.items() if k != SEGMENTS}
    if CASE_SEGMENTS in pa or CASE_SEGMENTS in pb:
        # `cf.switch`: a case may get token operands; what must not change
        # is which other operands go to which successor.
        if [_plumbing_count(vs) - len(vs) for vs in registry.switch_successor_operands(a)] != [
            _plumbing_count(vs) - len(vs) for vs in registry.switch_successor_operands(b)
        ]:
            return False
        pa = {k: v for k, v in pa.items() if k != CASE_SEGMENTS}
        pb = {k: v for k, v in pb.items() if k != CASE_SEGMENTS}
    if RESULT_SEGMENTS in pa or RESULT_SEGMENTS in pb:
        # The last result segment is the optional token the rewrite adds.
        ra, rb = pa.get(RESULT_SEGMENTS), pb.get(RESULT_SEGMENTS)
        if getattr(ra, "values", (None,))[:-1] != getattr(rb, "values", (None,))[:-1]:
            return False
        pa = {k: v for k, v in pa.items() if k != RESULT_SEGMENTS}
        pb = {k: v for k, v in pb.items() if k != RESULT_SEGMENTS}
    return registry.without_defaults(a.name, pa) == registry.without_defaults(b.name, pb)


class _Matcher:
    def __init__(self) -> None:
        self.c = Correspondence()
        self.vmap: dict[Value, Value] = {}
        self.bmap: dict[Block, Block] = {}
        """Input block -> output block (blocks of a matched region pair, by
        position): where the output's branches must go."""

    def fail(self, message: str, out_op: Operation | None, in_op: Operation | None) -> None:
        self.c.mismatches.append(Mismatch("mismatch", message, out_op, in_op))

    def values(self, ins: list[Value], outs: list[Value]) -> bool:
        """Pair non-plumbing values in order (and plumbing ones where both
        sides have them at the same plumbing position)."""
        vmap = self.vmap
        if len(ins) == 1 and len(outs) == 1 and ins[0].type == outs[0].type:
            # One value each, of the same type (most ops): paired, plumbing
            # or not, as the general case below would pair them.
            vmap[ins[0]] = outs[0]
            return True
        plumbing = _PLUMBING
        a = [v for v in ins if v.type.text not in plumbing]
        b = [v for v in outs if v.type.text not in plumbing]
        if len(a) != len(b) or any(x.type != y.type for x, y in zip(a, b)):
            return False
        for x, y in zip(a, b):
            vmap[x] = y
        if len(a) != len(ins) and len(b) != len(outs):
            for x, y in zip([v for v in ins if v.type.text in plumbing], [v for v in outs if v.type.text in plumbing]):
                vmap[x] = y
        return True

    def op(self, a: Operation, b: Operation) -> bool:
        """Compare a matched pair; returns False (after reporting) on a mismatch.
        (Called once per input op: the common cases are written out, each
        saying which general step it stands for.)"""
        if a.name == b.name and not self.same_interface(a, b):
            return False
        # `same_props` holds at once for equal properties (most ops).
        if a.attributes != b.attributes or (a.properties != b.properties and not same_props(a, b)):
            self.fail(f"'{b.name}' op has attributes different from the input's", b, a)
            return False
        # Where a branch goes first: retargeting often changes its operands too.
        if a.successors:
            for k, (sa, sb) in enumerate(zip(a.successors, b.successors)):
                if self.bmap.get(sa) is not sb:
                    # Blocks pair by position, so the input's name is its counterpart's.
                    self.fail(
                        f"'{b.name}' op successor #{k} is {block_name(sb)}, where the input branches to {block_name(sa)}",
                        b,
                        a,
                    )
                    return False
        if not _same_operands(a, b, self.vmap.get):
            ga, gb = _segmented(a), _segmented(b)
            if len(ga) != len(gb) or any(len(x) != len(y) for x, y in zip(ga, gb)):
                self.fail(f"'{b.name}' op has operands different from the input's", b, a)
                return False
            get, k = self.vmap.get, 0
            for xs, ys in zip(ga, gb):
                for x, y in zip(xs, ys):
                    if get(x) is not y:
                        self.fail(f"'{b.name}' op operand #{k} is not the value the input uses", b, a)
                        return False
                    k += 1
        ra, rb = a.results, b.results
        if len(ra) == 1 and len(rb) == 1 and ((ta := ra[0].type) is (tb := rb[0].type) or ta == tb):
            # One result each, of the same type: as many tokens on each
            # side, and `values` pairs them.
            self.vmap[ra[0]] = rb[0]
            ok = True
        elif not ra:
            # No input result: no token to keep, and `values` accepts
            # output results that are all plumbing.
            ok = True
            for r in rb:
                if r.type.text not in _PLUMBING:
                    ok = False
                    break
        else:
            ok = _plumbing_count(rb) >= _plumbing_count(ra) and self.values(ra, rb)
        if not ok:
            self.fail(f"'{b.name}' op has results different from the input's", b, a)
            return False
        if len(a.regions) != len(b.regions) or len(a.successors) != len(b.successors):
            self.fail(f"'{b.name}' op has regions or successors different from the input's", b, a)
            return False
        self.c.to_output[a] = b
        for rga, rgb in zip(a.regions, b.regions):
            if not self.region(rga, rgb, b, a):
                return False
        return True

    def same_interface(self, a: Operation, b: Operation) -> bool:
        """What crosses the function's boundary is kept exactly: a function's
        signature (argument and result types, their attributes), and the
        types of what a call or return hands out (`registry.token_use`
        `escape`), tokens included, in order. A token moved to another
        argument position is another function to its callers."""
        if registry.lookup(a.name).symbol and "function_type" in a.properties:
            for key, what in (
                ("function_type", "signature"),
                ("arg_attrs", "argument attributes"),
                ("res_attrs", "result attributes"),
            ):
                x, y = a.properties.get(key), b.properties.get(key)
                if x != y:
                    self.fail(
                        f"'{b.name}' op: the function's {what} {_shown(y)} differs from the input's {_shown(x)}: "
                        "a rewrite may not change what callers see",
                        b,
                        a,
                    )
                    return False
            return True
        if registry.token_use(a.name) == "escape" and a.operands and b.operands:
            ta, tb = [v.type.text for v in a.operands], [v.type.text for v in b.operands]
            if ta != tb:
                self.fail(
                    f"'{b.name}' op hands out ({', '.join(tb)}) where the input's hands out ({', '.join(ta)}): "
                    "what leaves the function may not change",
                    b,
                    a,
                )
                return False
        return True

    def region(self, ra: Region, rb: Region, out_owner: Operation, in_owner: Operation) -> bool:
        if (
            not ra.blocks
            and len(rb.blocks) == 1
            and registry.region_flow(in_owner.name) == "then_else"
            and len(in_owner.regions) == 2
            and ra is in_owner.regions[1]
        ):
            return self.added_else(rb.blocks[0], out_owner, in_owner)
        if len(ra.blocks) != len(rb.blocks):
            self.fail(f"'{out_owner.name}' op has a region with a different number of blocks", out_owner, in_owner)
            return False
        for k, (ba, bb) in enumerate(zip(ra.blocks, rb.blocks)):
            self.bmap[ba] = bb
            if not self.values(ba.args, bb.args):
                where = f"block {block_name(bb)}" if k else "its entry block"
                self.fail(
                    f"'{out_owner.name}' op: {where} has arguments different from the input's", out_owner, in_owner
                )
                return False
        for ba, bb in zip(ra.blocks, rb.blocks):
            if not self.block(ba, bb, out_owner, in_owner):
                return False
        return True

    def added_else(self, bb: Block, out_owner: Operation, in_owner: Operation) -> bool:
        """An `else` the input's `scf.if` (or `affine.if`) lacks: giving the
        `if` a token result needs one that yields a token. It may hold only what a
        rewrite may add (waits) and an `scf.yield` of plumbing values, so it
        does nothing the input's empty `else` would not."""
        for ob in bb.ops:
            last = ob is bb.ops[-1]
            if (
                last
                and registry.yields_to_parent(ob.name)
                and registry.token_use(ob.name) == "pass"
                and all(is_plumbing(v.type) for v in ob.operands)
            ):
                continue
            if not last and is_addable(ob) and all(is_plumbing(r.type) for r in ob.results):
                self.c.added.append(ob)
                continue
            self.fail(
                f"'{ob.name}' op in the 'else' region the output adds to 'scf.if' is not token plumbing "
                "(an added 'else' may hold only waits and an 'scf.yield' of tokens)",
                ob,
                in_owner,
            )
            return False
        if bb.args or not bb.ops:
            self.fail("'scf.if' op has an added 'else' region that is not token plumbing", out_owner, in_owner)
            return False
        return True

    def block(self, ba: Block, bb: Block, out_owner: Operation, in_owner: Operation) -> bool:  # noqa: C901 - one case per kind of op pairing
        """Align the two op lists in order. An output op pairs with the next
        input op when they can be the same op; otherwise it is an addition if
        a rewrite may add it, and only then is the input op taken as dropped
        (if a rewrite may drop it). Preferring "added" over "dropped" keeps a
        user's own wait or await paired with itself when the rewrite puts a
        new wait in front of it.

        Pure ops (`movable`) may be reordered within their block: their
        place orders nothing; one that is not speculatable only between
        the same barriers (`speculation_kept`). One out of place pairs with an equal input
        op (name, attributes, operands through the value map, result types)
        of the same block, earlier or later; the input's passed over wait
        for their counterparts, and any left at the end are missing."""
        ops = ba.ops
        n = len(ops)
        i = 0
        taken: set[Operation] = set()
        waiting: list[Operation] = []
        moved: list[Operation] = []
        """Input ops that are not speculatable, matched out of place."""
        plain = _PLAIN
        for ob in bb.ops:
            while True:
                while i < n and ops[i] in taken:
                    i += 1
                ia = ops[i] if i < n else None
                if ia is not None and ia.name == ob.name:
                    # The common case: the next input op has the output op's
                    # name, one no rewrite moves or adds (`_plain_name`): the
                    # general test below would find them compatible, and
                    # `ob` not movable.
                    is_plain = plain.get(ob.name)
                    if is_plain is None:
                        is_plain = plain[ob.name] = _plain_name(ob.name)
                    if is_plain:
                        if not self.op(ia, ob):
                            return False
                        i += 1
                        break
                move = movable(ob)
                if ia is not None and _compatible(ia, ob) and (not move or self.same_pure(ia, ob)):
                    if not self.op(ia, ob):
                        return False
                    i += 1
                    break
                twin = self.twin(ob, waiting, ops, i, taken) if move else None
                if twin is not None:
                    taken.add(twin)
                    if twin in waiting:
                        waiting.remove(twin)
                    if not self.op(twin, ob):
                        return False
                    if not registry.lookup(twin.name).speculatable:
                        moved.append(twin)
                    break
                if is_addable(ob):
                    self.c.added.append(ob)
                    break
                if ia is not None and _droppable(ia):
                    self.c.dropped.append(ia)
                    i += 1
                    continue
                if ia is not None and movable(ia):
                    waiting.append(ia)
                    i += 1
                    continue
                return self.unmatched(ob, ia, ops, waiting, taken, i, in_owner)
        for ia in ops[i:]:
            if ia in taken:
                continue
            if _droppable(ia):
                self.c.dropped.append(ia)
            elif movable(ia):
                waiting.append(ia)
            else:
                waiting.insert(0, ia)
                break
        if waiting:
            last = bb.ops[-1] if bb.ops else out_owner
            self.fail(f"'{waiting[0].name}' op of the input is missing from the output", last, waiting[0])
            return False
        return not moved or self.speculation_kept(ba, bb, moved)

    def speculation_kept(self, ba: Block, bb: Block, moved: list[Operation]) -> bool:
        """Each op of `moved` (pure but not speculatable: it may stop the
        program) sits between the same two barriers of its block in the
        output as in the input. A barrier is an op that can stop the
        program or be observed before it does (`_barrier`: effects, calls,
        asserts, waits, region ops). Barriers keep their order in any
        match, so counting those before the op on each side suffices."""
        to_out = self.c.to_output
        out_pos = {op: k for k, op in enumerate(bb.ops)}
        before_in: dict[Operation, int] = {}
        barriers_out: list[int] = []
        for ia in ba.ops:
            if ia in to_out and _barrier(ia):
                barriers_out.append(out_pos[to_out[ia]])
            else:
                before_in[ia] = len(barriers_out)
        for ia in moved:
            ob = to_out[ia]
            n_out = bisect.bisect_left(barriers_out, out_pos[ob])
            n_in = before_in[ia]
            if n_out != n_in:
                barrier = ba.ops[[k for k, x in enumerate(ba.ops) if x in to_out and _barrier(x)][min(n_in, n_out)]]
                way = "above" if n_out < n_in else "below"
                self.fail(
                    f"'{ob.name}' op is moved {way} '{barrier.name}' ({_at(barrier)} in the input), but it is not "
                    "speculatable (it can fault at run time, e.g. divide by zero): it may only move across ops that "
                    "cannot stop the program",
                    ob,
                    ia,
                )
                return False
        return True

    def same_pure(self, a: Operation, b: Operation) -> bool:
        """Is output op `b` the pure input op `a`, its operands the values
        mapped from `a`'s?"""
        if a.name != b.name or a.attributes != b.attributes or (a.properties != b.properties and not same_props(a, b)):
            return False
        xs, ys = a.operands, b.operands
        if len(xs) != len(ys):
            return False
        get = self.vmap.get
        for x, y in zip(xs, ys):
            if get(x) is not y:
                return False
        ra, rb = a.results, b.results
        if len(ra) != len(rb):
            return False
        for x, y in zip(ra, rb):
            if x.type is not y.type and x.type != y.type:
                return False
        return True

    def twin(
        self, ob: Operation, waiting: list[Operation], ops: list[Operation], i: int, taken: set[Operation]
    ) -> Operation | None:
        """The input op that pure output op `ob` is, found out of place."""
        for ia in waiting:
            if self.same_pure(ia, ob):
                return ia
        for ia in ops[i:]:
            if ia not in taken and movable(ia) and self.same_pure(ia, ob):
                return ia
        return None

    def unmatched(
        self,
        ob: Operation,
        ia: Operation | None,
        ops: list[Operation],
        waiting: list[Operation],
        taken: set[Operation],
        i: int,
        in_owner: Operation,
    ) -> bool:
        """Report output op `ob`, which is no op of the input."""
        if movable(ob):
            # A changed pure op: compared with an input op of its name, for
            # the precise difference.
            like = next((x for x in waiting + ops[i:] if x.name == ob.name and x not in taken), None)
            if like is not None and not self.op(like, ob):
                return False
        if ia is None:
            self.fail(f"'{ob.name}' op has no counterpart in the input", ob, ops[-1] if ops else in_owner)
        else:
            self.fail(f"'{ob.name}' op is where the input has '{ia.name}' (added, dropped or reordered)", ob, ia)
        return False


_PURE: dict[str, bool] = {}
"""Op name -> pure and not a terminator (asked once per op of the output).
A cache: the registry is fixed once it is imported."""


def _pure_name(name: str) -> bool:
    """`_PURE`'s entry for `name`, from the registry."""
    pure = _PURE.get(name)
    if pure is None:
        info = registry.lookup(name)
        pure = _PURE[name] = info.pure and not info.terminator
    return pure


_PLAIN: dict[str, bool] = {}
"""Op name -> `_plain_name` (asked once per op of the output). A cache, as
`_PURE`."""


def _plain_name(name: str) -> bool:
    """Ops of this name are never `movable` (not pure, or a terminator)
    and never `is_addable` (not a `gpu.wait`, not an `async.await`): two
    such ops of one name are `_compatible`, whatever their operands."""
    return not _pure_name(name) and not registry.is_gpu_wait(name) and not registry.awaits_one(name)


def movable(op: Operation) -> bool:
    """A pure op a rewrite may put elsewhere in its block: no effects, no
    regions or successors, not a terminator, and no token in or out (what
    takes or yields a token is the proof's business, in place)."""
    if not _pure_name(op.name) or op.regions or op.successors:
        return False
    plumbing = _PLUMBING
    for vs in (op.operands, op.results):
        for v in vs:
            if v.type.text in plumbing:
                return False
    return True


def _shown(attr: object) -> str:
    return "(none)" if attr is None else str(getattr(attr, "text", None) or attr)


def _barrier(op: Operation) -> bool:
    """An op a non-speculatable one may not move across: it can stop the
    program (an assert, a call, a wait) or be observed (any effect), or it
    holds ops that can (a region op)."""
    return bool(op.regions) or not _pure_name(op.name)


def _at(op: Operation) -> str:
    loc = op.loc
    return f"{loc.file}:{loc.line}:{loc.col}" if loc is not None else "?"


def block_name(b: Block) -> str:
    """`^bbN`, N the block's position in its region (as mlir-opt prints it;
    labels are renamed by printing, positions are not)."""
    region = b.parent
    return f"^bb{region.blocks.index(b)}" if region is not None else "^bb?"


def _compatible(a: Operation, b: Operation) -> bool:
    """Could output op `b` be input op `a`? Same name, and for an op a
    rewrite may also add, results that do not lose a token of the input's
    (so a new `gpu.wait` is not mistaken for the user's `gpu.wait async`).
    Anything else is left to the full comparison, which reports it."""
    if a.name != b.name:
        return False
    if not is_addable(b):
        return True
    if registry.awaits_one(b.name) and a.operands and b.operands and not is_plumbing(a.operands[0].type):
        # A new await of a GPU token is not the user's await of an
        # `!async.token` or of a value that is not a GPU token.
        return False
    in_tokens = sum(1 for r in a.results if is_plumbing(r.type))
    out_tokens = sum(1 for r in b.results if is_plumbing(r.type))
    return out_tokens >= in_tokens and len(a.results) <= len(b.results)


def _droppable(op: Operation) -> bool:
    """A blocking wait or an await with no result: only ordering is lost if
    it goes, which the proof checks."""
    return (registry.is_gpu_wait(op.name) or registry.awaits_one(op.name)) and all(
        is_plumbing(r.type) for r in op.results
    )


def match(fin: Operation, fout: Operation) -> Correspondence:
    """Map the ops of output function `fout` onto input function `fin`."""
    m = _Matcher()
    if not m.op(fin, fout) and not m.c.mismatches:
        # Every failing path reports; should one not, the verdict must still
        # not be `verified` on a correspondence left half made.
        m.fail(f"'{fout.name}' op is not a rewrite of the input's", fout, fin)
    return m.c
