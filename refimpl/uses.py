"""MLIR's use-list order for the results of `async.execute`, shared by
phases 2 (`refimpl.defer`, with its deviation 1 in `refimpl.value_results`)
and 3 (`refimpl.single_use`), and the upstream helpers they share.

Both phases depend on the order of MLIR's use lists (the most recently added
use first; replacing all uses of a value reverses them), which decides which
user of a token upstream moves to which result. Phase 2 builds a `UseLists`
for a function and hands it to phase 3 as a return value.
"""

from __future__ import annotations

from spec import effects, registry
from spec.attributes import async_value_of
from spec.ir import Operation, Value


class UseLists:
    """MLIR's per-value use lists for `async.execute` results: users in
    use-list order (one entry per use). A parsed program lists a value's
    uses latest first; a new use goes in front; replacing all uses of a value
    moves them one by one to the front of the new value's list, reversing
    them."""

    def __init__(self, func: Operation) -> None:
        self.users: dict[Value, list[Operation]] = {}
        for op in func.walk():
            if registry.begins_thread(op.name):
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


def stops_scan(op: Operation) -> bool:
    """Where upstream's scans for the next op to make wait stop: an op that
    may be a terminator or is not free of memory effects (the host must not
    reach it before the GPU work it waits for is done)."""
    return effects.may_be_terminator(op) or not effects.is_memory_effect_free(op)


def executes_post_order(func: Operation) -> list[Operation]:
    """`async.execute` ops in MLIR's post-order walk (nested ones first)."""
    return [op for op in func.post_order() if registry.begins_thread(op.name)]


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
