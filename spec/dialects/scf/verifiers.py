"""`scf.forall`'s and `scf.forall.in_parallel`'s verifiers as mlir-opt-19
runs them, with its messages (compared with it in
`tests/syntax/test_syntax_forall.py`).

`scf.forall`, in 19's order: its `mapping` attribute's constraint (the
custom form's attr-dict is checked here), its operands' ODS types (the dynamic bounds
index, the `shared_outs` ranked tensors), then `ForallOp::verify`: one
result per output, one body argument per loop and output (the loops'
`index`, the outputs' their operand's type), a `mapping` of one entry per
loop, and each bound list (`staticLowerBound` ...) with one entry per loop
and one operand per dynamic entry; the rank is the lower bounds' count.
The last two are `emitError`s: no `'scf.forall' op` prefix.

`scf.forall.in_parallel`: a region of one block (`SizedRegion<1>`) holding
only `tensor.parallel_insert_slice` ops, each inserting into an output's
body argument.
"""

from __future__ import annotations

from collections.abc import Callable

from spec.attributes import ArrayAttr, DenseArrayAttr
from spec.diagnostics import DiagnosticError, error
from spec.ir import Operation, Value
from spec.syntax.build_base import K_DYNAMIC
from spec.syntax.op_checks import declared
from spec.syntax.structure import current_op_note, op_error

_BOUNDS = (("lower bound", "staticLowerBound"), ("upper bound", "staticUpperBound"), ("step", "staticStep"))


def _segments(op: Operation) -> list[list[Value]]:
    sizes = op.properties.get("operandSegmentSizes")
    counts = sizes.ints if isinstance(sizes, DenseArrayAttr) and len(sizes.values) == 4 else (0, 0, 0, 0)
    out, at = [], 0
    for n in counts:
        out.append(op.operands[at : at + n])
        at += n
    return out


def _statics(op: Operation, key: str) -> tuple[int, ...]:
    attr = op.properties.get(key)
    return attr.ints if isinstance(attr, DenseArrayAttr) else ()


def _forall(op: Operation) -> None:
    mapping = op.properties.get("mapping")
    kind = declared(op.name)["mapping"].kind
    if mapping is not None and not kind.satisfied(mapping):
        raise op_error(op, f"attribute 'mapping' failed to satisfy constraint: {kind.summary}")
    *bounds, outputs = _segments(op)
    for at, v in enumerate(op.operands):
        if at < sum(len(b) for b in bounds):
            if not v.type.is_index:
                raise op_error(op, f"operand #{at} must be variadic of index, but got '{v.type}'")
        elif not (v.type.text.startswith("tensor<") and not v.type.text.startswith("tensor<*")):
            raise op_error(
                op, f"operand #{at} must be variadic of ranked tensor of any type values, but got '{v.type}'"
            )
    rank = len(_statics(op, "staticLowerBound"))
    if len(op.results) != len(outputs):
        raise op_error(op, f"produces {len(op.results)} results, but has only {len(outputs)} outputs")
    args = op.regions[0].blocks[0].args
    if len(args) != rank + len(outputs):
        raise op_error(op, f"region expects {rank} arguments")
    for i in range(rank):
        if not args[i].type.is_index:
            raise op_error(op, f"expects {i}-th block argument to be an index")
    for i, out in enumerate(outputs):
        if args[rank + i].type != out.type:
            raise op_error(op, f"type mismatch between {i}-th output and corresponding block argument")
    if isinstance(mapping, ArrayAttr) and mapping.elements and len(mapping.elements) != rank:
        raise op_error(op, "mapping attribute size must match op rank")
    for (name, key), values in zip(_BOUNDS, bounds):
        statics = _statics(op, key)
        if len(statics) != rank:
            raise _plain_error(op, f"expected {rank} {name} values, got {len(statics)}")
        dynamic = sum(1 for s in statics if s == K_DYNAMIC)
        if len(values) != dynamic:
            raise _plain_error(op, f"expected {dynamic} dynamic {name} values")


def _plain_error(op: Operation, message: str) -> DiagnosticError:
    """`op->emitError(message)`: at the op, without the op-name prefix."""
    return DiagnosticError(error(op.loc, message, current_op_note(op)))


def _in_parallel(op: Operation) -> None:
    region = op.regions[0] if op.regions else None
    if region is None or len(region.blocks) != 1:
        raise op_error(op, "region #0 ('region') failed to verify constraint: region with 1 blocks")
    forall = op.parent_op
    outs = set()
    if forall is not None and forall.name == "scf.forall" and forall.regions[0].blocks:
        body_args = forall.regions[0].blocks[0].args
        outs = set(body_args[len(body_args) - len(_segments(forall)[3]) :])
    for inner in region.blocks[0].ops:
        if inner.name != "tensor.parallel_insert_slice":
            raise op_error(op, "expected only tensor.parallel_insert_slice ops")
        dest = inner.operands[1] if len(inner.operands) > 1 else None
        if dest not in outs:
            raise op_error(inner, "may only insert into an output block argument")


SCF_RULES: dict[str, Callable[[Operation], None]] = {
    "scf.forall": _forall,
    "scf.forall.in_parallel": _in_parallel,
}
"""Each rule the registry names for an scf op (`OpInfo.verifier`)."""
