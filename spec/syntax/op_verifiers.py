"""Ops' own verifiers (MLIR's `verify()`, ODS operand type constraints and
dialect attribute verifiers) that the registry names, with mlir-opt-19's
messages (each checked against it, tests/test_syntax_host_verifiers.py).

The registry says which op has which (`OpInfo.verifier`,
`OpInfo.operand_types`, `DIALECT_ATTRIBUTE_VERIFIERS`); this module says
what each checks. `resolve.verify` runs them on an op's entrance, in
mlir-opt-19's order: the dialect attributes first, then the operand types,
then the op's own rule.

- `gpu.container_module` on a module: every `gpu.launch_func` two levels
  below it (in a function directly in the module: 19 skips deeper ones)
  names an existing kernel container (`kernel container 'M' is
  undefined`), a `gpu.binary` or a `gpu.module` (`kernel module 'M' is
  undefined`), a symbol in it (`kernel function '@M::@K' is undefined`)
  that is a function (`referenced kernel '@M' is not a function`, with a
  note at it), marked `gpu.kernel` (`kernel function is missing the
  'gpu.kernel' attribute`), and, for a `gpu.func`, with as many kernel
  operands as arguments of the same types. On any other op the attribute
  is `expected 'gpu.container_module' attribute to be attached to
  'builtin.module'`.
- `gpu.launch_func`: the closest surrounding module has
  `gpu.container_module` (an unattributed module, the implicit one too,
  does not).
- `gpu.alloc`: as many dynamic size operands as the memref type has `?`
  dims, as many symbol operands as its layout has symbols (a `strided`
  layout one per `?`, an `affine_map` its `[s0, ...]`).
- `gpu.memcpy`: one element type (`arguments have incompatible element
  type`), compatible shapes (`arguments have incompatible shape`; `?`
  matches any size); `gpu.memset`: the value of the memref's element type
  (`failed to verify that all of {dst, value} have same element type`).
- `unranked_memref` operands (`gpu.host_register`, `gpu.host_unregister`),
  `ranked_memref` ones (`gpu.memcpy`, `gpu.memset`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from spec import registry
from spec.attributes import DenseArrayAttr, SymbolRefAttr, Type, TypeAttr, UnitAttr
from spec.diagnostics import DiagnosticError, error, note
from spec.ir import Operation, Value
from spec.syntax.structure import current_op_note, op_error, symbol_lookup, symbol_name_of

TYPE_CONSTRAINTS: dict[str, tuple[Callable[[Type], bool], str]] = {
    "unranked_memref": (lambda t: t.text.startswith("memref<*"), "unranked.memref of any type values"),
    "ranked_memref": (lambda t: t.text.startswith("memref<") and not t.text.startswith("memref<*"), "memref of any type values"),
}
"""ODS type constraints: what each accepts and the summary 19 prints."""

_FUNCTIONS = frozenset({"func.func", "gpu.func", "llvm.func"})
"""Ops of `FunctionOpInterface` a launch may name."""
_CONTAINER = "gpu.container_module"
_LAUNCH = "gpu.launch_func"
_KERNEL_OPERANDS = 11
"""`kernelOperands`' place among `gpu.launch_func`'s segments."""


def _launch_func(op: Operation) -> None:
    module = op.parent_op
    while module is not None and module.name != "builtin.module":
        module = module.parent_op
    if module is None or not isinstance(module.attributes.get(_CONTAINER), UnitAttr):
        raise op_error(op, f"expected the closest surrounding module to have the '{_CONTAINER}' attribute")


def _container_module(op: Operation) -> None:
    """`GPUDialect::verifyOperationAttribute` for `gpu.container_module`."""
    if not isinstance(op.attributes.get(_CONTAINER), UnitAttr):
        return
    if op.name != "builtin.module":
        raise DiagnosticError(error(op.loc, f"expected '{_CONTAINER}' attribute to be attached to 'builtin.module'", current_op_note(op)))
    if not op.regions or not op.regions[0].blocks:
        return
    table = {name: o for o in op.regions[0].blocks[0].ops if (name := symbol_name_of(o)) is not None}
    for child in op.regions[0].blocks[0].ops:
        for region in child.regions:
            for block in region.blocks:
                for launch in block.ops:
                    if launch.name == _LAUNCH:
                        _check_kernel(launch, table)


def _check_kernel(launch: Operation, table: dict[str, Operation]) -> None:
    ref = launch.properties.get("kernel")
    if not isinstance(ref, SymbolRefAttr):
        return  # the launch's own checks report it
    container = table.get(ref.root)
    if container is None:
        raise op_error(launch, f"kernel container '{ref.root}' is undefined")
    if container.name == "gpu.binary":
        return
    if container.name != "gpu.module":
        raise op_error(launch, f"kernel module '{ref.root}' is undefined")
    kernel = symbol_lookup(ref, table)
    if kernel is None:
        raise op_error(launch, f"kernel function '{ref}' is undefined")
    if kernel.name not in _FUNCTIONS:
        raise op_error(launch, f"referenced kernel '{ref}' is not a function", note(kernel.loc, "see the kernel definition here"))
    if not isinstance(kernel.attributes.get("gpu.kernel"), UnitAttr):
        raise op_error(launch, "kernel function is missing the 'gpu.kernel' attribute")
    if kernel.name != "gpu.func":
        return
    fn = kernel.properties.get("function_type")
    if not isinstance(fn, TypeAttr) or not hasattr(fn.type, "inputs"):
        return
    inputs = fn.type.inputs
    operands = _segment(launch, _KERNEL_OPERANDS)
    if len(operands) != len(inputs):
        raise op_error(launch, f"got {len(operands)} kernel operands but expected {len(inputs)}")
    for i, (v, want) in enumerate(zip(operands, inputs, strict=True)):
        if isinstance(v, Value) and v.type != want:
            raise op_error(launch, f"type of function argument {i} does not match")


def _segment(op: Operation, index: int) -> list:
    sizes = op.properties.get("operandSegmentSizes")
    if not isinstance(sizes, DenseArrayAttr) or len(sizes.values) <= index:
        return []
    start = int(sum(sizes.values[:index]))
    return list(op.operands[start : start + int(sizes.values[index])])


def _alloc(op: Operation) -> None:
    if not op.results or not op.results[0].type.is_memref:
        return
    t = op.results[0].type
    if len(_segment(op, 1)) != sum(d is None for d in t.memref_shape()):
        raise op_error(op, "dimension operand count does not equal memref dynamic dimension count")
    symbols = layout_symbols(t.text)
    if symbols is not None and len(_segment(op, 2)) != symbols:
        raise op_error(op, "symbol operand count does not equal memref symbol count")


def _memcpy(op: Operation) -> None:
    """`MemcpyOp::verify`: the last two operands (dst, src) have one
    element type and compatible shapes (a `?` matches any size)."""
    if len(op.operands) < 2:
        return
    dst, src = op.operands[-2].type, op.operands[-1].type
    if not (isinstance(dst, Type) and isinstance(src, Type) and dst.is_memref and src.is_memref):
        return
    if memref_element(dst) != memref_element(src):
        raise op_error(op, "arguments have incompatible element type")
    if "memref<*" in (dst.text[:8], src.text[:8]):
        return
    a, b = dst.memref_shape(), src.memref_shape()
    if len(a) != len(b) or any(x is not None and y is not None and x != y for x, y in zip(a, b, strict=True)):
        raise op_error(op, "arguments have incompatible shape")


def _memset(op: Operation) -> None:
    """`AllElementTypesMatch<["dst", "value"]>`: the value's type is the
    memref's element type."""
    if len(op.operands) < 2:
        return
    dst, value = op.operands[-2].type, op.operands[-1].type
    if isinstance(dst, Type) and isinstance(value, Type) and dst.is_memref and memref_element(dst) != value.text:
        raise op_error(op, "failed to verify that all of {dst, value} have same element type")


_SHAPE = re.compile(r"(?:\*x|(?:(?:[0-9]+|\?)x)*)")


def memref_element(t: Type) -> str:
    """The element type of memref type `t` (`memref<4x?xvector<2xf32>, 3>`:
    `vector<2xf32>`)."""
    body = t.text[len("memref<") : -1]
    body = body[_SHAPE.match(body).end() :]  # type: ignore[union-attr]
    depth = 0
    for i, ch in enumerate(body):
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        elif ch == "," and depth == 0:
            return body[:i].strip()
    return body.strip()


_STRIDED = re.compile(r"strided<\[([^\]]*)\](?:,\s*offset:\s*([^>]*))?>")
_MAP_SYMBOLS = re.compile(r"affine_map<\([^)]*\)\s*(?:\[([^\]]*)\])?")


def layout_symbols(memref: str) -> int | None:
    """How many symbols the layout of memref type `memref` has (0 for the
    identity), or None where this module cannot tell (an alias)."""
    body = memref[len("memref<") : -1]
    if "," not in body:
        return 0
    if "strided<" in body:
        m = _STRIDED.search(body)
        if m is None:
            return None
        return m.group(1).count("?") + (m.group(2) or "").count("?")
    if "affine_map<" in body:
        m = _MAP_SYMBOLS.search(body)
        if m is None:
            return None
        inner = (m.group(1) or "").strip()
        return len(inner.split(",")) if inner else 0
    if "#" in body:
        return None
    return 0


RULES: dict[str, Callable[[Operation], None]] = {
    "gpu.launch_func": _launch_func,
    "gpu.alloc": _alloc,
    "gpu.memcpy": _memcpy,
    "gpu.memset": _memset,
    "gpu.container_module": _container_module,
}
"""Each rule the registry names (`OpInfo.verifier`, `DIALECT_ATTRIBUTE_VERIFIERS`)."""


def check_dialect_attributes(op: Operation) -> None:
    """The dialect attribute verifiers of `op`'s discardable attributes."""
    for key in op.attributes:
        rule = registry.DIALECT_ATTRIBUTE_VERIFIERS.get(key)
        if rule is not None:
            RULES[rule](op)


def check_op(op: Operation, info: registry.OpInfo) -> None:
    """`op`'s operand type constraints, then its own verifier."""
    for pos, constraint in info.operand_types:
        at = pos if pos >= 0 else len(op.operands) + pos
        if 0 <= at < len(op.operands):
            accepts, summary = TYPE_CONSTRAINTS[constraint]
            t = op.operands[at].type
            if isinstance(t, Type) and not accepts(t):
                raise op_error(op, f"operand #{at} must be {summary}, but got '{t}'")
    if info.verifier:
        RULES[info.verifier](op)


def custom_type_refused(name: str, at: int, t: Type) -> str | None:
    """The custom parser's message when operand `at` of op `name` is written
    with a type its constraint refuses (`invalid kind of type specified`)."""
    for pos, constraint in registry.lookup(name).operand_types:
        if pos == at and not TYPE_CONSTRAINTS[constraint][0](t):
            return f"custom op '{name}' invalid kind of type specified"
    return None
