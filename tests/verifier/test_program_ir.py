"""An enumerated program's IR, built directly (`verifier.programs.program_ir`), is its parsed text's.

Field by field, for every program of several alphabets: op names,
operands (by definition), results and block arguments (types, name
hints, locations, indices), properties and attributes (and whether they are
the parser's shared empty dict), regions and blocks (labels, locations,
successors) and parent links. An exhaustive run hands this IR to the pass
and the checker instead of parsing, so any difference here could change a
verdict or a message.
"""

from __future__ import annotations

import pytest

from spec.ir import EMPTY_DICT, EMPTY_LIST, Block, Operation, Value
from spec.syntax.parser import parse_module
from verifier.programs.enumeration import ALPHABETS, programs_up_to
from verifier.programs.program_ir import program_ir


class _Differences:
    """Where two op trees differ, collected in `out` (empty: the same IR)."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.values: dict[int, Value] = {}
        self.blocks: dict[int, Block] = {}

    def value(self, u: Value, v: Value, where: str) -> None:
        same = (u.type == v.type, u.hint == v.hint, tuple(u.loc) == tuple(v.loc), u.index == v.index)
        if not all(same):
            self.out.append(
                f"{where}: value {u.hint} {u.type} {u.loc} {u.index} != {v.hint} {v.type} {v.loc} {v.index}"
            )
        self.values[id(u)] = v

    def fields(self, x: Operation, y: Operation, where: str) -> None:
        for mine, theirs, what in (
            (x.properties, y.properties, "properties"),
            (x.attributes, y.attributes, "attributes"),
        ):
            if mine != theirs or (mine is EMPTY_DICT) != (theirs is EMPTY_DICT) or list(mine) != list(theirs):
                self.out.append(f"{where}: {what} {mine!r} != {theirs!r}")
        shared = (x.regions is EMPTY_LIST, x.successors is EMPTY_LIST)
        if shared != (y.regions is EMPTY_LIST, y.successors is EMPTY_LIST):
            self.out.append(f"{where}: shared empty lists differ")
        if len(x.operands) != len(y.operands) or any(
            self.values.get(id(u)) is not v for u, v in zip(x.operands, y.operands)
        ):
            self.out.append(f"{where}: operands {[u.hint for u in x.operands]} != {[v.hint for v in y.operands]}")
        if len(x.results) != len(y.results):
            self.out.append(f"{where}: {len(x.results)} results != {len(y.results)}")
        for u, v in zip(x.results, y.results):
            if u.owner is not x or v.owner is not y:
                self.out.append(f"{where}: result owner")
            self.value(u, v, where)

    def op(self, x: Operation, y: Operation, where: str) -> None:
        where = f"{where}/{x.name}@{x.loc.line}:{x.loc.col}"
        if x.name != y.name or tuple(x.loc) != tuple(y.loc):
            self.out.append(f"{where}: {x.name} {x.loc} != {y.name} {y.loc}")
            return
        self.fields(x, y, where)
        if len(x.regions) != len(y.regions):
            self.out.append(f"{where}: {len(x.regions)} regions != {len(y.regions)}")
            return
        for k, (ra, rb) in enumerate(zip(x.regions, y.regions)):
            if ra.parent is not x or rb.parent is not y or len(ra.blocks) != len(rb.blocks):
                self.out.append(f"{where}: region {k}: parent or {len(ra.blocks)} blocks != {len(rb.blocks)}")
                continue
            for ba, bb in zip(ra.blocks, rb.blocks):
                self.block_head(ba, bb, where)
            for ba, bb in zip(ra.blocks, rb.blocks):
                self.block_ops(ba, bb, where)
        if [self.blocks.get(id(s)) for s in x.successors] != list(y.successors):
            self.out.append(
                f"{where}: successors {[s.label for s in x.successors]} != {[s.label for s in y.successors]}"
            )

    def block_head(self, ba: Block, bb: Block, where: str) -> None:
        self.blocks[id(ba)] = bb
        if (ba.label, tuple(ba.loc)) != (bb.label, tuple(bb.loc)) or (ba.parent is None) != (bb.parent is None):
            self.out.append(f"{where}: block {ba.label} {ba.loc} != {bb.label} {bb.loc}")
        if len(ba.args) != len(bb.args):
            self.out.append(f"{where}: block arguments {len(ba.args)} != {len(bb.args)}")
        for u, v in zip(ba.args, bb.args):
            if u.owner is not ba or v.owner is not bb:
                self.out.append(f"{where}: argument owner")
            self.value(u, v, where)

    def block_ops(self, ba: Block, bb: Block, where: str) -> None:
        if len(ba.ops) != len(bb.ops):
            self.out.append(f"{where}: block {ba.label}: {[o.name for o in ba.ops]} != {[o.name for o in bb.ops]}")
            return
        for oa, ob in zip(ba.ops, bb.ops):
            if oa.parent is not ba or ob.parent is not bb:
                self.out.append(f"{where}: parent of {oa.name}")
            self.op(oa, ob, where)


def differences(a: Operation, b: Operation) -> list[str]:
    """Where two op trees differ (empty: they are the same IR)."""
    d = _Differences()
    d.op(a, b, "")
    return d.out


@pytest.mark.parametrize(
    ("alphabet", "size"), [("whole", 3), ("full", 2), ("straight", 2), ("control", 3), ("async", 3)]
)
def test_built_ir_is_the_parsed_ir(alphabet: str, size: int) -> None:
    n = 0
    for p in programs_up_to(ALPHABETS[alphabet], size):
        built = program_ir(p, "<input>")
        assert built is not None
        diff = differences(built, parse_module(p.text, "<input>"))
        assert not diff, (p.id, p.text, diff[:5])
        n += 1
    assert n > 400


def test_the_comparison_sees_a_difference() -> None:
    (p,) = [q for q in programs_up_to(ALPHABETS["whole"], 1) if "scf.if" in q.text][:1]
    built = program_ir(p, "<input>")
    assert built is not None
    assert differences(built, parse_module(p.text, "other.mlir"))
    assert differences(built, parse_module(p.text.replace("%p0", "%q0"), "<input>"))
