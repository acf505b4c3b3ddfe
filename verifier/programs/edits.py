"""Single random edits of a rewrite, for the semantic judge's pairs.

`verifier.programs.mutants` applies one plausible bug at *every* site it matches;
the differential of `tests/semantics/test_semantic_judge.py` also needs edits at *one*
chosen site, and edits the mutants do not make: move or duplicate a wait,
move an `async.await`/`await_all` down,
add a dependency, swap tokens in a `return` / `scf.yield` / `iter_args` /
branch operands, retarget a branch, delete a wait in an `async.execute` body
or hand it to the host (as upstream defers it),
touch a kernel or an attribute, hoist a division above its guard, drop an
`async.await`, move a function into another module, rotate a function's
arguments, await an incoming `!async.token`/`!async.value` argument at the
start of the body. Each edit is `edit(module, pick) -> bool`:
`pick(n)` chooses one of `n` sites (a Hypothesis draw or a `random.Random`),
the module is changed in place, and False means the edit has no site here.
Edits keep SSA dominance where they can (a replacement token is defined
before the use in the same block, or is an argument of the function or of
the block); the caller reparses the printed result and drops what does not
parse.

`EDITS` lists them by name, the mutants of `verifier.programs.mutants` included
(`mutant:NAME`, every site at once).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from spec import gpu_async, registry
from spec.attributes import GPU_TOKEN, FunctionType, StringAttr, Type, TypeAttr, UnitAttr, async_value_of
from spec.invariant import InternalError
from spec.ir import Block, Operation, Value, module_body, new_module
from verifier.programs.mutants import MUTANTS

Pick = Callable[[int], int]
_T = TypeVar("_T")
Edit = Callable[[Operation, Pick], bool]


def _funcs(module: Operation) -> list[Operation]:
    return [op for op in module.walk() if registry.is_host_function(op.name) and op.regions and op.regions[0].blocks]


def _ops(module: Operation, pred: Callable[[Operation], bool]) -> list[Operation]:
    return [op for f in _funcs(module) for op in f.nested_ops() if pred(op)]


def _blocking(op: Operation) -> bool:
    return registry.is_gpu_wait(op.name) and not op.results and bool(op.operands)


def _is_token(v: Value) -> bool:
    return v.type.is_gpu_token or v.type.is_async_token


def _choose(items: list[_T], pick: Pick) -> _T | None:
    return items[pick(len(items))] if items else None


def _tokens_before(op: Operation, ty: Type) -> list[Value]:
    """Tokens of type `ty` that dominate `op`: the function's arguments, the
    arguments of `op`'s block and of its enclosing blocks, and results of
    ops before it (or before its ancestors) in those blocks."""
    out: list[Value] = []
    cur: Operation | None = op
    while cur is not None and cur.parent is not None:
        block = cur.parent
        out += [a for a in block.args if a.type == ty]
        for o in block.ops:
            if o is cur:
                break
            out += [r for r in o.results if r.type == ty]
        owner = block.parent_op
        if owner is None or registry.is_host_function(owner.name) or registry.lookup(owner.name).isolated:
            if owner is not None and registry.is_host_function(owner.name):
                out += [a for a in owner.regions[0].blocks[0].args if a.type == ty and a not in out]
            break
        cur = owner
    return out


def drop_wait(module: Operation, pick: Pick) -> bool:
    op = _choose(_ops(module, _blocking), pick)
    if not isinstance(op, Operation) or op.parent is None:
        return False
    op.parent.ops.remove(op)
    return True


def move_wait(module: Operation, pick: Pick) -> bool:
    """A blocking wait moves one op down (past a non-terminator)."""
    return _move_down(module, pick, _blocking)


def move_await(module: Operation, pick: Pick) -> bool:
    """An `async.await` or `async.await_all` moves one op down (past a
    non-terminator): what it ordered before the next op, it no longer does."""
    return _move_down(module, pick, lambda o: registry.blocks_thread(o.name) and not registry.is_gpu_wait(o.name))


def _move_down(module: Operation, pick: Pick, which: Callable[[Operation], bool]) -> bool:
    cands = []
    op: Operation | None  # the loop's, then the one chosen
    for op in _ops(module, which):
        b = op.parent
        if b is None:
            raise InternalError("verifier.programs.edits: expected b is not None")
        i = b.ops.index(op)
        if i + 1 < len(b.ops) and not registry.lookup(b.ops[i + 1].name).terminator:
            nxt = b.ops[i + 1]
            if not any(r in set(op.operands) for r in nxt.results) and not any(
                u in set(nxt.operands) for u in op.results
            ):
                cands.append(op)
    op = _choose(cands, pick)
    if not isinstance(op, Operation) or op.parent is None:
        return False
    b = op.parent
    i = b.ops.index(op)
    b.ops[i], b.ops[i + 1] = b.ops[i + 1], b.ops[i]
    return True


def duplicate_wait(module: Operation, pick: Pick) -> bool:
    op = _choose(_ops(module, _blocking), pick)
    if not isinstance(op, Operation) or op.parent is None:
        return False
    b = op.parent
    dup = gpu_async.new_wait(op.loc, list(op.operands), False)
    b.insert(b.ops.index(op), dup)
    return True


def drop_dependency(module: Operation, pick: Pick) -> bool:
    cands = [op for op in _ops(module, lambda o: gpu_async.is_gpu_async(o)) if gpu_async.async_deps(op)]
    op = _choose(cands, pick)
    if not isinstance(op, Operation):
        return False
    deps = gpu_async.async_deps(op)
    k = pick(len(deps))
    gpu_async.set_async_deps(op, deps[:k] + deps[k + 1 :])
    return True


def add_dependency(module: Operation, pick: Pick) -> bool:
    cands = [
        (op, t)
        for op in _ops(module, lambda o: gpu_async.is_gpu_async(o))
        for t in _tokens_before(op, GPU_TOKEN)
        if t not in gpu_async.async_deps(op)
    ]
    c = _choose(cands, pick)
    if c is None:
        return False
    op, t = c
    gpu_async.add_async_dep(op, t)
    return True


def _replace_token_operand(module: Operation, pick: Pick, chosen: Callable[[str], bool]) -> bool:
    """A token operand of an op whose name is `chosen` is replaced by
    another token of its type that dominates the op (or, for a terminator
    that hands its operands on, another of its operands of that type)."""
    cands = []
    for op in _ops(module, lambda o: chosen(o.name)):
        for k, v in enumerate(op.operands):
            if _is_token(v):
                others = [t for t in _tokens_before(op, v.type) if t is not v]
                if _hands_on(op.name):
                    others += [w for w in op.operands if w.type == v.type and w is not v and w not in others]
                if others:
                    cands.append((op, k, others))
    c = _choose(cands, pick)
    if c is None:
        return False
    op, k, others = c
    op.operands[k] = others[pick(len(others))]
    return True


def _hands_on(name: str) -> bool:
    """A terminator that hands its token operands to block arguments,
    region results or the caller (`scf.yield`, `cf.br`, `func.return`)."""
    return registry.lookup(name).terminator and registry.token_use(name) in ("pass", "escape")


def swap_return_token(module: Operation, pick: Pick) -> bool:
    return _replace_token_operand(module, pick, registry.is_function_return)


def _yields_token(name: str) -> bool:
    """`scf.yield`, `affine.yield` (to the parent op, tokens followed),
    `async.yield` (to the thread's results)."""
    return (registry.yields_to_parent(name) and registry.token_use(name) == "pass") or registry.ends_thread(name)


def swap_yield_token(module: Operation, pick: Pick) -> bool:
    return _replace_token_operand(module, pick, _yields_token)


def swap_iter_arg(module: Operation, pick: Pick) -> bool:
    return _replace_token_operand(module, pick, registry.is_counted_loop)


def swap_block_arg(module: Operation, pick: Pick) -> bool:
    return _replace_token_operand(module, pick, registry.is_branch)


def _waits_or_selects(name: str) -> bool:
    """`gpu.wait`, `async.await` (one token each) and `arith.select`."""
    return registry.sync_kind(name) == "wait" or registry.token_use(name) == "select"


def swap_wait_token(module: Operation, pick: Pick) -> bool:
    return _replace_token_operand(module, pick, _waits_or_selects)


def retarget_branch(module: Operation, pick: Pick) -> bool:
    """One successor of a `cf.br`/`cf.cond_br` goes to another block of the
    same region taking the same argument types (not the entry block)."""
    cands = []
    for op in _ops(module, lambda o: registry.is_branch(o.name)):
        region = op.parent.parent if op.parent is not None else None
        if region is None:
            continue
        for k, succ in enumerate(op.successors):
            types = [a.type for a in succ.args]
            others = [b for b in region.blocks[1:] if b is not succ and [a.type for a in b.args] == types]
            if others:
                cands.append((op, k, others))
    c = _choose(cands, pick)
    if c is None:
        return False
    op, k, others = c
    new: Block = others[pick(len(others))]
    op.successors[k] = new
    return True


def drop_execute_wait(module: Operation, pick: Pick) -> bool:
    """A blocking wait inside an `async.execute` body goes."""
    cands = [
        op for op in _ops(module, _blocking) if op.parent_op is not None and registry.begins_thread(op.parent_op.name)
    ]
    op = _choose(cands, pick)
    if not isinstance(op, Operation) or op.parent is None:
        return False
    op.parent.ops.remove(op)
    return True


def hand_over_wait(module: Operation, pick: Pick) -> bool:
    """The blocking `gpu.wait [%t]` that ends an `async.execute` body is
    handed to the host, as upstream defers a wait: the body yields `%t` as an
    `!async.value<!gpu.async.token>`, and the host awaits that value and
    waits on the token just before the end of the execute's block. Right
    when only that await observes the body's completion; wrong when anything
    else does (a group's `await_all`, a dependent execute), since the body's
    token is now set before its GPU work is done."""
    cands = []
    for op in _ops(module, lambda o: registry.begins_thread(o.name) and bool(o.regions) and bool(o.regions[0].blocks)):
        body = op.regions[0].blocks[0]
        if len(body.ops) >= 2 and _blocking(body.ops[-2]) and len(body.ops[-2].operands) == 1:
            cands.append(op)
    ex = _choose(cands, pick)
    if not isinstance(ex, Operation) or ex.parent is None or not ex.parent.ops:
        return False
    body = ex.regions[0].blocks[0]
    wait, end = body.ops[-2], body.ops[-1]
    token = wait.operands[0]
    body.ops.remove(wait)
    end.operands = [*end.operands, token]
    handed = ex.add_result(async_value_of(GPU_TOKEN))
    block = ex.parent
    at = len(block.ops) - 1 if registry.lookup(block.ops[-1].name).terminator else len(block.ops)
    awaited = Operation("async.await", operands=[handed], loc=ex.loc)
    block.insert(at, awaited)
    block.insert(at + 1, gpu_async.new_wait(ex.loc, [awaited.add_result(GPU_TOKEN)], is_async=False))
    return True


def touch_kernel(module: Operation, pick: Pick) -> bool:
    """A `gpu.barrier` is added at the start of a kernel."""
    kernels = [op for op in module.walk() if registry.function_kind(op.name) == "gpu"]
    k = _choose(kernels, pick)
    if not isinstance(k, Operation) or not k.regions or not k.regions[0].blocks:
        return False
    k.regions[0].blocks[0].insert(0, Operation(name="gpu.barrier", loc=k.loc))
    return True


def touch_attribute(module: Operation, pick: Pick) -> bool:
    """A unit attribute is added to the module, a function or an op."""
    ops = [module, *_funcs(module), *_ops(module, lambda o: o.name in ("memref.load", "gpu.launch_func", "func.call"))]
    op = _choose(ops, pick)
    if not isinstance(op, Operation):
        return False
    op.attributes = {**op.attributes, "judge.touched": UnitAttr()}
    return True


def hoist_trapping(module: Operation, pick: Pick) -> bool:
    """A pure op that is not speculatable (an integer division) moves up to
    the first place its operands allow in its block: above the `cf.assert`
    or call that guards it, if any."""
    cands = _ops(module, lambda o: registry.lookup(o.name).pure and not registry.lookup(o.name).speculatable)
    op = _choose(cands, pick)
    if not isinstance(op, Operation) or op.parent is None:
        return False
    block = op.parent
    at = block.ops.index(op)
    defs = [k for k, prior in enumerate(block.ops[:at]) if any(r in op.operands for r in prior.results)]
    to = defs[-1] + 1 if defs else 0
    if to == at:
        return False
    block.ops.remove(op)
    block.ops.insert(to, op)
    return True


def move_to_nested_module(module: Operation, pick: Pick) -> bool:
    """A function moves into another named module: a module nested beside
    its own, if there is one (`@A::@f` becomes `@B::@f`), else a new nested
    `module @moved` (its name unchanged, its symbol path not)."""
    funcs = [
        f
        for f in _funcs(module)
        if f.parent is not None and f.parent_op is not None and registry.is_top_level(f.parent_op.name)
    ]
    f = _choose(funcs, pick)
    if not isinstance(f, Operation) or f.parent is None or f.parent_op is None:
        return False
    home = f.parent_op
    others = [
        m
        for m in module.walk()
        if registry.is_top_level(m.name) and m is not home and m is not module and "sym_name" in m.properties
    ]
    block = f.parent
    at = block.ops.index(f)
    block.ops.remove(f)
    if others:
        module_body(others[pick(len(others))]).append(f)
        return True
    nested = new_module(f.loc)
    nested.properties = {"sym_name": StringAttr("moved")}
    module_body(nested).append(f)
    block.insert(at, nested)
    return True


def drop_await(module: Operation, pick: Pick) -> bool:
    """An `async.await` of a token goes (the rewrite trusts something else,
    a group's `await_all` say, to order what it ordered)."""
    op = _choose(_ops(module, lambda o: registry.awaits_one(o.name) and not o.results), pick)
    if not isinstance(op, Operation) or op.parent is None:
        return False
    op.parent.ops.remove(op)
    return True


def rotate_arguments(module: Operation, pick: Pick) -> bool:
    """A function's last argument becomes its first, its signature
    changed to match (what a rewrite that moves a token argument does)."""
    funcs = [f for f in _funcs(module) if len(f.regions[0].blocks[0].args) > 1]
    f = _choose(funcs, pick)
    if not isinstance(f, Operation):
        return False
    entry = f.regions[0].blocks[0]
    entry.args.insert(0, entry.args.pop())
    for k, a in enumerate(entry.args):
        a.index = k
    ft = f.properties.get("function_type")
    sig = getattr(ft, "type", None)
    if not isinstance(sig, FunctionType):
        return False
    f.properties = {
        **f.properties,
        "function_type": TypeAttr(FunctionType((sig.inputs[-1], *sig.inputs[:-1]), sig.results)),
    }
    return True


def await_incoming(module: Operation, pick: Pick) -> bool:
    """An `async.await` on an incoming `!async.token` or `!async.value<T>`
    argument is added at the start of the function's body (an added wait
    that can block forever: the caller may produce the token or value only
    after the call returns)."""
    cands = [
        (f, a)
        for f in _funcs(module)
        for a in f.regions[0].blocks[0].args
        if a.type.is_async_token or a.type.is_async_value
    ]
    c = _choose(cands, pick)
    if c is None:
        return False
    f, a = c
    entry = f.regions[0].blocks[0]
    op = Operation("async.await", operands=[a], loc=entry.ops[0].loc if entry.ops else f.loc)
    if a.type.is_async_value:
        op.add_result(gpu_async.value_type_of_async(a.type))
    entry.insert(0, op)
    return True


def _mutant(name: str) -> Edit:
    def edit(module: Operation, pick: Pick) -> bool:
        return MUTANTS[name].edit(module) > 0

    edit.__name__ = f"mutant_{name}"
    return edit


EDITS: dict[str, Edit] = {
    "drop-wait": drop_wait,
    "move-wait": move_wait,
    "move-await": move_await,
    "duplicate-wait": duplicate_wait,
    "drop-dependency": drop_dependency,
    "add-dependency": add_dependency,
    "swap-return-token": swap_return_token,
    "swap-yield-token": swap_yield_token,
    "swap-iter-arg": swap_iter_arg,
    "swap-block-arg": swap_block_arg,
    "swap-wait-token": swap_wait_token,
    "retarget-branch": retarget_branch,
    "drop-execute-wait": drop_execute_wait,
    "hand-over-wait": hand_over_wait,
    "touch-kernel": touch_kernel,
    "touch-attribute": touch_attribute,
    "hoist-trapping": hoist_trapping,
    "move-to-nested-module": move_to_nested_module,
    "drop-await": drop_await,
    "rotate-arguments": rotate_arguments,
    "await-incoming": await_incoming,
    **{f"mutant:{name}": _mutant(name) for name in MUTANTS},
}
"""Every edit by name, simplest first (what a shrinking draw moves toward)."""
