"""Function pairs verified by earlier checks, by their IR.

Proving a loop by induction (`induction.py`) checks each iteration's step
and the loop's context as pairs of functions of their own. Small programs
make the same steps over and over: the body of an `scf.for` holding a
launch is the same function whatever comes before or after the loop. A
check of a pair of functions reads the two functions only (their ops,
operands, types, attributes, regions and blocks: the correspondence, the
well-formedness and blocking checks, the event graphs and the proofs are
made of nothing else) and the check's options, so a pair whose IR is that
of a pair verified before is verified. An exhaustive run hands its checks
one table of them (`CheckOptions.verified_pairs`); only `verified`
answers are kept, and only the checks of an induction ask it.

`function_key` is the IR of a function as a value, up to what is only
read to word a message: value names (hints) and locations. Values and
blocks are numbered in the order the walk meets them, so the key says
which use is of which definition; ops keep their order, their properties
and attributes their order too.
"""

from __future__ import annotations

from spec.ir import Operation
from verifier.recent import RecentKeys


def function_key(func: Operation) -> tuple | None:
    """`func` (an op with its regions) as a value: per op, in pre-order,
    its name, operands (by number), results (number and type),
    properties, attributes, successors (by number) and the number of its
    regions; per region the number of its blocks, per block its number and
    its arguments (number and type). None if an operand is a value the
    function does not define (then the key would not say which)."""
    numbers: dict[int, int] = {}
    defined: set[int] = set()
    blocks: dict[int, int] = {}
    out: list[object] = []

    def number(v: object) -> int:
        n = numbers.get(id(v))
        if n is None:
            n = numbers[id(v)] = len(numbers)
        return n

    def block_number(b: object) -> int:
        n = blocks.get(id(b))
        if n is None:
            n = blocks[id(b)] = len(blocks)
        return n

    stack: list[Operation] = [func]
    while stack:
        op = stack.pop()
        for v in op.results:
            defined.add(id(v))
        out.append(
            (
                op.name,
                tuple([number(v) for v in op.operands]),
                tuple([(number(v), v.type) for v in op.results]),
                tuple(op.properties.items()),
                tuple(op.attributes.items()),
                tuple([block_number(b) for b in op.successors]),
                len(op.regions),
            )
        )
        for region in op.regions:
            out.append(len(region.blocks))
            for block in region.blocks:
                for a in block.args:
                    defined.add(id(a))
                out.append((block_number(block), tuple([(number(a), a.type) for a in block.args]), len(block.ops)))
        for region in reversed(op.regions):
            for block in reversed(region.blocks):
                stack.extend(reversed(block.ops))
    if len(defined) != len(numbers):
        return None
    return tuple(out)


class VerifiedPairs(RecentKeys):
    """Keys of pairs of functions (with the options that matter) that a
    check verified, the most recent `capacity` of them. `hits` counts the
    answers given from the table."""

    def __init__(self, capacity: int = 2_000) -> None:
        super().__init__(capacity)
