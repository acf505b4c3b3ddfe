"""Ops' own verifiers (MLIR's `verify()` and `verifyRegions`, ODS operand
type constraints and dialect attribute verifiers) that the registry names,
run with mlir-opt-19's messages.

The registry says which op has which (`OpInfo.verifier`,
`OpInfo.operand_types`, `DIALECT_ATTRIBUTE_VERIFIERS`); each dialect's
`verifiers` module says what its rules check (`spec.dialects.gpu`,
`memref`, `vector`, `scf`, `async_`), and this module runs them:
`resolve.verify` calls it on an op's entrance, in mlir-opt-19's order (the
dialect attributes first, then the operand types, then the op's own rule),
and on its exit (`verifyRegions`).

Per-op dispatch: `RULES` joins the dialects' rule tables, keyed by the rule
names the registry gives, as MLIR's verifiers are each op's own.

The operand type constraints are here (`TYPE_CONSTRAINTS`), each with the
summary 19 prints: `unranked_memref` operands (`gpu.host_register`,
`gpu.host_unregister`), `ranked_memref` ones (`gpu.memcpy`, `gpu.memset`),
`strided_memref` ones (`memref.expand_shape`, `memref.collapse_shape`).
"""

from __future__ import annotations

from collections.abc import Callable

from spec import registry
from spec.attributes import Type
from spec.dialects.async_.verifiers import ASYNC_RULES
from spec.dialects.gpu.verifiers import GPU_ON_EXIT, GPU_RULES
from spec.dialects.memref.verifiers import MEMREF_RULES, strided_memref
from spec.dialects.scf.verifiers import SCF_RULES
from spec.dialects.vector.verifiers import RULES as VECTOR_RULES
from spec.ir import Operation
from spec.syntax.structure import op_error

TYPE_CONSTRAINTS: dict[str, tuple[Callable[[Type], bool], str]] = {
    "unranked_memref": (lambda t: t.text.startswith("memref<*"), "unranked.memref of any type values"),
    "ranked_memref": (
        lambda t: t.text.startswith("memref<") and not t.text.startswith("memref<*"),
        "memref of any type values",
    ),
}


TYPE_CONSTRAINTS["strided_memref"] = (strided_memref, "strided memref of any type values")
"""ODS type constraints: what each accepts and the summary 19 prints."""

RULES: dict[str, Callable[[Operation], None]] = {
    **GPU_RULES,
    **MEMREF_RULES,
    **VECTOR_RULES,
    **SCF_RULES,
    **ASYNC_RULES,
}
"""Each rule the registry names (`OpInfo.verifier`, `DIALECT_ATTRIBUTE_VERIFIERS`),
from its dialect's `verifiers` module."""


def check_dialect_attributes(op: Operation) -> None:
    """The dialect attribute verifiers of `op`'s discardable attributes, by
    name (a dictionary attribute's order)."""
    for key in sorted(op.attributes):
        rule = registry.DIALECT_ATTRIBUTE_VERIFIERS.get(key)
        if rule is not None:
            RULES[rule](op)


ON_EXIT: dict[str, Callable[[Operation], None]] = {**GPU_ON_EXIT}
"""Ops' `verifyRegions`, run on the op's exit (its regions verified)."""


def check_on_exit(op: Operation) -> None:
    """`op`'s `verifyRegions`, if it has one."""
    rule = ON_EXIT.get(op.name)
    if rule is not None:
        rule(op)


def check_op(op: Operation, info: registry.OpInfo) -> None:
    """`op`'s operand type constraints, then its own verifier."""
    for pos, constraint in info.operand_types:
        at = pos if pos >= 0 else len(op.operands) + pos
        if 0 <= at < len(op.operands):
            accepts, summary = TYPE_CONSTRAINTS[constraint]
            t = op.operands[at].type
            if isinstance(t, Type) and not accepts(t):
                raise op_error(op, f"operand #{at} must be {summary}, but got '{t}'")
    if info.verifier:
        RULES[info.verifier](op)


def custom_type_refused(name: str, at: int, t: Type) -> str | None:
    """The custom parser's message when operand `at` of op `name` is written
    with a type its constraint refuses (`invalid kind of type specified`)."""
    for pos, constraint in registry.lookup(name).operand_types:
        if pos == at and not TYPE_CONSTRAINTS[constraint][0](t):
            return f"custom op '{name}' invalid kind of type specified"
    return None
