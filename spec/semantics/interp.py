"""Concrete interpretation of host code: values, buffers, ops, threads.

This module is the *sequential* half of the executable semantics (DESIGN.md
section 4): what one op does to concrete values and buffers, and how one
thread walks its code (`scf`/`cf` control flow, region frames, block
arguments). It knows nothing about schedules; `spec.semantics.schedule`
drives threads and GPU ops step by step and decides who moves next.

Runtime values:

- integers and `index`: Python `int`, normalised to their width (`i1` is
  0/1, wider types are two's-complement signed; `index` is 64 bits);
- floats: Python `float`, rounded to `f32`/`f16` when the type says so;
- memrefs: a `View` (buffer, offset, shape, strides) over a `Buffer`, a flat
  list of elements. `memref.subview`/`memref.cast` make new views of the same
  buffer, so aliasing is real;
- `!gpu.async.token`/`!async.token`: a `Token`, complete when every producer
  (a GPU op, or an `async.execute` body for async tokens) is done;
- `!async.value<T>`: an `AsyncValue`, the `index`-th yielded value of a body;
- `!async.group`: a `Group`, a list of tokens.

Threads run *invisible* ops (pure arithmetic, views, control flow, `gpu.wait
async` joins) eagerly and stop in front of every *visible* op (`is_visible`):
effectful host ops, GPU ops, and the synchronization ops. Visible ops are the
scheduler's steps.

Programs the interpreter cannot run get a diagnostic from `check_supported`
before anything runs; faults of a running program (out-of-bounds access, a
failed `cf.assert`, division by zero, use after free, the step limit) raise
`Fault`, which the scheduler records as an observation.
"""

from __future__ import annotations

import hashlib
import math
import re
import struct
from dataclasses import dataclass, field

from spec import registry
from spec.attributes import DenseArrayAttr, FloatAttr, IntegerAttr, SymbolRefAttr, Type
from spec.diagnostics import DiagnosticError, error
from spec.ir import Block, Operation, Value

K_DYNAMIC = -9223372036854775808
DEFAULT_DYNAMIC_DIM = 4
"""Size given to a `?` dimension of a memref argument with no explicit value."""
DEFAULT_INDEX = 2
"""Default value of an `index` (and integer) argument: small, so loops run."""

CMPI = "eq ne slt sle sgt sge ult ule ugt uge".split()
CMPF = "false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true".split()


class Fault(Exception):
    """A run-time fault of the interpreted program (not of the tool)."""

    def __init__(self, op: Operation | None, message: str) -> None:
        super().__init__(message)
        self.op = op
        self.message = message


# -- values -------------------------------------------------------------------


class Buffer:
    """A memory allocation: a flat list of elements, named deterministically
    by who allocated it (so schedules that allocate in a different order name
    buffers the same way)."""

    __slots__ = ("name", "data", "elem", "freed", "ready")

    def __init__(self, name: str, data: list, elem: Type) -> None:
        self.name = name
        self.data = data
        self.elem = elem
        self.freed = False
        self.ready = True

    def digest(self) -> str:
        if self.freed:
            return "freed"
        return hashlib.blake2b(repr(self.data).encode(), digest_size=6).hexdigest()


@dataclass(frozen=True, slots=True)
class View:
    """A memref value: a strided window on a buffer."""

    buffer: Buffer
    offset: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]

    def flat(self, idx: list[int], op: Operation | None = None) -> int:
        if len(idx) != len(self.shape):
            raise Fault(op, f"expected {len(self.shape)} indices, got {len(idx)}")
        pos = self.offset
        for i, n, s in zip(idx, self.shape, self.strides):
            if not 0 <= i < n:
                raise Fault(op, f"index {i} out of bounds [0, {n}) on buffer {self.buffer.name}")
            pos += i * s
        if not 0 <= pos < len(self.buffer.data):
            raise Fault(op, f"access at element {pos} outside buffer {self.buffer.name}")
        return pos

    def positions(self) -> list[int]:
        """Flat positions of every element, in row-major order."""
        out = [self.offset]
        for n, s in zip(self.shape, self.strides):
            out = [p + i * s for p in out for i in range(n)]
        return out

    def size(self) -> int:
        return math.prod(self.shape)


def row_major(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, acc = [], 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= n
    return tuple(reversed(strides))


class Producer:
    """Anything a token waits for: a GPU op instance or an async body.
    `done_clock` is the vector clock of the step that completed it."""

    done: bool = False
    done_clock: dict[str, int] | None = None


@dataclass(eq=False)
class Token:
    """A `!gpu.async.token` or `!async.token`: complete when all producers are
    done (a `gpu.wait async [ds]` join has the producers of all of `ds`)."""

    producers: tuple[Producer, ...] = ()

    def complete(self) -> bool:
        return all(p.done for p in self.producers)


@dataclass(eq=False)
class AsyncValue:
    """`!async.value<T>`: the `index`-th value yielded by an async body."""

    producer: Producer
    index: int

    def complete(self) -> bool:
        return self.producer.done


@dataclass(eq=False)
class Group:
    """`!async.group`: the tokens added to it so far."""

    tokens: list = field(default_factory=list)


def render_value(v: object) -> str:
    if isinstance(v, View):
        return f"{v.buffer.name}:{v.buffer.digest()}"
    if isinstance(v, (Token, AsyncValue, Group)):
        return type(v).__name__.lower()
    if isinstance(v, float):
        return repr(v)
    return str(v)


# -- types and elements -------------------------------------------------------

_ELEM = re.compile(r"memref<(?:(?:\d+|\?)x)*([^,>]+(?:<[^>]*>)?)")


def element_type(t: Type) -> Type:
    m = _ELEM.match(t.text)
    return Type(m.group(1).strip()) if m else Type("f32")


def wrap(value: int, t: Type) -> int:
    width = 64 if t.is_index else t.int_width
    if width is None:
        return value
    value &= (1 << width) - 1
    if width > 1 and value >= 1 << (width - 1):
        value -= 1 << width
    return value


def unsigned(value: int, t: Type) -> int:
    width = 64 if t.is_index else (t.int_width or 64)
    return value & ((1 << width) - 1)


def round_float(value: float, t: Type) -> float:
    code = {"f32": "<f", "f16": "<e"}.get(t.text)
    if code is None or not math.isfinite(value):
        return value
    try:
        return struct.unpack(code, struct.pack(code, value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def element(value: int, t: Type) -> object:
    """An element of type `t` derived from an integer pattern."""
    if t.is_float:
        return round_float(value / 4.0, t)
    if t.int_width is not None or t.is_index:
        return wrap(value, t)
    return value


def fresh_buffer(name: str, t: Type, shape: tuple[int, ...], seed: int) -> View:
    """A new buffer for a memref of type `t`: element k holds a pattern made of
    `seed` and k, so distinct buffers have distinct contents."""
    elem = element_type(t)
    n = math.prod(shape)
    buf = Buffer(name, [element(seed * 1000 + k, elem) for k in range(n)], elem)
    return View(buf, 0, shape, row_major(shape))


def kernel_mix(seed: int, view: View, snapshot: list) -> list:
    """New contents of a kernel argument: each element a fixed mix of the
    launch's seed (kernel symbol, sizes, argument position, scalars), its
    position and its old value, so running a kernel twice differs from once."""
    out = []
    elem = view.buffer.elem
    for k, old in enumerate(snapshot):
        o = int(old * 4) if isinstance(old, float) and math.isfinite(old) else (old if isinstance(old, int) else 7)
        out.append(element((o * 1000003 + seed + k * 40503) % 65521, elem))
    return out


def stable_hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=4).digest(), "little")


# -- which ops do what ----------------------------------------------------------

GPU_OPS = frozenset({"gpu.launch_func", "gpu.memcpy", "gpu.memset", "gpu.alloc", "gpu.dealloc"})
"""GPU ops with a start and a finish (`gpu.wait` only synchronizes)."""
HOST_EFFECTS = frozenset(
    {"memref.load", "memref.store", "memref.copy", "memref.alloc", "memref.alloca", "memref.dealloc", "func.call", "cf.assert"}
)
SYNC_STEPS = frozenset({"async.execute", "async.await", "async.yield", "async.await_all", "func.return"})
PURE_EXTRA = frozenset({"memref.dim", "memref.cast", "memref.subview", "async.create_group", "async.add_to_group"})
CONTROL = frozenset(
    {"scf.for", "scf.if", "scf.while", "scf.parallel", "scf.execute_region", "scf.yield", "scf.condition", "scf.reduce", "cf.br", "cf.cond_br", "builtin.module"}
)


def is_visible(op: Operation) -> bool:
    """A scheduling point: an effectful host op, a GPU op, a blocking wait, or
    an async op that creates, completes or waits for a thread."""
    name = op.name
    if name in GPU_OPS or name in HOST_EFFECTS or name in SYNC_STEPS:
        return True
    if name == "gpu.wait":
        return not op.results and bool(op.operands)
    return False


def is_effectful_event(op: Operation) -> bool:
    """DESIGN.md's effectful events: GPU ops other than `gpu.wait`, host ops
    with memory effects, and `func.return`."""
    return op.name in GPU_OPS or op.name in HOST_EFFECTS or op.name == "func.return"


def check_supported(func: Operation) -> None:
    """Raise a diagnostic for the first op of `func` the interpreter cannot run."""
    for op in func.nested_ops():
        name = op.name
        if name.startswith("arith.") and registry.is_known(name) and name != "arith.bitcast":
            if name == "arith.constant" and not isinstance(op.properties.get("value"), (IntegerAttr, FloatAttr)):
                raise DiagnosticError(error(op.loc, "'arith.constant' op: only scalar integer and float constants can be interpreted"))
            continue
        if name in GPU_OPS or name in HOST_EFFECTS or name in SYNC_STEPS or name in PURE_EXTRA or name in CONTROL or name == "gpu.wait":
            if name == "scf.parallel" and op.results:
                raise DiagnosticError(error(op.loc, "'scf.parallel' op with reductions cannot be interpreted"))
            if name == "scf.reduce" and (op.operands or op.regions):
                raise DiagnosticError(error(op.loc, "'scf.reduce' op with operands cannot be interpreted"))
            if name == "builtin.module":
                continue
            continue
        if op.parent_op is not None and op.parent_op.name == "builtin.module" and op.parent_op is not func:
            continue
        raise DiagnosticError(error(op.loc, f"'{name}' op is not supported by the interpreter"))


def gpu_deps(op: Operation) -> list[Value]:
    """The `[deps]` operands of a GPU async op."""
    info = registry.lookup(op.name)
    if info.deps_segment is not None:
        sizes = op.properties.get("operandSegmentSizes")
        if isinstance(sizes, DenseArrayAttr):
            start = sum(sizes.values[: info.deps_segment])
            return op.operands[start : start + sizes.values[info.deps_segment]]
        return []
    return op.operands[: len(op.operands) - info.fixed_trailing]


def segment(op: Operation, index: int) -> list[Value]:
    sizes = op.properties.get("operandSegmentSizes")
    if not isinstance(sizes, DenseArrayAttr):
        return []
    start = sum(sizes.values[:index])
    return op.operands[start : start + sizes.values[index]]


def kernel_name(op: Operation) -> str:
    k = op.properties.get("kernel")
    return str(k) if isinstance(k, SymbolRefAttr) else "?"


# -- pure ops -----------------------------------------------------------------

_INT_BIN = {
    "arith.addi": lambda a, b: a + b,
    "arith.subi": lambda a, b: a - b,
    "arith.muli": lambda a, b: a * b,
    "arith.andi": lambda a, b: a & b,
    "arith.ori": lambda a, b: a | b,
    "arith.xori": lambda a, b: a ^ b,
    "arith.maxsi": max,
    "arith.minsi": min,
}
_FLOAT_BIN = {
    "arith.addf": lambda a, b: a + b,
    "arith.subf": lambda a, b: a - b,
    "arith.mulf": lambda a, b: a * b,
    "arith.maximumf": lambda a, b: math.nan if math.isnan(a) or math.isnan(b) else max(a, b),
    "arith.minimumf": lambda a, b: math.nan if math.isnan(a) or math.isnan(b) else min(a, b),
    "arith.maxnumf": lambda a, b: b if math.isnan(a) else a if math.isnan(b) else max(a, b),
    "arith.minnumf": lambda a, b: b if math.isnan(a) else a if math.isnan(b) else min(a, b),
}


def _div(op: Operation, a: int, b: int, signed: bool, rem: bool, mode: str = "trunc") -> int:
    if b == 0:
        raise Fault(op, "division by zero")
    if not signed:
        return a % b if rem else a // b
    if mode == "floor":
        return a // b
    if mode == "ceil":
        return -((-a) // b)
    q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
    return a - q * b if rem else q


def _cmpf(pred: str, a: float, b: float) -> bool:
    unordered = math.isnan(a) or math.isnan(b)
    if pred in ("false", "true"):
        return pred == "true"
    if pred == "ord":
        return not unordered
    if pred == "uno":
        return unordered
    base = pred[1:]
    rel = {"eq": a == b, "gt": a > b, "ge": a >= b, "lt": a < b, "le": a <= b, "ne": a != b}[base]
    return (unordered or rel) if pred[0] == "u" else (not unordered and rel)


def eval_pure(op: Operation, args: list) -> list:
    """Results of a pure op (arith, memref views) on concrete operands."""
    name = op.name
    rt = op.results[0].type if op.results else None
    if name == "arith.constant":
        attr = op.properties["value"]
        if isinstance(attr, FloatAttr):
            return [round_float(attr.value, rt)]  # type: ignore[arg-type]
        return [wrap(attr.value, rt)]  # type: ignore[union-attr,arg-type]
    if name in _INT_BIN:
        return [wrap(_INT_BIN[name](args[0], args[1]), rt)]  # type: ignore[arg-type]
    if name in _FLOAT_BIN:
        return [round_float(_FLOAT_BIN[name](args[0], args[1]), rt)]  # type: ignore[arg-type]
    t = op.operands[0].type if op.operands else rt
    if name in ("arith.maxui", "arith.minui"):
        ua, ub = unsigned(args[0], t), unsigned(args[1], t)  # type: ignore[arg-type]
        return [args[0] if (ua >= ub) == (name == "arith.maxui") else args[1]]
    if name in ("arith.divsi", "arith.remsi", "arith.divui", "arith.remui", "arith.ceildivsi", "arith.floordivsi"):
        signed = "ui" not in name
        a, b = (args[0], args[1]) if signed else (unsigned(args[0], t), unsigned(args[1], t))  # type: ignore[arg-type]
        mode = "ceil" if "ceil" in name else "floor" if "floor" in name else "trunc"
        return [wrap(_div(op, a, b, signed, name.startswith("arith.rem"), mode), rt)]  # type: ignore[arg-type]
    if name in ("arith.shli", "arith.shrsi", "arith.shrui"):
        width = 64 if t.is_index else (t.int_width or 64)  # type: ignore[union-attr]
        if not 0 <= args[1] < width:
            raise Fault(op, "shift amount out of range")
        if name == "arith.shli":
            return [wrap(args[0] << args[1], rt)]  # type: ignore[arg-type]
        a = args[0] if name == "arith.shrsi" else unsigned(args[0], t)  # type: ignore[arg-type]
        return [wrap(a >> args[1], rt)]  # type: ignore[arg-type]
    if name in ("arith.divf", "arith.remf"):
        a, b = args
        if b == 0:
            r = math.nan if a == 0 or math.isnan(a) or name == "arith.remf" else math.copysign(math.inf, a) * math.copysign(1, b)
        else:
            r = a / b if name == "arith.divf" else math.fmod(a, b)
        return [round_float(r, rt)]  # type: ignore[arg-type]
    if name == "arith.negf":
        return [-args[0]]
    if name == "arith.cmpi":
        pred = CMPI[op.properties["predicate"].value]  # type: ignore[attr-defined]
        a, b = args
        if pred[0] == "u":
            a, b = unsigned(a, t), unsigned(b, t)  # type: ignore[arg-type]
            pred = "s" + pred[1:]
        elif pred.startswith("s") and t.int_width == 1:  # type: ignore[union-attr]
            a, b = -a, -b  # i1 is 0/1 here; signed i1 true is -1
        res = {"eq": a == b, "ne": a != b, "slt": a < b, "sle": a <= b, "sgt": a > b, "sge": a >= b}[pred]
        return [int(res)]
    if name == "arith.cmpf":
        return [int(_cmpf(CMPF[op.properties["predicate"].value], args[0], args[1]))]  # type: ignore[attr-defined]
    if name == "arith.select":
        return [args[1] if args[0] else args[2]]
    if name in ("arith.index_cast", "arith.extsi", "arith.trunci"):
        return [wrap(args[0] if t.int_width != 1 else -args[0] if name == "arith.extsi" else args[0], rt)]  # type: ignore[arg-type,union-attr]
    if name in ("arith.index_castui", "arith.extui"):
        return [wrap(unsigned(args[0], t), rt)]  # type: ignore[arg-type]
    if name in ("arith.sitofp", "arith.uitofp"):
        v = args[0] if name == "arith.sitofp" else unsigned(args[0], t)  # type: ignore[arg-type]
        return [round_float(float(v), rt)]  # type: ignore[arg-type]
    if name in ("arith.fptosi", "arith.fptoui"):
        if not math.isfinite(args[0]):
            raise Fault(op, "conversion of a non-finite float to an integer")
        return [wrap(int(args[0]), rt)]  # type: ignore[arg-type]
    if name in ("arith.extf", "arith.truncf"):
        return [round_float(args[0], rt)]  # type: ignore[arg-type]
    if name == "memref.dim":
        view, i = args
        if not 0 <= i < len(view.shape):
            raise Fault(op, f"dimension {i} out of range")
        return [view.shape[i]]
    if name == "memref.cast":
        return [args[0]]
    if name == "memref.subview":
        return [_subview(op, args)]
    raise Fault(op, f"'{name}' cannot be evaluated")


def _subview(op: Operation, args: list) -> View:
    src: View = args[0]
    dyn = iter(args[1:])
    parts = []
    for key in ("static_offsets", "static_sizes", "static_strides"):
        attr = op.properties.get(key)
        vals = attr.values if isinstance(attr, DenseArrayAttr) else ()
        parts.append([next(dyn) if v == K_DYNAMIC else v for v in vals])
    offs, sizes, strides = parts
    if not (len(offs) == len(sizes) == len(strides) == len(src.shape)):
        raise Fault(op, "subview rank does not match its source")
    for o, n, s, dim in zip(offs, sizes, strides, src.shape):
        if n and (o < 0 or o + (n - 1) * s >= dim):
            raise Fault(op, "subview out of bounds of its source")
    offset = src.offset + sum(o * s for o, s in zip(offs, src.strides))
    shape = [n for n in sizes]
    new_strides = [s * st for s, st in zip(strides, src.strides)]
    rank = len(op.results[0].type.memref_shape())
    # A rank-reducing subview drops unit dimensions (the first ones first).
    while len(shape) > rank and 1 in shape:
        i = shape.index(1)
        del shape[i]
        del new_strides[i]
    return View(src.buffer, offset, tuple(shape), tuple(new_strides))


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
            elif name == "gpu.wait":
                if op.results:
                    deps = self.operands(op)
                    env[op.results[0]] = Token(tuple({p: None for d in deps for p in d.producers}))
                f.pos += 1
            elif name == "async.create_group":
                env[op.results[0]] = Group()
                f.pos += 1
            elif name == "async.add_to_group":
                tok, grp = self.operands(op)
                grp.tokens.append(tok)
                env[op.results[0]] = len(grp.tokens) - 1
                f.pos += 1
            elif name == "builtin.module":
                f.pos += 1
            else:
                self._control(op, f)

    def _control(self, op: Operation, f: Frame) -> None:
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
        elif name == "scf.execute_region":
            self._enter(op.regions[0].blocks[0], op, None, [])
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
        elif name == "scf.yield":
            self._yield(op, f)
        elif name == "scf.condition":
            cond, *vals = self.operands(op)
            loop = f.op
            if cond:
                f.state = "after"
                self._continue_at(f, loop.regions[1].blocks[0], vals)  # type: ignore[union-attr]
            else:
                self._leave(vals)
        elif name == "scf.reduce":
            nxt = next(f.state, None)  # type: ignore[call-overload]
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
        else:
            raise Fault(op, f"'{name}' op is not supported by the interpreter")

    def _yield(self, op: Operation, f: Frame) -> None:
        vals = self.operands(op)
        loop = f.op
        if loop is None:
            raise Fault(op, "scf.yield outside a region op")
        if loop.name == "scf.for":
            iv, ub, step = f.state  # type: ignore[misc]
            iv += step
            if iv < ub:
                f.state = [iv, ub, step]
                self._continue_at(f, f.block, [iv, *vals])
            else:
                self._leave(vals)
        elif loop.name == "scf.while":
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


def default_args(func: Operation, overrides: dict[str, object] | None = None, flags: dict[int, int] | None = None) -> list:
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
            done.values = [0]  # type: ignore[attr-defined]
            done.failed = False  # type: ignore[attr-defined]
            out.append(AsyncValue(done, 0))
        elif t.is_float:
            out.append(round_float(float(given) if given is not None else 1.5, t))  # type: ignore[arg-type]
        elif t.is_index or t.int_width is not None:
            if given is None:
                given = flags.get(i, 0) if t.int_width == 1 else DEFAULT_INDEX
            out.append(wrap(int(given), t))  # type: ignore[call-overload]
        else:
            raise DiagnosticError(error(a.loc, f"argument '{name}' of type '{t}' cannot be interpreted"))
    return out
