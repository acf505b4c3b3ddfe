"""The `gpu` ops' own verifiers (MLIR's `verify()` and `verifyRegions`)
and the `gpu` dialect's attribute verifiers, with mlir-opt-19's messages
(each checked against it: tests/syntax/test_syntax_host_verifiers.py and,
for the device side, tests/syntax/test_syntax_device_verifiers.py).

Per-op dispatch: `GPU_RULES` maps each rule name the `gpu` ops' entries
give (`checked`, and `ATTRIBUTE_VERIFIERS` in `ops`) to its code, joined
to `spec.syntax.op_verifiers.RULES`, which runs them; `GPU_ON_EXIT` holds
the `verifyRegions` run on an op's exit. A rule may test the ops it meets
by name where mlir-opt-19's does (a `gpu.binary` or `gpu.module` kernel
container).

Host side:

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

Device side:

- `gpu.shuffle`: the value and first result `i32, i64, f32 or f64`, offset
  and width `32-bit signless integer`, the second result `1-bit signless
  integer` (`operand #N must be ..., but got 'T'`), value and result of one
  type (`failed to verify that all of {value, shuffleResult} have same
  type`).
- `gpu.all_reduce`, on entrance: operand and result `Integer or Float`, of
  one type (`requires the same type for all operands and results`); on
  exit (`ON_EXIT`, its `verifyRegions`, reported at the op without the
  `'gpu.all_reduce' op` prefix): an `op` attribute or a non-empty body but
  not both (`expected either an op attribute or a non-empty body`); the
  body's entry block has two arguments (`expected two region arguments`)
  of the operand's type (`incorrect region argument type`), each block
  ending in `gpu.yield` yields one value (`expected one gpu.yield
  operand`) of that type (`incorrect gpu.yield type`), and one does
  (`expected gpu.yield op in region`); the `op` kind fits the type (``
  `and` reduction operation is not compatible with type 'f32' ``).
- `gpu.func`: `known_block_size` / `known_grid_size` are 3 i32s (`attribute
  'K' failed to satisfy constraint: i32 dense array attribute with 3
  elements (if present)`), a kernel returns nothing (`expected void return
  type for kernel function`), each workgroup / private attribution is a
  ranked memref (`expected memref type in attribution`) whose
  `#gpu.address_space`, if it has one, is `workgroup` / `private`
  (`expected memory space workgroup in attribution`); other memory
  spaces, and none, pass.
- `gpu.return`: as many operands as the enclosing `gpu.func` has results
  (`expected N result operands`, with a note `return type declared here`
  at the function), of its result types (``unexpected type `'T'' for
  operand #N``).
- `gpu.known_block_size` / `gpu.known_grid_size` on any op: a dense i32
  array (`K must be a dense i32 array`) of 3 elements (`K must contain
  exactly 3 elements`); the values may be zero or negative.
- Subgroup MMA ops (at the op, without the op prefix where 19 omits it):
  `gpu.subgroup_mma_load_matrix` reads a memref of i8/i32/f16/f32 or of
  1-D vectors of them (`operand #0 must be memref of ...`) whose innermost
  stride is 1 (`expected source memref most minor dim must have unit
  stride`) at `index` indices (`operand #N must be variadic of index`,
  a store's too) into an MMA matrix (`result #0 must be MMAMatrix type`);
  `gpu.subgroup_mma_store_matrix` stores to such a memref (`expected
  destination memref most minor dim must have unit stride`) a `COp`
  matrix (`expected the operand matrix being stored to have 'COp' operand
  type`); `gpu.subgroup_mma_compute` takes si8/ui8/f16/f32 matrices and an
  i32/f16/f32 accumulator of the result's type (`failed to verify that
  all of {opC, res} have same type`), of roles AOp, BOp, COp in that order
  (`operands must be in the order AOp, BOp, COp`) and shapes MxK, KxN, MxN
  after `a_transpose` / `b_transpose` (`operand shapes do not satisfy
  matmul constraints`); `gpu.subgroup_mma_constant_matrix` a scalar of
  the matrix's element type (`failed to verify that value type matches
  element type of mma_matrix`); `gpu.subgroup_mma_elementwise` matrices
  only (`operand #N must be variadic of MMAMatrix type`). The element type
  of a load or store need not match the memref's, nor the index count its
  rank.
- `!gpu.mma_matrix` itself, as its type is read (`build_base`, at the
  type's name): a role of AOp, BOp or COp (`operand expected to be one of
  AOp, BOp or COp`), two dimensions (`MMAMatrixType must have exactly two
  dimensions`), an si8/ui8/i32/f16/f32 element (`MMAMatrixType elements
  must be SI8, UI8, I32, F16, or F32`); a static shape (`expected static
  shape`, at the `?`) and a role (`expected ','`, at the `>`).
- A launch's sizes are not compared with the kernel's known sizes.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from spec import registry
from spec.attributes import DenseArrayAttr, FunctionType, IntegerAttr, SymbolRefAttr, Type, TypeAttr, UnitAttr
from spec.diagnostics import DiagnosticError, error, note
from spec.ir import Operation, Value
from spec.syntax.op_checks import check_reduction_kind
from spec.syntax.structure import current_op_note, op_error, symbol_lookup, symbol_name_of

_CONTAINER = "gpu.container_module"
_KERNEL_OPERANDS = 11
"""`kernelOperands`' place among `gpu.launch_func`'s segments."""


def _launch_func(op: Operation) -> None:
    module = op.parent_op
    while module is not None and not registry.is_top_level(module.name):
        module = module.parent_op
    if module is None or not isinstance(module.attributes.get(_CONTAINER), UnitAttr):
        raise op_error(op, f"expected the closest surrounding module to have the '{_CONTAINER}' attribute")


def _container_module(op: Operation) -> None:
    """`GPUDialect::verifyOperationAttribute` for `gpu.container_module`."""
    if not isinstance(op.attributes.get(_CONTAINER), UnitAttr):
        return
    if not registry.is_top_level(op.name):
        raise DiagnosticError(
            error(op.loc, f"expected '{_CONTAINER}' attribute to be attached to 'builtin.module'", current_op_note(op))
        )
    if not op.regions or not op.regions[0].blocks:
        return
    table = {name: o for o in op.regions[0].blocks[0].ops if (name := symbol_name_of(o)) is not None}
    for child in op.regions[0].blocks[0].ops:
        for region in child.regions:
            for block in region.blocks:
                for launch in block.ops:
                    if registry.launches_kernel(launch.name):
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
    if not registry.function_kind(kernel.name):  # a `FunctionOpInterface` op
        raise op_error(
            launch, f"referenced kernel '{ref}' is not a function", note(kernel.loc, "see the kernel definition here")
        )
    if not isinstance(kernel.attributes.get("gpu.kernel"), UnitAttr):
        raise op_error(launch, "kernel function is missing the 'gpu.kernel' attribute")
    if registry.function_kind(kernel.name) != "gpu":
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
    body = body[_SHAPE.match(body).end() :]  # type: ignore[union-attr]  # the pattern matches the empty string: never None
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


def _plain_error(op: Operation, message: str) -> DiagnosticError:
    """`op->emitError(message)`: at the op, without the `'NAME' op` prefix."""
    return DiagnosticError(error(op.loc, message, current_op_note(op)))


def _type(v: object) -> str | None:
    t = getattr(v, "type", None)
    return t.text if isinstance(t, Type) else None


def _check_types(
    op: Operation, what: str, values: list, constraints: tuple[tuple[Callable[[str], bool], str], ...]
) -> None:
    """ODS type constraints of `op`'s operands or results (`what`), in order:
    `operand #N must be SUMMARY, but got 'T'`."""
    for i, (v, (accepts, summary)) in enumerate(zip(values, constraints)):
        t = _type(v)
        if t is not None and not accepts(t):
            raise op_error(op, f"{what} #{i} must be {summary}, but got '{t}'")


_SHUFFLE_VALUE = (lambda t: t in ("i32", "i64", "f32", "f64"), "i32, i64, f32 or f64")
_I32 = (lambda t: t == "i32", "32-bit signless integer")
_I1 = (lambda t: t == "i1", "1-bit signless integer")


def _shuffle(op: Operation) -> None:
    """`gpu.shuffle`: an i32, i64, f32 or f64 value and first result of one
    type, i32 offset and width, an i1 second result."""
    _check_types(op, "operand", list(op.operands), (_SHUFFLE_VALUE, _I32, _I32))
    _check_types(op, "result", list(op.results), (_SHUFFLE_VALUE, _I1))
    if len(op.operands) == 3 and len(op.results) == 2 and _type(op.operands[0]) != _type(op.results[0]):
        raise op_error(op, "failed to verify that all of {value, shuffleResult} have same type")


def _integer_or_float(t: str) -> bool:
    return Type(t).is_float or Type(t).int_width is not None


def _all_reduce(op: Operation) -> None:
    """`gpu.all_reduce` on entrance: an integer or float operand and result
    of one type."""
    _check_types(op, "operand", list(op.operands), ((_integer_or_float, "Integer or Float"),))
    _check_types(op, "result", list(op.results), ((_integer_or_float, "Integer or Float"),))
    types = {_type(v) for v in (*op.operands, *op.results)}
    if len(types) > 1:
        raise op_error(op, "requires the same type for all operands and results")


def _all_reduce_regions(op: Operation) -> None:
    """`gpu.all_reduce` on exit (`verifyRegions`): an `op` attribute or a
    non-empty body, not both; the body's entry block takes two values of
    the operand's type and some block yields one value of it; the `op`
    kind fits the operand's type."""
    body = op.regions[0].blocks if op.regions else []
    kind = op.properties.get("op")
    if bool(body) == (kind is not None):
        raise _plain_error(op, "expected either an op attribute or a non-empty body")
    want = _type(op.operands[0]) if op.operands else None
    if body:
        args = body[0].args
        if len(args) != 2:
            raise _plain_error(op, "expected two region arguments")
        if any(a.type.text != want for a in args):
            raise _plain_error(op, "incorrect region argument type")
        yielded = False
        for block in body:
            last = block.ops[-1] if block.ops else None
            if last is None or last.name != "gpu.yield":
                continue
            if len(last.operands) != 1:
                raise _plain_error(op, "expected one gpu.yield operand")
            if _type(last.operands[0]) != want:
                raise _plain_error(op, "incorrect gpu.yield type")
            yielded = True
        if not yielded:
            raise _plain_error(op, "expected gpu.yield op in region")
    elif op.results and want is not None:
        check_reduction_kind(kind, want, op.loc, current_op_note(op))


def _function_type(op: Operation) -> FunctionType | None:
    fn = op.properties.get("function_type")
    return fn.type if isinstance(fn, TypeAttr) and isinstance(fn.type, FunctionType) else None


_ADDRESS_SPACE = re.compile(r"#gpu\.address_space<(\w+)>")


def _gpu_func(op: Operation) -> None:
    """`gpu.func`: `known_block_size`/`known_grid_size` of 3 i32s, a kernel
    returns nothing, workgroup and private attributions are ranked memrefs
    whose `#gpu.address_space`, if any, is `workgroup` / `private`."""
    for key in ("known_block_size", "known_grid_size"):
        value = op.properties.get(key)
        if value is not None and not (
            isinstance(value, DenseArrayAttr) and value.element.text == "i32" and len(value.values) == 3
        ):
            raise op_error(
                op,
                f"attribute '{key}' failed to satisfy constraint: i32 dense array attribute with 3 elements (if present)",
            )
    fn = _function_type(op)
    if fn is None:
        return
    if isinstance(op.attributes.get("gpu.kernel"), UnitAttr) and fn.results:
        raise op_error(op, "expected void return type for kernel function")
    if not op.regions or not op.regions[0].blocks:
        return
    args = op.regions[0].blocks[0].args[len(fn.inputs) :]
    count = op.attributes.get("workgroup_attributions")
    n_workgroup = count.value if isinstance(count, IntegerAttr) else 0
    for i, arg in enumerate(args):
        space = "workgroup" if i < n_workgroup else "private"
        t = arg.type.text
        if not t.startswith("memref<") or t.startswith("memref<*"):
            raise op_error(op, "expected memref type in attribution")
        m = _ADDRESS_SPACE.search(t)
        if m is not None and m.group(1) != space:
            raise op_error(op, f"expected memory space {space} in attribution")


def _gpu_return(op: Operation) -> None:
    """`gpu.return`: the enclosing `gpu.func`'s result count and types."""
    func = op.parent_op
    fn = _function_type(func) if func is not None else None
    if func is None or fn is None:
        return
    if len(op.operands) != len(fn.results):
        raise op_error(op, f"expected {len(fn.results)} result operands", note(func.loc, "return type declared here"))
    for i, (v, want) in enumerate(zip(op.operands, fn.results, strict=True)):
        if _type(v) != want.text:
            raise op_error(op, f"unexpected type `'{_type(v)}'' for operand #{i}")


def _known_size(key: str) -> Callable[[Operation], None]:
    """`GPUDialect::verifyOperationAttribute` for `gpu.known_block_size` /
    `gpu.known_grid_size`: a dense i32 array of 3 elements, on any op."""

    def rule(op: Operation) -> None:
        value = op.attributes.get(key)
        if not (isinstance(value, DenseArrayAttr) and value.element.text == "i32"):
            raise op_error(op, f"{key} must be a dense i32 array")
        if len(value.values) != 3:
            raise op_error(op, f"{key} must contain exactly 3 elements")

    return rule


_MMA = re.compile(r'!gpu\.mma_matrix<(\d+)x(\d+)x(\w+),\s*"(\w+)">')


def _mma(t: str | None) -> tuple[int, int, str, str] | None:
    """`!gpu.mma_matrix<RxCxE, "ROLE">`: (R, C, E, ROLE)."""
    m = _MMA.fullmatch(t) if t is not None else None
    return (int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)) if m else None


_MMA_TYPE = (lambda t: _mma(t) is not None, "MMAMatrix type")
_MMA_OPERAND = (
    lambda t: (m := _mma(t)) is not None and m[2] in ("si8", "ui8", "f16", "f32"),
    "gpu.mma_matrix of 8-bit signed integer or 8-bit unsigned integer or 16-bit float or 32-bit float values",
)
_MMA_RESULT = (
    lambda t: (m := _mma(t)) is not None and m[2] in ("i32", "f16", "f32"),
    "gpu.mma_matrix of 32-bit signless integer or 16-bit float or 32-bit float values",
)
_MMA_SCALARS = ("i8", "i32", "f16", "f32")
_MMA_SCALAR = (
    lambda t: t in ("si8", "ui8", "i32", "f16", "f32"),
    "8-bit signed integer or 8-bit unsigned integer or 32-bit signless integer or 16-bit float or 32-bit float",
)


def _mma_memref(t: str) -> bool:
    if not t.startswith("memref<") or t.startswith("memref<*"):
        return False
    elem = memref_element(Type(t))
    return elem in _MMA_SCALARS or re.fullmatch(rf"vector<\d+x({'|'.join(_MMA_SCALARS)})>", elem) is not None


_MMA_MEMREF = (
    _mma_memref,
    "memref of 8-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float or vector of 8-bit signless "
    "integer or 32-bit signless integer or 16-bit float or 32-bit float values of ranks 1 values",
)
_LAST_STRIDE = re.compile(r"strided<\[(?:[^\]]*,\s*)?([^,\]\s]+)\s*\]")


def _unit_minor_stride(t: str) -> bool:
    """Whether memref type `t`'s innermost dimension has stride 1 (the
    identity layout, a `strided` one ending in 1; an `affine_map` permuting
    the dimensions does not)."""
    body = t[len("memref<") : -1]
    if "strided<" in body:
        m = _LAST_STRIDE.search(body)
        return m is not None and m.group(1) == "1"
    m = re.search(r"affine_map<\(([^)]*)\)(?:\[[^\]]*\])?\s*->\s*\(([^)]*)\)>", body)
    if m is None:
        return True
    dims = [d.strip() for d in m.group(1).split(",")]
    results = [r.strip() for r in m.group(2).split(",")]
    return bool(dims) and bool(results) and results[-1] == dims[-1]


_MMA_STORED = (
    lambda t: _mma(t) is not None,
    "gpu.mma_matrix of 8-bit signed integer or 8-bit unsigned integer or 32-bit signless integer or 16-bit float or 32-bit float values",
)


def _check_indices(op: Operation, start: int) -> None:
    """The `index` operands of an MMA load or store, from `start` on."""
    for i in range(start, len(op.operands)):
        t = _type(op.operands[i])
        if t is not None and t != "index":
            raise op_error(op, f"operand #{i} must be variadic of index, but got '{t}'")


def _mma_load(op: Operation) -> None:
    """`gpu.subgroup_mma_load_matrix`: a memref of i8/i32/f16/f32 (or
    vectors of them) whose innermost stride is 1, an MMA matrix result."""
    _check_types(op, "operand", list(op.operands[:1]), (_MMA_MEMREF,))
    _check_indices(op, 1)
    _check_types(op, "result", list(op.results), (_MMA_TYPE,))
    src = _type(op.operands[0]) if op.operands else None
    if src is not None and not _unit_minor_stride(src):
        raise _plain_error(op, "expected source memref most minor dim must have unit stride")


def _mma_store(op: Operation) -> None:
    """`gpu.subgroup_mma_store_matrix`: an MMA matrix of role `COp` stored
    to a memref whose innermost stride is 1."""
    _check_types(op, "operand", list(op.operands[:2]), (_MMA_STORED, _MMA_MEMREF))
    _check_indices(op, 2)
    if len(op.operands) < 2:
        return
    dst = _type(op.operands[1])
    if dst is not None and not _unit_minor_stride(dst):
        raise _plain_error(op, "expected destination memref most minor dim must have unit stride")
    m = _mma(_type(op.operands[0]))
    if m is not None and m[3] != "COp":
        raise _plain_error(op, "expected the operand matrix being stored to have 'COp' operand type")


def _mma_compute(op: Operation) -> None:
    """`gpu.subgroup_mma_compute`: operands of roles AOp, BOp, COp whose
    shapes multiply (MxK times KxN into MxN, after the transposes), the
    result of the accumulator's type."""
    _check_types(op, "operand", list(op.operands), (_MMA_OPERAND, _MMA_OPERAND, _MMA_RESULT))
    _check_types(op, "result", list(op.results), (_MMA_TYPE,))
    if len(op.operands) != 3 or len(op.results) != 1:
        return
    if _type(op.operands[2]) != _type(op.results[0]):
        raise op_error(op, "failed to verify that all of {opC, res} have same type")
    a, b, c = (_mma(_type(v)) for v in op.operands)
    if a is None or b is None or c is None:
        return
    if (a[3], b[3], c[3]) != ("AOp", "BOp", "COp"):
        raise _plain_error(op, "operands must be in the order AOp, BOp, COp")
    (m, k), (k2, n) = a[:2], b[:2]
    if isinstance(op.properties.get("a_transpose"), UnitAttr):
        m, k = k, m
    if isinstance(op.properties.get("b_transpose"), UnitAttr):
        k2, n = n, k2
    if k != k2 or (m, n) != c[:2]:
        raise _plain_error(op, "operand shapes do not satisfy matmul constraints")


def _mma_constant(op: Operation) -> None:
    """`gpu.subgroup_mma_constant_matrix`: a scalar of the matrix's element
    type."""
    _check_types(op, "operand", list(op.operands), (_MMA_SCALAR,))
    _check_types(op, "result", list(op.results), (_MMA_TYPE,))
    m = _mma(_type(op.results[0])) if op.results else None
    if op.operands and m is not None and _type(op.operands[0]) != m[2]:
        raise op_error(op, "failed to verify that value type matches element type of mma_matrix")


def _mma_elementwise(op: Operation) -> None:
    """`gpu.subgroup_mma_elementwise`: MMA matrix operands and result."""
    for i, v in enumerate(op.operands):
        t = _type(v)
        if t is not None and _mma(t) is None:
            raise op_error(op, f"operand #{i} must be variadic of MMAMatrix type, but got '{t}'")
    _check_types(op, "result", list(op.results), (_MMA_TYPE,))


GPU_RULES: dict[str, Callable[[Operation], None]] = {
    "gpu.launch_func": _launch_func,
    "gpu.alloc": _alloc,
    "gpu.memcpy": _memcpy,
    "gpu.memset": _memset,
    "gpu.container_module": _container_module,
    "gpu.known_block_size": _known_size("gpu.known_block_size"),
    "gpu.known_grid_size": _known_size("gpu.known_grid_size"),
    "gpu.shuffle": _shuffle,
    "gpu.all_reduce": _all_reduce,
    "gpu.func": _gpu_func,
    "gpu.return": _gpu_return,
    "gpu.subgroup_mma_load_matrix": _mma_load,
    "gpu.subgroup_mma_store_matrix": _mma_store,
    "gpu.subgroup_mma_compute": _mma_compute,
    "gpu.subgroup_mma_constant_matrix": _mma_constant,
    "gpu.subgroup_mma_elementwise": _mma_elementwise,
}
"""Each rule the `gpu` ops and attributes name, by name."""

GPU_ON_EXIT: dict[str, Callable[[Operation], None]] = {"gpu.all_reduce": _all_reduce_regions}
"""The `gpu` ops' `verifyRegions`, run on the op's exit (its regions verified)."""
