"""Name resolution and whole-parse structural checks.

The builder records operands as `_Use` placeholders; `resolve` then walks the
parsed ops in text order with MLIR's scoping rules and binds each to its
value. `check_nesting` checks what needs the whole parse: nesting depth, no
terminator at the top level, entry blocks that agree with signatures. Both
are iterative, so 100,000-deep nesting cannot exhaust Python's stack.
"""

from __future__ import annotations

from typing import Any

from spec import registry
from spec.attributes import (
    FunctionType,
    TypeAttr,
)
from spec.diagnostics import DiagnosticError, error, note
from spec.ir import Block, Location, Operation, Value
from spec.syntax.build_base import _Use

MAX_NESTING = 1000
"""Regions nested deeper than this are refused with a diagnostic."""


def check_default_dialects(top: list[Operation], bare_names: list[tuple[Operation, Location, str]], generic_ops: set[int]) -> None:
    """A name without a dialect (`call`) is looked up in the default dialect
    of the nearest enclosing op written in its custom form (`func` in a
    `func.func`, `builtin` in a module and at the top level, none in any
    other op); ops in the generic form do not change it. mlir-opt-19 reports
    a name that is not there while it parses, so the first in text order.
    Ops of a parse that was abandoned (not under `top`) are not checked."""
    roots = {id(op) for op in top}
    for op, loc, name in bare_names:
        holder, root = op.parent_op, op
        while holder is not None and id(holder) in generic_ops:
            holder = holder.parent_op
        while root.parent_op is not None:
            root = root.parent_op
        if id(root) not in roots:
            continue
        dialect = registry.lookup(holder.name if holder is not None else TOP_LEVEL).default_dialect
        if op.name == f"{dialect}.{name}":
            continue
        if not dialect:
            raise DiagnosticError(error(loc, f"Dialect `' not found for custom op '{name}'  (tried '.{name}' as well)"))
        raise DiagnosticError(error(loc, f"custom op '{name}' is unknown (tried '{dialect}.{name}' as well)"))


TOP_LEVEL = "builtin.module"
"""What holds the top-level ops: the module mlir-opt puts around them."""


def _check_nesting(ops: list[Operation]) -> None:
    """Structural checks over the whole parse, without recursion: nesting
    depth, ops only where their parent may hold them (MLIR's `HasParent`),
    no other terminator at the top level (the module body has none), and a
    function's entry block arguments typed as its signature says."""
    for op in ops:
        info = registry.lookup(op.name)
        if info.parents:
            _check_parent(op, "builtin.module", info.parents)
        if info.terminator:
            raise DiagnosticError(error(op.loc, f"'{op.name}' op is a terminator and cannot appear at the top level of a module"))
    stack = [(op, 1) for op in ops]
    while stack:
        op, depth = stack.pop()
        if depth > MAX_NESTING:
            raise DiagnosticError(error(op.loc, f"regions nested deeper than {MAX_NESTING} levels are not supported"))
        if op.name in ("func.func", "gpu.func"):
            _check_signature(op)
        for region in op.regions:
            for block in region.blocks:
                for o in block.ops:
                    parents = registry.lookup(o.name).parents
                    if parents:
                        _check_parent(o, op.name, parents)
                stack.extend((o, depth + 1) for o in block.ops)


def _check_parent(op: Operation, parent: str, allowed: tuple[str, ...]) -> None:
    if parent in allowed:
        return
    want = f"'{allowed[0]}'" if len(allowed) == 1 else f"to be one of '{', '.join(allowed)}'"
    raise DiagnosticError(error(op.loc, f"'{op.name}' op expects parent op {want}"))


def _check_signature(op: Operation) -> None:
    fn = op.properties.get("function_type")
    if not isinstance(fn, TypeAttr) or not isinstance(fn.type, FunctionType) or not op.regions or not op.regions[0].blocks:
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


def _resolve(top: list[Operation]) -> None:
    """Replace `_Use` placeholders by values, in text order, with MLIR's
    scoping: a value is visible from its definition on, in its region and the
    regions nested in it; a name may not be redefined while visible (sibling
    regions, and the enclosing region after a nested one closes, may reuse
    it). An op's results are defined once its regions are read; a use before
    the definition is a forward reference, resolved when the name is defined
    and an error if it never is."""
    scope: dict[str, Value] = {}
    # Forward references waiting for a definition: name -> [(op, index, use)].
    pending: dict[str, list[tuple[Operation, int, _Use]]] = {}
    # Each op travels with the name list of its region (dropped when the
    # region closes); top-level names are never dropped.
    top_names: list[str] = []
    work: list[tuple[str, Any]] = [("op", (op, top_names)) for op in reversed(top)]
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
            work.extend(("op", (op, defined)) for op in reversed(block.ops))
        elif kind == "define":
            op, defined = item
            for v in op.results:
                _define(scope, v, defined, pending)
        else:
            op, defined = item
            for i, u in enumerate(op.operands):
                if isinstance(u, _Use):
                    v = _lookup(scope, u, forward_ok=True)
                    if v is None:
                        pending.setdefault(_key(u), []).append((op, i, u))
                    else:
                        op.operands[i] = v
            work.append(("define", (op, defined)))
            for region in reversed(op.regions):
                names: list[str] = []
                work.append(("leave", names))
                work.extend(("block", (b, names)) for b in reversed(region.blocks))
    for uses in pending.values():
        raise DiagnosticError(error(uses[0][2].loc, "use of undeclared SSA value name"))
    _check_isolation(top)


def _check_isolation(top: list[Operation]) -> None:
    """MLIR's `IsolatedFromAbove` (functions, modules): names resolve across
    its boundary as anywhere else, and the first op inside (in text order)
    that uses a value from outside is an error, as mlir-opt-19's verifier
    reports it."""
    stack: list[tuple[Operation, Operation | None]] = [(op, None) for op in reversed(top)]
    while stack:
        op, iso = stack.pop()
        if iso is not None:
            for v in op.operands:
                home = _isolated_home(v)
                while home is not None and home is not iso:
                    home = _enclosing_isolated(home)
                if home is not iso:
                    raise DiagnosticError(error(op.loc, f"'{op.name}' op using value defined outside the region"))
        inner = op if registry.lookup(op.name).isolated else iso
        for region in reversed(op.regions):
            for block in reversed(region.blocks):
                stack.extend((o, inner) for o in reversed(block.ops))


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


def _key(u: _Use) -> str:
    return f"{u.name}#{u.number}" if u.number else u.name


def _define(scope: dict[str, Value], v: Value, defined: list[str], pending: dict[str, list]) -> None:
    names = [v.hint]
    if "#" in v.hint and v.hint.endswith("#0"):
        names.append(v.hint[:-2])
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
            op.operands[i] = _lookup(scope, u)  # type: ignore[assignment]


def _lookup(scope: dict[str, Value], u: _Use, forward_ok: bool = False) -> Value | None:
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
