"""The IR verifier mlir-opt runs after the pass, for the `mlir19` mode.

Only a token that phase 1 let cross a block boundary (a block without a
terminator, `refimpl.thread`) can make the pass's output invalid, and only
in two ways, which mlir-opt-19 reports as follows (the first failure only,
exit code 1, nothing on stdout):

- `'OP' op using value defined outside the region`, with the
  `see current operation` note (the outside value prints as
  `<<UNKNOWN SSA VALUE>>`) and the note `required by region isolation
  constraints` at the isolated-from-above op whose region it entered;
- `operand #N does not dominate this use` at the user (no `'OP' op`
  prefix), the `see current operation` note, and `operand defined here
  (...)` at the defining op, saying how the two regions relate.

Order of the checks, as MLIR's verifier walks: an op's isolated-from-above
children (nested modules and functions) are verified, each completely,
before the op's own isolation check, and an op's dominance is checked after
everything nested in it has been verified. Dominance is checked op by op
over all blocks of the op's regions; the region-holding ops met are then
checked from the last one found back to the first. Operands of ops in
unreachable blocks are not checked; a use in the defining op's own block of
a graph region (`builtin.module`, unregistered ops) is always dominated.
Dominance itself, and its diagnostic, are the parser's
(`spec.syntax.structure.Dominance`): one definition for input and output.
"""

from __future__ import annotations

from spec import registry
from spec.diagnostics import Diagnostic, error, note
from spec.ir import Operation
from spec.syntax.structure import Dominance, current_op_note, isolated, region_contains, region_of


def first_error(func: Operation) -> Diagnostic | None:
    """The diagnostic mlir-opt-19's verifier reports for `func` after the
    pass, or None when `func` is valid (as far as the pass can break it).
    An op's own invariants are checked as the verifier enters it, before
    the dominance of anything around it."""
    return segment_mismatch(func) or _Verifier().op_and_dominance(func)


def segment_mismatch(func: Operation) -> Diagnostic | None:
    """The first op (in walk order) whose `resultSegmentSizes` does not add
    up to its results: upstream's pass gives `gpu.spmm_buffer_size` a token
    result without growing the sizes (the registry's `result_segments`)."""
    for op in func.walk():
        if not registry.lookup(op.name).result_segments:
            continue
        sizes = op.properties.get("resultSegmentSizes")
        total = sum(getattr(sizes, "values", ()))
        if sizes is not None and total != len(op.results):
            return _op_diag(
                op,
                f"result count ({len(op.results)}) does not match with the total size ({total}) specified in attribute 'resultSegmentSizes'",
            )
    return None


class _Verifier:
    def __init__(self) -> None:
        self.dom = Dominance()

    # -- structure ------------------------------------------------------------
    def op_and_dominance(self, op: Operation) -> Diagnostic | None:
        return self.operation(op) or (self.dominance(op) if op.regions else None)

    def operation(self, op: Operation) -> Diagnostic | None:
        """Verify `op` and what is nested in it, isolated children last."""
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if inner.regions and not isolated(inner):
                        found = self.operation(inner)
                        if found is not None:
                            return found
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if isolated(inner):
                        found = self.op_and_dominance(inner)
                        if found is not None:
                            return found
        return self.isolation(op) if isolated(op) else None

    def isolation(self, op: Operation) -> Diagnostic | None:
        for region in op.regions:
            pending = [region]
            while pending:
                for block in pending.pop().blocks:
                    for inner in block.ops:
                        for v in inner.operands:
                            if not region_contains(region, region_of(v)):
                                return _op_diag(
                                    inner,
                                    "using value defined outside the region",
                                    note(op.loc, "required by region isolation constraints"),
                                )
                        if inner.regions and not isolated(inner):
                            pending.extend(inner.regions)
        return None

    def dominance(self, op: Operation) -> Diagnostic | None:
        return self.dom.first_error([op])


def _op_diag(op: Operation, message: str, *more: Diagnostic) -> Diagnostic:
    return error(op.loc, f"'{op.name}' op {message}", current_op_note(op), *more)
