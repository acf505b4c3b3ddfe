"""What the pass must not touch: everything of the module but function bodies.

`-gpu-async-region` rewrites the bodies of host functions and nothing else.
`correspondence.match` compares each function (its attributes included);
this module compares the rest, which must come out exactly as it went in:

- the attributes of every `builtin.module` (the top-level one and nested
  ones);
- every op of a module's body that is not a `func.func` with a body, paired
  in order: declarations, globals, nested modules (compared the same way,
  their functions with bodies left to `correspondence.match`), and
  `gpu.module`s, whose kernels are compared whole: a changed kernel is a
  changed program, whatever the host code does.

The comparison is structural: op names, attributes and properties (a
property at its registry default, `registry.OpInfo.elided_defaults`, the
same as none, as in `correspondence`), operands through a value map built
while comparing, result and block argument types, regions, and successors
by position. Locations and value names do not matter. The first difference
is reported as a `mismatch` with both locations.
"""

from __future__ import annotations

from spec import registry
from spec.ir import Block, Operation, Value
from verifier.match.correspondence import Mismatch, block_name, same_props


def _has_body(op: Operation) -> bool:
    return registry.is_host_function(op.name) and bool(op.regions) and bool(op.regions[0].blocks)


def _symbol(op: Operation) -> str | None:
    sym = op.properties.get("sym_name") or op.attributes.get("sym_name")
    if sym is None:
        return None
    return getattr(sym, "value", None) or str(sym).strip('"')


def _key(op: Operation) -> tuple[str, str | None]:
    """What pairs top-level ops when one side has an op more: name and symbol."""
    return op.name, _symbol(op)


def _label(op: Operation) -> str:
    """How a message names an op: `'gpu.func' op @kernels::@k` (its symbol,
    nested in its ancestors'), `'arith.constant' op (in @kernels::@k)`."""
    names = []
    cur: Operation | None = op
    while cur is not None:
        sym = _symbol(cur)
        if sym:
            names.append(f"@{sym}")
        cur = cur.parent_op
    path = "::".join(reversed(names))
    if not path:
        return f"'{op.name}' op"
    return f"'{op.name}' op " + (path if _symbol(op) else f"(in {path})")


class _Strict:
    """Compares two op trees that must be equal, up to names and locations."""

    def __init__(self) -> None:
        self.vmap: dict[Value, Value] = {}
        self.mismatches: list[Mismatch] = []
        self.later: list[tuple[Value, Value, Operation, Operation]] = []
        """Operands whose definition was not compared yet (a block that
        comes after its user's block in the region): checked at the end."""

    def fail(self, message: str, out_op: Operation, in_op: Operation) -> bool:
        self.mismatches.append(Mismatch("mismatch", message, out_op, in_op))
        return False

    def module(self, a: Operation, b: Operation) -> bool:
        """A `builtin.module`: its attributes, then its body's ops other
        than functions with bodies, in order."""
        if not self.head(a, b):
            return False
        ins = [op for op in _body(a) if not _has_body(op)]
        outs = [op for op in _body(b) if not _has_body(op)]
        for x, y in zip(ins, outs):
            if _key(x) != _key(y) and len(ins) != len(outs):
                break  # an op added or removed here: said below
            if registry.is_top_level(x.name) and registry.is_top_level(y.name):
                if not self.module(x, y):
                    return False
            elif not self.op(x, y):
                return False
        k = next((k for k, (x, y) in enumerate(zip(ins, outs)) if _key(x) != _key(y)), min(len(ins), len(outs)))
        if len(outs) > len(ins):
            extra = outs[k]
            return self.fail(
                f"{_label(extra)} has no counterpart in the input (the pass adds nothing outside functions)", extra, a
            )
        if len(ins) > len(outs):
            gone = ins[k]
            return self.fail(f"{_label(gone)} of the input is missing from the output", b, gone)
        return True

    def head(self, a: Operation, b: Operation) -> bool:
        """Name, attributes, operands and result types of a pair."""
        if a.name != b.name:
            return self.fail(f"{_label(b)} is where the input has {_label(a)}", b, a)
        if a.attributes != b.attributes or not same_props(a, b):
            return self.fail(f"{_label(b)} has attributes different from the input's", b, a)
        if len(a.operands) != len(b.operands):
            return self.fail(f"{_label(b)} has operands different from the input's", b, a)
        for k, (x, y) in enumerate(zip(a.operands, b.operands)):
            if x not in self.vmap:
                self.later.append((x, y, a, b))
            elif self.vmap[x] is not y:
                return self.fail(f"{_label(b)} operand #{k} is not the value the input uses", b, a)
        if [r.type for r in a.results] != [r.type for r in b.results]:
            return self.fail(f"{_label(b)} has results different from the input's", b, a)
        self.vmap.update(zip(a.results, b.results))
        return True

    def op(self, a: Operation, b: Operation) -> bool:
        """The whole tree under a pair (iteratively: kernels can be long)."""
        stack = [(a, b)]
        while stack:
            x, y = stack.pop()
            if not self.head(x, y):
                return False
            if len(x.successors) != len(y.successors):
                return self.fail(f"{_label(y)} has successors different from the input's", y, x)
            for k, (sx, sy) in enumerate(zip(x.successors, y.successors)):
                if _position(sx) != _position(sy):
                    return self.fail(
                        f"{_label(y)} successor #{k} is {block_name(sy)}, where the input branches to {block_name(sx)}",
                        y,
                        x,
                    )
            if len(x.regions) != len(y.regions):
                return self.fail(f"{_label(y)} has regions different from the input's", y, x)
            pending: list[tuple[Operation, Operation]] = []
            for ra, rb in zip(x.regions, y.regions):
                if len(ra.blocks) != len(rb.blocks):
                    return self.fail(f"{_label(y)} has a region with a different number of blocks", y, x)
                for ba, bb in zip(ra.blocks, rb.blocks):
                    if [v.type for v in ba.args] != [v.type for v in bb.args]:
                        return self.fail(
                            f"{_label(y)}: block {block_name(bb)} has arguments different from the input's", y, x
                        )
                    self.vmap.update(zip(ba.args, bb.args))
                for ba, bb in zip(ra.blocks, rb.blocks):
                    if not self.ops(ba, bb, y, x, pending):
                        return False
            # Ops in order, so a definition is compared before its uses.
            stack.extend(reversed(pending))
        return True

    def ops(
        self,
        ba: Block,
        bb: Block,
        out_owner: Operation,
        in_owner: Operation,
        pending: list[tuple[Operation, Operation]],
    ) -> bool:
        """Pair the ops of two blocks by position (compared later, in order)."""
        for x, y in zip(ba.ops, bb.ops):
            if x.name != y.name:
                return self.fail(f"'{y.name}' op is where the input has '{x.name}' (inside {_label(in_owner)})", y, x)
            pending.append((x, y))
        if len(bb.ops) > len(ba.ops):
            extra = bb.ops[len(ba.ops)]
            return self.fail(
                f"'{extra.name}' op has no counterpart in the input (inside {_label(in_owner)})", extra, in_owner
            )
        if len(ba.ops) > len(bb.ops):
            gone = ba.ops[len(bb.ops)]
            return self.fail(
                f"'{gone.name}' op of the input is missing from the output (inside {_label(in_owner)})", out_owner, gone
            )
        return True


def _body(module: Operation) -> list[Operation]:
    if not module.regions or not module.regions[0].blocks:
        return []
    return module.regions[0].blocks[0].ops


def _position(b: Block) -> int:
    return b.parent.blocks.index(b) if b.parent is not None else -1


def match_module(input_module: Operation, output_module: Operation) -> list[Mismatch]:
    """Differences outside function bodies (at most one: the first)."""
    s = _Strict()
    if registry.is_top_level(input_module.name) and registry.is_top_level(output_module.name):
        same = s.module(input_module, output_module)
    else:
        same = s.op(input_module, output_module)
    if same:
        for x, y, a, b in s.later:
            if s.vmap.get(x) is not y:
                s.fail(f"{_label(b)} has an operand that is not the value the input uses", b, a)
                break
    return s.mismatches
