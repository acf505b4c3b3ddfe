"""Phase 3 (19/22 and reference): one use per deferred token result.

Upstream's `SingleTokenUseCallback`, run after phase 2 (`refimpl.defer`) on
the use lists phase 2 returns.

Invariant afterwards (reference): every `!async.value<!gpu.async.token>`
result of an `async.execute` has at most one use; a result with k uses is
yielded k times and each user gets its own. 19/22 break it with three or
more users: they add k-1 results but move only one user; a mode without
`one_result_per_use` (`mlir19`) reproduces that (deviation 2 in
`docs/refimpl.md`).
"""

from __future__ import annotations

from refimpl.modes import Mode
from refimpl.uses import UseLists, add_execute_results, executes_post_order
from spec.ir import Operation


def single_token_uses(func: Operation, uses: UseLists | None, mode: Mode) -> None:
    """Phase 3 on one function; `uses` is what phase 2 returned (None: the
    function has no `async.execute`), edited here.

    Invariant afterwards (reference): every `!async.value<!gpu.async.token>`
    result of an `async.execute` has at most one use (19/22, and a mode
    without `one_result_per_use`: not with three or more users, deviation
    2)."""
    if uses is None:
        return
    for execute in executes_post_order(func):
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
            if mode.one_result_per_use:
                # One result per use: the user upstream moves gets the first
                # new result (so with two users both agree), every further
                # user in use-list order the next one.
                for user, r in zip(list(users[1:]), new):
                    uses.move(user, result, r)
            else:
                # Upstream rewires while iterating the use list it edits:
                # only the first use after the first one moves.
                uses.move(users[1], result, new[0])
