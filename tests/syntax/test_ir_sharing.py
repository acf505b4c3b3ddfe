"""The IR's shared empty containers and its pickled form (`spec.ir`).

Most ops have no regions, no successors and no attributes; they share one
unchangeable empty list or dict (`EMPTY_LIST`, `EMPTY_DICT`) so that a
100k-op module does not carry three empty containers per op. The danger of
sharing is one op's edit showing up on every other op: these tests check
that every way of changing a shared container raises instead, that the ways
the code base does add entries give the op its own container, and that a
pickled module (the forked parser sends one back) comes back with the same
sharing, the same locations and the same printed text.
"""

from __future__ import annotations

import copy
import pickle

import pytest

from spec.attributes import UnitAttr
from spec.ir import EMPTY_DICT, EMPTY_LIST, Block, Operation, Region
from spec.syntax.parser import parse_module
from spec.syntax.printing import print_op

PROGRAM = """\
func.func @f(%arg0: memref<4xf32>, %arg1: index) {
  %c0 = arith.constant 0 : index
  %0 = gpu.wait async
  %1 = gpu.memset async [%0] %arg0, %cst : memref<4xf32>, f32
  gpu.wait [%1]
  %2 = memref.load %arg0[%c0] : memref<4xf32>
  cf.br ^bb1
^bb1:
  return
}
"""
PROGRAM = PROGRAM.replace("%arg1: index) {\n", "%arg1: index) {\n  %cst = arith.constant 1.0 : f32\n")


def test_a_new_op_shares_the_empty_containers() -> None:
    a, b = Operation("x.a"), Operation("x.b")
    for field in ("regions", "successors"):
        assert getattr(a, field) is EMPTY_LIST and getattr(b, field) is EMPTY_LIST
    for field in ("properties", "attributes"):
        assert getattr(a, field) is EMPTY_DICT
    # Operands and results are each op's own: passes append to them.
    assert a.operands is not b.operands and a.results is not b.results


@pytest.mark.parametrize(
    "change",
    [
        lambda x: x.append(1),
        lambda x: x.extend([1]),
        lambda x: x.insert(0, 1),
        lambda x: x.__setitem__(slice(0, 0), [1]),
        lambda x: x.__iadd__([1]),
        lambda x: x.__imul__(2),
        lambda x: x.pop(),
        lambda x: x.remove(1),
        lambda x: x.clear(),
        lambda x: x.sort(),
        lambda x: x.reverse(),
    ],
)
def test_the_shared_list_refuses_every_change(change) -> None:
    with pytest.raises(TypeError, match="shared empty list"):
        change(EMPTY_LIST)
    assert list(EMPTY_LIST) == []


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.__setitem__("k", 1),
        lambda d: d.__delitem__("k"),
        lambda d: d.update(k=1),
        lambda d: d.setdefault("k", 1),
        lambda d: d.pop("k"),
        lambda d: d.popitem(),
        lambda d: d.clear(),
        lambda d: d.__ior__({"k": 1}),
    ],
)
def test_the_shared_dict_refuses_every_change(change) -> None:
    with pytest.raises(TypeError, match="shared empty dict"):
        change(EMPTY_DICT)
    assert dict(EMPTY_DICT) == {}


def test_adding_a_region_or_attribute_gives_the_op_its_own_container() -> None:
    a, b = Operation("x.a"), Operation("x.b")
    r = a.add_region(Region([Block()]))
    assert a.regions == [r] and r.parent is a
    assert b.regions is EMPTY_LIST and EMPTY_LIST == []
    a.add_region(Region())
    assert len(a.regions) == 2
    a.attributes = {**a.attributes, "k": UnitAttr()}
    assert a.attributes == {"k": UnitAttr()} and b.attributes is EMPTY_DICT and EMPTY_DICT == {}


def test_copies_keep_the_sharing() -> None:
    a = Operation("x.a")
    assert copy.copy(EMPTY_LIST) is EMPTY_LIST and copy.deepcopy(EMPTY_DICT) is EMPTY_DICT
    b = copy.deepcopy(a)
    assert b.regions is EMPTY_LIST and b.attributes is EMPTY_DICT
    # A slice is an ordinary list that can be changed.
    s = EMPTY_LIST[:]
    s.append(1)
    assert s == [1] and EMPTY_LIST == []


def test_a_pickled_module_comes_back_the_same() -> None:
    module = parse_module(PROGRAM, "p.mlir")
    back = pickle.loads(pickle.dumps(module, protocol=pickle.HIGHEST_PROTOCOL))
    assert print_op(back) == print_op(module)
    assert print_op(back, generic=True) == print_op(module, generic=True)
    pairs = list(zip(module.walk(), back.walk(), strict=True))
    shared = 0
    for x, y in pairs:
        assert (y.name, y.loc) == (x.name, x.loc)
        assert type(y.loc) is type(x.loc)
        assert [(v.hint, v.loc, v.index, v.owner is y) for v in y.results] == [
            (v.hint, v.loc, v.index, True) for v in x.results
        ]
        for field in ("regions", "successors"):
            assert (getattr(y, field) is EMPTY_LIST) == (getattr(x, field) is EMPTY_LIST)
        for field in ("properties", "attributes"):
            assert (getattr(y, field) is EMPTY_DICT) == (getattr(x, field) is EMPTY_DICT)
        shared += y.successors is EMPTY_LIST
    # Every op but the branch has no successors: the sharing is really there.
    assert shared == len(pairs) - 1
    # Use-def wiring survives: the wait's operand is the memset's result.
    wait = next(o for o in back.walk() if o.name == "gpu.wait" and not o.results)
    assert wait.operands[0].owner.name == "gpu.memset"
