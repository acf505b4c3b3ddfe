"""`induction.clone` copies a module as a pickle round trip does.

The induction proof splits loops in copies of both modules (`_Copy`);
`clone` makes the copy. Here, for the input and the reference's output of
programs of `whole` (to size 3) and `full` (to size 2), and for a module
of several blocks with branches, the copy is compared with the pickle
round trip field by field (names, operands, results, properties,
attributes, locations, hints, labels, regions, blocks, successors), its
links checked (each op's, block's, region's and value's owner is the
copy's), and nothing that may change shared with the original.
"""

from __future__ import annotations

import itertools
import pickle

from spec.ir import EMPTY_DICT, EMPTY_LIST, Block, Operation
from spec.syntax.parser import parse_module
from verifier.harness import reference_impl
from verifier.programs.enumeration import ALPHABETS, programs_up_to
from verifier.proof.induction import clone


def _dump(root: Operation) -> list[object]:
    """Everything of `root`'s IR, values and blocks by their number in walk order."""
    values: dict[int, int] = {}
    blocks: dict[int, int] = {}

    def val(v: object) -> int:
        return values.setdefault(id(v), len(values))

    def blk(b: object) -> int:
        return blocks.setdefault(id(b), len(blocks))

    out: list[object] = []
    for op in root.walk():
        out.append(
            (
                op.name,
                [val(v) for v in op.operands],
                [(val(r), r.type, r.index, r.hint, r.loc) for r in op.results],
                dict(op.properties),
                dict(op.attributes),
                op.loc,
                [blk(b) for b in op.successors],
                [
                    [
                        (blk(b), b.label, b.loc, [(val(a), a.type, a.index, a.hint, a.loc) for a in b.args])
                        for b in r.blocks
                    ]
                    for r in op.regions
                ],
                op.properties is EMPTY_DICT,
                op.attributes is EMPTY_DICT,
                op.regions is EMPTY_LIST,
                op.successors is EMPTY_LIST,
            )
        )
    return out


def _links_and_sharing(original: Operation, copy: Operation) -> None:
    mine: set[int] = set()
    for op in original.walk():
        mine.update(id(x) for x in (op, op.operands, op.results, *op.results))
        if op.properties is not EMPTY_DICT:
            mine.add(id(op.properties))
        if op.attributes is not EMPTY_DICT:
            mine.add(id(op.attributes))
        for region in op.regions:
            mine.add(id(region))
            for block in region.blocks:
                mine.update(id(x) for x in (block, block.ops, block.args, *block.args))
    for op in copy.walk():
        assert id(op) not in mine and id(op.operands) not in mine and id(op.results) not in mine
        assert all(id(r) not in mine and r.owner is op for r in op.results)
        assert op.properties is EMPTY_DICT or id(op.properties) not in mine
        assert op.attributes is EMPTY_DICT or id(op.attributes) not in mine
        assert all(id(v) not in mine for v in op.operands)
        for region in op.regions:
            assert id(region) not in mine and region.parent is op
            for block in region.blocks:
                assert id(block) not in mine and block.parent is region
                assert all(a.owner is block and id(a) not in mine for a in block.args)
                assert all(o.parent is block for o in block.ops)
        assert all(isinstance(b, Block) and id(b) not in mine for b in op.successors)


def _modules() -> list[Operation]:
    out: list[Operation] = []
    progs = itertools.chain(programs_up_to(ALPHABETS["whole"], 3), programs_up_to(ALPHABETS["full"], 2))
    for k, p in enumerate(progs):
        if k % 7:
            continue
        out.append(parse_module(p.text, "<input>"))
        result = reference_impl.rewrite(parse_module(p.text, "<input>"), "reference")
        if result.ok:
            out.append(result.module)
    return out


def test_clone_is_a_pickle_round_trip() -> None:
    modules = _modules()
    assert len(modules) > 3_000
    for m in modules:
        copy, ops = clone(m)
        assert _dump(copy) == _dump(pickle.loads(pickle.dumps(m, pickle.HIGHEST_PROTOCOL)))
        _links_and_sharing(m, copy)
        assert all(ops[id(a)] is b for a, b in zip(m.walk(), copy.walk(), strict=True))


def test_clone_maps_uses_before_definitions() -> None:
    # Blocks whose order is not the order of dominance: ^bb2 defines what
    # ^bb1 uses; a branch to a later block.
    text = """
func.func @f(%c: i1) {
  cf.br ^bb2
^bb1:
  %y = arith.addi %x, %x : i32
  return
^bb2:
  %x = arith.constant 1 : i32
  cf.cond_br %c, ^bb1, ^bb3
^bb3:
  return
}
"""
    m = parse_module(text, "<input>")
    copy, _ = clone(m)
    assert _dump(copy) == _dump(pickle.loads(pickle.dumps(m)))
    _links_and_sharing(m, copy)
