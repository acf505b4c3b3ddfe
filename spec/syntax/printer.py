"""IR to text, as `mlir-opt-19` prints it (custom form or `--mlir-print-op-generic`).

Value naming follows MLIR's `SSANameState`:

- Ops may suggest result names (`%c0`, `%alloc`, `%memref`, `%token`...),
  made unique with `_N` from one counter shared by the whole naming context.
- Entry-block arguments are `%argN`; other values `%N`; non-entry blocks
  are `^bbN`, numbered per region.
- Regions are numbered after the whole enclosing region. In the custom form
  each region starts from the counters its parent region ended with (so
  sibling regions reuse numbers); in the generic form the counters simply run
  on, regions taken last-pushed-first, as mlir-opt-19 does.

The custom forms are not here: `Printer` is handed its table of custom-form
printers when it is built (`spec.syntax.printing` builds the full one from
the dialect-group modules, which import this module's helpers, never the
other way round). `spec.syntax.printing.print_op` is the entry point.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from spec import registry
from spec.attributes import I1, Attr, FunctionType, format_attr_entries, quote_string
from spec.ir import Block, Operation, Region, Value


@dataclass
class _Names:
    values: dict[Value, str] = field(default_factory=dict)
    """Printed name of every value without `#k` (e.g. `%0`, `%memref`)."""
    group: dict[Value, tuple[int, int]] = field(default_factory=dict)
    """For results in a multi-result group: (index in group, group size)."""
    groups: dict[Operation, list[tuple[int, int]]] = field(default_factory=dict)
    """Result groups of each op: (first result, size)."""
    blocks: dict[Block, tuple[str, int]] = field(default_factory=dict)


def _sanitize(name: str) -> str:
    out = []
    for ch in name:
        if (ch.isascii() and ch.isalnum()) or ch in "$._-":
            out.append(ch)
        elif ch == " ":
            out.append("_")
        else:
            # MLIR hex-encodes each byte of the UTF-8 spelling.
            out.extend(f"{b:X}" for b in ch.encode("utf-8", "surrogateescape"))
    text = "".join(out)
    return "_" + text if text[:1].isdigit() else text


class _Namer:
    def __init__(self, names: _Names, generic: bool) -> None:
        self.n = names
        self.generic = generic
        self.next_value = 0
        self.next_arg = 0
        self.next_conflict = 0
        self.used: list[set[str]] = [set()]

    def unique(self, name: str) -> str:
        name = _sanitize(name)
        if any(name in s for s in self.used):
            while True:
                probe = f"{name}_{self.next_conflict}"
                self.next_conflict += 1
                if not any(probe in s for s in self.used):
                    name = probe
                    break
        self.used[-1].add(name)
        return name

    def set_name(self, v: Value, hint: str) -> None:
        if not hint:
            self.n.values[v] = f"%{self.next_value}"
            self.next_value += 1
        else:
            self.n.values[v] = "%" + self.unique(hint)

    def number_op(self, op: Operation) -> None:
        if not op.results:
            return
        starts = [0]
        if not self.generic:
            for index, hint in result_name_hints(op):
                self.set_name(op.results[index], hint)
                if index:
                    starts.append(index)
        first = op.results[0]
        if first not in self.n.values:
            self.n.values[first] = f"%{self.next_value}"
            self.next_value += 1
        starts = sorted(set(starts))
        bounds = [*starts, len(op.results)]
        groups = [(bounds[i], bounds[i + 1] - bounds[i]) for i in range(len(starts))]
        self.n.groups[op] = groups
        for start, size in groups:
            base = self.n.values[op.results[start]]
            for k in range(size):
                r = op.results[start + k]
                self.n.values[r] = base
                if size > 1:
                    self.n.group[r] = (k, size)

    def number_region(self, region: Region) -> None:
        for i, block in enumerate(region.blocks):
            self.n.blocks[block] = (f"^bb{i}", i)
            entry = i == 0
            for arg in block.args:
                if entry:
                    self.n.values[arg] = f"%arg{self.next_arg}"
                    self.next_arg += 1
                else:
                    self.n.values[arg] = f"%{self.next_value}"
                    self.next_value += 1
            for op in block.ops:
                self.number_op(op)

    def run(self, top: Operation) -> None:
        self.number_op(top)
        # (region, counters, depth of the name scope of its parent)
        stack: list[tuple[Region, tuple[int, int, int], int]] = []
        for region in top.regions:
            stack.append((region, (self.next_value, self.next_arg, self.next_conflict), 1))
        while stack:
            region, counters, depth = stack.pop()
            if not self.generic:
                self.next_value, self.next_arg, self.next_conflict = counters
            del self.used[depth:]
            self.used.append(set())
            self.number_region(region)
            snapshot = (self.next_value, self.next_arg, self.next_conflict)
            for block in region.blocks:
                for op in block.ops:
                    for inner in op.regions:
                        stack.append((inner, snapshot, depth + 1))


def result_name_hints(op: Operation) -> list[tuple[int, str]]:
    """(result index, suggested name) as the op's `getAsmResultNames` gives."""
    from spec.attributes import FloatAttr, IntegerAttr

    name = op.name
    if name == "arith.constant":
        value = op.properties.get("value")
        if isinstance(value, IntegerAttr):
            if value.type.text == "i1":
                return [(0, "true" if value.value else "false")]
            suffix = "" if value.type.text == "index" else f"_{value.type}"
            return [(0, f"c{value.value}{suffix}")]
        del FloatAttr
        return [(0, "cst")]
    simple = {
        "memref.alloc": "alloc",
        "memref.alloca": "alloca",
        "memref.dim": "dim",
        "memref.cast": "cast",
        "memref.subview": "subview",
        "memref.collapse_shape": "collapse_shape",
        "memref.expand_shape": "expand_shape",
        "memref.reinterpret_cast": "reinterpret_cast",
        "memref.view": "view",
    }
    if name in simple:
        return [(0, simple[name])]
    form = registry.lookup(name).library_form
    if form is not None:
        # Results are named after the op's ODS results, unless the token is
        # the only one.
        if not op.results or not form.results or (len(op.results) == 1 and op.results[0].type.is_gpu_token):
            return []
        hints = [(0, form.results[0][0])]
        n_var = len(op.results) - len(form.results) - (1 if op.results[-1].type.is_gpu_token else 0) + 1
        at = 0
        for k, (rname, kind) in enumerate(form.results):
            if k:
                hints.append((at, rname))
            at += n_var if kind.endswith("*") else 1
        if op.results[-1].type.is_gpu_token:
            hints.append((len(op.results) - 1, "asyncToken"))
        return hints
    if name == "gpu.alloc":
        hints = [(0, "memref")]
        if len(op.results) > 1:
            hints.append((1, "asyncToken"))
        return hints
    if name == "async.execute":
        hints = [(0, "token")]
        if len(op.results) > 1:
            hints.append((1, "bodyResults"))
        return hints
    if name == "gpu.shuffle":
        return [(0, "shuffleResult"), (1, "valid")]
    if name in (
        "gpu.thread_id",
        "gpu.block_id",
        "gpu.block_dim",
        "gpu.grid_dim",
        "gpu.cluster_id",
        "gpu.cluster_dim",
        "gpu.global_id",
    ):
        dim = str(op.properties.get("dimension", "")).removeprefix("#gpu<dim ").rstrip(">")
        return [(0, f"{name.split('.', 1)[1]}_{dim}")]
    return registry_result_names(op)


def registry_result_names(op: Operation) -> list[tuple[int, str]]:
    """The names of the registry's `result_names` fact (see there)."""
    names = registry.lookup(op.name).result_names
    if not names or not op.results:
        return []
    value = op.properties.get("value")
    fields = {
        "name": op.name.split(".", 1)[1],
        "dim": str(op.properties.get("dimension", "")).removeprefix("#gpu<dim ").rstrip(">"),
        "value": ("true" if getattr(value, "value", 0) else "false")
        if getattr(value, "type", None) == I1
        else getattr(value, "value", ""),
    }
    groups = sum(1 for n in names if n.endswith("*"))
    share = (len(op.results) - (len(names) - groups)) // groups if groups else 0
    hints, at = [], 0
    for n in names:
        if at < len(op.results) and (share or not n.endswith("*")):
            hints.append((at, n.removesuffix("*").format(**fields)))
        at += share if n.endswith("*") else 1
    return hints


CustomPrinter = Callable[["Printer", Operation], str]
"""The custom form of one op: its text after `%results = `."""


class Printer:
    """Prints one top-level op (normally a `builtin.module`).

    `custom` maps op names to their custom-form printers; an op without an
    entry, or every op when `generic`, prints in the generic form."""

    def __init__(self, generic: bool = False, custom: Mapping[str, CustomPrinter] | None = None) -> None:
        self.generic = generic
        self.custom: Mapping[str, CustomPrinter] = {} if custom is None else custom
        self.names = _Names()
        self._preds: dict[int, dict[int, list[Block]]] = {}
        """Per region (by id): each block's predecessors, in block order (`pred_comment`)."""
        self.indent = 0

    # -- names ---------------------------------------------------------------
    def value(self, v: Value) -> str:
        name = self.names.values.get(v)
        if name is None:
            return "<<UNKNOWN SSA VALUE>>"
        g = self.names.group.get(v)
        return f"{name}#{g[0]}" if g else name

    def values(self, vs: list[Value]) -> str:
        return ", ".join(self.value(v) for v in vs)

    def block_name(self, b: Block) -> str:
        return self.names.blocks.get(b, ("^INVALIDBLOCK", -1))[0]

    def types(self, vs: list[Value]) -> str:
        return ", ".join(str(v.type) for v in vs)

    def number(self, scope: Operation) -> None:
        """Name the values and blocks of `scope` and of everything inside it,
        as mlir-opt numbers them (`print_top` does this first); `op` can then
        print any op inside `scope` (e.g. with local scope, numbered from an
        isolated-from-above ancestor)."""
        _Namer(self.names, self.generic).run(scope)

    # -- attributes ------------------------------------------------------------
    def attr_dict(self, attrs: dict[str, Attr], elided: tuple[str, ...] = (), keyword: bool = False) -> str:
        """` {a = 1 : i64}` (leading blank) or `` when nothing is left."""
        shown = {k: v for k, v in attrs.items() if k not in elided}
        if not shown:
            return ""
        return (" attributes" if keyword else "") + " {" + format_attr_entries(shown) + "}"

    # -- ops --------------------------------------------------------------------
    def print_top(self, top: Operation) -> str:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20000))
        try:
            self.number(top)
            return self.op(top) + "\n"
        finally:
            sys.setrecursionlimit(old)

    def results_prefix(self, op: Operation) -> str:
        if not op.results:
            return ""
        groups = self.names.groups.get(op, [(0, len(op.results))])
        parts = []
        for start, size in groups:
            base = self.names.values[op.results[start]]
            parts.append(base if size == 1 else f"{base}:{size}")
        return ", ".join(parts) + " = "

    def op(self, op: Operation) -> str:
        printer = None if self.generic else self.custom.get(op.name)
        if printer is None:
            return self.results_prefix(op) + self.generic_op(op)
        indent = self.indent
        try:
            body = printer(self, op)
        except (KeyError, IndexError, AttributeError, ValueError, TypeError, AssertionError):
            # A known op written generically in a shape its custom form
            # cannot show (mlir-opt's verifier would reject it): print it
            # generically so the output still parses back to the same IR.
            self.indent = indent
            body = self.generic_op(op)
        return self.results_prefix(op) + body

    def op_name(self, op: Operation) -> str:
        """The op name, without the `func.` prefix directly inside a function
        (the function's default dialect)."""
        parent = op.parent_op
        if parent is not None:
            dialect = registry.lookup(parent.name).default_dialect
            if dialect and op.name.startswith(dialect + "."):
                return op.name[len(dialect) + 1 :]
        return op.name

    def generic_op(self, op: Operation) -> str:
        out = [f"{quote_string(op.name)}({self.values(op.operands)})"]
        if op.successors:
            out.append("[" + ", ".join(self.block_name(b) for b in op.successors) + "]")
        if op.properties:
            out.append(" <{" + format_attr_entries(op.properties) + "}>")
        if op.regions:
            out.append(" (" + ", ".join(self.region(r, True, True, generic=True) for r in op.regions) + ")")
        if op.attributes:
            out.append(" {" + format_attr_entries(op.attributes) + "}")
        fn = FunctionType(tuple(v.type for v in op.operands), tuple(v.type for v in op.results))
        out.append(f" : {fn}")
        return "".join(out)

    # -- regions ------------------------------------------------------------------
    def region(self, region: Region, print_entry_args: bool, print_terminators: bool, generic: bool = False) -> str:
        lines = ["{"]
        if region.blocks:
            entry = region.blocks[0]
            # An empty entry block gets a label, unless the generic form
            # adds an implicit terminator to it (`gpu.module_end`).
            implicit = (
                len(region.blocks) == 1
                and region.parent is not None
                and registry.lookup(region.parent.name).generic_terminator
            )
            header = (generic and not entry.ops and not implicit) or (print_entry_args and bool(entry.args))
            self.block(entry, header, print_terminators, lines)
            for b in region.blocks[1:]:
                self.block(b, True, True, lines)
        lines.append(" " * self.indent + "}")
        return "\n".join(lines)

    def block(self, block: Block, header: bool, print_terminator: bool, lines: list[str]) -> None:
        if header:
            label = " " * self.indent + self.block_name(block)
            if block.args:
                label += "(" + ", ".join(f"{self.value(a)}: {a.type}" for a in block.args) + ")"
            label += ":"
            label += self.pred_comment(block)
            lines.append(label)
        ops = block.ops
        if not print_terminator and ops and registry.lookup(ops[-1].name).terminator:
            ops = ops[:-1]
        self.indent += 2
        pad = " " * self.indent
        for op in ops:
            lines.append(pad + self.op(op))
        parent = block.parent_op
        if self.generic and parent is not None:
            implicit = registry.lookup(parent.name).generic_terminator
            if implicit and block is block.parent.blocks[-1]:  # type: ignore[union-attr]  # a block with a parent op is in a region
                lines.append(pad + f'"{implicit}"() : () -> ()')
        self.indent -= 2

    def pred_comment(self, block: Block) -> str:
        region = block.parent
        if region is None:
            return "  // block is not in a region!"
        table = self._preds.get(id(region))
        if table is None:
            # Once per region: a block's predecessors by a scan of all the
            # region's blocks would make a 10,000-block region quadratic.
            table = self._preds[id(region)] = {}
            for b in region.blocks:
                for s in b.successors():
                    table.setdefault(id(s), []).append(b)
        preds = list(table.get(id(block), ()))
        if not preds:
            return "" if region.blocks and region.blocks[0] is block else "  // no predecessors"
        if len(preds) == 1:  # one use, as Block::getSinglePredecessor
            return f"  // pred: {self.block_name(preds[0])}"
        preds.sort(key=lambda b: self.names.blocks[b][1])
        return f"  // {len(preds)} preds: " + ", ".join(self.block_name(p) for p in preds)
