"""Function pairs verified by earlier checks, by their IR (`verifier.proof.pairs`).

`function_key` tells apart every two programs the enumerator makes
(distinct up to renaming, so distinct IR), is the same for a copy and
for a copy with other locations and value names, and differs where an
operand, a type or an attribute does; a check given a table of verified
pairs (`CheckOptions.verified_pairs`, used by the induction's checks)
reports what one without does.
"""

from __future__ import annotations

import random

import verifier
from spec.attributes import StringAttr, Type
from spec.ir import Location
from spec.syntax.parser import parse_module
from verifier.harness import reference_impl
from verifier.programs.enumeration import WHOLE, programs_up_to
from verifier.programs.program_ir import program_ir
from verifier.proof.induction import clone
from verifier.proof.pairs import VerifiedPairs, function_key
from verifier.proof.pipeline import functions_of


def test_every_program_has_a_key_of_its_own() -> None:
    keys = set()
    n = 0
    for p in programs_up_to(WHOLE, 3):
        module = program_ir(p)
        assert module is not None
        key = function_key(functions_of(module)[0])
        assert key is not None
        keys.add(key)
        n += 1
    assert len(keys) == n == 13_952


def test_names_and_locations_are_left_out_and_nothing_else() -> None:
    p = next(p for p in programs_up_to(WHOLE, 3) if "scf.for" in p.text and "gpu.launch_func async" in p.text)
    module = program_ir(p)
    assert module is not None
    (func,) = functions_of(module)
    key = function_key(func)
    copy, _ = clone(module)
    (other,) = functions_of(copy)
    for op in other.walk():
        op.loc = Location("elsewhere.mlir", 99, 9)
        for r in op.results:
            r.hint = "%renamed"
    assert function_key(other) == key
    # An operand, a type, an attribute: each another function.
    launch = next(op for op in other.walk() if op.name == "gpu.launch_func")
    launch.operands = [launch.operands[-1], *launch.operands[:-1]]
    assert function_key(other) != key
    copy, _ = clone(module)
    (other,) = functions_of(copy)
    token = next(r for op in other.walk() for r in op.results if r.type.text == "!gpu.async.token")
    token.type = Type("!async.token")
    assert function_key(other) != key
    copy, _ = clone(module)
    (other,) = functions_of(copy)
    other.properties = {**other.properties, "sym_name": StringAttr("g")}
    assert function_key(other) != key


def test_a_value_from_outside_has_no_key() -> None:
    module = parse_module(
        "func.func @f(%x: i32) {\n  scf.execute_region {\n    %y = arith.addi %x, %x : i32\n    scf.yield\n  }\n  return\n}\n",
        "<input>",
    )
    region_op = next(op for op in module.walk() if op.name == "scf.execute_region")
    assert function_key(region_op) is None
    assert function_key(functions_of(module)[0]) is not None


def test_a_check_with_verified_pairs_reports_what_one_without_does() -> None:
    table = VerifiedPairs(1_000)
    rng = random.Random(5)
    loops = [p for p in programs_up_to(WHOLE, 3) if "scf.for" in p.text or "scf.while" in p.text]
    checked = 0
    for p in loops:
        if rng.random() > 0.4:
            continue
        before = parse_module(p.text, "<input>")
        result = reference_impl.rewrite(parse_module(p.text, "<input>"), "reference")
        assert result.ok
        plain = verifier.check(before, result.module)
        for _ in range(2):
            shared = verifier.check(before, result.module, verified_pairs=table)
            assert [(f.name, f.verdict, f.lemma, f.bounded) for f in shared.functions] == [
                (f.name, f.verdict, f.lemma, f.bounded) for f in plain.functions
            ], p.id
        checked += 1
    assert checked > 500 and len(table) > 50 and table.hits > checked
