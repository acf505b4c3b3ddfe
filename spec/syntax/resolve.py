"""Name resolution and whole-parse structural checks.

The builder records operands as `UseRef` placeholders; `resolve` then walks the
parsed ops in text order with MLIR's scoping rules and binds each to its
value. `verify` then checks what MLIR's verifier finds once the whole text
is parsed (where an op may stand, isolation, what the builder found wrong
with generic ops), in the verifier's order, and what needs the whole parse
(nesting depth, no terminator at the top level). Both are iterative, so
100,000-deep nesting cannot exhaust Python's stack.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from spec import registry
from spec.attributes import (
    FunctionType,
    TypeAttr,
)
from spec.diagnostics import DiagnosticError, error, note
from spec.ir import Block, Location, Operation, Value, outermost
from spec.syntax.build_base import UseRef
from spec.syntax.op_verifiers import check_dialect_attributes, check_on_exit, check_op
from spec.syntax.structure import Dominance, check_on_entrance, check_symbol_table

MAX_NESTING = 1000
"""Regions nested deeper than this are refused with a diagnostic."""


def check_default_dialects(
    top: list[Operation], bare_names: list[tuple[Operation, Location, str]], generic_ops: set[int]
) -> None:
    """A name without a dialect (`call`) is looked up in the default dialect
    of the nearest enclosing op written in its custom form (`func` in a
    `func.func`, `builtin` in a module and at the top level, none in any
    other op); ops in the generic form do not change it. mlir-opt-19 reports
    a name that is not there while it parses, so the first in text order.
    Ops of a parse that was abandoned (not under `top`) are not checked."""
    roots = {id(op) for op in top}
    for op, loc, name in bare_names:
        holder = op.parent_op
        while holder is not None and id(holder) in generic_ops:
            holder = holder.parent_op
        if id(outermost(op)) not in roots:
            continue
        dialect = registry.lookup(holder.name if holder is not None else TOP_LEVEL).default_dialect
        if op.name == f"{dialect}.{name}":
            continue
        if not dialect:
            raise DiagnosticError(error(loc, f"Dialect `' not found for custom op '{name}'  (tried '.{name}' as well)"))
        raise DiagnosticError(error(loc, f"custom op '{name}' is unknown (tried '{dialect}.{name}' as well)"))


TOP_LEVEL = "builtin.module"
"""What holds the top-level ops: the module mlir-opt puts around them."""


class VerifyLater(NamedTuple):
    """What an op failed of MLIR's verifier, found while the op was built
    and reported after the parse (see `verify`), in the order the verifier
    checks it: a generic op's result and operand counts (traits checked
    before `HasParent`), a terminator before the end of its block (the
    `Terminator` trait, after `HasParent`), a generic op's properties, and
    a closed dialect lacking the op (checked once its regions are)."""

    counts: DiagnosticError | None = None
    misplaced: DiagnosticError | None = None
    properties: DiagnosticError | None = None
    unregistered: DiagnosticError | None = None


NOTHING_LATER = VerifyLater()


_Visit = tuple[Operation, registry.OpInfo, str, int, "Operation | None"]
"""An op to verify: its registry entry, its parent's name, its depth (or
`_EXIT`: the op's regions are done, check it on exit) and the nearest
isolated op around it (`None` for none)."""
_EXIT = -1


def verify(top: list[Operation], later: dict[int, VerifyLater], dominance: bool = True) -> None:  # noqa: C901 - the verifier's checks in mlir-opt-19's order
    """MLIR's verifier over the whole parse, reporting its first error, as
    mlir-opt-19 runs it after the parse (observed order):

    - an op is checked on entrance (counts, `HasParent`, a terminator
      before the end of its block, properties, a function's signature),
      then the ops of its regions, then on exit (`IsolatedFromAbove`: a use
      of a value from outside, see `_first_escape`; an op a closed dialect
      does not have);
    - in each block, the ops in text order, but isolated ops (functions,
      modules) after all the others of the block; the top level is the
      implicit module's block.

    Also our own limits: nesting depth, no terminator at the top level.
    `dominance=False` skips SSA dominance: for a rewrite under test, whose
    uses the verifier checks itself and refutes (an ill-formed output is a
    wrong rewrite, not bad input). Iterative, so 100,000-deep nesting cannot exhaust Python's stack."""
    escapes: set[int] = set()
    work: list[_Visit] = []
    _push_block(work, top, TOP_LEVEL, 1, None)
    # Levels count from the module: a file's one explicit top-level module
    # is the implicit one written out (as the printer writes it), so it is
    # not a level of its own and a printed output parses where its input did.
    limit = MAX_NESTING + (1 if len(top) == 1 and registry.is_top_level(top[0].name) else 0)
    while work:
        op, info, parent, depth, iso = work.pop()
        if depth == _EXIT:
            _on_exit(op, info, escapes, later, dominance)
            continue
        if op.__class__ is list:
            # A run of a block's ops (`_push_block`): those without regions
            # are checked here in turn, without a visit each; the first
            # with regions (or every op, when some wait for their exit)
            # goes back as a visit, the rest of the run behind it.
            run: list[tuple[Operation, registry.OpInfo]] = op
            if depth > limit:
                op = run[info][0]
                raise DiagnosticError(
                    error(
                        op.loc,
                        f"regions nested deeper than {MAX_NESTING} levels (counted from the module) are not supported",
                    )
                )
            for at in range(info, len(run)):
                op, op_info = run[at]
                if op.regions or later:
                    if at + 1 < len(run):
                        work.append((run, at + 1, parent, depth, iso))
                    work.append((op, op_info, parent, depth, iso))
                    break
                if (
                    op_info.parents
                    or depth == 1
                    or op.name in _SIGNED
                    or op_info.symbol
                    or op_info.indexed_memref
                    or op_info.verifier
                    or op_info.operand_types
                    or op.attributes
                ):
                    _on_entrance(op, op_info, parent, depth, later)
                if iso is not None and op.operands and id(iso) not in escapes:
                    # `_escapes`' first test, inlined: every operand defined
                    # in the op's own block (the common case) cannot escape.
                    block = op.parent
                    for v in op.operands:
                        owner = v.owner
                        if owner is not block and (owner.__class__ is not Operation or owner.parent is not block):
                            if _escapes(op, iso):
                                escapes.add(id(iso))
                            break
            continue
        if depth > limit:
            raise DiagnosticError(
                error(
                    op.loc,
                    f"regions nested deeper than {MAX_NESTING} levels (counted from the module) are not supported",
                )
            )
        if (
            later
            or info.parents
            or depth == 1
            or op.regions
            or op.name in _SIGNED
            or info.symbol
            or info.indexed_memref
            or info.verifier
            or info.operand_types
            or op.attributes
        ):
            _on_entrance(op, info, parent, depth, later)
        if iso is not None and op.operands and id(iso) not in escapes and _escapes(op, iso):
            escapes.add(id(iso))
        if info.isolated or later:
            work.append((op, info, parent, _EXIT, iso))
        inner = op if info.isolated else iso
        for region in reversed(op.regions):
            for block in reversed(region.blocks):
                _push_block(work, block.ops, op.name, depth + 1, inner)
    # The implicit module around the top-level ops, on its exit.
    if not (len(top) == 1 and registry.is_top_level(top[0].name)):
        check_symbol_table(top)
        found = (
            Dominance().first_error([op for op in top if not registry.lookup(op.name).isolated]) if dominance else None
        )
        if found is not None:
            raise DiagnosticError(found)


def _push_block(work: list[_Visit], ops: list[Operation], parent: str, depth: int, iso: Operation | None) -> None:
    """Queue a block's ops to pop in the verifier's order: the isolated ops
    last (MLIR verifies them when it leaves the block)."""
    isolated: list[_Visit] = []
    others: list[tuple[Operation, registry.OpInfo]] = []
    lookup = registry.lookup
    for o in ops:
        info = lookup(o.name)
        if info.isolated:
            isolated.append((o, info, parent, depth, iso))
        else:
            others.append((o, info))
    work += reversed(isolated)
    if others:
        # One entry for the others, read in turn by `verify`.
        work.append((others, 0, parent, depth, iso))  # type: ignore[arg-type]  # the work list holds both entry shapes (one op's, a run of others'); verify tells them apart


def _on_entrance(op: Operation, info: registry.OpInfo, parent: str, depth: int, later: dict[int, VerifyLater]) -> None:
    if op.attributes:
        # MLIR verifies an op's dialect attributes before the op itself.
        check_dialect_attributes(op)
    failed = later.get(id(op)) if later else None
    if failed is not None and failed.counts is not None:
        raise failed.counts
    if info.parents:
        _check_parent(op, parent, info.parents)
    if failed is not None and failed.misplaced is not None:
        raise failed.misplaced
    if failed is not None and failed.properties is not None:
        raise failed.properties
    if depth == 1 and info.terminator:
        raise DiagnosticError(
            error(op.loc, f"'{op.name}' op is a terminator and cannot appear at the top level of a module")
        )
    if op.name in _SIGNED:
        _check_signature(op)
    check_on_entrance(op, info)
    if info.verifier or info.operand_types:
        check_op(op, info)


_SIGNED = frozenset(n for n in registry.known_ops() if registry.function_kind(n) in ("host", "gpu"))
"""Ops whose entry block must agree with their `function_type`."""


def _on_exit(
    op: Operation, info: registry.OpInfo, escapes: set[int], later: dict[int, VerifyLater], dominance: bool = True
) -> None:
    if info.isolated and id(op) in escapes:
        user = _first_escape(op)
        raise DiagnosticError(error(user.loc, f"'{user.name}' op using value defined outside the region"))
    if info.verifier:
        check_on_exit(op)
    failed = later.get(id(op)) if later else None
    if failed is not None and failed.unregistered is not None:
        raise failed.unregistered
    if info.symbol_table and op.regions and op.regions[0].blocks:
        check_symbol_table(op.regions[0].blocks[0].ops)
    if info.isolated and dominance:
        found = Dominance().first_error([op])
        if found is not None:
            raise DiagnosticError(found)


def _check_parent(op: Operation, parent: str, allowed: tuple[str, ...]) -> None:
    if parent in allowed:
        return
    want = f"'{allowed[0]}'" if len(allowed) == 1 else f"to be one of '{', '.join(allowed)}'"
    raise DiagnosticError(error(op.loc, f"'{op.name}' op expects parent op {want}"))


def _check_signature(op: Operation) -> None:
    fn = op.properties.get("function_type")
    if (
        not isinstance(fn, TypeAttr)
        or not isinstance(fn.type, FunctionType)
        or not op.regions
        or not op.regions[0].blocks
    ):
        return
    args = op.regions[0].blocks[0].args
    for i, (want, arg) in enumerate(zip(fn.type.inputs, args)):
        if arg.type != want:
            raise DiagnosticError(
                error(
                    op.loc,
                    f"'{op.name}' op type of entry block argument #{i}('{arg.type}') must match the type of the "
                    f"corresponding argument in function signature('{want}')",
                )
            )


def resolve_ops(top: list[Operation]) -> bool:  # noqa: C901 - each resolution step over one walk of the ops
    """Replace `UseRef` placeholders by values, in text order, with MLIR's
    scoping: a value is visible from its definition on, in its region and the
    regions nested in it; a name may not be redefined while visible (sibling
    regions, and the enclosing region after a nested one closes, may reuse
    it). An op's results are defined once its regions are read; a use before
    the definition is a forward reference, resolved when the name is defined
    and an error if it never is.

    Returns whether every use is dominated by its definition, as far as
    scoping alone shows it: no forward reference and no region of more than
    one block. Then each use names a value of its own block defined before
    it, an argument of its block, or a value of an enclosing block defined
    before the op holding it (a nested region's names are gone once it
    closes), and every block is an entry block: each dominates the use, and
    `verify` need not walk the uses again (`Dominance`). Otherwise (a
    forward reference, several blocks: a CFG) it returns False and the
    dominance check runs as before."""
    straight = True
    scope: dict[str, Value] = {}
    # Forward references waiting for a definition: name -> [(op, index, use)].
    pending: dict[str, list[tuple[Operation, int, UseRef]]] = {}
    # Each op travels with the name list of its region (dropped when the
    # region closes); top-level names are never dropped.
    top_names: list[str] = []
    # ("ops", (ops, i, names)): the ops of a block from index i on, read in
    # one go up to the next op with regions (which pushes the rest back
    # behind its regions and its results: they come after them in text).
    work: list[tuple[str, Any]] = [("ops", (top, 0, top_names))]
    while work:
        kind, item = work.pop()
        if kind == "leave":
            for name in item:
                scope.pop(name, None)
        elif kind == "block":
            block, defined = item
            named_by_op = not block.label and block.parent is not None and block.parent.blocks[0] is block
            for v in block.args:
                if named_by_op and v.hint in pending:
                    # An argument the op names (a function's, a loop's) cannot
                    # be the definition an earlier use was waiting for.
                    raise DiagnosticError(error(v.loc, f"region entry argument '{v.hint}' is already in use"))
                _define(scope, v, defined, pending)
            work.append(("ops", (block.ops, 0, defined)))
        elif kind == "define":
            op, defined = item
            for v in op.results:
                _define(scope, v, defined, pending)
        else:
            ops, start, defined = item
            for at in range(start, len(ops)):
                op = ops[at]
                operands = op.operands
                for i, u in enumerate(operands):
                    if isinstance(u, UseRef):
                        if not u.number:
                            # `_lookup`'s common case, inlined: defined, and
                            # of the very type the use says (types are shared).
                            v = scope.get(u.name)
                            if v is not None and (u.type is None or v.type is u.type):
                                operands[i] = v
                                continue
                        v = _lookup(scope, u, forward_ok=True)
                        if v is None:
                            straight = False
                            pending.setdefault(_key(u), []).append((op, i, u))
                        else:
                            operands[i] = v
                if not op.regions:
                    for v in op.results:
                        name = v.hint
                        if not pending and name and name not in scope and "#" not in name:
                            # `_define`'s common case, inlined (once per result
                            # of the file): a new plain name, nothing waiting.
                            scope[name] = v
                            defined.append(name)
                        else:
                            _define(scope, v, defined, pending)
                    continue
                work.append(("ops", (ops, at + 1, defined)))
                work.append(("define", (op, defined)))
                for region in reversed(op.regions):
                    if len(region.blocks) > 1:
                        straight = False
                    names: list[str] = []
                    work.append(("leave", names))
                    work.extend(("block", (b, names)) for b in reversed(region.blocks))
                break
    for uses in pending.values():
        raise DiagnosticError(error(uses[0][2].loc, "use of undeclared SSA value name"))
    return straight


def _first_escape(iso: Operation) -> Operation:
    """The op `IsolatedFromAbove`'s check reports of `iso`, which has one:
    it reads a region's ops in order and keeps their regions for later, last
    kept first (so a use directly in a function comes before one nested in
    an op before it), not looking into isolated ops (they check
    themselves). Run only when the verifier's walk found a use."""
    pending = list(iso.regions)
    while pending:
        for block in pending.pop().blocks:
            for op in block.ops:
                if op.operands and _escapes(op, iso):
                    return op
                if op.regions and not registry.lookup(op.name).isolated:
                    pending.extend(op.regions)
    raise AssertionError("no use of a value from outside")


def _escapes(op: Operation, iso: Operation) -> bool:
    """Whether `op` uses a value defined outside `iso`, the nearest isolated
    op around it (MLIR's `IsolatedFromAbove`: names resolve across its
    boundary as anywhere else, and its verifier rejects such a use)."""
    block = op.parent
    for v in op.operands:
        owner = v.owner
        if owner is block or owner.__class__ is Operation and owner.parent is block:
            # Defined in the user's own block (an argument of it, or an op
            # of it): `iso`, the nearest isolated op around the user, is
            # around it too.
            continue
        home = _isolated_home(v)
        while home is not None and home is not iso:
            home = _enclosing_isolated(home)
        if home is not iso:
            return True
    return False


def _isolated_home(v: Value) -> Operation | None:
    """The nearest isolated op whose regions hold `v`'s definition."""
    holder = v.owner.parent_op if isinstance(v.owner, Block) else v.owner
    if holder is None:
        return None
    if isinstance(v.owner, Block) and registry.lookup(holder.name).isolated:
        return holder
    return _enclosing_isolated(holder)


def _enclosing_isolated(op: Operation) -> Operation | None:
    """The nearest isolated op strictly enclosing `op`."""
    p = op.parent_op
    while p is not None and not registry.lookup(p.name).isolated:
        p = p.parent_op
    return p


def _key(u: UseRef) -> str:
    return f"{u.name}#{u.number}" if u.number else u.name


def _define(scope: dict[str, Value], v: Value, defined: list[str], pending: dict[str, list]) -> None:
    name = v.hint
    if name and "#" not in name and name not in scope:
        # The common case, without the list of names below.
        scope[name] = v
        defined.append(name)
        if pending:
            for op, i, u in pending.pop(name, ()):
                op.operands[i] = _lookup(scope, u)
        return
    names = [name]
    if "#" in name and name.endswith("#0"):
        names.append(name[:-2])
    for name in names:
        if not name:
            continue
        if name in scope:
            prev = scope[name]
            raise DiagnosticError(
                error(v.loc, f"redefinition of SSA value '{name}'", note(prev.loc, "previously defined here"))
            )
        scope[name] = v
        defined.append(name)
        for op, i, u in pending.pop(name, []):
            op.operands[i] = _lookup(scope, u)


def _lookup(scope: dict[str, Value], u: UseRef, forward_ok: bool = False) -> Value | None:
    key = _key(u)
    v = scope.get(key)
    if v is None and u.number == 0:
        v = scope.get(f"{u.name}#0")
    if v is None and u.number and (u.name in scope or f"{u.name}#0" in scope):
        raise DiagnosticError(error(u.loc, "reference to invalid result number"))
    if v is None:
        if forward_ok:
            return None
        raise DiagnosticError(error(u.loc, "use of undeclared SSA value name"))
    if u.type is not None and v.type != u.type:
        raise DiagnosticError(
            error(
                u.loc,
                f"use of value '{key}' expects different type than prior uses: '{u.type}' vs '{v.type}'",
                note(v.loc, "prior use here"),
            )
        )
    return v
