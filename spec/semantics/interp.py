"""Concrete interpretation of host code: values, buffers, ops, threads.

This module is the *sequential* half of the executable semantics (docs/design.md
section 4): what one op does to concrete values and buffers, and how one
thread walks its code (`scf`/`cf` control flow, `scf.index_switch`,
`memref.alloca_scope`, `affine.for`/`affine.if` with their maps and integer
sets evaluated, `cf.switch`; region frames, block arguments). `affine.load`,
`affine.store` and `affine.apply` apply their map to their operands. It knows nothing about schedules; `spec.semantics.schedule`
drives threads and GPU ops step by step and decides who moves next.

Runtime values and memory are in `spec.semantics.values` (integers, floats,
`View`s over `Buffer`s, `Token`s, `AsyncValue`s, `Group`s), and what pure
ops compute in `spec.semantics.pure_ops`; this module re-exports their public
names, so `spec.semantics.interp` stays the one import path for the
sequential semantics.

Threads run *invisible* ops (pure arithmetic, views, control flow, `gpu.wait
async` joins) eagerly and stop in front of every *visible* op (`is_visible`):
effectful host ops, GPU ops, and the synchronization ops. Visible ops are the
scheduler's steps.

Programs the interpreter cannot run get a diagnostic from `check_supported`
before anything runs; faults of a running program (out-of-bounds access, a
failed `cf.assert`, division by zero, use after free, the step limit) raise
`Fault`, which the scheduler records as an observation.

Per-op dispatch: how a thread runs each op it walks. `CONTROL` and
`HOST_OPS` list the ops this interpreter has code for, and `Thread`
dispatches on the op's name where each op needs code of its own (an
`scf.for`'s bounds are operands, an `affine.for`'s maps); what an op *is*
(a loop, a region op that runs once, a terminator that yields) is the
registry's word.
"""

from __future__ import annotations

from spec import registry
from spec.attributes import DenseArrayAttr, FloatAttr, IntegerAttr, SymbolRefAttr
from spec.diagnostics import DiagnosticError, error
from spec.ir import Block, Operation, Value
from spec.semantics.pure_ops import CMPF, CMPI, K_DYNAMIC, eval_pure
from spec.semantics.values import (
    AsyncValue,
    Buffer,
    Fault,
    Group,
    Producer,
    Token,
    View,
    element,
    element_type,
    fresh_buffer,
    kernel_mix,
    render_value,
    round_float,
    row_major,
    stable_hash,
    unsigned,
    wrap,
)
from spec.syntax import affine

__all__ = [
    # defined here
    "DEFAULT_DYNAMIC_DIM",
    "DEFAULT_INDEX",
    "GPU_OPS",
    "HOST_OPS",
    "HOST_EFFECTS",
    "SYNC_STEPS",
    "PURE_EXTRA",
    "CONTROL",
    "is_visible",
    "is_effectful_event",
    "check_supported",
    "gpu_deps",
    "segment",
    "kernel_name",
    "Frame",
    "MAX_OPS",
    "Thread",
    "free_values",
    "default_args",
    # from spec.semantics.values
    "Fault",
    "Buffer",
    "View",
    "row_major",
    "Producer",
    "Token",
    "AsyncValue",
    "Group",
    "render_value",
    "element_type",
    "wrap",
    "unsigned",
    "round_float",
    "element",
    "fresh_buffer",
    "kernel_mix",
    "stable_hash",
    # from spec.semantics.pure_ops
    "K_DYNAMIC",
    "CMPI",
    "CMPF",
    "eval_pure",
]

DEFAULT_DYNAMIC_DIM = 4
"""Size given to a `?` dimension of a memref argument with no explicit value."""
DEFAULT_INDEX = 2
"""Default value of an `index` (and integer) argument: small, so loops run."""


# -- which ops do what ----------------------------------------------------------

GPU_OPS = frozenset(n for n in registry.gpu_work_ops() if registry.lookup(n).library_form is None)
"""GPU ops with a start and a finish that the interpreter runs: the
registry's GPU work ops but the library ops (`gpu.wait` only synchronizes)."""

HOST_OPS = frozenset(
    {
        "memref.load",
        "memref.store",
        "memref.copy",
        "memref.alloc",
        "memref.alloca",
        "memref.dealloc",
        "func.call",
        "cf.assert",
    }
    | {"memref.dim", "memref.cast", "memref.subview", "async.create_group", "async.add_to_group"}
    | {"affine.load", "affine.store", "affine.apply"}
)
"""The host ops besides `arith` and the synchronization ops that this
interpreter has code for (`step_effects`, `Thread`). Which of them are
effectful is the registry's word, not this list's (`HOST_EFFECTS`)."""
CONTROL = frozenset(
    {
        "scf.for",
        "scf.if",
        "scf.while",
        "scf.parallel",
        "scf.execute_region",
        "scf.yield",
        "scf.condition",
        "scf.reduce",
        "cf.br",
        "cf.cond_br",
        "builtin.module",
    }
    | {
        "scf.index_switch",
        "memref.alloca_scope",
        "memref.alloca_scope.return",
        "cf.switch",
        "affine.for",
        "affine.if",
        "affine.yield",
    }
)
"""The ops whose regions or successors `Thread` walks (control flow, not
steps): what this interpreter implements, the registry says nothing here.
`memref.alloca_scope` runs as `scf.execute_region` does (its allocas are
not freed at its end); `affine.for` bounds are the max (lower) and min
(upper) of their maps' results, its step a constant."""


def _effectful(name: str) -> bool:
    """The registry's effects: declared (read, write, alloc, free) or none
    declared at all (no effects interface: anything may happen)."""
    effects = registry.lookup(name).effects
    return effects is None or bool(effects)


SYNC_STEPS = frozenset(
    n
    for n in registry.known_ops()
    if registry.sync_kind(n) in ("wait", "wait_group", "thread") and not registry.is_gpu_async(n)
) | frozenset(n for n in registry.known_ops() if registry.is_function_return(n))
"""Steps that wait, begin or complete a thread, or return from the function
(the registry's `sync` facts; a blocking `gpu.wait` is a step of its own)."""
HOST_EFFECTS = frozenset(n for n in HOST_OPS if not registry.sync_kind(n) and _effectful(n))
"""The effectful host ops the interpreter runs: each one a step."""
PURE_EXTRA = HOST_OPS - HOST_EFFECTS
"""The other host ops it runs, eagerly (views, shapes, gathering tokens)."""


def is_visible(op: Operation) -> bool:
    """A scheduling point: an effectful host op, a GPU op, a blocking wait, or
    an async op that creates, completes or waits for a thread."""
    name = op.name
    if name in GPU_OPS or name in HOST_EFFECTS or name in SYNC_STEPS:
        return True
    if registry.is_gpu_wait(name):
        return not op.results and bool(op.operands)
    return False


def is_effectful_event(op: Operation) -> bool:
    """docs/design.md's effectful events: GPU ops other than `gpu.wait`, host ops
    with memory effects, and `func.return`."""
    return op.name in GPU_OPS or op.name in HOST_EFFECTS or registry.is_function_return(op.name)


def check_supported(func: Operation) -> None:
    """Raise a diagnostic for the first op of `func` the interpreter cannot run."""
    for op in func.nested_ops():
        name = op.name
        if name.startswith("arith.") and registry.is_known(name) and name != "arith.bitcast":
            if name == "arith.constant" and not isinstance(op.properties.get("value"), (IntegerAttr, FloatAttr)):
                raise DiagnosticError(
                    error(op.loc, "'arith.constant' op: only scalar integer and float constants can be interpreted")
                )
            continue
        if (
            name in GPU_OPS
            or name in HOST_EFFECTS
            or name in SYNC_STEPS
            or name in PURE_EXTRA
            or name in CONTROL
            or registry.is_gpu_wait(name)
        ):
            if name == "scf.parallel" and op.results:
                raise DiagnosticError(error(op.loc, "'scf.parallel' op with reductions cannot be interpreted"))
            if name == "scf.reduce" and (op.operands or op.regions):
                raise DiagnosticError(error(op.loc, "'scf.reduce' op with operands cannot be interpreted"))
            if name in (
                "cf.switch",
                "affine.for",
                "affine.if",
                "scf.index_switch",
                "affine.load",
                "affine.store",
                "affine.apply",
            ):
                why = _unsupported_control(op)
                if why:
                    raise DiagnosticError(error(op.loc, f"'{name}' op {why}"))
            continue
        if op.parent_op is not None and registry.is_top_level(op.parent_op.name) and op.parent_op is not func:
            continue
        raise DiagnosticError(error(op.loc, f"'{name}' op is not supported by the interpreter"))


def _unsupported_control(op: Operation) -> str:
    """Why the interpreter cannot run this `cf.switch`, `scf.index_switch`,
    `affine.for` or `affine.if` ("" if it can)."""
    try:
        if op.name == "cf.switch":
            values = switch_values(op)
            counts = op.properties.get("case_operand_segments")
            n = len(counts.ints) if isinstance(counts, DenseArrayAttr) else 0
            if len(values) != n or len(op.successors) != n + 1:
                return "with case values that do not match its successors cannot be interpreted"
        elif op.name == "scf.index_switch":
            cases = op.properties.get("cases")
            if not isinstance(cases, DenseArrayAttr) or len(cases.ints) != len(op.regions) - 1:
                return "with cases that do not match its regions cannot be interpreted"
        elif op.name in ("affine.load", "affine.store", "affine.apply"):
            m = _affine_map(op, "map")
            if len(op.operands) - (op.name != "affine.apply") - (op.name == "affine.store") != m.dims + m.syms:
                return "with operands that do not match its map cannot be interpreted"
        elif op.name == "affine.for":
            lb, ub = _affine_map(op, "lowerBoundMap"), _affine_map(op, "upperBoundMap")
            if not lb.results or not ub.results:
                return "with an empty bound map cannot be interpreted"
            if len(segment(op, 0)) != lb.dims + lb.syms or len(segment(op, 1)) != ub.dims + ub.syms:
                return "with bound operands that do not match its maps cannot be interpreted"
            if not isinstance(op.properties.get("step"), IntegerAttr):
                return "without a constant step cannot be interpreted"
        else:
            s = _affine_set(op)
            if len(op.operands) != s.dims + s.syms:
                return "with operands that do not match its integer set cannot be interpreted"
    except (ValueError, KeyError) as exc:
        return f"cannot be interpreted ({exc})"
    return ""


def switch_values(op: Operation) -> list[int]:
    """The case values of a `cf.switch` (`dense<[1, 2]> : vector<2xi32>`)."""
    from spec.dialects.cf.syntax import switch_case_values

    return switch_case_values(op.properties.get("case_values"))


def _affine_map(op: Operation, key: str) -> affine.AffineMap:
    text = str(op.properties.get(key, op.attributes.get(key, "")))
    if not text.startswith("affine_map<"):
        raise ValueError(f"'{key}' is not an affine map")
    return affine.parse_map(text[11:-1])


def _affine_set(op: Operation) -> affine.IntegerSet:
    text = str(op.attributes.get("condition", op.properties.get("condition", "")))
    if not text.startswith("affine_set<"):
        raise ValueError("'condition' is not an integer set")
    return affine.parse_set(text[11:-1])


def affine_eval(e: affine.Expr, dims: list[int], syms: list[int], op: Operation | None = None) -> int:
    """The value of an affine expression at `dims` and `syms`."""
    k = e.kind
    if k == "const":
        return e.value
    if k == "dim":
        return dims[e.value]
    if k == "sym":
        return syms[e.value]
    a = affine_eval(e.lhs, dims, syms, op)  # type: ignore[arg-type]  # a binary expr: lhs and rhs are set
    b = affine_eval(e.rhs, dims, syms, op)  # type: ignore[arg-type]  # as above
    if k == "add":
        return a + b
    if k == "mul":
        return a * b
    if b == 0:
        raise Fault(op, f"affine {k} by zero")
    if k == "floordiv":
        return a // b
    if k == "ceildiv":
        return -((-a) // b)
    if k == "mod":
        return a % abs(b)
    raise Fault(op, f"affine expression '{k}' cannot be interpreted")


def _map_values(m: affine.AffineMap, operands: list, op: Operation) -> list[int]:
    return [affine_eval(e, operands[: m.dims], operands[m.dims :], op) for e in m.results]


def affine_access(op: Operation, vals: list) -> tuple[object, View, list[int]]:
    """The stored value (None for a load), the memref and the indices of an
    `affine.load`/`affine.store` from its operand values (its map applied)."""
    stored, vals = (vals[0], vals[1:]) if op.name == "affine.store" else (None, vals)
    view, *mops = vals
    return stored, view, _map_values(_affine_map(op, "map"), mops, op)


def gpu_deps(op: Operation) -> list[Value]:
    """The `[deps]` operands of a GPU async op (the registry's layout)."""
    start, end = registry.async_dependency_span(op)
    return op.operands[start:end]


def segment(op: Operation, index: int) -> list[Value]:
    sizes = op.properties.get("operandSegmentSizes")
    if not isinstance(sizes, DenseArrayAttr):
        return []
    start = sum(sizes.ints[:index])
    return op.operands[start : start + sizes.ints[index]]


def kernel_name(op: Operation) -> str:
    k = op.properties.get("kernel")
    return str(k) if isinstance(k, SymbolRefAttr) else "?"


# -- threads ------------------------------------------------------------------


class Frame:
    """Where a thread is in one region: block, op index, and the region op
    that owns it with its iteration state."""

    __slots__ = ("block", "pos", "op", "state")

    def __init__(self, block: Block, op: Operation | None, state: object = None) -> None:
        self.block = block
        self.pos = 0
        self.op = op
        self.state = state


MAX_OPS = 1_000_000
"""Ops one run may execute before it is cut off (a `Fault`): `scf.while`
loops with data-dependent conditions may not terminate."""


class Thread:
    """One host thread's code position and SSA environment.

    `advance` executes invisible ops until the next visible op (`current`) or
    the end; the scheduler executes the visible op and calls `proceed`."""

    def __init__(self, name: str, block: Block, env: dict[Value, object], budget: list[int]) -> None:
        self.name = name
        self.env = env
        self.frames: list[Frame] = [Frame(block, None)]
        self.counts: dict[int, int] = {}
        self.budget = budget
        """Shared one-element counter of ops left in this run."""

    def current(self) -> Operation | None:
        if not self.frames:
            return None
        f = self.frames[-1]
        return f.block.ops[f.pos]

    def get(self, v: Value) -> object:
        try:
            return self.env[v]
        except KeyError:
            raise Fault(None, f"value {v.hint or '?'} used before it is defined") from None

    def operands(self, op: Operation) -> list:
        env = self.env
        return [env[v] if v in env else self.get(v) for v in op.operands]

    def set_results(self, op: Operation, values: list) -> None:
        for r, v in zip(op.results, values):
            self.env[r] = v

    def proceed(self) -> None:
        """Move past the visible op just executed, then run to the next one."""
        self.frames[-1].pos += 1
        self.advance()

    def finish(self) -> None:
        self.frames.clear()

    def _enter(self, region_block: Block, op: Operation | None, state: object, args: list) -> None:
        f = Frame(region_block, op, state)
        for a, v in zip(region_block.args, args):
            self.env[a] = v
        self.frames.append(f)

    def _leave(self, results: list) -> None:
        f = self.frames.pop()
        if f.op is not None:
            self.set_results(f.op, results)
        self.frames[-1].pos += 1

    def advance(self) -> None:
        """Run invisible ops until a visible op is current or the thread ends."""
        frames = self.frames
        env = self.env
        budget = self.budget
        while frames:
            f = frames[-1]
            if f.pos >= len(f.block.ops):
                raise Fault(f.op, "block without terminator")
            op = f.block.ops[f.pos]
            budget[0] -= 1
            if budget[0] < 0:
                raise Fault(op, f"step limit of {MAX_OPS} ops reached (non-terminating loop?)")
            name = op.name
            if is_visible(op):
                return
            if name.startswith("arith.") or name in ("memref.dim", "memref.cast", "memref.subview"):
                vals = eval_pure(op, [env[v] if v in env else self.get(v) for v in op.operands])
                for r, v in zip(op.results, vals):
                    env[r] = v
                f.pos += 1
            elif registry.is_gpu_wait(name):
                if op.results:
                    deps = self.operands(op)
                    env[op.results[0]] = Token(tuple({p: None for d in deps for p in d.producers}))
                f.pos += 1
            elif name == "async.create_group":
                (size,) = self.operands(op)
                env[op.results[0]] = Group(size=int(size))
                f.pos += 1
            elif name == "async.add_to_group":
                tok, grp = self.operands(op)
                grp.tokens.append(tok)
                env[op.results[0]] = len(grp.tokens) - 1
                f.pos += 1
            elif name == "affine.apply":
                env[op.results[0]] = _map_values(_affine_map(op, "map"), self.operands(op), op)[0]
                f.pos += 1
            elif registry.is_top_level(name):
                f.pos += 1
            else:
                self._control(op, f)

    def _control(self, op: Operation, f: Frame) -> None:  # noqa: C901 - one case per region op the interpreter runs
        name = op.name
        if name == "scf.for":
            lb, ub, step, *inits = self.operands(op)
            if step <= 0:
                raise Fault(op, "scf.for step must be positive")
            if lb < ub:
                self._enter(op.regions[0].blocks[0], op, [lb, ub, step], [lb, *inits])
            else:
                self.set_results(op, inits)
                f.pos += 1
        elif name == "scf.if":
            (cond,) = self.operands(op)
            region = op.regions[0] if cond else op.regions[1]
            if region.blocks:
                self._enter(region.blocks[0], op, None, [])
            else:
                f.pos += 1
        elif registry.region_flow(name) == "once":
            self._enter(op.regions[0].blocks[0], op, None, [])
        elif name == "scf.index_switch":
            (flag,) = self.operands(op)
            cases = op.properties["cases"]
            at = list(cases.ints).index(flag) + 1 if flag in cases.ints else 0  # type: ignore[attr-defined]  # check_supported: a DenseArrayAttr
            self._enter(op.regions[at].blocks[0], op, None, [])
        elif name == "affine.for":
            vals = self.operands(op)
            n_lb, n_ub = len(segment(op, 0)), len(segment(op, 1))
            lb = max(_map_values(_affine_map(op, "lowerBoundMap"), vals[:n_lb], op))
            ub = min(_map_values(_affine_map(op, "upperBoundMap"), vals[n_lb : n_lb + n_ub], op))
            step = op.properties["step"].value  # type: ignore[attr-defined]  # check_supported: an IntegerAttr
            inits = vals[n_lb + n_ub :]
            if step <= 0:
                raise Fault(op, "affine.for step must be positive")
            if lb < ub:
                self._enter(op.regions[0].blocks[0], op, [lb, ub, step], [lb, *inits])
            else:
                self.set_results(op, inits)
                f.pos += 1
        elif name == "affine.if":
            s = _affine_set(op)
            vals = self.operands(op)
            dims, syms = vals[: s.dims], vals[s.dims :]
            holds = all(
                (affine_eval(e, dims, syms, op) == 0) if eq else (affine_eval(e, dims, syms, op) >= 0)
                for e, eq in s.constraints
            )
            region = op.regions[0] if holds else op.regions[1]
            if region.blocks:
                self._enter(region.blocks[0], op, None, [])
            else:
                f.pos += 1
        elif name == "scf.while":
            self._enter(op.regions[0].blocks[0], op, "before", self.operands(op))
        elif name == "scf.parallel":
            vals = self.operands(op)
            k = len(vals) // 3
            lbs, ubs, steps = vals[:k], vals[k : 2 * k], vals[2 * k :]
            if any(s <= 0 for s in steps):
                raise Fault(op, "scf.parallel step must be positive")
            points: list[list[int]] = [[]]
            for lb, ub, st in zip(lbs, ubs, steps):
                points = [p + [i] for p in points for i in range(lb, ub, st)]
            it = iter(points)
            first = next(it, None)
            if first is None:
                f.pos += 1
            else:
                self._enter(op.regions[0].blocks[0], op, it, first)
        elif registry.yields_to_parent(name):
            self._yield(op, f)
        elif name == "scf.condition":
            cond, *vals = self.operands(op)
            loop = f.op
            if cond:
                f.state = "after"
                self._continue_at(f, loop.regions[1].blocks[0], vals)  # type: ignore[union-attr]  # a condition's frame is its scf.while's (f.op set on entry)
            else:
                self._leave(vals)
        elif name == "scf.reduce":
            nxt = next(f.state, None)  # type: ignore[call-overload]  # Frame.state is an object: an scf.reduce's is an iterator
            if nxt is None:
                self._leave([])
            else:
                self._continue_at(f, f.block, nxt)
        elif name in ("cf.br", "cf.cond_br"):
            vals = self.operands(op)
            if name == "cf.br":
                dest, args = op.successors[0], vals
            else:
                n_t = len(segment(op, 1))
                dest, args = (op.successors[0], vals[1 : 1 + n_t]) if vals[0] else (op.successors[1], vals[1 + n_t :])
            self._continue_at(f, dest, args)
        elif name == "cf.switch":
            flag, *rest = self.operands(op)
            n_default = len(segment(op, 1))
            counts = list(op.properties["case_operand_segments"].ints)  # type: ignore[attr-defined]  # check_supported: a DenseArrayAttr
            values = switch_values(op)
            ty = op.operands[0].type
            case = next((i for i, v in enumerate(values) if wrap(v, ty) == wrap(flag, ty)), None)
            if case is None:
                dest, args = op.successors[0], rest[:n_default]
            else:
                at = n_default + sum(counts[:case])
                dest, args = op.successors[case + 1], rest[at : at + counts[case]]
            self._continue_at(f, dest, args)
        else:
            raise Fault(op, f"'{name}' op is not supported by the interpreter")

    def _yield(self, op: Operation, f: Frame) -> None:
        vals = self.operands(op)
        loop = f.op
        if loop is None:
            raise Fault(op, "scf.yield outside a region op")
        flow = registry.region_flow(loop.name)
        if flow == "counted":
            iv: int
            ub: int
            step: int
            iv, ub, step = f.state  # type: ignore[misc]  # Frame.state is an object: an scf.for's is [iv, ub, step]
            iv += step
            if iv < ub:
                f.state = [iv, ub, step]
                self._continue_at(f, f.block, [iv, *vals])
            else:
                self._leave(vals)
        elif flow == "while":
            f.state = "before"
            self._continue_at(f, loop.regions[0].blocks[0], vals)
        else:
            self._leave(vals)

    def _continue_at(self, f: Frame, block: Block, values: list) -> None:
        """Continue frame `f` at the start of `block`, its arguments bound to `values`."""
        f.block = block
        f.pos = 0
        for a, v in zip(block.args, values):
            self.env[a] = v


def free_values(op: Operation) -> list[Value]:
    """Values used inside `op`'s regions but defined outside them (what an
    `async.execute` body captures when it is issued)."""
    defined: set[Value] = set()
    used: dict[Value, None] = {}
    for inner in op.nested_ops():
        for r in inner.results:
            defined.add(r)
        for region in inner.regions:
            for b in region.blocks:
                defined.update(b.args)
        for v in inner.operands:
            used[v] = None
    for region in op.regions:
        for b in region.blocks:
            defined.update(b.args)
    return [v for v in used if v not in defined]


# -- arguments ----------------------------------------------------------------


def default_args(
    func: Operation, overrides: dict[str, object] | None = None, flags: dict[int, int] | None = None
) -> list:
    """Concrete arguments for `func`: `overrides` by name (without `%`) or
    position; otherwise index/integers `DEFAULT_INDEX`, floats 1.5, `i1` from
    `flags` (position -> 0/1, default 0), each memref a fresh buffer whose
    `?` dimensions are `DEFAULT_DYNAMIC_DIM` and whose contents are distinct,
    tokens complete, async values unavailable-free (complete, holding 0)."""
    overrides = overrides or {}
    flags = flags or {}
    entry = func.regions[0].blocks[0]
    out: list = []
    for i, a in enumerate(entry.args):
        name = a.hint.lstrip("%")
        given = overrides.get(name, overrides.get(str(i)))
        t = a.type
        if t.is_memref:
            if given is not None:
                raise DiagnosticError(error(a.loc, f"argument '{name}': memref arguments cannot be given a value"))
            shape = tuple(DEFAULT_DYNAMIC_DIM if d is None else d for d in t.memref_shape())
            out.append(fresh_buffer(f"%{name or i}", t, shape, i + 1))
        elif t.is_gpu_token or t.is_async_token:
            out.append(Token())
        elif t.is_async_value:
            done = Producer()
            done.done = True
            done.done_clock = {}
            # A GPU token inside is complete, as a token argument is.
            done.values = [Token() if "!gpu.async.token" in t.text else 0]
            done.failed = False
            out.append(AsyncValue(done, 0))
        elif t.is_float:
            out.append(round_float(float(given) if given is not None else 1.5, t))  # type: ignore[arg-type]  # overrides hold numbers (from the command line); float() of anything else raises, as before
        elif t.is_index or t.int_width is not None:
            if given is None:
                given = flags.get(i, 0) if t.int_width == 1 else DEFAULT_INDEX
            out.append(wrap(int(given), t))  # type: ignore[call-overload]  # as above: int() of a number
        else:
            raise DiagnosticError(error(a.loc, f"argument '{name}' of type '{t}' cannot be interpreted"))
    return out
