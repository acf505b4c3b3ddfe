"""Runtime values of the executable semantics, and the memory they live in.

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

Buffers are named by who allocated them and filled with a pattern derived
from that name (`fresh_buffer`; `kernel_mix` for what a kernel writes), so
different schedules name and fill them the same way and outcomes compare
across runs. `Fault` is a run-time fault of the interpreted program (an
out-of-bounds access, a use after free...), which the scheduler records as
an observation.
"""

from __future__ import annotations

import hashlib
import math
import re
import struct
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from spec.attributes import Type
from spec.ir import Operation


class Fault(Exception):
    """A run-time fault of the interpreted program (not of the tool):
    undefined behaviour (a division by zero, an access out of bounds),
    after which the program may do anything."""

    kind = "fault"
    """The observation it is recorded as."""

    def __init__(self, op: Operation | None, message: str) -> None:
        super().__init__(message)
        self.op = op
        self.message = message


class Abort(Fault):
    """A defined stop of the program (a failed `cf.assert`): an outcome like
    any other, which a rewrite must keep, not undefined behaviour."""

    kind = "abort"


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

    def positions(self) -> Sequence[int]:
        """Flat positions of every element, in row-major order (a range for
        a contiguous view: kernels and copies ask for whole buffers)."""
        if self.strides == row_major(self.shape):
            return range(self.offset, self.offset + math.prod(self.shape))
        out = [self.offset]
        for n, s in zip(self.shape, self.strides):
            out = [p + i * s for p in out for i in range(n)]
        return out

    def read(self) -> list:
        """The elements of the view, in row-major order."""
        at = self.positions()
        data = self.buffer.data
        if isinstance(at, range) and at.stop <= len(data):
            return data[at.start : at.stop]
        return [data[i] for i in at]

    def write(self, values: list) -> None:
        """Store `values` in the view's elements, in row-major order (as many
        as both have)."""
        at = self.positions()
        data = self.buffer.data
        if isinstance(at, range) and len(values) == len(at) and at.stop <= len(data):
            data[at.start : at.stop] = values
            return
        for i, x in zip(at, values):
            data[i] = x

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
    if TYPE_CHECKING:  # set by both kinds (`processes.HostProc`, `GpuProc`)
        values: list[Any]
        failed: bool


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
    """`!async.group`: the tokens added to it so far, and the size it was
    made with: `async.await_all` returns once `size` of its tokens are
    available (so it may wait for tokens not yet added)."""

    tokens: list = field(default_factory=list)
    size: int = 0

    def complete(self) -> bool:
        return sum(1 for t in self.tokens if t.complete()) >= self.size


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


def elements(patterns: list[int], t: Type) -> list:
    """`element(p, t)` for each pattern: a whole buffer's worth at a time (a
    kernel rewrites every element of its arguments). For `f32` the rounding
    is `array`'s, the same C conversion `struct` makes per element in
    `round_float`, done for the list at once; the patterns here are below
    2**16, so none overflows."""
    if t.text == "f32" and (not patterns or (min(patterns) >= 0 and max(patterns) < _PATTERN_LIMIT)):
        return array("f", [p / 4.0 for p in patterns]).tolist()
    return [element(p, t) for p in patterns]


_PATTERN_LIMIT = 1 << 24
"""Patterns from which `elements` takes the per-element path (an `f32`
holds every quarter below 2**22 exactly; far below its overflow)."""


def fresh_buffer(name: str, t: Type, shape: tuple[int, ...], seed: int) -> View:
    """A new buffer for a memref of type `t`: element k holds a pattern made of
    `seed` and k, so distinct buffers have distinct contents."""
    elem = element_type(t)
    n = math.prod(shape)
    buf = Buffer(name, elements([seed * 1000 + k for k in range(n)], elem), elem)
    return View(buf, 0, shape, row_major(shape))


def _old_pattern(old: object) -> int:
    if isinstance(old, float):
        return int(old * 4) if math.isfinite(old) else 7
    return old if isinstance(old, int) else 7


def kernel_mix(seed: int, view: View, snapshot: list) -> list:
    """New contents of a kernel argument: each element a fixed mix of the
    launch's seed (kernel symbol, sizes, argument position, scalars), its
    position and its old value, so running a kernel twice differs from once."""
    if set(map(type, snapshot)) <= {float} and all(map(math.isfinite, snapshot)):
        # The usual case, a float buffer, without a call per element.
        patterns = [(int(old * 4) * 1000003 + seed + k * 40503) % 65521 for k, old in enumerate(snapshot)]
    else:
        patterns = [(_old_pattern(old) * 1000003 + seed + k * 40503) % 65521 for k, old in enumerate(snapshot)]
    return elements(patterns, view.buffer.elem)


def stable_hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=4).digest(), "little")
