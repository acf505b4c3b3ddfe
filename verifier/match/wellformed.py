"""Well-formedness of a rewrite: what makes it invalid IR.

Every use dominated by its definition (MLIR's dominance: within a block by
position, across blocks of a region by the region's dominator tree, where an
unreachable block dominates nothing and uses inside unreachable blocks are
not checked, as MLIR's verifier does), a GPU op's token as its last result,
and the types of tokens and `!async.value`s consistent. A problem is a
`Mismatch` of kind `ill-formed`.
"""

from __future__ import annotations

from spec import registry
from spec.dominance import BlockDominance
from spec.invariant import InternalError
from spec.ir import Block, Operation, Region, Value
from spec.semantics.events import GPU_TOKEN_TEXT, execute_segments, gpu_deps
from verifier.match.correspondence import Mismatch


def _ancestor_in(op: Operation, block: Block) -> Operation | None:
    """The ancestor of `op` (or `op`) that sits directly in `block`."""
    cur: Operation | None = op
    while cur is not None:
        if cur.parent is block:
            return cur
        cur = cur.parent_op
    return None


def _ancestor_in_region(op: Operation, region: Region) -> Operation | None:
    cur: Operation | None = op
    while cur is not None:
        if cur.parent is not None and cur.parent.parent is region:
            return cur
        cur = cur.parent_op
    return None


class _Dominance:
    def __init__(self) -> None:
        self.index: dict[Operation, int] = {}
        self.doms: dict[Region, BlockDominance] = {}
        self.relations: dict[tuple[int, int], Operation | bool] = {}
        """(`id` of a user's block, `id` of a definition's other block) ->
        `relation` (the IR holds both blocks, so no id is reused)."""

    def relation(self, ublock: Block, dblock: Block) -> Operation | bool:
        """How a definition in `dblock` stands to every op of another block
        `ublock`: the op of `dblock` around `ublock` if `dblock` holds it;
        otherwise whether `dblock` dominates the block of `dblock`'s region
        around `ublock` (and is not it). The same for all of `ublock`'s ops,
        so it is asked once per pair of blocks: a function of 10,000 GPU
        ops has 60,000 operands defined in another block than their user's."""
        key = (id(ublock), id(dblock))
        r = self.relations.get(key)
        if r is None:
            holder = ublock.parent_op
            anc = _ancestor_in(holder, dblock) if holder is not None else None
            if anc is not None:
                r = anc
            else:
                region = dblock.parent
                around: Block | None = ublock
                while around is not None and around.parent is not region:
                    op = around.parent_op
                    around = op.parent if op is not None else None
                r = around is not None and around is not dblock and self.block_dominates(dblock, around)
            self.relations[key] = r
        return r

    def pos(self, op: Operation) -> int:
        i = self.index.get(op)
        if i is None:
            if op.parent is None:
                raise InternalError("verifier.match.wellformed: expected op.parent is not None")
            for k, o in enumerate(op.parent.ops):
                self.index[o] = k
            i = self.index[op]
        return i

    def _doms(self, region: Region) -> BlockDominance:
        d = self.doms.get(region)
        if d is None:
            d = self.doms[region] = BlockDominance(region)
        return d

    def reachable(self, block: Block) -> bool:
        """Is `block` reachable from its region's entry?"""
        region = block.parent
        if region is None or len(region.blocks) == 1:
            return True
        return self._doms(region).reachable(block)

    def block_dominates(self, a: Block, b: Block) -> bool:
        """MLIR's (and LLVM's) definition: a block dominates itself; an
        unreachable block is dominated by every block and dominates no other."""
        region = a.parent
        if a is b:
            return True
        if region is None or len(region.blocks) == 1:
            return False
        return self._doms(region).dominates(a, b)

    def dominates(self, v: Value, user: Operation) -> bool:
        """Does the definition of `v` dominate `user`? (Any `v`; an op's
        operands go through `first_undominated`, which decides those
        defined in the op's own block itself.)"""
        d = v.owner
        if isinstance(v.owner, Block):
            block = v.owner
            if _ancestor_in(user, block) is not None:
                return True
            if block.parent is None:
                return False
            anc = _ancestor_in_region(user, block.parent)
            return anc is not None and anc.parent is not None and self.block_dominates(block, anc.parent)
        if not isinstance(d, Operation) or d.parent is None:
            return False
        anc = _ancestor_in(user, d.parent)
        if anc is not None:
            return anc is not d and self.pos(d) < self.pos(anc)
        region = d.parent.parent
        if region is None:
            return False
        anc = _ancestor_in_region(user, region)
        return (
            anc is not None
            and anc.parent is not d.parent
            and anc.parent is not None
            and self.block_dominates(d.parent, anc.parent)
        )

    def first_undominated(self, user: Operation) -> int | None:
        """The index of the first operand of `user` whose definition does
        not dominate it, if any. One defined by an op of the user's own
        block (most operands) dominates it iff that op comes first: what
        `dominates` finds through `_ancestor_in` (the user is its own
        ancestor there), decided here from the block's numbering without a
        call per operand."""
        block = user.parent
        at = self.pos(user) if block is not None else -1
        index = self.index
        for k, v in enumerate(user.operands):
            d = v.owner
            if d.__class__ is Operation and d.parent is block and block is not None:
                # `pos(user)` numbered the whole block, `d` included.
                if index[d] >= at:
                    return k
                continue
            where = d if d.__class__ is Block else d.parent if d.__class__ is Operation else None
            if where is not None and block is not None and where is not block and where.parent is not None:
                # Defined in another block (an argument of one, or an op
                # there): decided per pair of blocks (`relation`).
                r = self.relation(block, where)
                if r.__class__ is bool:
                    if not r:
                        return k
                elif d.__class__ is Operation and (r is d or self.pos(d) >= self.pos(r)):  # type: ignore[arg-type]  # r is the op around the user
                    return k
                continue
            if not self.dominates(v, user):
                return k
        return None


def _token_last(op: Operation) -> bool:
    """At most one `!gpu.async.token` result, and that one the last."""
    results = op.results
    last = len(results) - 1
    for i, r in enumerate(results):
        if r.type.text == GPU_TOKEN_TEXT and i != last:
            return False
    return True


def well_formed(func: Operation) -> list[Mismatch]:
    """Problems that make `func` invalid IR, one per op at most."""
    problems: list[Mismatch] = []
    dom = _Dominance()

    def bad(op: Operation, message: str) -> None:
        problems.append(Mismatch("ill-formed", f"'{op.name}' op {message}", op, None))

    # Consecutive ops of the walk mostly share their block: its
    # reachability is asked once per run of them.
    block: Block | None = None
    checked = True
    gpu_async = registry.is_gpu_async
    for op in func.nested_ops():
        # Uses in an unreachable block are not checked (MLIR's verifier
        # skips them: nothing there ever runs).
        if op.parent is not block:
            block = op.parent
            checked = block is None or dom.reachable(block)
        k = dom.first_undominated(op) if checked and op.operands else None
        if k is not None:
            bad(op, f"operand #{k} does not dominate this use")
            continue
        if gpu_async(op.name):
            if not _token_last(op):
                bad(op, "must have at most one '!gpu.async.token' result, as its last result")
            elif any(d.type.text != GPU_TOKEN_TEXT for d in gpu_deps(op)):
                bad(op, "has an async dependency that is not a '!gpu.async.token'")
        elif registry.awaits_one(op.name) and op.operands:
            t = op.operands[0].type
            expected = [t.async_value_inner] if t.is_async_value else []
            if [r.type for r in op.results] != expected:
                bad(op, f"result types do not match the awaited '{t}'")
        elif registry.begins_thread(op.name) and op.regions and op.regions[0].blocks:
            deps, operands = execute_segments(op)
            body = op.regions[0].blocks[0]
            if any(not d.type.is_async_token for d in deps):
                bad(op, "has a dependency that is not an '!async.token'")
            elif [a.type for a in body.args] != [
                v.type.async_value_inner if v.type.is_async_value else v.type for v in operands
            ]:
                bad(op, "body argument types do not match its operands")
            else:
                y = body.ops[-1] if body.ops else None
                values = [r.type.async_value_inner for r in op.results if r.type.is_async_value]
                if y is None or not registry.ends_thread(y.name) or [v.type for v in y.operands] != values:
                    bad(op, "'async.yield' operand types do not match its '!async.value' results")
    return problems
