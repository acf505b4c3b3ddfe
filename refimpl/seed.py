"""`--mode seed`: the pass as first proposed for review in 2020.

Reproduced from the seed document (`shared/seed/`): one post-order walk over
every op of the function region (nested ops before the op holding them) with
one current token shared by the whole walk; four errors; the 2020 effect test
(`hasNoEffect`, which does not look into regions) and the registered
terminator trait; the token is the *first* result of the async clone; no
dependency de-duplication; nothing about `async.execute`.
"""

from __future__ import annotations

from refimpl.thread import PassFailure
from spec import effects, gpu_async, registry
from spec.ir import Block, Operation, Value
from spec.syntax.structure import op_diagnostic


class _Walk:
    """The 2020 callback: its state is the one shared current token."""

    def __init__(self) -> None:
        self.current: Value | None = None
        self.before: dict[Operation, list[Operation]] = {}
        """Ops to insert in front of each visited op (applied at the end, so
        the walk stays linear)."""

    def insert_before(self, op: Operation, new: Operation) -> None:
        self.before.setdefault(op, []).append(new)

    def flush(self) -> None:
        blocks: dict[int, Block] = {}
        for op in self.before:
            if op.parent is not None:
                blocks[id(op.parent)] = op.parent
        for block in blocks.values():
            ops: list[Operation] = []
            for op in block.ops:
                for new in self.before.get(op, ()):
                    new.parent = block
                    ops.append(new)
                ops.append(op)
            block.ops = ops
        self.before.clear()

    def fail(self, op: Operation, message: str) -> PassFailure:
        self.flush()
        return PassFailure(op_diagnostic(op, message))

    def visit(self, op: Operation) -> None:
        if registry.launches_inline_kernel(op.name):
            raise self.fail(op, "replace with gpu.launch_func first")
        if gpu_async.is_gpu_wait(op):
            raise self.fail(op, "unexpected pre-existing gpu.wait")
        if gpu_async.is_gpu_async(op):
            self.rewrite_async(op)
            return
        if self.current is None:
            return
        if not effects.has_terminator_trait(op) and effects.seed_has_no_effect(op):
            return
        self.insert_before(op, gpu_async.new_wait(op.loc, [self.current], is_async=False))
        self.current = None

    def rewrite_async(self, op: Operation) -> None:
        if gpu_async.async_token(op) is not None:
            raise self.fail(op, "is already async")
        if op.regions:
            raise self.fail(op, "regions are not supported")
        if self.current is None:
            start = gpu_async.new_wait(op.loc, [], is_async=True)
            self.insert_before(op, start)
            self.current = start.results[0]
        gpu_async.add_async_dep(op, self.current, dedup=False)
        self.current = gpu_async.make_async(op, first=True)


def run(func: Operation) -> None:
    """The seed pass on one function. Raises `PassFailure` on its errors.

    Invariant it intends (and, having one token for the whole walk, does not
    always keep): each GPU op depends on the previous one, and a blocking
    `gpu.wait` precedes every terminator and every op with effects while a
    token is current."""
    walk = _Walk()
    for op in func.post_order()[:-1]:
        walk.visit(op)
    walk.flush()
