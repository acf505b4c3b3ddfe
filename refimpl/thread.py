"""Phase 1 (19/22 and reference): thread a token through each block.

Upstream's `ThreadTokenCallback`, run on every block of a function in
post-order (nested blocks before the block holding them). Each block has its
own current token, so a chain never crosses a block boundary: the block's
terminator (or an op with memory effects) gets a blocking `gpu.wait` in
front of it while a chain is open.

Blocks without a terminator (the regions of an op the registry does not
know, the body of a nested `builtin.module`) can end with a chain open.
Upstream keeps one current token for the whole walk, so that token leaks
into the next block walked (a mode without `close_open_chains` does the
same, and `refimpl.ir_verify` then reports what mlir-opt's verifier says
about the result); the reference closes the chain with a `gpu.wait` at the
block's end (deviation 4).
"""

from __future__ import annotations

from collections.abc import Iterator

from refimpl.modes import REFERENCE, Mode
from spec import effects, gpu_async
from spec.diagnostics import Diagnostic
from spec.ir import Block, Operation, Value
from spec.registry import launches_inline_kernel, lookup
from spec.syntax.structure import op_diagnostic


class PassFailure(Exception):
    """The pass failed on one function; carries the diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def blocks_post_order(root: Operation) -> Iterator[Block]:
    """The blocks under `root` in MLIR's post-order walk: for each block,
    the blocks nested in its ops (in op order) come before the block itself."""
    stack: list[tuple[Block, bool]] = []
    for region in reversed(root.regions):
        stack.extend((b, False) for b in reversed(region.blocks))
    while stack:
        block, expanded = stack.pop()
        if expanded:
            yield block
            continue
        stack.append((block, True))
        for op in reversed(block.ops):
            for region in reversed(op.regions):
                stack.extend((b, False) for b in reversed(region.blocks))


def thread_tokens(func: Operation, mode: Mode = REFERENCE) -> bool:
    """Phase 1 on one function. Raises `PassFailure` at the first
    `gpu.launch` met in walk order (the IR is then partly rewritten, as
    upstream leaves it). Returns whether a token crossed a block boundary
    (only without `mode.close_open_chains`; the IR may then be invalid).

    Invariant afterwards: every GPU async op in a block depends on the token
    of the previous GPU op of the same block (or on a fresh `gpu.wait async`
    that starts the chain), and no chain is open at any terminator or at any
    op that is not free of memory effects: a blocking `gpu.wait` on the
    current token precedes it. Tokens created here are used only inside the
    block that creates them. Without `mode.close_open_chains` a block that
    ends open (no terminator) hands its token to the next block walked
    instead."""
    carried: Value | None = None
    leaked = False
    for block in list(blocks_post_order(func)):
        if mode.close_open_chains:
            carried = None
        leaked = leaked or carried is not None
        carried = thread_block(block, carried, mode)
        if carried is not None and mode.close_open_chains:
            # A block without a terminator ended with its chain open.
            block.append(gpu_async.new_wait(block.ops[-1].loc, [carried], is_async=False))
    return leaked


def thread_block(block: Block, current: Value | None = None, mode: Mode = REFERENCE) -> Value | None:
    """Thread one block's chain (see `thread_tokens`), starting from
    `current`; returns the token still current at the block's end (None
    unless the block has no terminator). The block's op list is rebuilt in
    one pass instead of inserting in place, so the phase stays linear in the
    block's length."""
    out: list[Operation] = []
    ops = block.ops
    for i, op in enumerate(ops):
        if launches_inline_kernel(op.name):  # outlined first (rule 7)
            block.ops = out + ops[i:]
            _reparent(block)
            raise PassFailure(op_diagnostic(op, "replace with gpu.launch_func first"))
        if gpu_async.is_gpu_wait(op):
            # A user-written wait joins the chain; an async one continues it,
            # a blocking one ends it.
            if current is not None:
                gpu_async.add_async_dep(op, current)
            current = gpu_async.async_token(op)
        elif lookup(op.name).gpu_async:
            if current is None:
                start = gpu_async.new_wait(op.loc, [], is_async=True)
                out.append(start)
                current = start.results[0]
            gpu_async.add_async_dep(op, current)
            token = gpu_async.async_token(op)
            if token is None:
                token = gpu_async.make_async(op, keep_result_segments=not mode.grow_token_segment)
            current = token
        elif current is not None and (effects.may_be_terminator(op) or not effects.is_memory_effect_free(op)):
            out.append(gpu_async.new_wait(op.loc, [current], is_async=False))
            current = None
        out.append(op)
    block.ops = out
    _reparent(block)
    return current


def _reparent(block: Block) -> None:
    for op in block.ops:
        op.parent = block
