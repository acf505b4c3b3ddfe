"""Deviation 1 of `docs/refimpl.md`: the users of an execute's value
results wait for the GPU work its body handed over.

Upstream's `DeferWaitCallback` (`refimpl.defer`) defers the final blocking
`gpu.wait` of an `async.execute` body to the users of the execute's token
only. A user of one of its value results observes the body's end too (the
value is available only once the body has run), so once the wait is
deferred, whatever the host does after such a user could overlap the GPU
work the body no longer waits for. The reference therefore makes each such
user wait for the deferred tokens itself, unless the host has already
waited for them before it (an await of the deferred result joined by a
blocking `gpu.wait`, earlier in the same block, in front of an enclosing op
or in a dominating block) or the user waits by itself (it awaits a yielded
GPU token that implies them, and a `gpu.wait` on it precedes the next host
effect). Where upstream is right, the output is upstream's.
"""

from __future__ import annotations

from collections.abc import Callable

from refimpl.uses import UseLists, stops_scan
from spec import gpu_async, registry
from spec.dominance import BlockDominance
from spec.invariant import InternalError
from spec.ir import Operation, Region, Value


class ValueResultWaits:
    """Deviation 1 over one function's phase 2. Holds the dominators of its
    multi-block regions, built as needed (the blocks do not change in phase
    2)."""

    def __init__(self, uses: UseLists) -> None:
        self.uses = uses
        self.cfgs: dict[Region, BlockDominance] = {}

    def after_deferral(
        self,
        execute: Operation,
        tokens: list[Value],
        token_users: list[Operation],
        add_dependency_after: Callable[[Operation], None],
    ) -> None:
        """Called once upstream has deferred the wait of `execute` into
        `tokens` (its new, last results) and made `token_users` (the users
        of its token) wait for them.

        Invariant afterwards: every user of a value result of `execute` that
        is not a token user either runs after the host has waited for
        `tokens`, or waits for them itself before the next host effect: an
        `async.await` or `async.execute` user as upstream makes a token user
        wait (`add_dependency_after`), any other user (`return`, a call)
        with an `async.await` of each token and a blocking `gpu.wait` right
        before it."""
        if not tokens:
            return
        values = execute.results[1 : len(execute.results) - len(tokens)]
        for user in _unsynchronised_value_users(self.uses, execute, values, tokens, token_users, self.cfgs):
            if registry.awaits_one(user.name) or registry.begins_thread(user.name):
                add_dependency_after(user)
            else:
                _wait_before(self.uses, tokens, user)


def _unsynchronised_value_users(
    uses: UseLists,
    execute: Operation,
    values: list[Value],
    tokens: list[Value],
    token_users: list[Operation],
    cfgs: dict[Region, BlockDominance],
) -> list[Operation]:
    """The users of `values` (the execute's value results before the
    deferral) after which something could run before the GPU work behind
    the deferred `tokens` is done: each needs a wait of its own
    (deviation 1). Users of the execute's token are already handled."""
    implied = _yield_implies(execute, tokens)
    seen = {id(u) for u in token_users}
    out: list[Operation] = []
    for v in values:
        for user in uses.get(v):
            if id(user) in seen:
                continue
            seen.add(id(user))
            if not (_synchronised_before(user, tokens, cfgs) or _synchronised_after(user, tokens, implied)):
                out.append(user)
    return out


def _yield_implies(execute: Operation, tokens: list[Value]) -> dict[Value, set[Value]]:
    """For each value result of `execute`: the deferred `tokens` (its new
    results) whose GPU work is done when the GPU token it yields is (the
    yielded token is the deferred one or depends on it in the body)."""
    body = execute.regions[0].blocks[0]
    yielded = body.ops[-1].operands
    deferred = {yielded[r.index - 1]: r for r in tokens}
    closure: dict[Value, set[Value]] = {}
    for op in body.ops:
        if gpu_async.is_gpu_async(op):
            token = gpu_async.async_token(op)
            if token is not None:
                got = {deferred[token]} if token in deferred else set()
                for d in gpu_async.async_deps(op):
                    got |= closure.get(d, {deferred[d]} if d in deferred else set())
                closure[token] = got
    out: dict[Value, set[Value]] = {}
    for r in execute.results[1:]:
        if r.index - 1 < len(yielded) and r not in tokens:
            y = yielded[r.index - 1]
            out[r] = closure.get(y, {deferred[y]} if y in deferred else set())
    return out


def _synchronised_before(user: Operation, tokens: list[Value], cfgs: dict[Region, BlockDominance]) -> bool:
    """Whether, in the block of `user` or of one of its enclosing ops (or in
    a block dominating that one), the host has waited for all of `tokens`
    before that op starts: each token is awaited (`%v = async.await %tok`)
    and a blocking `gpu.wait` joins every `%v`, directly or through the deps
    of GPU ops."""
    op: Operation | None = user
    while op is not None and op.parent is not None:
        block = op.parent
        if _waited(block.ops[: block.ops.index(op)], tokens, {}, prefix=True):
            return True
        region = block.parent
        if region is not None and len(region.blocks) > 1:
            dom = cfgs.get(region)
            if dom is None:
                dom = cfgs[region] = BlockDominance(region)
            if dom.reachable(block) and any(
                d is not block and _waited(d.ops, tokens, {}, prefix=True) for d in dom.dominators(block)
            ):
                return True
        op = block.parent_op
    return False


def _synchronised_after(user: Operation, tokens: list[Value], implied: dict[Value, set[Value]]) -> bool:
    """Whether what `user` starts waits for `tokens` by itself: the awaited
    value (or, in an execute's body, the operand) is a GPU token that
    implies them, every GPU op up to the next host effect depends on it,
    and a blocking `gpu.wait` on it comes before that effect."""
    stands_for: dict[Value, set[Value]] = {}
    if registry.awaits_one(user.name):
        block = user.parent
        if block is None:
            raise InternalError("refimpl.value_results: expected block is not None")
        start = block.ops.index(user) + 1
        if user.results:
            stands_for[user.results[0]] = implied.get(user.operands[0], set())
    elif registry.begins_thread(user.name) and user.regions and user.regions[0].blocks:
        block = user.regions[0].blocks[0]
        start = 0
        operands = user.operands[len(user.operands) - len(block.args) :]
        for arg, v in zip(block.args, operands):
            stands_for[arg] = implied.get(v, set())
    else:
        return False
    return _waited(block.ops[start:], tokens, stands_for, prefix=False)


def _waited(ops: list[Operation], tokens: list[Value], stands_for: dict[Value, set[Value]], prefix: bool) -> bool:
    """Walk `ops` tracking which deferred `tokens` each GPU token stands
    for (`stands_for`, edited). `prefix`: whether the host has waited for
    all of them by the end of `ops`. Otherwise: whether it has by the first
    op with a host effect, every GPU op with work before that depending on
    all of them."""
    want = set(tokens)
    done: set[Value] = set()
    for op in ops:
        if registry.awaits_one(op.name) and op.results and op.operands and op.operands[0] in want:
            stands_for[op.results[0]] = {op.operands[0]}
            continue
        if gpu_async.is_gpu_async(op):
            implied: set[Value] = set()
            for d in gpu_async.async_deps(op):
                implied |= stands_for.get(d, set())
            token = gpu_async.async_token(op)
            if not gpu_async.is_gpu_wait(op) and not prefix and not want <= implied:
                return False
            if token is not None:
                stands_for[token] = implied
            elif gpu_async.is_gpu_wait(op):
                done |= implied
            continue
        if not prefix and stops_scan(op):
            return want <= done
    return prefix and want <= done


def _wait_before(uses: UseLists, tokens: list[Value], user: Operation) -> None:
    """Make the host wait for `tokens` right before `user` (a value-result
    user that is neither an await nor an execute: `return`, a call)."""
    block = user.parent
    if block is None:
        raise InternalError("refimpl.value_results: expected block is not None")
    at = block.ops.index(user)
    values = []
    for t in tokens:
        aw = Operation("async.await", operands=[t], loc=user.loc)
        values.append(aw.add_result(gpu_async.value_type_of_async(t.type)))
        block.insert(at, aw)
        uses.add(t, aw)
        at += 1
    block.insert(at, gpu_async.new_wait(user.loc, values, is_async=False))
