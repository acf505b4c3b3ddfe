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
"""

from __future__ import annotations

from refimpl.opnote import generic_text
from spec import registry
from spec.diagnostics import Diagnostic, error, note
from spec.ir import Block, Operation, Region, Value


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
                op, f"result count ({len(op.results)}) does not match with the total size ({total}) specified in attribute 'resultSegmentSizes'"
            )
    return None


def _isolated(op: Operation) -> bool:
    return registry.lookup(op.name).isolated and bool(op.regions)


def _graph_region(region: Region) -> bool:
    """Regions without SSA dominance: those of `builtin.module` and of ops
    the registry does not know."""
    parent = region.parent
    return parent is not None and (parent.name == "builtin.module" or not registry.lookup(parent.name).known)


def _region_of(v: Value) -> Region | None:
    owner = v.owner
    block = owner if isinstance(owner, Block) else owner.parent if isinstance(owner, Operation) else None
    return block.parent if block is not None else None


def _region_contains(outer: Region, inner: Region | None) -> bool:
    """Whether `inner` is `outer` or nested in it."""
    while inner is not None:
        if inner is outer:
            return True
        op = inner.parent
        block = op.parent if op is not None else None
        inner = block.parent if block is not None else None
    return False


def _ancestor_in(region: Region, op: Operation) -> Operation | None:
    """`op` or the ancestor of it whose block is in `region`."""
    cur: Operation | None = op
    while cur is not None:
        block = cur.parent
        if block is None:
            return None
        if block.parent is region:
            return cur
        cur = block.parent_op
    return None


def _relation(user: Operation, definer: Operation) -> str:
    if user.parent is definer.parent:
        return "op in the same block"
    use_region = user.parent.parent if user.parent else None
    def_region = definer.parent.parent if definer.parent else None
    if use_region is def_region:
        return "op in the same region"
    if def_region is not None and use_region is not None:
        if _region_contains(def_region, use_region):
            return "op in a parent region"
        if _region_contains(use_region, def_region):
            return "op in a child region"
    return "op is neither in a parent nor in a child region"


class _Verifier:
    def __init__(self) -> None:
        self.cfg: dict[Region, tuple[set[Block], dict[Block, set[Block]]]] = {}

    # -- structure ------------------------------------------------------------
    def op_and_dominance(self, op: Operation) -> Diagnostic | None:
        return self.operation(op) or (self.dominance(op) if op.regions else None)

    def operation(self, op: Operation) -> Diagnostic | None:
        """Verify `op` and what is nested in it, isolated children last."""
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if inner.regions and not _isolated(inner):
                        found = self.operation(inner)
                        if found is not None:
                            return found
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if _isolated(inner):
                        found = self.op_and_dominance(inner)
                        if found is not None:
                            return found
        return self.isolation(op) if _isolated(op) else None

    def isolation(self, op: Operation) -> Diagnostic | None:
        for region in op.regions:
            pending = [region]
            while pending:
                for block in pending.pop().blocks:
                    for inner in block.ops:
                        for v in inner.operands:
                            if not _region_contains(region, _region_of(v)):
                                return _op_diag(inner, "using value defined outside the region", note(op.loc, "required by region isolation constraints"))
                        if inner.regions and not _isolated(inner):
                            pending.extend(inner.regions)
        return None

    # -- dominance ------------------------------------------------------------
    def dominance(self, op: Operation) -> Diagnostic | None:
        worklist = [op]
        while worklist:
            cur = worklist.pop()
            for region in cur.regions:
                for block in region.blocks:
                    reachable = self.reachable(block)
                    for inner in block.ops:
                        if reachable:
                            for k, v in enumerate(inner.operands):
                                if not self.dominates(v, inner):
                                    return _dominance_diag(inner, k, v)
                        if inner.regions and not _isolated(inner):
                            worklist.append(inner)
        return None

    def dominates(self, v: Value, user: Operation) -> bool:
        region = _region_of(v)
        if region is None:
            return False
        anc = _ancestor_in(region, user)
        if anc is None or anc.parent is None:
            return False
        owner = v.owner
        if isinstance(owner, Block):
            return self.block_dominates(owner, anc.parent)
        assert isinstance(owner, Operation) and owner.parent is not None
        graph = _graph_region(region)
        if anc is owner:
            # A use nested in the defining op itself.
            return graph and user is not owner
        if owner.parent is anc.parent:
            return graph or owner.parent.ops.index(owner) < owner.parent.ops.index(anc)
        return self.block_dominates(owner.parent, anc.parent)

    def reachable(self, block: Block) -> bool:
        region = block.parent
        if region is None or region.blocks[0] is block:
            return True
        return block in self.region_cfg(region)[0]

    def block_dominates(self, a: Block, b: Block) -> bool:
        if a is b:
            return True
        region = a.parent
        assert region is not None
        reach, doms = self.region_cfg(region)
        if b not in reach:
            return True  # everything dominates an unreachable block
        return a in doms[b]

    def region_cfg(self, region: Region) -> tuple[set[Block], dict[Block, set[Block]]]:
        found = self.cfg.get(region)
        if found is None:
            found = self.cfg[region] = dominators(region)
        return found


def dominators(region: Region) -> tuple[set[Block], dict[Block, set[Block]]]:
    """The blocks of `region` reachable from its entry, and for each of
    them the blocks that dominate it (itself included)."""
    entry = region.blocks[0]
    reach = {entry}
    stack = [entry]
    preds: dict[Block, list[Block]] = {b: [] for b in region.blocks}
    while stack:
        b = stack.pop()
        for s in b.successors():
            if s in preds:
                preds[s].append(b)
                if s not in reach:
                    reach.add(s)
                    stack.append(s)
    order = [b for b in region.blocks if b in reach]
    doms = {b: set(order) for b in order}
    doms[entry] = {entry}
    changed = True
    while changed:
        changed = False
        for b in order[1:]:
            ps = [doms[p] for p in preds[b] if p in reach]
            new = set.intersection(*ps) | {b} if ps else {b}
            if new != doms[b]:
                doms[b] = new
                changed = True
    return reach, doms


def _current(op: Operation) -> Diagnostic:
    text = generic_text(op)
    sep = "\n" if "\n" in text else ""
    return note(op.loc, f"see current operation: {sep}{text}")


def _op_diag(op: Operation, message: str, *more: Diagnostic) -> Diagnostic:
    return error(op.loc, f"'{op.name}' op {message}", _current(op), *more)


def _dominance_diag(user: Operation, index: int, v: Value) -> Diagnostic:
    owner = v.owner
    more = [note(owner.loc, f"operand defined here ({_relation(user, owner)})")] if isinstance(owner, Operation) else []
    return error(user.loc, f"operand #{index} does not dominate this use", _current(user), *more)
