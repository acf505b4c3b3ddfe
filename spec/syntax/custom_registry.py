"""The table of custom-form printers, and the helpers several dialects share.

`Printer.op` looks each op up in `CUSTOM_PRINTERS` (no entry, or an op its
custom form cannot show: the generic form). The printers themselves live in
one module per dialect group (`custom_func_gpu`, `custom_host`,
`custom_control`) and register here with `@custom_printer(name, ...)`;
`spec.syntax.printing` loads them all and hands the table to the `Printer`
it builds.
"""

from __future__ import annotations

from collections.abc import Callable

from spec import registry
from spec.attributes import Attr, DenseArrayAttr
from spec.invariant import InternalError
from spec.ir import Operation, Value
from spec.syntax.printer import Printer

CUSTOM_PRINTERS: dict[str, Callable[[Printer, Operation], str]] = {}


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
