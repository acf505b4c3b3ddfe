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

The reference departs from upstream twice here (`docs/refimpl.md`), each
in one place: it defers only when a user of the execute's token runs on
every path past it (deviation 5, `_observed_on_every_path`), and after a
deferral the users of the execute's value results wait too (deviation 1,
`refimpl.value_results`).
"""

from __future__ import annotations

from functools import partial

from refimpl.modes import Mode
from refimpl.uses import UseLists, add_execute_results, executes_post_order, stops_scan
from refimpl.value_results import ValueResultWaits
from spec import effects, gpu_async, registry
from spec.attributes import GPU_TOKEN, DenseArrayAttr
from spec.invariant import InternalError
from spec.ir import Block, Operation, Value


def _side_effects(op: Operation) -> bool:
    return not effects.is_memory_effect_free(op)


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
    if not any(registry.begins_thread(op.name) for op in func.walk()):
        return None
    uses = UseLists(func)
    value_waits = ValueResultWaits(uses) if mode.value_result_users_wait else None
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
        tokens = add_execute_results(uses, execute, deps)
        token_users = list(uses.get(execute.results[0]))
        for user in token_users:
            _add_dependency_after(uses, tokens, user, worklist)
        if value_waits is not None:
            value_waits.after_deferral(
                execute, tokens, token_users, partial(_add_dependency_after, uses, tokens, worklist=worklist)
            )
    return uses


def _candidate(uses: UseLists, execute: Operation) -> bool:
    """Upstream's test: the execute's token has uses, all by `async.await`
    or as a dependency of an `async.execute`."""
    users = uses.get(execute.results[0])
    return bool(users) and all(registry.begins_thread(u.name) or registry.awaits_one(u.name) for u in users)


def _observed_on_every_path(uses: UseLists, execute: Operation) -> bool:
    """Deviation 5: a user of the execute's token runs on every path past
    the execute (one sits in the execute's own block). Otherwise a path
    that skips every user (an await inside an `scf.if`, one successor of a
    `cf.cond_br`) would leave the deferred GPU work unwaited: the runtime
    drains the execute when the program ends, not the GPU work its body
    handed over, so that work could still run after the program's end."""
    block = execute.parent
    return any(u.parent is block for u in uses.get(execute.results[0]))


def _add_dependency_after(uses: UseLists, tokens: list[Value], user: Operation, worklist: list[Operation]) -> None:
    """Upstream's `addAsyncDependencyAfter`: make `user` (an await of the
    execute's token, or an execute depending on it) wait for `tokens`."""
    loc = user.loc
    block: Block
    if registry.awaits_one(user.name):
        block = user.parent  # type: ignore[assignment]  # an await in the function has a parent block
        at = block.ops.index(user) + 1
        values: list[Value] = []
        for t in tokens:
            aw = Operation("async.await", operands=[t], loc=loc, parent=block)
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
    while not stops_scan(block.ops[at]):
        at += 1
    found = block.ops[at]
    if gpu_async.is_gpu_async(found):
        for v in values:
            gpu_async.add_async_dep(found, v)
        return
    wait = gpu_async.new_wait(loc, values, is_async=False)
    block.insert(at, wait)
    parent = block.parent_op
    if (
        parent is not None
        and registry.begins_thread(parent.name)
        and _candidate(uses, parent)
        and block.ops[-1] is found
    ):
        worklist.append(wait)
