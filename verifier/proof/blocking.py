"""Progress: a blocking op the rewrite adds must not wait forever.

The ordering proof says nothing about progress: a schedule that never
reaches a point orders nothing, so an output that can block where its
input runs on is "ordered" vacuously. The rewrite may add waits (the
correspondence allows `gpu.wait` and `async.await` of GPU tokens), and a
wait is safe only if what it waits for completes whatever the caller does
next:

- a `!gpu.async.token` always completes: GPU work, once issued, needs
  nothing more of the host (rule 2; incoming tokens stand for work the
  caller has issued);
- an `!async.token` / `!async.value` / `!async.group` becomes available when
  an `async.execute` body yields, and that body may itself wait for
  something the caller does only after this function returns. The wait is
  shown safe when the input already blocks, on the same thread and
  earlier, on the same execute (one of its results: they become available
  together) or on the same value: then the input cannot get past that point
  either unless the value is there; or when the execute (and every execute
it waits for, transitively) takes nothing from outside the function, so
it completes whatever the caller does (the runtime drains it before the
program ends in any case).

Otherwise an added wait on an incoming value (a function argument) that
the input never waits for at all is refuted: a caller that makes the value
available only after the call returns is a legal caller (rule 9), the
input returns to it and the output blocks. Any other added wait not shown
safe makes the function `unknown` ("progress not proved"), never
`verified`.
"""

from __future__ import annotations

from dataclasses import dataclass

from spec import registry
from spec.ir import Block, Operation, Value
from verifier.match.correspondence import Correspondence, Mismatch


@dataclass(frozen=True)
class Progress:
    """What the added blocking ops of one function come to."""

    refuted: list[Mismatch]
    """Added waits that block forever for some caller (kind `blocks-forever`)."""
    undecided: list[str]
    """Added waits whose progress is not proved, each with why."""


def added_waits(fin: Operation, fout: Operation, corr: Correspondence) -> Progress:
    """Check every blocking op in `corr.added` (see the module docstring)."""
    refuted: list[Mismatch] = []
    undecided: list[str] = []
    added = set(corr.added)
    for op in corr.added:
        if not registry.blocks_thread(op.name) or registry.is_gpu_wait(op.name):
            continue  # a blocking `gpu.wait` waits for GPU tokens only
        for w in op.operands:
            if w.type.is_gpu_token or _waited_before(op, w, added) or _needs_no_caller(w):
                continue
            arg = _incoming_position(fout, w)
            if arg is not None and not _input_waits_on(fin, arg):
                refuted.append(
                    Mismatch(
                        "blocks-forever",
                        f"'{op.name}' op added by the rewrite blocks on argument #{arg}, a value the input never waits "
                        "for: a caller that makes it available only after the call returns deadlocks the output, "
                        "where the input returns",
                        op,
                        fin,
                    )
                )
            else:
                loc = op.loc
                undecided.append(
                    f"progress not proved: '{op.name}' op added at {loc.file}:{loc.line}:{loc.col} waits for a value "
                    "that the input does not wait for before it, which may depend on the caller going on"
                )
    return Progress(refuted, undecided)


def _needs_no_caller(w: Value) -> bool:
    """`w` is a result of an `async.execute` that becomes available whatever
    the caller does after the call: nothing it or its body waits on or
    takes comes from outside the function (an argument, a call's result, a
    loop-carried value), only from executes of the same kind (transitively)
    or from ops inside its body. The runtime drains every execute at the
    program's end (rule 11), so the input cannot end without that body
    completing either: waiting for it earlier blocks nothing forever."""
    execute = _producer(w)
    if execute is None:
        return False
    seen: set[int] = set()
    stack = [execute]
    while stack:
        e = stack.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        inside = {id(x) for x in e.walk()} | {id(b) for x in e.walk() for r in x.regions for b in r.blocks}
        for user in e.walk():
            for v in user.operands:
                t = v.type
                if t.is_gpu_token or not (t.is_async_token or t.is_async_value or t.text == "!async.group"):
                    continue
                if id(v.owner) in inside and not (isinstance(v.owner, Block) and v.owner is e.regions[0].blocks[0]):
                    continue
                producer = _producer(v)
                if producer is None:
                    return False
                stack.append(producer)
    return True


def _producer(v: Value) -> Operation | None:
    """The `async.execute` whose result `v` is, if any."""
    owner = v.owner
    return owner if isinstance(owner, Operation) and registry.begins_thread(owner.name) else None


def _after(execute: Operation) -> set[Operation]:
    """`execute` and every `async.execute` it starts after: those whose
    token it depends on or whose value it takes as an operand, and theirs
    (its body begins only once they are available, rule 6)."""
    seen: set[Operation] = set()
    stack = [execute]
    while stack:
        e = stack.pop()
        if e in seen:
            continue
        seen.add(e)
        stack.extend(p for v in e.operands if (p := _producer(v)) is not None)
    return seen


def _waited_before(op: Operation, w: Value, added: set[Operation]) -> bool:
    """Whether an op the input has too (not added) blocks, earlier on the
    thread of `op` (its block and the blocks around it, up to the thread's
    start: an `async.execute` body or the function), on `w`, or on a result
    of an execute that starts only after the one that yields `w`."""
    execute = _producer(w)
    block: Block | None = op.parent
    here: Operation = op
    while block is not None:
        for prior in block.ops[: block.ops.index(here)]:
            if prior in added or not registry.blocks_thread(prior.name):
                continue
            for x in prior.operands:
                if x is w:
                    return True
                later = _producer(x)
                if execute is not None and later is not None and execute in _after(later):
                    return True
        owner = block.parent.parent if block.parent is not None else None
        if owner is None or registry.begins_thread(owner.name) or registry.is_host_function(owner.name):
            return False
        here, block = owner, owner.parent
    return False


def _incoming_position(fout: Operation, w: Value) -> int | None:
    """`w`'s position among the function's arguments, if it is one."""
    entry = fout.regions[0].blocks[0] if fout.regions and fout.regions[0].blocks else None
    if entry is not None and w.owner is entry:
        return w.index
    return None


def _input_waits_on(fin: Operation, arg: int) -> bool:
    """Whether anything in the input blocks on its argument #`arg` (or
    hands it to an op the model cannot see into, which may)."""
    entry = fin.regions[0].blocks[0] if fin.regions and fin.regions[0].blocks else None
    if entry is None or arg >= len(entry.args):
        return True
    v = entry.args[arg]
    for op in fin.walk():
        if op is fin or not any(x is v for x in op.operands):
            continue
        if registry.blocks_thread(op.name) or not registry.lookup(op.name).known:
            return True
    return False
