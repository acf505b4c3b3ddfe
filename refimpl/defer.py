"""Phase 2 (19/22 and reference): defer waits out of `async.execute`.

Upstream's `DeferWaitCallback`, run after phase 1 (`refimpl.thread`). It
returns the use lists it leaves (`refimpl.uses.UseLists`), which phase 3
(`refimpl.single_use`) starts from.

Invariant afterwards: an `async.execute` whose token is only awaited or used
as a dependency of other `async.execute`s does not end its body with a
blocking `gpu.wait` (after its last non-pure op); instead the tokens it
waited on are yielded as extra results, and every user of the execute's
token waits for them itself (an `async.await` of the new result, then a
dependency of its next GPU op or a `gpu.wait` before its next effectful op).

The reference adds one thing (`docs/refimpl.md`, deviation 1): a user of a
value result of such an execute observes the body's end too, so unless the
host has already waited for the deferred tokens before it (an await of the
execute's token with its `gpu.wait`, earlier in the same block or in front
of an enclosing op), it waits for them itself: an `async.await` of the
deferred result after an `async.await` user (or as an extra operand of an
`async.execute` user), before anything else.
"""

from __future__ import annotations

from refimpl.modes import Mode
from refimpl.uses import AWAIT, EXECUTE, UseLists, add_execute_results, executes_post_order
from spec import effects, gpu_async
from spec.attributes import GPU_TOKEN, DenseArrayAttr
from spec.dominance import BlockDominance
from spec.invariant import InternalError
from spec.ir import Block, Operation, Region, Value


def _side_effects(op: Operation) -> bool:
    return not effects.is_memory_effect_free(op)


def _stops_scan(op: Operation) -> bool:
    return effects.may_be_terminator(op) or _side_effects(op)


def defer_waits(func: Operation, mode: Mode) -> UseLists | None:
    """Phase 2 on one function. Returns the use lists (MLIR's use-list
    order of the execute results, as this phase left them) for phase 3, or
    None when `func` has no `async.execute`; no state outlives the call.

    Invariant afterwards: an `async.execute` whose token is only awaited or
    a dependency of other executes (with `defer_only_if_awaited_on_every_path`,
    with one such user in its own block) no longer ends its body with a
    blocking `gpu.wait`; the tokens it waited on are yielded as extra
    results, and every user of its token (with `value_result_users_wait`,
    also of its value results, unless the host has already waited for them)
    waits for those results itself."""
    if not any(op.name == EXECUTE for op in func.walk()):
        return None
    uses = UseLists(func)
    cfgs: dict[Region, BlockDominance] = {}
    """Dominators per multi-block region (the IR's blocks do not change here)."""
    worklist: list[Operation] = []
    execute: Operation | None  # the loop's below, and a wait's parent op after it
    for execute in executes_post_order(func):
        if not _candidate(uses, execute):
            continue
        if mode.defer_only_if_awaited_on_every_path and not _observed_on_every_path(uses, execute):
            continue
        body = execute.regions[0].blocks[0]
        for op in reversed(body.ops[:-1]):
            if gpu_async.is_gpu_wait(op):
                if gpu_async.async_token(op) is None:
                    worklist.append(op)
                break
            if _side_effects(op):
                break
    i = 0
    while i < len(worklist):
        wait = worklist[i]
        i += 1
        block = wait.parent
        if block is None:
            raise InternalError("refimpl.defer: expected block is not None")
        execute = block.parent_op
        if execute is None:
            raise InternalError("refimpl.defer: expected execute is not None")
        deps = list(wait.operands)
        block.ops.remove(wait)
        values = execute.results[1:]
        tokens = add_execute_results(uses, execute, deps)
        token_users = list(uses.get(execute.results[0]))
        for user in token_users:
            _add_dependency_after(uses, tokens, user, worklist)
        if mode.value_result_users_wait and tokens:
            for user in _unsynchronised_value_users(uses, execute, values, tokens, token_users, cfgs):
                if user.name in (AWAIT, EXECUTE):
                    _add_dependency_after(uses, tokens, user, worklist)
                else:
                    _wait_before(uses, tokens, user)
    return uses


def _candidate(uses: UseLists, execute: Operation) -> bool:
    """Upstream's test: the execute's token has uses, all by `async.await`
    or as a dependency of an `async.execute`."""
    users = uses.get(execute.results[0])
    return bool(users) and all(u.name in (EXECUTE, AWAIT) for u in users)


def _observed_on_every_path(uses: UseLists, execute: Operation) -> bool:
    """Deviation 5: a user of the execute's token runs on every path past
    the execute (one sits in the execute's own block). Otherwise a path
    that skips every user (an await inside an `scf.if`, one successor of a
    `cf.cond_br`) would leave the deferred GPU work unwaited: the runtime
    drains the execute when the program ends, not the GPU work its body
    handed over, so that work could still run after the program's end."""
    block = execute.parent
    return any(u.parent is block for u in uses.get(execute.results[0]))


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
    if user.name == AWAIT:
        block = user.parent
        if block is None:
            raise InternalError("refimpl.defer: expected block is not None")
        start = block.ops.index(user) + 1
        if user.results:
            stands_for[user.results[0]] = implied.get(user.operands[0], set())
    elif user.name == EXECUTE and user.regions and user.regions[0].blocks:
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
        if op.name == AWAIT and op.results and op.operands and op.operands[0] in want:
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
        if not prefix and _stops_scan(op):
            return want <= done
    return prefix and want <= done


def _wait_before(uses: UseLists, tokens: list[Value], user: Operation) -> None:
    """Make the host wait for `tokens` right before `user` (a value-result
    user that is neither an await nor an execute: `return`, a call)."""
    block = user.parent
    if block is None:
        raise InternalError("refimpl.defer: expected block is not None")
    at = block.ops.index(user)
    values = []
    for t in tokens:
        aw = Operation(AWAIT, operands=[t], loc=user.loc)
        values.append(aw.add_result(gpu_async.value_type_of_async(t.type)))
        block.insert(at, aw)
        uses.add(t, aw)
        at += 1
    block.insert(at, gpu_async.new_wait(user.loc, values, is_async=False))


def _add_dependency_after(uses: UseLists, tokens: list[Value], user: Operation, worklist: list[Operation]) -> None:
    """Upstream's `addAsyncDependencyAfter`: make `user` (an await of the
    execute's token, or an execute depending on it) wait for `tokens`."""
    loc = user.loc
    block: Block
    if user.name == AWAIT:
        block = user.parent  # type: ignore[assignment]  # an await in the function has a parent block
        at = block.ops.index(user) + 1
        values: list[Value] = []
        for t in tokens:
            aw = Operation(AWAIT, operands=[t], loc=loc, parent=block)
            values.append(aw.add_result(gpu_async.value_type_of_async(t.type)))
            block.ops.insert(at, aw)
            uses.add(t, aw)
            at += 1
    else:
        block = user.regions[0].blocks[0]
        at = 0
        user.operands.extend(tokens)
        sizes = user.properties["operandSegmentSizes"]
        if not isinstance(sizes, DenseArrayAttr):
            raise InternalError("refimpl.defer: expected isinstance(sizes, DenseArrayAttr)")
        user.properties["operandSegmentSizes"] = DenseArrayAttr(
            sizes.element, (sizes.values[0], sizes.values[1] + len(tokens))
        )
        for t in tokens:
            uses.add(t, user)
        values = [block.add_arg(GPU_TOKEN, loc=user.loc) for _ in tokens]
    while not _stops_scan(block.ops[at]):
        at += 1
    found = block.ops[at]
    if gpu_async.is_gpu_async(found):
        for v in values:
            gpu_async.add_async_dep(found, v)
        return
    wait = gpu_async.new_wait(loc, values, is_async=False)
    block.insert(at, wait)
    parent = block.parent_op
    if parent is not None and parent.name == EXECUTE and _candidate(uses, parent) and block.ops[-1] is found:
        worklist.append(wait)
