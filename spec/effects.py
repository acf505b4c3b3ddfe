"""Memory-effect questions the pass asks, answered from the op registry.

Two notions of "has no effect" exist in the pass's history and both are
modelled, since the seed mode must reproduce the old one:

- `is_memory_effect_free`: MLIR's `isMemoryEffectFree` (used by 19/22). An
  op with the effects interface must declare none; an op with recursive
  effects is free iff every op in its regions is; an op with neither (no
  interface: `func.call`, `async.execute`, unregistered ops) is not free.
- `seed_has_no_effect`: 2020's `MemoryEffectOpInterface::hasNoEffect(op)`,
  which does not look into regions (`OpInfo.seed_no_effect`).

`may_be_terminator` is MLIR's `mightHaveTrait<IsTerminator>`: registered
terminators, and every unregistered op.
"""

from __future__ import annotations

from spec import registry
from spec.ir import Operation


def is_memory_effect_free(op: Operation) -> bool:
    """MLIR's `isMemoryEffectFree(op)`, iterative over nested regions."""
    stack = [op]
    while stack:
        cur = stack.pop()
        info = registry.lookup(cur.name)
        if info.effects is None and not info.recursive:
            return False
        if info.effects:
            return False
        if info.recursive:
            for region in cur.regions:
                for block in region.blocks:
                    stack.extend(block.ops)
    return True


def seed_has_no_effect(op: Operation) -> bool:
    """2020's `hasNoEffect`: declared effects only, regions not inspected."""
    return registry.lookup(op.name).seed_no_effect


def may_be_terminator(op: Operation) -> bool:
    """MLIR's `mightHaveTrait<OpTrait::IsTerminator>()`."""
    info = registry.lookup(op.name)
    return info.terminator or not info.known


def has_terminator_trait(op: Operation) -> bool:
    """`hasTrait<OpTrait::IsTerminator>()` (2020): registered terminators only."""
    return registry.lookup(op.name).terminator
