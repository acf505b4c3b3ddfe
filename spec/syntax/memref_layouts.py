"""Memref types as MLIR's `MemRefType` sees them for the reshape ops'
verifiers: shape, element type, layout and memory space, the strides and
offset of a layout (`getStridesAndOffset`), and the result type
`memref.expand_shape` / `memref.collapse_shape` require
(`computeExpandedType`, `computeCollapsedLayoutMap`).

A size, stride or offset is an int, or None for `?`. A layout is identity
when its affine map is (no layout, or a rank-1 `strided<[1]>`); `strided`
layouts and affine maps whose single result is a sum of `d_i * c`,
`d_i * s_j`, `s_j` and constants have strides; other maps do not
(`layout_strides` says `NOT_STRIDED`). A layout alias this module cannot
read is `UNKNOWN`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spec.syntax import affine
from spec.syntax.build_base import split_top

Strides = tuple[tuple[int | None, ...], int | None]
"""Strides, then offset."""

NOT_STRIDED = "not strided"
UNKNOWN = "unknown"

_SHAPE = re.compile(r"((?:(?:[0-9]+|\?)x)*)")
_STRIDED = re.compile(r"strided<\[([^\]]*)\](?:,\s*offset:\s*([^>]*))?>")


@dataclass(frozen=True)
class MemRef:
    """A ranked memref type's parts, as text where they are attributes."""

    shape: tuple[int | None, ...]
    element: str
    layout: str
    """Empty for the identity layout."""
    space: str
    """Empty for the default memory space."""


def _size(text: str) -> int | None:
    text = text.strip()
    return None if text == "?" else int(text)


def ranked(text: str) -> MemRef | None:
    """The parts of ranked memref type `text`, or None for anything else."""
    if not text.startswith("memref<") or text.startswith("memref<*"):
        return None
    parts = split_top(text[len("memref<") : -1])
    m = _SHAPE.match(parts[0])
    dims = m.group(1) if m else ""
    shape = tuple(_size(d) for d in dims.split("x") if d)
    element = parts[0][len(dims) :]
    layout = space = ""
    for part in parts[1:]:
        if part.startswith(("strided<", "affine_map<")) and not layout and not space:
            layout = part
        else:
            space = part
    return MemRef(shape, element, layout, space)


def _linear(e: affine.Expr, strides: list[int | None], offset: list[int | None]) -> bool:
    """Add the terms of `e` to `strides` and `offset[0]`: False where a term
    is not `d_i * c`, `d_i * s_j`, `s_j` (times a constant) or a constant."""
    if e.kind == "add":
        if e.lhs is None or e.rhs is None:
            return False
        return _linear(e.lhs, strides, offset) and _linear(e.rhs, strides, offset)
    if e.kind == "const":
        if offset[0] is not None:
            offset[0] += e.value
        return True
    if e.kind == "sym":
        offset[0] = None
        return True
    if e.kind == "dim":
        return _add_stride(strides, e.value, 1)
    if e.kind == "mul" and e.lhs is not None and e.rhs is not None:
        lhs, rhs = e.lhs, e.rhs
        if rhs.kind == "dim":
            lhs, rhs = rhs, lhs
        factor: int | None
        if rhs.kind == "const":
            factor = rhs.value
        elif rhs.kind == "sym":
            factor = None
        else:
            return False
        if lhs.kind == "dim":
            return _add_stride(strides, lhs.value, factor)
        if lhs.kind == "sym":
            offset[0] = None
            return True
    return False


def _add_stride(strides: list[int | None], dim: int, factor: int | None) -> bool:
    current = strides[dim]
    strides[dim] = None if current is None or factor is None else current + factor
    return True


def layout_strides(t: MemRef) -> Strides | str:
    """`getStridesAndOffset` of `t`: its strides and offset, `NOT_STRIDED`,
    or `UNKNOWN` for a layout written as an alias."""
    if not t.layout:
        strides: list[int | None] = []
        running: int | None = 1
        for size in reversed(t.shape):
            strides.append(running)
            running = None if running is None or size is None else running * size
        return tuple(reversed(strides)), 0
    m = _STRIDED.fullmatch(t.layout)
    if m is not None:
        values = tuple(_size(s) for s in m.group(1).split(",") if s.strip())
        return values, _size(m.group(2)) if m.group(2) else 0
    if not t.layout.startswith("affine_map<"):
        return UNKNOWN
    amap = affine.parse_map(t.layout[len("affine_map<") : -1])
    if len(amap.results) != 1:
        return NOT_STRIDED
    found: list[int | None] = [0] * len(t.shape)
    offset: list[int | None] = [0]
    if not _linear(amap.results[0], found, offset):
        return NOT_STRIDED
    return tuple(found), offset[0]


def is_identity(t: MemRef) -> bool:
    """Whether `t`'s layout is the identity map (none, or `strided<[1]>` at
    rank 1)."""
    if not t.layout:
        return True
    m = _STRIDED.fullmatch(t.layout)
    return m is not None and len(t.shape) == 1 and m.group(1).strip() == "1" and _size(m.group(2) or "0") == 0


def _dim(v: int | None) -> str:
    return "?" if v is None else str(v)


def strided_text(strides: Strides) -> str:
    """`strided<[...]>` as mlir-opt-19 prints it (`offset: 0` left out)."""
    values, offset = strides
    text = "strided<[" + ", ".join(_dim(s) for s in values) + "]"
    return text + (">" if offset == 0 else f", offset: {_dim(offset)}>")


def type_text(shape: tuple[int | None, ...], element: str, layout: str, space: str) -> str:
    body = "".join(f"{_dim(d)}x" for d in shape) + element
    return "memref<" + ", ".join(p for p in (body, layout, space) if p) + ">"


def same_type(expected: tuple[tuple[int | None, ...], str, Strides | None, str], t: MemRef) -> bool:
    """Whether `t` is the memref type `expected` (shape, element, strided
    layout or None for the identity, memory space): layouts compared by
    value (`strided<[1], offset: 0>` is `strided<[1]>`)."""
    shape, element, strides, space = expected
    if (shape, element, space) != (t.shape, t.element, t.space):
        return False
    if strides is None:
        return not t.layout
    m = _STRIDED.fullmatch(t.layout)
    return m is not None and layout_strides(t) == strides


def _times(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a * b


def expanded_strides(src: Strides, shape: tuple[int | None, ...], groups: list[list[int]]) -> Strides:
    """`computeExpandedLayoutMap`: each group's innermost dimension keeps the
    source stride, the outer ones multiply it by the sizes inside them."""
    values, offset = src
    out: list[int | None] = []
    at = len(shape) - 1
    for group, stride in reversed(list(zip(groups, values))):
        current: int | None = stride
        for _ in group:
            out.append(current)
            current = _times(current, shape[at])
            at -= 1
    result = list(reversed(out))
    result += [1] * (len(shape) - len(result))
    return tuple(result), offset


def collapsed_strides(src: Strides, shape: tuple[int | None, ...], groups: list[list[int]]) -> Strides | None:
    """`computeCollapsedLayoutMap` (not strict): each group's stride is its
    innermost non-unit dimension's (`?` when that one is dynamic and not
    alone); None when a group's dimensions are not contiguous (each stride
    the next one's times its size, unit dimensions included, where both
    are static)."""
    values, offset = src
    result: list[int | None] = []
    for group in groups:
        ref = list(group)
        if not ref:
            return None
        while len(ref) > 1 and shape[ref[-1]] == 1:
            ref.pop()
        last = ref[-1]
        result.append(values[last] if shape[last] is not None or len(ref) == 1 else None)
    for group, stride in zip(reversed(groups), reversed(result)):
        current = stride
        for idx in reversed(group[1:]):
            current = _times(current, shape[idx])
            before = values[idx - 1]
            if current is not None and before is not None and current != before:
                return None
    return tuple(result), offset
