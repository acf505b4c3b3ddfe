"""The IR of an enumerated program, made from its ops without printing or parsing.

An exhaustive run checks hundreds of thousands of small programs; reading
each one's text back costs more than proving it. `module_ir` builds the
module `parse_module(render(...), file)` would give, op for op: the same
names, operands, results, properties and attributes (with the parser's
sharing: one `Type` object per type, the shared empty dict and list where
the parser leaves them), the same regions and blocks, and every location
and value name hint as the text has them, so that a diagnostic or a
verdict's message reads the same. Each op is laid out here as
`enumeration._op_lines` prints it, line for line; the two are kept in step
by a test that compares the IR of every program of several alphabets
with the parsed one, field by field
(`tests/verifier/test_program_ir.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spec.attributes import (
    DenseArrayAttr,
    FunctionType,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    Type,
    TypeAttr,
    UnitAttr,
    shared_type,
)
from spec.ir import EMPTY_DICT, UNKNOWN_LOC, Block, Location, Operation, Region, Value
from verifier.programs.enumeration import BUF, GTOK, HEADER, Op, Program

_MEMREF = shared_type(Type(BUF))
_GPU_TOKEN = shared_type(Type(GTOK))
_ASYNC_TOKEN = shared_type(Type("!async.token"))
_INDEX = shared_type(Type("index"))
_I1 = shared_type(Type("i1"))
_I32 = shared_type(Type("i32"))
_I64 = shared_type(Type("i64"))
_F32 = shared_type(Type("f32"))
_VALUE_TYPES = {"token": shared_type(Type(f"!async.value<{GTOK}>")), "f32": shared_type(Type("!async.value<f32>"))}
_AWAITED = {"token": _GPU_TOKEN, "f32": _F32}

_new_tuple = tuple.__new__
_LAUNCH = "gpu.launch_func"
_KERNEL = SymbolRefAttr("kernels", ("k0",))
_CALLEE = SymbolRefAttr("use", ())
_HEADER_LINES = HEADER.splitlines()
FUNCTION_LINE = len(_HEADER_LINES) + 1
"""The line of `func.func @f`, after the fixed header."""


def _segments(*sizes: int) -> DenseArrayAttr:
    return DenseArrayAttr(_I32, sizes)


@dataclass
class _Builder:
    """One program's IR, made in text order: `line` is the line the next
    op is on, `values` the SSA values by name (unique in a program)."""

    file: str
    line: int = FUNCTION_LINE + 3
    values: dict[str, Value] = field(default_factory=dict)
    label: int = 1

    def loc(self, line: int, col: int) -> Location:
        # Without the named tuple's Python-level `__new__`, as unpickling makes them.
        return _new_tuple(Location, (self.file, line, col))

    def op(
        self,
        block: Block,
        name: str,
        operands: list[Value],
        results: list[tuple[str, Type]],
        col: int,
        properties: dict | None = None,
    ) -> Operation:
        """`name` on the current line, its results named from column `col`
        (`%a, %b = name ...`), appended to `block`."""
        line = self.line
        head = col + sum(len(r) + 2 for r, _ in results) + (1 if results else 0)
        op = Operation(name, operands, [], properties or EMPTY_DICT, loc=self.loc(line, head if results else col))
        at = col
        for k, (r, ty) in enumerate(results):
            v = Value(ty, op, k, r, self.loc(line, at))
            op.results.append(v)
            self.values[r] = v
            at += len(r) + 2
        op.parent = block
        block.ops.append(op)
        return op

    def ops(self, block: Block, ops: tuple[Op, ...], col: int) -> Block:
        """`ops` appended to `block` with their lines at column `col`; the
        block the next op goes into (a `cf` diamond ends in a new one)."""
        for o in ops:
            block = self.one(block, o, col)
        return block

    def region(
        self, parent: Operation, ops: tuple[Op, ...], col: int, brace: int, args: list[tuple[str, Type, int]],
        explicit: bool = False,
    ) -> Block:  # fmt: skip
        """A one-block region of `parent` holding `ops` (on the lines after
        the current one, one level in): its block is at the `{` in column
        `brace` of the current line, unless the text holds no op in it
        (no `ops` and an implicit terminator: then the parser makes the
        block, with no location). Returns the block."""
        region = parent.add_region(Region())
        block = region.append(Block(loc=self.loc(self.line, brace) if ops or explicit else UNKNOWN_LOC))
        for name, ty, at in args:
            self.values[name] = block.add_arg(ty, name, self.loc(self.line, at))
        self.line += 1
        return self.ops(block, ops, col + 2)

    def one(self, block: Block, o: Op, col: int) -> Block:
        v = self.values
        k = o.kind
        if k in ("launch", "memcpy", "memset", "dealloc"):
            deps = [v[d] for d in o.deps]
            bufs = [v[_buf(r)] for r in o.bufs]
            res = [(o.result[-1], _GPU_TOKEN)] if o.asy else []
            if k == "launch":
                c1 = v["%c1"]
                props = {
                    "kernel": _KERNEL,
                    "operandSegmentSizes": _segments(len(deps), 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0),
                }
                self.op(block, _LAUNCH, [*deps, c1, c1, c1, c1, c1, c1, *bufs], res, col, props)
            elif k == "memset":
                self.op(block, "gpu.memset", [*deps, *bufs, v["%x"]], res, col)
            else:
                self.op(block, f"gpu.{k}", [*deps, *bufs], res, col)
        elif k == "alloc":
            deps = [v[d] for d in o.deps]
            types = [_MEMREF, _GPU_TOKEN] if o.asy else [_MEMREF]
            res = list(zip(o.result, types, strict=True))
            self.op(block, "gpu.alloc", deps, res, col, {"operandSegmentSizes": _segments(len(deps), 0, 0)})
        elif k == "load":
            self.op(block, "memref.load", [v[_buf(o.bufs[0])], v["%c0"]], [(o.result[0], _F32)], col)
        elif k == "store":
            self.op(block, "memref.store", [v["%x"], v[_buf(o.bufs[0])], v["%c0"]], [], col)
        elif k == "call":
            self.op(block, "func.call", [v[_buf(o.bufs[0])]], [], col, {"callee": _CALLEE})
        elif k == "wait":
            res = [(o.result[0], _GPU_TOKEN)] if o.asy else []
            self.op(block, "gpu.wait", [v[d] for d in o.deps], res, col)
        elif k == "await":
            res = [(o.result[0], _AWAITED[o.value_type])] if o.value_type else []
            self.op(block, "async.await", [v[o.operand]], res, col)
        elif k == "if":
            return self._if(block, o, col)
        elif k in ("for", "parallel"):
            return self._loop(block, o, col)
        elif k == "while":
            return self._while(block, o, col)
        elif k == "execute":
            return self._execute(block, o, col)
        elif k == "cond_br":
            return self._cond_br(block, o, col)
        else:
            raise ValueError(f"unknown op kind {k}")
        self.line += 1
        return block

    def _terminator(self, block: Block, name: str, loc: Location, operands: list[Value] | None = None) -> None:
        op = Operation(name, operands or [], [], loc=loc)
        op.parent = block
        block.ops.append(op)

    def _if(self, block: Block, o: Op, col: int) -> Block:
        # `scf.if %p0 {`, then `} else {` when the second region holds ops;
        # the `scf.yield`s are implicit, at the `if`'s location.
        op = self.op(block, "scf.if", [self.values[o.operand]], [], col)
        then, other = o.regions
        self._terminator(self.region(op, then, col, col + len(f"scf.if {o.operand} "), []), "scf.yield", op.loc)
        if other:
            self._terminator(self.region(op, other, col, col + len("} else "), []), "scf.yield", op.loc)
        else:
            op.add_region(Region())
        self.line += 1
        return block

    def _loop(self, block: Block, o: Op, col: int) -> Block:
        v = self.values
        bounds = [v["%c0"], v["%n"], v["%c1"]]
        iv = o.result[0]
        if o.kind == "for":
            op = self.op(block, "scf.for", bounds, [], col)
            arg, brace, end = col + len("scf.for "), col + len(f"scf.for {iv} = %c0 to %n step %c1 "), "scf.yield"
        else:
            op = self.op(block, "scf.parallel", bounds, [], col, {"operandSegmentSizes": _segments(1, 1, 1, 0)})
            arg, brace = col + len("scf.parallel ("), col + len(f"scf.parallel ({iv}) = (%c0) to (%n) step (%c1) ")
            end = "scf.reduce"
        body = self.region(op, o.regions[0], col, brace, [(iv, _INDEX, arg)])
        self._terminator(body, end, op.loc)
        self.line += 1
        return block

    def _while(self, block: Block, o: Op, col: int) -> Block:
        # Both regions end in written terminators: `scf.condition(%p)`,
        # then `} do {` and `scf.yield`.
        op = self.op(block, "scf.while", [], [], col)
        before = self.region(op, o.regions[0], col, col + len("scf.while : () -> () "), [], explicit=True)
        self._terminator(before, "scf.condition", self.loc(self.line, col + 2), [self.values[o.operand]])
        self.line += 1
        after = self.region(op, o.regions[1], col, col + len("} do "), [], explicit=True)
        self._terminator(after, "scf.yield", self.loc(self.line, col + 2))
        self.line += 2
        return block

    def _execute(self, block: Block, o: Op, col: int) -> Block:
        v = self.values
        deps = [v[d] for d in o.deps]
        res = [(o.result[0], _ASYNC_TOKEN)]
        if o.value_type:
            res.append((o.result[1], _VALUE_TYPES[o.value_type]))
        op = self.op(block, "async.execute", deps, res, col, {"operandSegmentSizes": _segments(len(deps), 0)})
        head = ", ".join(o.result) + " = async.execute" + (f" [{', '.join(o.deps)}]" if o.deps else "")
        if o.value_type:
            head += f" -> !async.value<{GTOK if o.value_type == 'token' else 'f32'}>"
        body = self.region(op, o.regions[0], col, col + len(head) + 1, [], explicit=True)
        yielded = [v[o.operand]] if o.value_type else []
        self._terminator(body, "async.yield", self.loc(self.line, col + 2), yielded)
        self.line += 2
        return block

    def _cond_br(self, block: Block, o: Op, col: int) -> Block:
        # `cf.cond_br %p, ^bbT, ^bbE`, each target `^bbN:` at column 3
        # ending in `cf.br ^bbJ`, and the join block `^bbJ:`, where the
        # function's body goes on.
        t, e, j = self.label, self.label + 1, self.label + 2
        self.label += 3
        op = self.op(
            block, "cf.cond_br", [self.values[o.operand]], [], col, {"operandSegmentSizes": _segments(1, 0, 0)}
        )
        region = block.parent
        if region is None:
            raise ValueError("cf.cond_br outside a region")
        self.line += 1
        targets = []
        join = Block(f"^bb{j}")
        for n, ops in ((t, o.regions[0]), (e, o.regions[1])):
            target = region.append(Block(f"^bb{n}", self.loc(self.line, 3)))
            targets.append(target)
            self.line += 1
            end = self.ops(target, ops, col)
            br = Operation("cf.br", [], [], successors=[join], loc=self.loc(self.line, col))
            br.parent = end
            end.ops.append(br)
            self.line += 1
        op.successors = targets
        join.loc = self.loc(self.line, 3)
        region.append(join)
        self.line += 1
        return join


def _buf(ref: tuple[str, int]) -> str:
    kind, j = ref
    return f"%b{j}" if kind == "b" else f"%m{j}"


def module_ir(body: tuple[Op, ...], ret: str, nbuf: int, ncond: int, targ: bool, file: str = "<input>") -> Operation:
    """The module `parse_module(render(body, ret, nbuf, ncond, targ), file)` gives."""
    b = _Builder(file)
    lines = _HEADER_LINES
    module = Operation("builtin.module", [], [], attributes={"gpu.container_module": UnitAttr()}, loc=b.loc(1, 1))
    top = module.add_region(Region()).append(Block(loc=b.loc(1, lines[0].rindex("{") + 1)))
    kernels = _header_op(top, "gpu.module", b.loc(2, 3), {"sym_name": StringAttr("kernels")}, EMPTY_DICT)
    kblock = kernels.add_region(Region()).append(Block(loc=b.loc(2, lines[1].rindex("{") + 1)))
    kernel = _header_op(
        kblock, "gpu.func", b.loc(3, 5), {"function_type": TypeAttr(FunctionType((_MEMREF,), ()))},
        {"sym_name": StringAttr("k0"), "workgroup_attributions": IntegerAttr(0, _I64), "gpu.kernel": UnitAttr()},
    )  # fmt: skip
    entry = kernel.add_region(Region()).append(Block(loc=b.loc(3, lines[2].rindex("{") + 1)))
    entry.add_arg(_MEMREF, "%arg0", b.loc(3, lines[2].index("%arg0") + 1))
    _header_op(entry, "gpu.return", b.loc(4, 7), EMPTY_DICT, EMPTY_DICT)
    use_type = TypeAttr(FunctionType((_MEMREF,), ()))
    use = _header_op(
        top, "func.func", b.loc(7, 3),
        {"sym_name": StringAttr("use"), "function_type": use_type, "sym_visibility": StringAttr("private")}, EMPTY_DICT,
    )  # fmt: skip
    use.add_region(Region())
    # `func.func @f(ARGS) [-> !gpu.async.token] {`, as `enumeration.render` writes it.
    args = [(f"%b{j}", _MEMREF) for j in range(nbuf)]
    args += [("%a0", _GPU_TOKEN)] if targ else []
    args += [(f"%p{j}", _I1) for j in range(ncond)]
    args += [("%n", _INDEX), ("%x", _F32)]
    ftype = FunctionType(tuple(t for _, t in args), (_GPU_TOKEN,) if ret else ())
    f = _header_op(
        top,
        "func.func",
        b.loc(FUNCTION_LINE, 3),
        {"sym_name": StringAttr("f"), "function_type": TypeAttr(ftype)},
        EMPTY_DICT,
    )
    head = (
        "  func.func @f(" + ", ".join(f"{n}: {t.text}" for n, t in args) + ")" + (f" -> {GTOK}" if ret else "") + " {"
    )
    fblock = f.add_region(Region()).append(Block(loc=b.loc(FUNCTION_LINE, len(head))))
    at = len("  func.func @f(") + 1
    for name, ty in args:
        b.values[name] = fblock.add_arg(ty, name, b.loc(FUNCTION_LINE, at))
        at += len(name) + len(ty.text) + 4
    for k, name in enumerate(("%c0", "%c1")):
        b.line = FUNCTION_LINE + 1 + k
        b.op(fblock, "arith.constant", [], [(name, _INDEX)], 5, {"value": IntegerAttr(k, _INDEX)})
    b.line = FUNCTION_LINE + 3
    last = b.ops(fblock, body, 5)
    b._terminator(last, "func.return", b.loc(b.line, 5), [b.values[ret]] if ret else [])
    return module


def _header_op(block: Block, name: str, loc: Location, properties: dict, attributes: dict) -> Operation:
    return block.append(Operation(name, [], [], properties, attributes, loc=loc))


def program_ir(p: Program, file: str = "<input>") -> Operation | None:
    """`module_ir` of an enumerated program; None if only its text is known (`Program.arguments`)."""
    if p.arguments is None:
        return None
    return module_ir(p.body, p.ret, *p.arguments, file=file)
