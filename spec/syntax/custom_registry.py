"""The table of custom-form printers, and the helpers several dialects share.

`Printer.op` looks each op up in `CUSTOM_PRINTERS` (no entry, or an op its
custom form cannot show: the generic form). The printers themselves live in
their dialect's syntax module (`spec.dialects.<dialect>.syntax`) and register here with
`@custom_printer(name, ...)`;
`spec.syntax.printing` loads them all and hands the table to the `Printer`
it builds.
"""

from __future__ import annotations

from collections.abc import Callable

from spec import registry
from spec.attributes import Attr, DenseArrayAttr, FunctionType
from spec.invariant import InternalError
from spec.ir import Operation, Value
from spec.syntax.build_base import K_DYNAMIC
from spec.syntax.printer import Printer

CUSTOM_PRINTERS: dict[str, Callable[[Printer, Operation], str]] = {}
"""Op name -> its custom printer, filled by `custom_printer` as the dialect
modules are imported and fixed after that."""


def custom_printer(*names: str) -> Callable:
    """Register the decorated function as the custom printer of the ops `names`."""

    def deco(fn: Callable[[Printer, Operation], str]) -> Callable[[Printer, Operation], str]:
        for n in names:
            CUSTOM_PRINTERS[n] = fn
        return fn

    return deco


def segments(op: Operation) -> list[list[Value]]:
    sizes = op.properties.get("operandSegmentSizes")
    if not isinstance(sizes, DenseArrayAttr):
        raise InternalError("spec.syntax.custom_registry: expected isinstance(sizes, DenseArrayAttr)")
    out, i = [], 0
    for n in sizes.ints:
        out.append(op.operands[i : i + n])
        i += n
    return out


def return_like(p: Printer, op: Operation, name: str | None = None) -> str:
    text = name or p.op_name(op)
    text += p.attr_dict(op.attributes)
    if op.operands:
        text += f" {p.values(op.operands)} : {p.types(op.operands)}"
    return text


def shown_attrs(op: Operation, *known: str) -> dict[str, Attr]:
    """What a custom form's attr-dict shows: the properties its own syntax
    does not spell (`known`), those equal to their defaults left out, as
    MLIR does, then the discardable attributes."""
    defaults = registry.lookup(op.name).default_properties
    rest = {k: v for k, v in op.properties.items() if k not in known and defaults.get(k) != v}
    return {**registry.without_defaults(op.name, rest), **op.attributes}


def fn_signature(p: Printer, op: Operation, fn: FunctionType, arg_attrs: Attr | None, res_attrs: Attr | None) -> str:
    region = op.regions[0] if op.regions else None
    entry = region.blocks[0] if region is not None and region.blocks else None
    parts = []
    for i, t in enumerate(fn.inputs):
        attrs = ""
        if arg_attrs is not None and str(arg_attrs.elements[i]) != "{}":  # type: ignore[attr-defined]  # an ArrayAttr (registry: arg_attrs is an array of dicts)
            attrs = " " + str(arg_attrs.elements[i])  # type: ignore[attr-defined]  # as above
        parts.append(f"{p.value(entry.args[i])}: {t}{attrs}" if entry is not None else f"{t}{attrs}")
    text = "(" + ", ".join(parts) + ")"
    if fn.results:
        res = []
        with_attrs = False
        for i, t in enumerate(fn.results):
            attrs = ""
            if res_attrs is not None and str(res_attrs.elements[i]) != "{}":  # type: ignore[attr-defined]  # an ArrayAttr (registry: res_attrs)
                attrs = " " + str(res_attrs.elements[i])  # type: ignore[attr-defined]  # as above
                with_attrs = True
            res.append(f"{t}{attrs}")
        # One result is written bare unless it has attributes (an empty
        # dictionary, `res_attrs = [{}]`, is none) or is a function type.
        if len(res) == 1 and not res[0].startswith("(") and not with_attrs:
            text += f" -> {res[0]}"
        else:
            text += " -> (" + ", ".join(res) + ")"
    return text


def props_left(op: Operation, *known: str) -> dict[str, Attr]:
    return {k: v for k, v in op.properties.items() if k not in known and k not in ("overflowFlags", "fastmath")}


def mixed(p: Printer, statics: Attr, dyn: list[Value]) -> str:
    if not isinstance(statics, DenseArrayAttr):
        raise InternalError("spec.syntax.custom_registry: expected isinstance(statics, DenseArrayAttr)")
    it = iter(dyn)
    return "[" + ", ".join(p.value(next(it)) if s == K_DYNAMIC else str(s) for s in statics.values) + "]"
