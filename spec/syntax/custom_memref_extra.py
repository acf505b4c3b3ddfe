"""Custom-form printers of the ops `rules_memref_extra` reads (mlir-opt-19's
text: `memref.alloca_scope  {` with two blanks, its directive printing one
before an empty result list; the body's terminator shown only when it
returns values; the transpose's permutation as a bare affine map)."""

from __future__ import annotations

from spec.attributes import IntegerAttr, OpaqueAttr
from spec.ir import Operation
from spec.syntax.custom_registry import custom_printer, return_like, shown_attrs
from spec.syntax.printer import Printer


@custom_printer("memref.alloca_scope")
def _alloca_scope(p: Printer, op: Operation) -> str:
    text = "memref.alloca_scope "
    if op.results:
        text += f" -> ({', '.join(str(r.type) for r in op.results)})"
    return text + " " + p.region(op.regions[0], False, bool(op.results)) + p.attr_dict(shown_attrs(op))


@custom_printer("memref.alloca_scope.return")
def _alloca_scope_return(p: Printer, op: Operation) -> str:
    return return_like(p, op)


@custom_printer("memref.assume_alignment")
def _assume_alignment(p: Printer, op: Operation) -> str:
    align = op.properties.get("alignment")
    if not isinstance(align, IntegerAttr):
        raise ValueError("no alignment: printed generically")
    (m,) = op.operands
    return f"memref.assume_alignment {p.value(m)}, {align.value}{p.attr_dict(shown_attrs(op, 'alignment'))} : {m.type}"


@custom_printer("memref.generic_atomic_rmw")
def _generic_atomic_rmw(p: Printer, op: Operation) -> str:
    m, *idx = op.operands
    text = f"memref.generic_atomic_rmw {p.value(m)}[{p.values(idx)}] : {m.type} "
    return text + p.region(op.regions[0], True, True) + p.attr_dict(shown_attrs(op))


@custom_printer("memref.atomic_yield")
def _atomic_yield(p: Printer, op: Operation) -> str:
    (v,) = op.operands
    return f"memref.atomic_yield {p.value(v)}{p.attr_dict(shown_attrs(op))} : {v.type}"


def _indexed(p: Printer, operands: list, at: int) -> tuple[str, int]:
    """`%m[%i, ...]` for the memref at `at` (its rank of indices after it)
    and the position after them."""
    m = operands[at]
    rank = _rank(m.type.text)
    return f"{p.value(m)}[{p.values(operands[at + 1 : at + 1 + rank])}]", at + 1 + rank


def _rank(memref_type: str) -> int:
    body = memref_type[len("memref<") :]
    dims = 0
    for part in body.split("x"):
        if part.strip().isdigit() or part.strip() == "?":
            dims += 1
        else:
            break
    return dims


@custom_printer("memref.dma_start")
def _dma_start(p: Printer, op: Operation) -> str:
    ops = op.operands
    src, at = _indexed(p, ops, 0)
    dst, at2 = _indexed(p, ops, at)
    tag, end = _indexed(p, ops, at2 + 1)
    text = f"memref.dma_start {src}, {dst}, {p.value(ops[at2])}, {tag}"
    if end < len(ops):
        text += f", {p.values(ops[end:])}"
    return text + f"{p.attr_dict(shown_attrs(op))} : {ops[0].type}, {ops[at].type}, {ops[at2 + 1].type}"


@custom_printer("memref.dma_wait")
def _dma_wait(p: Printer, op: Operation) -> str:
    tag, *rest = op.operands
    *idx, num = rest
    return f"memref.dma_wait {p.value(tag)}[{p.values(idx)}], {p.value(num)}{p.attr_dict(shown_attrs(op))} : {tag.type}"


@custom_printer("memref.extract_aligned_pointer_as_index", "memref.extract_strided_metadata")
def _extract(p: Printer, op: Operation) -> str:
    (m,) = op.operands
    return f"{op.name} {p.value(m)} : {m.type} -> {', '.join(str(r.type) for r in op.results)}{p.attr_dict(shown_attrs(op))}"


@custom_printer("memref.memory_space_cast")
def _memory_space_cast(p: Printer, op: Operation) -> str:
    (m,) = op.operands
    return f"{op.name} {p.value(m)}{p.attr_dict(shown_attrs(op))} : {m.type} to {op.results[0].type}"


@custom_printer("memref.prefetch")
def _prefetch(p: Printer, op: Operation) -> str:
    props = op.properties
    write, hint, data = props.get("isWrite"), props.get("localityHint"), props.get("isDataCache")
    if not all(isinstance(a, IntegerAttr) for a in (write, hint, data)):
        raise ValueError("incomplete: printed generically")
    m, *idx = op.operands
    text = f"memref.prefetch {p.value(m)}[{p.values(idx)}], {'write' if write.value else 'read'}, locality<{hint.value}>, "  # type: ignore[union-attr]  # IntegerAttrs, checked just above (mypy cannot narrow all())
    text += "data" if data.value else "instr"  # type: ignore[union-attr]  # as above
    return text + f"{p.attr_dict(shown_attrs(op, 'isWrite', 'localityHint', 'isDataCache'))} : {m.type}"


@custom_printer("memref.rank")
def _rank_op(p: Printer, op: Operation) -> str:
    (m,) = op.operands
    return f"memref.rank {p.value(m)}{p.attr_dict(shown_attrs(op))} : {m.type}"


@custom_printer("memref.realloc")
def _realloc(p: Printer, op: Operation) -> str:
    m, *size = op.operands
    text = f"memref.realloc {p.value(m)}"
    if size:
        text += f"({p.values(size)})"
    return text + f"{p.attr_dict(shown_attrs(op))} : {m.type} to {op.results[0].type}"


@custom_printer("memref.reshape")
def _reshape(p: Printer, op: Operation) -> str:
    return f"memref.reshape {p.value(op.operands[0])}({p.value(op.operands[1])}){p.attr_dict(shown_attrs(op))} : ({p.types(op.operands)}) -> {op.results[0].type}"


@custom_printer("memref.transpose")
def _transpose(p: Printer, op: Operation) -> str:
    perm = op.properties.get("permutation")
    if not (isinstance(perm, OpaqueAttr) and perm.text.startswith("affine_map<")):
        raise ValueError("no permutation map: printed generically")
    (m,) = op.operands
    body = perm.text[len("affine_map<") : -1]
    return f"memref.transpose {p.value(m)} {body}{p.attr_dict(shown_attrs(op, 'permutation'))} : {m.type} to {op.results[0].type}"
