"""The `async` dialect's ops: threads (`execute` begins one that runs its
body, `yield` completes it), the waits (`await` on one token or value,
`await_all` on a group), the groups (`create_group`, `add_to_group`), and
the coroutine functions (`func`, `call`, `return`).

`async.func` is a function whose body runs as a coroutine (`async.call`
starts it and gives its token and values); -gpu-async-region runs on
`func.func` only, so it leaves these bodies as they are. The call has no
effects interface: anything may happen (the pass waits before it).
"""

from __future__ import annotations

from spec.op_info import FUNCTION_ATTRS, SYMBOL_ATTRS, OpInfo, names, op, req

REGISTERED_OPS = names(
    "async",
    "add_to_group await await_all call coro.begin coro.end coro.free coro.id coro.save "
    "coro.suspend create_group execute func return runtime.add_ref runtime.add_to_group "
    "runtime.await runtime.await_and_resume runtime.create runtime.create_group "
    "runtime.drop_ref runtime.is_error runtime.load runtime.num_worker_threads "
    "runtime.resume runtime.set_available runtime.set_error runtime.store yield",
)
"""Every op mlir-opt-19 registers in `async` (see `spec.registry.COMPLETE_DIALECTS`)."""

OPS: tuple[OpInfo, ...] = (
    # threads
    op(
        "async.execute",
        effects=None,
        sync="thread",
        segments=("dependencies", "bodyOperands"),
        single_block_regions=("bodyRegion",),
    ),
    op("async.yield", terminator=True, sync="thread", parents=("async.execute",), result_count=0),
    # waits and groups
    op("async.await", effects=None, sync="wait", operand_count=(1, 1)),
    op("async.create_group", sync="group", operand_count=(1, 1), result_count=1, group="create"),
    op("async.add_to_group", effects=None, sync="group", operand_count=(2, 2), result_count=1, group="add"),
    op("async.await_all", effects=None, sync="wait_group", operand_count=(1, 1), result_count=0, group="await"),
    # coroutine functions
    op(
        "async.func",
        effects=None,
        symbol=True,
        inherent={**SYMBOL_ATTRS, **FUNCTION_ATTRS},
        operand_count=(0, 0),
        default_dialect="async",
        isolated=True,
        result_count=0,
        checked=True,
        function="async",
    ),
    op("async.call", effects=None, inherent={"callee": req("flat_symbol_ref")}, callee="async.func"),
    op("async.return", terminator=True, parents=("async.func",), result_count=0, checked=True),
)
