"""Pure ops on concrete values: `arith`, and the `memref` view ops (`dim`,
`cast`, `subview`).

`eval_pure` is what a thread runs eagerly between two scheduling points:
these ops touch no memory another process can see, so they are not steps.
Integer results are normalised to their width and float results rounded to
their type (`spec.semantics.values`); a division by zero, an out-of-range
shift, a conversion of a non-finite float or a subview outside its source is
a `Fault`.

Per-op dispatch: what each pure op computes, one case (or one table
entry) per op; that they are pure is the registry's word.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from spec.attributes import DenseArrayAttr, FloatAttr, Type
from spec.ir import Operation
from spec.semantics.values import Fault, View, round_float, unsigned, wrap

K_DYNAMIC = -9223372036854775808
CMPI = "eq ne slt sle sgt sge ult ule ugt uge".split()
CMPF = "false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true".split()

_INT_BIN: dict[str, Callable[[int, int], int]] = {
    "arith.addi": lambda a, b: a + b,
    "arith.subi": lambda a, b: a - b,
    "arith.muli": lambda a, b: a * b,
    "arith.andi": lambda a, b: a & b,
    "arith.ori": lambda a, b: a | b,
    "arith.xori": lambda a, b: a ^ b,
    "arith.maxsi": max,
    "arith.minsi": min,
}
_FLOAT_BIN: dict[str, Callable[[float, float], float]] = {
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


def eval_pure(op: Operation, args: list[Any]) -> list[Any]:  # noqa: C901 - one case per pure op it evaluates
    """Results of a pure op (arith, memref views) on concrete operands."""
    name = op.name
    rt: Type = op.results[0].type if op.results else None  # type: ignore[assignment]  # the ops here have a result; a None would fail where read, as before
    if name == "arith.constant":
        attr = op.properties["value"]
        if isinstance(attr, FloatAttr):
            return [round_float(attr.value, rt)]
        return [wrap(attr.value, rt)]  # type: ignore[attr-defined]  # Attr has no common `value`: an integer constant's is an IntegerAttr
    if name in _INT_BIN:
        return [wrap(_INT_BIN[name](args[0], args[1]), rt)]
    if name in _FLOAT_BIN:
        return [round_float(_FLOAT_BIN[name](args[0], args[1]), rt)]
    t = op.operands[0].type if op.operands else rt
    if name in ("arith.maxui", "arith.minui"):
        ua, ub = unsigned(args[0], t), unsigned(args[1], t)
        return [args[0] if (ua >= ub) == (name == "arith.maxui") else args[1]]
    if name in ("arith.divsi", "arith.remsi", "arith.divui", "arith.remui", "arith.ceildivsi", "arith.floordivsi"):
        signed = "ui" not in name
        a, b = (args[0], args[1]) if signed else (unsigned(args[0], t), unsigned(args[1], t))
        mode = "ceil" if "ceil" in name else "floor" if "floor" in name else "trunc"
        return [wrap(_div(op, a, b, signed, name.startswith("arith.rem"), mode), rt)]
    if name in ("arith.shli", "arith.shrsi", "arith.shrui"):
        width = 64 if t.is_index else (t.int_width or 64)
        if not 0 <= args[1] < width:
            raise Fault(op, "shift amount out of range")
        if name == "arith.shli":
            return [wrap(args[0] << args[1], rt)]
        a = args[0] if name == "arith.shrsi" else unsigned(args[0], t)
        return [wrap(a >> args[1], rt)]
    if name in ("arith.divf", "arith.remf"):
        a, b = args
        if b == 0:
            r = (
                math.nan
                if a == 0 or math.isnan(a) or name == "arith.remf"
                else math.copysign(math.inf, a) * math.copysign(1, b)
            )
        else:
            r = a / b if name == "arith.divf" else math.fmod(a, b)
        return [round_float(r, rt)]
    if name == "arith.negf":
        return [-args[0]]
    if name == "arith.cmpi":
        pred = CMPI[op.properties["predicate"].value]  # type: ignore[attr-defined]  # an IntegerAttr (registry: `cmpi_predicate`)
        a, b = args
        if pred[0] == "u":
            a, b = unsigned(a, t), unsigned(b, t)
            pred = "s" + pred[1:]
        elif pred.startswith("s") and t.int_width == 1:
            a, b = -a, -b  # i1 is 0/1 here; signed i1 true is -1
        res = {"eq": a == b, "ne": a != b, "slt": a < b, "sle": a <= b, "sgt": a > b, "sge": a >= b}[pred]
        return [int(res)]
    if name == "arith.cmpf":
        return [int(_cmpf(CMPF[op.properties["predicate"].value], args[0], args[1]))]  # type: ignore[attr-defined]  # an IntegerAttr (registry: `cmpf_predicate`)
    if name == "arith.select":
        return [args[1] if args[0] else args[2]]
    if name in ("arith.index_cast", "arith.extsi", "arith.trunci"):
        return [wrap(args[0] if t.int_width != 1 else -args[0] if name == "arith.extsi" else args[0], rt)]
    if name in ("arith.index_castui", "arith.extui"):
        return [wrap(unsigned(args[0], t), rt)]
    if name in ("arith.sitofp", "arith.uitofp"):
        v = args[0] if name == "arith.sitofp" else unsigned(args[0], t)
        return [round_float(float(v), rt)]
    if name in ("arith.fptosi", "arith.fptoui"):
        if not math.isfinite(args[0]):
            raise Fault(op, "conversion of a non-finite float to an integer")
        return [wrap(int(args[0]), rt)]
    if name in ("arith.extf", "arith.truncf"):
        return [round_float(args[0], rt)]
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


def _subview(op: Operation, args: list[Any]) -> View:
    src: View = args[0]
    dyn = iter(args[1:])
    parts = []
    for key in ("static_offsets", "static_sizes", "static_strides"):
        attr = op.properties.get(key)
        vals = attr.ints if isinstance(attr, DenseArrayAttr) else ()
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
