"""MLIR's structural verifier checks that need the whole parse: symbols,
terminators and dominance, as mlir-opt-19 reports them (found missing by
the differential fuzzer, `verifier/harness/fuzz_syntax.py`).

What is modelled, and when `resolve.verify` runs it (mlir-opt-19's order):

- on an op's entrance: a known symbol op (`func.func`, `gpu.module`)
  directly in a registered op that is not a symbol table (`symbol's parent
  must have the SymbolTable trait`; an unregistered parent might be one, so
  it is not checked), a function declaration that is public (`symbol
  declaration cannot have public visibility`), then the blocks of its
  regions: a registered op other than a module needs a terminator at the
  end of each block (`block with no terminator, has OP`, at that last op;
  an empty block is `empty block: expect at least a terminator`, at the
  op); an unregistered op only when a region has several blocks; an
  unregistered last op might be a terminator and is accepted;
- on a symbol table's exit (a module, `gpu.module`; the implicit top-level
  module last): two ops of its block with the same `sym_name`
  (`redefinition of symbol named 'S'`, at the second), then every
  `func.call` nested in it but not in a nested symbol table: its callee
  must be a `func.func` with the call's operand and result types;
- on an isolated op's exit (after the above), and for the top level last:
  SSA dominance (`dominance_error`): in a registered op's region a use must
  be dominated by its definition (same block: defined before; other
  blocks: the dominator tree; a use inside the defining op itself never
  is); regions of `builtin.module` and of unregistered ops are graph
  regions, where any order in a block is fine; ops of unreachable blocks
  are not checked.

Each error carries mlir-opt's `see current operation` note (the op in
generic form, numbered from its isolated-from-above scope).
"""

from __future__ import annotations

from spec import registry
from spec.attributes import FunctionType, StringAttr, SymbolRefAttr, Type, TypeAttr
from spec.diagnostics import Diagnostic, DiagnosticError, error, note
from spec.dominance import BlockDominance
from spec.invariant import InternalError
from spec.ir import Block, Operation, Region, Value
from spec.syntax.printer import Printer


def generic_text(op: Operation) -> str:
    """`op` in generic form, numbered from its isolated-from-above scope."""
    scope = op
    while not registry.lookup(scope.name).isolated and scope.parent_op is not None:
        scope = scope.parent_op
    printer = Printer(generic=True)
    printer.number(scope)
    return printer.op(op)


def current_op_note(op: Operation) -> Diagnostic:
    text = generic_text(op)
    sep = "\n" if "\n" in text else ""
    return note(op.loc, f"see current operation: {sep}{text}")


def op_diagnostic(op: Operation, message: str, *more: Diagnostic) -> Diagnostic:
    """`emitOpError` as mlir-opt renders it: `'NAME' op MESSAGE` at the op,
    plus the `see current operation` note (the op in generic form, numbered
    from its isolated-from-above scope in the IR's current state, so a pass
    that reports it shows what it had rewritten so far)."""
    return error(op.loc, f"'{op.name}' op {message}", current_op_note(op), *more)


def op_error(op: Operation, message: str, *more: Diagnostic) -> DiagnosticError:
    """`op_diagnostic` raised as the parser's verifier raises it."""
    return DiagnosticError(op_diagnostic(op, message, *more))


# -- on entrance -------------------------------------------------------------------


def check_on_entrance(op: Operation, info: registry.OpInfo) -> None:
    """Symbol placement, public declarations, a module's discardable
    attribute names, index counts, terminators (see module doc)."""
    if info.indexed_memref is not None:
        _check_index_count(op, *info.indexed_memref)
    if info.top_level:
        bare = next((k for k in op.attributes if "." not in k), None)
        if bare is not None:
            raise op_error(op, f"can only contain attributes with dialect-prefixed names, found: '{bare}'")
    if info.symbol and not info.parents:
        parent = op.parent_op
        if parent is not None and not registry.lookup(parent.name).symbol_table and registry.lookup(parent.name).known:
            raise op_error(op, "symbol's parent must have the SymbolTable trait")
        if info.function == "host" and not (op.regions and op.regions[0].blocks):
            vis = op.properties.get("sym_visibility")
            if not isinstance(vis, StringAttr) or vis.value == "public":
                raise op_error(op, "symbol declaration cannot have public visibility")
    if not op.regions or info.no_terminator:
        return
    for region in op.regions:
        if not info.known and len(region.blocks) < 2:
            continue
        for block in region.blocks:
            if not block.ops:
                raise DiagnosticError(error(op.loc, "empty block: expect at least a terminator"))
            last = block.ops[-1]
            last_info = registry.lookup(last.name)
            if last_info.known and not last_info.terminator:
                raise DiagnosticError(
                    error(last.loc, f"block with no terminator, has {generic_text(last)}", current_op_note(last))
                )


_RANKS: dict[Type, int] = {}
"""The rank of each memref type met (types are immutable: a program loads
and stores through a few types many times)."""


def _check_index_count(op: Operation, at: int, message: str) -> None:
    """The indices after the memref operand must be as many as its rank."""
    if len(op.operands) <= at:
        return
    t = getattr(op.operands[at], "type", None)
    if not isinstance(t, Type) or not t.text.startswith("memref<") or t.text.startswith("memref<*"):
        return  # unranked, or not a memref (the type checks report that)
    rank = _RANKS.get(t)
    if rank is None:
        rank = len(t.memref_shape())
        if len(_RANKS) < 4096:
            _RANKS[t] = rank
    count = len(op.operands) - at - 1
    if count != rank:
        raise op_error(op, message.format(rank=rank, count=count))


# -- symbol tables -----------------------------------------------------------------


def _sym_name(op: Operation) -> str | None:
    v = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return v.value if isinstance(v, StringAttr) else None


def check_symbol_table(ops: list[Operation]) -> None:
    """A symbol table's block (`ops`): duplicate symbols, then the calls
    nested in it (see module doc)."""
    table: dict[str, Operation] = {}
    for op in ops:
        name = _sym_name(op)
        if name is None:
            continue
        if name in table:
            raise DiagnosticError(
                error(
                    op.loc,
                    f"redefinition of symbol named '{name}'",
                    current_op_note(op),
                    note(table[name].loc, "see existing symbol definition here"),
                )
            )
        table[name] = op
    pending = [op for op in reversed(ops)]
    lookup = registry.lookup
    while pending:
        op = pending.pop()
        if registry.lookup(op.name).callee:
            _check_call(op, table)
        # Only an op with regions can hold calls (or a nested table).
        if not op.regions or lookup(op.name).symbol_table:
            continue
        for region in reversed(op.regions):
            for block in reversed(region.blocks):
                pending.extend(reversed(block.ops))


def _lookup(ref: SymbolRefAttr, table: dict[str, Operation]) -> Operation | None:
    found = table.get(ref.root)
    for name in ref.nested:
        if (
            found is None
            or not registry.lookup(found.name).symbol_table
            or not found.regions
            or not found.regions[0].blocks
        ):
            return None
        found = next((o for o in found.regions[0].blocks[0].ops if _sym_name(o) == name), None)
    return found


symbol_name_of = _sym_name
"""The `sym_name` of a symbol op, or None (for `spec.syntax.op_verifiers`)."""
symbol_lookup = _lookup
"""A symbol reference resolved in a symbol table's block (`table`: its
symbols by name), nested references through nested tables; or None."""


def _check_call(call: Operation, table: dict[str, Operation]) -> None:
    ref = call.properties.get("callee")
    if not isinstance(ref, SymbolRefAttr):
        return
    callee = _lookup(ref, table)
    kind = registry.lookup(call.name).callee
    what = "async function" if registry.function_kind(kind) == "async" else "function"
    fn = callee.properties.get("function_type") if callee is not None and callee.name == kind else None
    if not isinstance(fn, TypeAttr) or not isinstance(fn.type, FunctionType):
        shown = ref.root if not ref.nested else str(ref)
        raise op_error(call, f"'{shown}' does not reference a valid {what}")
    ftype = fn.type
    if len(ftype.inputs) != len(call.operands):
        raise op_error(call, "incorrect number of operands for callee")
    for i, (want, v) in enumerate(zip(ftype.inputs, call.operands, strict=True)):
        if isinstance(v, Value) and v.type != want:
            raise op_error(
                call,
                f"operand type mismatch: expected operand type '{want}', but provided '{v.type}' for operand number {i}",
            )
    if len(ftype.results) != len(call.results):
        raise op_error(call, "incorrect number of results for callee")
    for i, (want, r) in enumerate(zip(ftype.results, call.results, strict=True)):
        if r.type != want:
            got = ", ".join(f"'{x.type}'" for x in call.results)
            exp = ", ".join(f"'{t}'" for t in ftype.results)
            raise op_error(
                call,
                f"result type mismatch at index {i}",
                note(call.loc, f"      op result types: {got}"),
                note(call.loc, f"function result types: {exp}"),
            )


# -- dominance ---------------------------------------------------------------------


def graph_region(region: Region) -> bool:
    """Regions without SSA dominance: those of `builtin.module` and of ops
    the registry does not know."""
    parent = region.parent
    return parent is not None and (registry.is_top_level(parent.name) or not registry.lookup(parent.name).known)


def region_of(v: Value) -> Region | None:
    owner = v.owner
    block = owner if isinstance(owner, Block) else owner.parent if isinstance(owner, Operation) else None
    return block.parent if block is not None else None


def region_contains(outer: Region, inner: Region | None) -> bool:
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


def _relation(use_region: Region | None, def_region: Region | None, same_block: bool, kind: str) -> str:
    if same_block:
        return f"{kind} the same block"
    if use_region is def_region:
        return f"{kind} the same region"
    if def_region is not None and use_region is not None:
        if region_contains(def_region, use_region):
            return f"{kind} a parent region"
        if region_contains(use_region, def_region):
            return f"{kind} a child region"
    return (
        "neither in a parent nor in a child region"
        if kind == "in"
        else "op is neither in a parent nor in a child region"
    )


def isolated(op: Operation) -> bool:
    return registry.lookup(op.name).isolated and bool(op.regions)


class Dominance:
    """Dominance queries over the regions of one verification (cached CFGs)."""

    def __init__(self) -> None:
        self.cfg: dict[Region, BlockDominance] = {}
        self.positions: dict[int, dict[int, int]] = {}
        """Per block (by id), each op's index: `list.index` per use made
        the check quadratic in a block's length (3.3 s of 7.6 s on 5,000 ops)."""
        self.pairs: dict[tuple[int, int], bool | tuple[Operation, bool]] = {}
        """(`id` of a user's block, `id` of another block a definition is
        in) -> `block_pair` (the IR holds both blocks: no id is reused)."""

    def position(self, op: Operation) -> int:
        block = op.parent
        if block is None:
            raise InternalError("spec.syntax.structure: expected block is not None")
        table = self.positions.get(id(block))
        if table is None:
            table = self.positions[id(block)] = {id(o): k for k, o in enumerate(block.ops)}
        return table[id(op)]

    def first_error(self, roots: list[Operation]) -> Diagnostic | None:
        """The first use not dominated by its definition in the regions of
        `roots` and the ops nested in them, not entering isolated ops (they
        are checked on their own), in mlir-opt-19's order."""
        worklist = list(reversed(roots))
        while worklist:
            cur = worklist.pop()
            for region in cur.regions:
                graph = graph_region(region)
                for block in region.blocks:
                    reachable = self.reachable(block)
                    # The ops of this block before `inner`, by id. Most
                    # operands are results of an op of the user's own block:
                    # then `dominates` comes down to "defined before it" (or
                    # a graph region, where any op but the user itself
                    # will do), answered here without its walk up the tree.
                    before: set[int] = set()
                    for inner in block.ops:
                        if reachable:
                            for k, v in enumerate(inner.operands):
                                if not isinstance(v, Value):
                                    continue
                                owner = v.owner
                                if owner is block:
                                    ok = True  # an argument of the user's block
                                elif isinstance(owner, Operation) and owner.parent is block:
                                    ok = id(owner) in before or (graph and owner is not inner)
                                elif isinstance(owner, Block) or (isinstance(owner, Operation) and owner.parent):
                                    ok = self.dominates_from(v, owner, block)
                                else:
                                    ok = self.dominates(v, inner)
                                if not ok:
                                    return dominance_diag(inner, k, v)
                        before.add(id(inner))
                        if inner.regions and not isolated(inner):
                            worklist.append(inner)
        return None

    def dominates(self, v: Value, user: Operation) -> bool:
        region = region_of(v)
        if region is None:
            return False
        anc = _ancestor_in(region, user)
        if anc is None or anc.parent is None:
            return False
        owner = v.owner
        if isinstance(owner, Block):
            return self.block_dominates(owner, anc.parent)
        if not (isinstance(owner, Operation) and owner.parent is not None):
            raise InternalError(
                "spec.syntax.structure: expected isinstance(owner, Operation) and owner.parent is not None"
            )
        graph = graph_region(region)
        if anc is owner:
            # A use nested in the defining op itself.
            return graph and user is not owner
        if owner.parent is anc.parent:
            return graph or self.position(owner) < self.position(anc)
        return self.block_dominates(owner.parent, anc.parent)

    def dominates_from(self, v: Value, owner: Block | Operation, ublock: Block) -> bool:
        """`dominates(v, user)` for a user in block `ublock` and `v` defined
        in another block (an argument of `owner`, or a result of `owner`,
        an op in a block): the same answer, from `block_pair`."""
        dblock = owner if isinstance(owner, Block) else owner.parent
        if dblock is None:
            raise InternalError("spec.syntax.structure: expected a defining op in a block")
        key = (id(ublock), id(dblock))
        rel = self.pairs.get(key)
        if rel is None:
            rel = self.pairs[key] = self.block_pair(ublock, dblock)
        if isinstance(rel, bool):
            return rel
        anc, graph = rel
        if isinstance(owner, Block):
            return True
        if owner is anc:
            return graph
        return graph or self.position(owner) < self.position(anc)

    def block_pair(self, ublock: Block, dblock: Block) -> bool | tuple[Operation, bool]:
        """What `dominates` finds for any user in `ublock` of a value
        defined in another block `dblock`, which depends on the user's
        block only: whether the definition dominates; or, when `dblock`
        holds `ublock` (at any depth), the op of `dblock` around `ublock`
        and whether `dblock`'s region is a graph region, for the defining
        op's position to decide."""
        region = dblock.parent
        if region is None:
            return False
        if ublock.parent is region:
            return self.block_dominates(dblock, ublock)
        holder = ublock.parent_op
        anc = _ancestor_in(region, holder) if holder is not None else None
        if anc is None or anc.parent is None:
            return False
        if anc.parent is dblock:
            return anc, graph_region(region)
        return self.block_dominates(dblock, anc.parent)

    def reachable(self, block: Block) -> bool:
        region = block.parent
        if region is None or region.blocks[0] is block:
            return True
        return self.dominance(region).reachable(block)

    def block_dominates(self, a: Block, b: Block) -> bool:
        if a is b:
            return True
        region = a.parent
        if region is None:
            raise InternalError("spec.syntax.structure: expected region is not None")
        return self.dominance(region).dominates(a, b)

    def dominance(self, region: Region) -> BlockDominance:
        found = self.cfg.get(region)
        if found is None:
            found = self.cfg[region] = BlockDominance(region)
        return found


def dominance_diag(user: Operation, index: int, v: Value) -> Diagnostic:
    """`operand #N does not dominate this use` at the user (no `'OP' op`
    prefix), the `see current operation` note, and where the operand is
    defined, saying how the two regions relate."""
    owner = v.owner
    use_region = user.parent.parent if user.parent else None
    if isinstance(owner, Operation):
        def_region = owner.parent.parent if owner.parent else None
        rel = _relation(use_region, def_region, user.parent is owner.parent, "op in")
        more = note(owner.loc, f"operand defined here ({rel})")
    else:
        if not isinstance(owner, Block):
            raise InternalError("spec.syntax.structure: expected isinstance(owner, Block)")
        def_region = owner.parent
        index_of = def_region.blocks.index(owner) if def_region is not None else 0
        rel = _relation(use_region, def_region, False, "in")
        holder = owner.parent_op
        more = note(
            holder.loc if holder is not None else user.loc,
            f"operand defined as a block argument (block #{index_of} {rel})",
        )
    return error(user.loc, f"operand #{index} does not dominate this use", current_op_note(user), more)
