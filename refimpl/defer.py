"""Phases 2 and 3 (19/22 and reference): defer waits out of `async.execute`,
then give every user of a deferred token its own result.

Upstream's `DeferWaitCallback` and `SingleTokenUseCallback`. Both depend on
the order of MLIR's use lists (the most recently added use first; replacing
all uses of a value reverses them), which decides which user of a token
upstream moves to which result. `UseLists` models that order for the results
of `async.execute` ops, the only values whose order matters here.
"""

from __future__ import annotations

from spec import effects, views
from spec.attributes import GPU_TOKEN, DenseArrayAttr, async_value_of
from spec.ir import Block, Operation, Value

EXECUTE = "async.execute"
AWAIT = "async.await"
WAIT = "gpu.wait"


class UseLists:
    """MLIR's per-value use lists for `async.execute` results: users in
    use-list order (one entry per use). A parsed program lists a value's
    uses latest first; a new use goes in front; replacing all uses of a value
    moves them one by one to the front of the new value's list, reversing
    them."""

    def __init__(self, func: Operation) -> None:
        self.users: dict[Value, list[Operation]] = {}
        for op in func.walk():
            if op.name == EXECUTE:
                for r in op.results:
                    self.users[r] = []
        # The parser creates an op (and so its uses) after the ops in its
        # regions: creation order is the post-order walk.
        for op in func.post_order():
            for v in op.operands:
                if v in self.users:
                    self.users[v].insert(0, op)

    def get(self, v: Value) -> list[Operation]:
        return self.users.setdefault(v, [])

    def add(self, v: Value, user: Operation) -> None:
        if v in self.users:
            self.users[v].insert(0, user)

    def replaced(self, v: Value) -> None:
        """`replaceAllUsesWith` onto a fresh clone of the value."""
        self.users[v] = list(reversed(self.get(v)))

    def recreated(self, op: Operation) -> None:
        """`op` is rebuilt (created anew, its regions cloned, the old op
        erased): its operand uses, then those of the ops in its regions in
        clone (pre-)order, move to the front of their lists."""
        ops = [op, *op.nested_ops()]
        members = {id(o) for o in ops}
        touched = {v for o in ops for v in o.operands if v in self.users}
        for v in touched:
            self.users[v] = [u for u in self.users[v] if id(u) not in members]
        for o in ops:
            for v in o.operands:
                if v in self.users:
                    self.users[v].insert(0, o)

    def move(self, user: Operation, old: Value, new: Value) -> None:
        """Set one use of `old` in `user` to `new`."""
        self.get(old).remove(user)
        self.get(new).insert(0, user)
        idx = next(i for i, o in enumerate(user.operands) if o is old)
        user.operands[idx] = new


def _side_effects(op: Operation) -> bool:
    return not effects.is_memory_effect_free(op)


def _stops_scan(op: Operation) -> bool:
    return effects.may_be_terminator(op) or _side_effects(op)


def _executes_post_order(func: Operation) -> list[Operation]:
    """`async.execute` ops in MLIR's post-order walk (nested ones first)."""
    return [op for op in func.post_order() if op.name == EXECUTE]


def _all_users_execute_or_await(uses: UseLists, token: Value) -> bool:
    users = uses.get(token)
    return bool(users) and all(u.name in (EXECUTE, AWAIT) for u in users)


def add_execute_results(uses: UseLists, execute: Operation, values: list[Value]) -> list[Value]:
    """Upstream's `addExecuteResults`: yield `values` too and return them as
    new `!async.value` results (appended). Done in place; the use lists are
    updated as the clone-and-replace upstream does would leave them."""
    body = execute.regions[0].blocks[0]
    body.ops[-1].operands.extend(values)
    uses.recreated(execute)
    for r in execute.results:
        uses.replaced(r)
    new = [execute.add_result(async_value_of(v.type)) for v in values]
    for r in new:
        uses.users[r] = []
    return new


def defer_waits(func: Operation, mode: str) -> None:
    """Phase 2. Invariant afterwards: an `async.execute` whose token is only
    awaited or used as a dependency of other `async.execute`s does not end
    its body with a blocking `gpu.wait` (after its last non-pure op);
    instead the tokens it waited on are yielded as extra results, and every
    user of the execute's token waits for them itself (an `async.await` of
    the new result, then a dependency of its next GPU op or a `gpu.wait`
    before its next effectful op)."""
    if not any(op.name == EXECUTE for op in func.walk()):
        return
    executes = _executes_post_order(func)
    uses = UseLists(func)
    worklist: list[Operation] = []
    for execute in executes:
        if not _candidate(uses, execute, mode):
            continue
        body = execute.regions[0].blocks[0]
        for op in reversed(body.ops[:-1]):
            if op.name == WAIT:
                if views.async_token(op) is None:
                    worklist.append(op)
                break
            if _side_effects(op):
                break
    i = 0
    while i < len(worklist):
        wait = worklist[i]
        i += 1
        block = wait.parent
        assert block is not None
        execute = block.parent_op
        assert execute is not None
        deps = list(wait.operands)
        block.ops.remove(wait)
        values = execute.results[1:]
        tokens = add_execute_results(uses, execute, deps)
        for user in _observers(uses, execute.results[0], values, mode):
            _add_dependency_after(uses, tokens, user, worklist, mode)
    # Keep the uses for phase 3 (it starts from the lists phase 2 left).
    func_uses[func] = uses


func_uses: dict[Operation, UseLists] = {}
"""Use lists phase 2 leaves for phase 3 of the same function."""


def _candidate(uses: UseLists, execute: Operation, mode: str) -> bool:
    if not _all_users_execute_or_await(uses, execute.results[0]):
        return False
    if mode == "reference":
        # Deviation 1: a value result read before the token is awaited would
        # see the body's results while its GPU work is still running. Token
        # value results may stay, if only awaits and executes use them: those
        # users then wait for the deferred tokens too (`_observers`).
        for r in execute.results[1:]:
            users = uses.get(r)
            if users and not views.value_type_of_async(r.type).is_gpu_token:
                return False
            if any(u.name not in (EXECUTE, AWAIT) for u in users):
                return False
    return True


def _observers(uses: UseLists, token: Value, values: list[Value], mode: str) -> list[Operation]:
    """The ops that see the body of an execute finish, and so must wait for
    the tokens deferred out of it: upstream, the users of its token; in the
    reference mode also the users of its value results (deviation 1: an
    `async.await` of a yielded `!gpu.async.token` also waits for the whole
    body, so once the body's wait is deferred it must wait for the deferred
    tokens itself)."""
    users = list(uses.get(token))
    if mode == "reference":
        for v in values:
            users.extend(u for u in uses.get(v) if all(u is not o for o in users))
    return users


def _add_dependency_after(uses: UseLists, tokens: list[Value], user: Operation, worklist: list[Operation], mode: str) -> None:
    """Upstream's `addAsyncDependencyAfter`: make `user` (an await of the
    execute's token, or an execute depending on it) wait for `tokens`."""
    loc = user.loc
    block: Block
    if user.name == AWAIT:
        block = user.parent  # type: ignore[assignment]
        at = block.ops.index(user) + 1
        values: list[Value] = []
        for t in tokens:
            aw = Operation(AWAIT, operands=[t], loc=loc, parent=block)
            values.append(aw.add_result(views.value_type_of_async(t.type)))
            block.ops.insert(at, aw)
            uses.add(t, aw)
            at += 1
    else:
        block = user.regions[0].blocks[0]
        at = 0
        user.operands.extend(tokens)
        sizes = user.properties["operandSegmentSizes"]
        assert isinstance(sizes, DenseArrayAttr)
        user.properties["operandSegmentSizes"] = DenseArrayAttr(sizes.element, (sizes.values[0], sizes.values[1] + len(tokens)))
        for t in tokens:
            uses.add(t, user)
        values = [block.add_arg(GPU_TOKEN, loc=user.loc) for _ in tokens]
    while not _stops_scan(block.ops[at]):
        at += 1
    found = block.ops[at]
    if views.is_gpu_async(found):
        for v in values:
            views.add_async_dep(found, v)
        return
    wait = views.new_wait(loc, values, is_async=False)
    block.insert(at, wait)
    parent = block.parent_op
    if (
        parent is not None
        and parent.name == EXECUTE
        and _candidate(uses, parent, mode)
        and block.ops[-1] is found
    ):
        worklist.append(wait)


def single_token_uses(func: Operation, mode: str) -> None:
    """Phase 3. Invariant afterwards: every `!async.value<!gpu.async.token>`
    result of an `async.execute` has at most one use; a result with k uses
    is yielded k times and each user gets its own. (19/22 break it with
    three or more users: they add k-1 results but move only one user; the
    `mlir19` mode reproduces that.)"""
    uses = func_uses.pop(func, None)
    if uses is None:
        return  # no async.execute in the function
    for execute in _executes_post_order(func):
        indices = [
            r.index - 1
            for r in execute.results[1:]
            if len(uses.get(r)) > 1 and r.type.is_async_value and r.type.async_value_inner.is_gpu_token
        ]
        for index in indices:
            result = execute.results[1 + index]
            count = len(uses.get(result)) - 1
            yielded = execute.regions[0].blocks[0].ops[-1].operands[index]
            new = add_execute_results(uses, execute, [yielded] * count)
            users = uses.get(result)
            if mode == "mlir19":
                # Upstream rewires while iterating the use list it edits:
                # only the first use after the first one moves.
                uses.move(users[1], result, new[0])
            else:
                # One result per use: the user upstream moves gets the first
                # new result (so with two users both agree), every further
                # user in use-list order the next one.
                for user, r in zip(list(users[1:]), new):
                    uses.move(user, result, r)
