"""The `vector` ops' verifiers as mlir-opt-19 runs them, with its messages
(each compared with it, `tests/syntax/test_syntax_vector.py`).

For each op, in 19's order: its ODS operand and result type constraints
(`operand #N must be SUMMARY, but got 'T'`), its ODS predicates (`failed to
verify that ...`), its own `verify()`, and, for `vector.extract`, the
result type it infers (`inferred type(s) ... are incompatible ...`, then
`failed to infer returned types`). Attribute constraints are checked before,
with those of every op (`spec.syntax.op_checks`).

What the checks read of the types: vector shapes with their scalable dims
(`spec.attributes.VectorShape`), memref shapes, layouts and memory spaces
(`spec.syntax.memref_layouts`), element sizes in bits as MLIR's default
data layout gives them (`index` 64), affine maps (`spec.syntax.affine`).

The subset's own refusal is here too: a transfer of a tensor (19 declares
no memory effect for it, this tool's registry gives effects by op name), in
the generic form; the custom form refuses it as it is read
(`spec.dialects.vector.syntax`).

Per-op dispatch: `RULES` maps each `vector` op the registry names a
verifier for to its rule (joined to `spec.syntax.op_verifiers.RULES`).

The helpers on transfer maps and masks (`parse_map`, `is_minor_identity`,
`transfer_mask_type`) are shared with the dialect's parser and the
semantics.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

from spec.attributes import (
    I1,
    ArrayAttr,
    Attr,
    DenseArrayAttr,
    IntegerAttr,
    OpaqueAttr,
    Type,
    VectorShape,
    bit_width,
    shared_type,
)
from spec.diagnostics import DiagnosticError, error
from spec.invariant import InternalError
from spec.ir import Operation, Value
from spec.syntax import affine
from spec.syntax import memref_layouts as layouts
from spec.syntax.build_base import K_DYNAMIC, memref_element
from spec.syntax.dialect_attrs.vector_enums import KINDS
from spec.syntax.op_checks import declared
from spec.syntax.structure import current_op_note, op_diagnostic, op_error

Constraint = tuple[Callable[[Type], bool], str]
"""An ODS type constraint: what it accepts, and the summary 19 prints."""


def _vec(pred: Callable[[VectorShape], bool], summary: str) -> Constraint:
    return (lambda t: (v := t.vector) is not None and pred(v)), summary


def _is_float(t: Type) -> bool:
    return t.is_float or t.text in ("tf32", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ", "f8E4M3B11FNUZ")


def _is_int(t: Type) -> bool:
    return t.int_width is not None


ANY_VECTOR = _vec(lambda v: True, "vector of any type values")
FLOAT_VECTOR = _vec(lambda v: _is_float(v.element), "vector of floating-point values")
I1_VECTOR = _vec(lambda v: v.element.text == "i1", "vector of 1-bit signless integer values")
I1_VECTOR_RANK1 = _vec(
    lambda v: v.element.text == "i1" and v.rank == 1, "vector of 1-bit signless integer values of ranks 1"
)
RANK1_VECTOR = _vec(lambda v: v.rank == 1, " of ranks 1")
"""19's summary of `VectorOfRank<[1]>` starts with a blank (no element type named)."""
INT_OR_INDEX_VECTOR = _vec(lambda v: _is_int(v.element) or v.element.is_index, "vector of integer or index values")
MEMREF: Constraint = (lambda t: t.is_memref, "memref of any type values")
SHAPED: Constraint = (
    lambda t: t.text.startswith(("memref<", "tensor<", "vector<")),
    "shaped of any type values",
)
STATIC_MEMREF: Constraint = (
    lambda t: (m := layouts.ranked(t.text)) is not None and None not in m.shape,
    "statically shaped memref of any type values",
)
RANKED_TENSOR: Constraint = (
    lambda t: t.text.startswith("tensor<") and not t.text.startswith("tensor<*"),
    "ranked tensor of any type values",
)
INDEX: Constraint = (lambda t: t.is_index, "variadic of index")
SCALAR: Constraint = (
    lambda t: t.is_index or _is_float(t) or re.fullmatch(r"i\d+", t.text) is not None,
    "integer/index/float type",
)

_INT_KINDS = frozenset("minui minsi maxui maxsi and or xor".split())
_FLOAT_KINDS = frozenset("minnumf maxnumf minimumf maximumf".split())


def _check(op: Operation, what: str, at: int, value: Value, constraint: Constraint) -> None:
    accepts, summary = constraint
    if not accepts(value.type):
        raise op_error(op, f"{what} #{at} must be {summary}, but got '{value.type}'")


def _types(
    op: Operation,
    operands: Sequence[Constraint | None],
    results: Sequence[Constraint | None] = (),
    variadic: tuple[int, Constraint] | None = None,
) -> None:
    """The ODS operand and result constraints, in order: `operands` for the
    fixed operands before a variadic group of `variadic[1]` at position
    `variadic[0]` (as many as the op has beyond the fixed ones), then the
    fixed ones after it."""
    values = list(op.operands)
    if variadic is None:
        for i, (v, c) in enumerate(zip(values, operands)):
            if c is not None:
                _check(op, "operand", i, v, c)
    else:
        start, group = variadic
        before, after = list(operands[:start]), list(operands[start:])
        n_group = max(len(values) - len(before) - len(after), 0)
        layout = [*before, *([group] * n_group), *after]
        for i, (v, c) in enumerate(zip(values, layout)):
            if c is not None:
                _check(op, "operand", i, v, c)
    for i, (r, c) in enumerate(zip(op.results, results)):
        if c is not None:
            _check(op, "result", i, r, c)


def _fail(op: Operation, message: str) -> DiagnosticError:
    return op_error(op, message)


def _element_or_self(t: Type) -> Type:
    """MLIR's `getElementTypeOrSelf`: a shaped type's element type."""
    if t.vector is not None:
        return t.vector.element
    if t.text.startswith(("memref<", "tensor<")):
        return Type(memref_element(t.text.replace("tensor<", "memref<", 1)))
    return t


def _vector(v: Value) -> VectorShape:
    """The shape of `v`, which the type constraints checked before made a vector."""
    shape = v.type.vector
    if shape is None:
        raise InternalError(f"spec.dialects.vector.verifiers: expected a vector, got {v.type}")
    return shape


def _ranked(t: Type) -> layouts.MemRef | None:
    return layouts.ranked(t.text)


def _shaped_rank(t: Type) -> int:
    if t.is_memref:
        return len(t.memref_shape())
    body = t.text[t.text.index("<") + 1 : -1]
    m = re.match(r"((?:(?:\d+|\?)x)*)", body)
    return len([d for d in (m.group(1) if m else "").split("x") if d])


def shaped_element(t: Type) -> Type:
    """The element type of a ranked memref or tensor type (`vector<4xf32>` of
    `memref<8xvector<4xf32>, 1>`)."""
    m = layouts.ranked(t.text.replace("tensor<", "memref<", 1))
    return Type(m.element) if m is not None else Type(memref_element(t.text))


def kind_name(attr: Attr | None) -> str | None:
    """The case of a `#vector.kind<...>` attribute."""
    text = str(attr) if attr is not None else ""
    m = re.fullmatch(r"#vector\.kind<(\w+)>", text)
    return m.group(1) if m and m.group(1) in KINDS else None


def supported_kind(kind: str, element: Type) -> bool:
    """MLIR's `isSupportedCombiningKind`: `add`/`mul` on integers, index and
    floats, the integer kinds on integers and index, the float ones on floats."""
    if kind in _INT_KINDS:
        return _is_int(element) or element.is_index
    if kind in _FLOAT_KINDS:
        return _is_float(element)
    return _is_int(element) or element.is_index or _is_float(element)


# -- affine maps of the transfers and contractions --------------------------------


def parse_map(attr: Attr | None) -> affine.AffineMap | None:
    """The affine map of an `affine_map<...>` attribute, if it is one."""
    text = str(attr) if attr is not None else ""
    if not text.startswith("affine_map<"):
        return None
    try:
        return affine.parse_map(text[len("affine_map<") : -1])
    except (affine.AffineError, ValueError):
        return None


def is_minor_identity(m: affine.AffineMap) -> bool:
    """MLIR's `AffineMap::isMinorIdentity`: no symbols, the last dims in order."""
    n = len(m.results)
    return m.syms == 0 and m.dims >= n and m.results == tuple(affine.Expr("dim", m.dims - n + i) for i in range(n))


def minor_identity(rank: int, k: int) -> str:
    """`affine_map<(d0, ..., d{rank-1}) -> (the last k dims)>` (at most `rank`
    of them: where a vector has more dims than its source 19 makes a map of
    fewer results, which its verifier then refuses)."""
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({', '.join(f'd{i}' for i in range(max(rank - k, 0), rank))})>"


def transfer_map(source: Type, vector: Type) -> str:
    """MLIR's `getTransferMinorIdentityMap`: the last dims of the source, one
    per vector dim not covered by a vector element type; a 0-d source read
    into `vector<1xT>` broadcasts (`() -> (0)`)."""
    rank = _shaped_rank(source)
    vec = vector.vector
    k = vec.rank if vec is not None else 0
    elem = shaped_element(source).vector
    if elem is not None:
        k -= elem.rank
    if rank == 0 and vec is not None and vec.sizes == (1,):
        return "affine_map<() -> (0)>"
    return minor_identity(rank, k)


def transfer_mask_type(vector: Type, perm: affine.AffineMap) -> Type | None:
    """MLIR's `inferTransferOpMaskType`: an `i1` vector in the source's dim
    order, one dim per source dim the map uses (the size and scalability of
    the vector dim it maps to). None where the map is no projected
    permutation of the vector's rank (19's verifier refuses the op then)."""
    vec = vector.vector
    if vec is None or len(perm.results) != vec.rank or any(e.kind not in ("dim", "const") for e in perm.results):
        return None
    sizes: list[int] = []
    flags: list[bool] = []
    for d in range(perm.dims):
        at = [i for i, e in enumerate(perm.results) if e.kind == "dim" and e.value == d]
        if len(at) > 1:
            return None
        if at:
            sizes.append(vec.sizes[at[0]])
            flags.append(vec.scalable[at[0]])
    return shared_type(Type(VectorShape(tuple(sizes), tuple(flags), I1).text()))


def _segment(op: Operation, index: int) -> list[Value]:
    sizes = op.properties.get("operandSegmentSizes")
    if not isinstance(sizes, DenseArrayAttr) or len(sizes.values) <= index:
        return []
    start = int(sum(sizes.ints[:index]))
    return list(op.operands[start : start + sizes.ints[index]])


# -- the rules ------------------------------------------------------------------


def _bitcast(op: Operation) -> None:
    _types(op, [ANY_VECTOR], [ANY_VECTOR])
    src, res = _vector(op.operands[0]), _vector(op.results[0])
    if src.rank != res.rank:
        raise _fail(op, "failed to verify that all of {source, result} have same rank")
    for i in range(src.rank - 1):
        if src.sizes[i] != res.sizes[i]:
            raise _fail(op, f"dimension size mismatch at: {i}")
    a, b = bit_width(src.element), bit_width(res.element)
    if a is None or b is None:
        return
    if src.rank == 0:
        if a != b:
            raise _fail(op, "source/result bitwidth of the 0-D vector element types must be equal")
    elif a * src.sizes[-1] != b * res.sizes[-1]:
        raise _fail(op, "source/result bitwidth of the minor 1-D vectors must be equal")


def _broadcast(op: Operation) -> None:
    _types(op, [None], [ANY_VECTOR])
    src_t = op.operands[0].type
    res = _vector(op.results[0])
    if _element_or_self(src_t) != res.element:
        raise _fail(op, "failed to verify that source operand and result have same element type")
    src = src_t.vector
    if src is None:
        if src_t.is_index or _is_float(src_t) or _is_int(src_t):
            return
        raise _fail(op, "source type is not a vector")
    if src.rank > res.rank:
        raise _fail(op, "source rank higher than destination rank")
    lead = res.rank - src.rank
    for i in range(src.rank):
        # Sizes only: 19 does not compare the dims' scalability here.
        s, d = src.sizes[i], res.sizes[lead + i]
        if s not in (1, d):
            raise _fail(op, f"dimension mismatch ({s} vs. {d})")


def _splat(op: Operation) -> None:
    _types(op, [SCALAR], [ANY_VECTOR])
    if op.operands[0].type != _vector(op.results[0]).element:
        raise _fail(op, "failed to verify that operand type matches element type of result")


def _from_elements(op: Operation) -> None:
    _types(op, [], [ANY_VECTOR])
    res = _vector(op.results[0])
    if [v.type for v in op.operands] != [res.element] * math.prod(res.sizes):
        raise _fail(op, "failed to verify that operand types match result element type")


def _cast_dims(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Whether shape `b` (of higher rank) splits each dim of `a` into a run of
    its own dims, trailing unit dims folded in (MLIR's `isValidShapeCast`)."""
    if not a:
        return all(d == 1 for d in b)
    i = j = 0
    while i < len(a) and j < len(b):
        size = 1
        while size < a[i] and j < len(b):
            size *= b[j]
            j += 1
        if size != a[i]:
            break
        i += 1
        if i < len(a) and all(d == 1 for d in a[i:]):
            i = len(a)
        if j < len(b) and all(d == 1 for d in b[j:]):
            j = len(b)
    return i == len(a) and j == len(b)


def _shape_cast(op: Operation) -> None:
    _types(op, [ANY_VECTOR], [ANY_VECTOR])
    src, res = _vector(op.operands[0]), _vector(op.results[0])
    if src.element != res.element:
        raise _fail(op, "source/result vectors must have same element type")
    n_src = n_res = 1
    for d in src.sizes:
        n_src *= d
    for d in res.sizes:
        n_res *= d
    if n_src != n_res:
        raise _fail(op, "source/result number of elements must match")
    if (src.rank < res.rank and not _cast_dims(src.sizes, res.sizes)) or (
        src.rank > res.rank and not _cast_dims(res.sizes, src.sizes)
    ):
        raise _fail(op, "invalid shape cast")


def _canonical_identity(m: layouts.MemRef) -> bool:
    """The layout is the identity once a `strided` layout equal to the
    row-major one is canonicalised (MLIR's `canonicalizeStridedLayout`)."""
    if layouts.is_identity(m):
        return True
    found = layouts.layout_strides(m)
    ident = layouts.layout_strides(layouts.MemRef(m.shape, m.element, "", m.space))
    return found == ident


def _type_cast(op: Operation) -> None:
    _types(op, [STATIC_MEMREF], [MEMREF])
    src_t, res_t = op.operands[0].type, op.results[0].type
    src, res = _ranked(src_t), _ranked(res_t)
    if src is None or res is None:
        return
    if not _canonical_identity(src):
        raise _fail(op, "expects operand to be a memref with identity layout")
    if not layouts.is_identity(res) or (res.layout and res.layout.startswith("strided")):
        raise _fail(op, "expects result to be a memref with identity layout")
    if src.space != res.space:
        raise _fail(op, "expects result in same memory space")

    def scalar(m: layouts.MemRef) -> Type:
        e = Type(m.element)
        return e.vector.element if e.vector is not None else e

    def shape(m: layouts.MemRef) -> tuple[int | None, ...]:
        e = Type(m.element).vector
        return m.shape + (e.sizes if e is not None else ())

    if scalar(src) != scalar(res):
        raise _fail(op, f"expects result and operand with same underlying scalar type: '{res_t}'")
    if shape(src) != shape(res):
        raise _fail(op, f"expects concatenated result and operand shapes to be equal: '{res_t}'")


def _transpose(op: Operation) -> None:
    _types(op, [ANY_VECTOR], [ANY_VECTOR])
    src, res = _vector(op.operands[0]), _vector(op.results[0])
    if src.element != res.element:
        raise _fail(op, "failed to verify that operand and result have same element type")
    if src.rank != res.rank:
        raise _fail(op, f"vector result rank mismatch: {res.rank}")
    perm_attr = op.properties.get("permutation")
    perm = perm_attr.ints if isinstance(perm_attr, DenseArrayAttr) else ()
    if len(perm) != res.rank:
        raise _fail(op, f"transposition length mismatch: {len(perm)}")
    seen: set[int] = set()
    for at, p in enumerate(perm):
        if not 0 <= p < res.rank:
            raise _fail(op, f"transposition index out of range: {p}")
        if p in seen:
            raise _fail(op, f"duplicate position index: {p}")
        seen.add(p)
        if res.sizes[at] != src.sizes[p]:
            raise _fail(op, f"dimension size mismatch at: {p}")


def _fma(op: Operation) -> None:
    _types(op, [FLOAT_VECTOR] * 3, [FLOAT_VECTOR])
    if len({v.type for v in (*op.operands, *op.results)}) > 1:
        raise _fail(op, "failed to verify that all of {lhs, rhs, acc, result} have same type")


def _positions(op: Operation, dynamic: list[Value]) -> list[int | None] | None:
    """`static_position` with each dynamic marker as None (None: not a dense array)."""
    attr = op.properties.get("static_position")
    if not isinstance(attr, DenseArrayAttr):
        return None
    return [None if p == K_DYNAMIC else p for p in attr.ints]


def _extract(op: Operation) -> None:
    _types(op, [ANY_VECTOR], [None], variadic=(1, INDEX))
    src = _vector(op.operands[0])
    res_t = op.results[0].type
    if _element_or_self(res_t) != src.element:
        raise _fail(op, "failed to verify that operand and result have same element type")
    pos = _positions(op, list(op.operands[1:]))
    if pos is None:
        return
    if pos.count(None) != len(op.operands) - 1:
        raise _fail(
            op,
            "mismatch between dynamic and static positions (kDynamic marker but no corresponding dynamic position) "
            "-- this can only happen due to an incorrect fold/rewrite",
        )
    if len(pos) > src.rank:
        raise _fail(op, "expected position attribute of rank no greater than vector rank")
    for i, p in enumerate(pos):
        if p is not None and not 0 <= p < src.sizes[i]:
            raise _fail(
                op,
                f"expected position attribute #{i + 1} to be a non-negative integer smaller than the corresponding vector dimension",
            )
    # `InferTypeOpAdaptorWithIsCompatible`: the element at full depth, the
    # remaining dims otherwise; `vector<1xT>` and `T` are compatible.
    inferred = (
        src.element
        if len(pos) == src.rank
        else Type(VectorShape(src.sizes[len(pos) :], src.scalable[len(pos) :], src.element).text())
    )
    if inferred != res_t and not _one_element(inferred, res_t) and not _one_element(res_t, inferred):
        raise DiagnosticError(
            [
                error(
                    op.loc,
                    f"'{op.name}' op inferred type(s) '{inferred}' are incompatible with return type(s) of operation '{res_t}'",
                ),
                op_diagnostic(op, "failed to infer returned types"),
            ]
        )


def _one_element(a: Type, b: Type) -> bool:
    v = a.vector
    return v is not None and v.sizes == (1,) and v.element == b


def _insert(op: Operation) -> None:
    _types(op, [None, ANY_VECTOR], [ANY_VECTOR], variadic=(2, INDEX))
    dest = _vector(op.operands[1])
    src_t = op.operands[0].type
    if _element_or_self(src_t) != _vector(op.results[0]).element:
        raise _fail(op, "failed to verify that source operand and result have same element type")
    if op.operands[1].type != op.results[0].type:
        raise _fail(op, "failed to verify that all of {dest, result} have same type")
    pos = _positions(op, list(op.operands[2:]))
    if pos is None:
        return
    if len(pos) > dest.rank:
        raise _fail(op, "expected position attribute of rank no greater than dest vector rank")
    src = src_t.vector
    if src is not None and src.rank + len(pos) != dest.rank:
        raise _fail(op, "expected position attribute rank + source rank to match dest vector rank")
    if src is None and len(pos) != dest.rank:
        raise _fail(op, "expected position attribute rank to match the dest vector rank")
    for i, p in enumerate(pos):
        if p is not None and not 0 <= p < dest.sizes[i]:
            raise _fail(
                op,
                f"expected position attribute #{i + 1} to be a non-negative integer smaller than the corresponding dest vector dimension",
            )


def _unit_stride(op: Operation, memref: Type) -> None:
    """`verifyLoadStoreMemRefLayout`: the innermost dim has stride 1."""
    m = _ranked(memref)
    if m is None:
        return
    found = layouts.layout_strides(m)
    if isinstance(found, str):
        if found == layouts.NOT_STRIDED:
            raise _fail(op, "most minor memref dim must have unit stride")
        return
    strides, _ = found
    if strides and strides[-1] != 1:
        raise _fail(op, "most minor memref dim must have unit stride")


def _load_store(op: Operation) -> None:
    storing = op.name == "vector.store"
    if storing:
        _types(op, [ANY_VECTOR, MEMREF], [], variadic=(2, INDEX))
        vec_t, mem_t = op.operands[0].type, op.operands[1].type
    else:
        _types(op, [MEMREF], [ANY_VECTOR], variadic=(1, INDEX))
        vec_t, mem_t = op.results[0].type, op.operands[0].type
    what = "valueToStore" if storing else "result"
    _unit_stride(op, mem_t)
    elem = shaped_element(mem_t)
    if elem.vector is not None:
        if elem != vec_t:
            raise _fail(op, f"base memref and {what} vector types should match")
        elem = elem.vector.element
    vec = vec_t.vector
    if vec is not None and vec.element != elem:
        raise _fail(op, f"base and {what} element type{'' if storing else 's'} should match")
    n_idx = len(op.operands) - (2 if storing else 1)
    rank = _shaped_rank(mem_t)
    if n_idx != rank:
        raise _fail(op, f"requires {rank} indices")


def _gather(op: Operation) -> None:
    _types(op, [SHAPED, INT_OR_INDEX_VECTOR, I1_VECTOR, ANY_VECTOR], [ANY_VECTOR], variadic=(1, INDEX))
    base_t = op.operands[0].type
    *_, idx_v, mask_v, pass_v = op.operands
    res = _vector(op.results[0])
    ranked = (base_t.is_memref and not base_t.text.startswith("memref<*")) or RANKED_TENSOR[0](base_t)
    if not ranked:
        raise _fail(op, "requires base to be a memref or ranked tensor type")
    if res.element != shaped_element(base_t):
        raise _fail(op, "base and result element type should match")
    rank = _shaped_rank(base_t)
    if len(op.operands) - 4 != rank:
        raise _fail(op, f"requires {rank} indices")
    if res.sizes != _vector(idx_v).sizes:
        raise _fail(op, "expected result dim to match indices dim")
    if res.sizes != _vector(mask_v).sizes:
        raise _fail(op, "expected result dim to match mask dim")
    if pass_v.type != op.results[0].type:
        raise _fail(op, "expected pass_thru of same type as result type")


def _compressstore(op: Operation) -> None:
    _types(op, [MEMREF, I1_VECTOR_RANK1, RANK1_VECTOR], [], variadic=(1, INDEX))
    base_t = op.operands[0].type
    *_, mask_v, val_v = op.operands
    val = _vector(val_v)
    if val.element != shaped_element(base_t):
        raise _fail(op, "base and valueToStore element type should match")
    rank = _shaped_rank(base_t)
    if len(op.operands) - 3 != rank:
        raise _fail(op, f"requires {rank} indices")
    if val.sizes[0] != _vector(mask_v).sizes[0]:
        raise _fail(op, "expected valueToStore dim to match mask dim")


def _constant_mask(op: Operation) -> None:
    _types(op, [], [I1_VECTOR])
    res = _vector(op.results[0])
    attr = op.properties.get("mask_dim_sizes")
    sizes = [e.value for e in attr.elements if isinstance(e, IntegerAttr)] if isinstance(attr, ArrayAttr) else []
    if res.rank == 0:
        # 19 reports these two without the op's name (`emitError`).
        if len(sizes) != 1:
            raise DiagnosticError(error(op.loc, "array attr must have length 1 for 0-D vectors", current_op_note(op)))
        if sizes[0] not in (0, 1):
            raise DiagnosticError(
                error(op.loc, "mask dim size must be either 0 or 1 for 0-D vectors", current_op_note(op))
            )
        return
    if len(sizes) != res.rank:
        raise _fail(op, "must specify array attr of size equal vector result rank")
    for i, n in enumerate(sizes):
        if not 0 <= n <= res.sizes[i]:
            raise _fail(op, "array attr of size out of bounds of vector result dimension size")
        if res.scalable[i] and n not in (0, res.sizes[i]):
            raise _fail(op, "only supports 'none set' or 'all set' scalable dimensions")
    if 0 in sizes and any(sizes):
        raise _fail(op, "expected all mask dim sizes to be zeros, as a result of conjunction with zero mask dim")


def _create_mask(op: Operation) -> None:
    _types(op, [], [I1_VECTOR], variadic=(0, INDEX))
    res = _vector(op.results[0])
    if res.rank == 0:
        if len(op.operands) != 1:
            raise _fail(op, "must specify exactly one operand for 0-D create_mask")
    elif len(op.operands) != res.rank:
        raise _fail(op, "must specify an operand for each result vector dimension")


def _reduction(op: Operation) -> None:
    _types(op, [ANY_VECTOR])
    if len(op.operands) > 2:
        raise _fail(op, f"operand group starting at #1 requires 0 or 1 element, but found {len(op.operands) - 1}")
    src = _vector(op.operands[0])
    dest_t = op.results[0].type
    if _element_or_self(dest_t) != src.element:
        raise _fail(op, "failed to verify that source operand and result have same element type")
    if len(op.operands) > 1 and op.operands[1].type != dest_t:
        raise _fail(op, "failed to verify that dest and acc have the same type")
    if src.rank > 1:
        raise _fail(op, f"unsupported reduction rank: {src.rank}")
    kind = kind_name(op.properties.get("kind"))
    if kind is not None and not supported_kind(kind, dest_t):
        raise _fail(op, f"unsupported reduction type ''{dest_t}'' for kind '{kind}'")


def _outerproduct(op: Operation) -> None:
    _types(op, [ANY_VECTOR, None], [ANY_VECTOR], variadic=(2, ANY_VECTOR))
    lhs = _vector(op.operands[0])
    rhs_t = op.operands[1].type
    res = _vector(op.results[0])
    if lhs.element != res.element:
        raise _fail(op, "failed to verify that lhs operand and result have same element type")
    if _element_or_self(rhs_t) != res.element:
        raise _fail(op, "failed to verify that rhs operand and result have same element type")
    if lhs.rank != 1:
        raise _fail(op, "expected 1-d vector for operand #1")
    rhs = rhs_t.vector
    if rhs is not None:
        if rhs.rank != 1:
            raise _fail(op, "expected 1-d vector for operand #2")
        if res.rank != 2:
            raise _fail(op, "expected 2-d vector result")
        if lhs.sizes[0] != res.sizes[0]:
            raise _fail(op, "expected #1 operand dim to match result dim #1")
        if rhs.sizes[0] != res.sizes[1]:
            raise _fail(op, "expected #2 operand dim to match result dim #2")
        if lhs.scalable[0] and not rhs.scalable[0]:
            raise _fail(op, "expected either both or only #2 operand dim to be scalable")
    else:
        if res.rank != 1:
            raise _fail(op, "expected 1-d vector result")
        if lhs.sizes[0] != res.sizes[0]:
            raise _fail(op, "expected #1 operand dim to match result dim #1")
    if len(op.operands) > 2 and op.operands[2].type != op.results[0].type:
        raise _fail(op, "expected operand #3 of same type as result type")
    kind = kind_name(op.properties.get("kind"))
    if kind is not None and not supported_kind(kind, res.element):
        raise _fail(op, "unsupported outerproduct type")


def _contract_maps(op: Operation) -> list[affine.AffineMap | None]:
    maps = op.properties.get("indexing_maps")
    return [parse_map(m) for m in maps.elements] if isinstance(maps, ArrayAttr) else []


def _iterators(op: Operation) -> list[str]:
    its = op.properties.get("iterator_types")
    if not isinstance(its, ArrayAttr):
        return []
    return [str(e).removeprefix("#vector.iterator_type<").removesuffix(">") for e in its.elements]


def _dim_map(maps: list[affine.AffineMap], iterators: list[str], kind: str) -> list[tuple[int, int]]:
    """MLIR's `getDimMap`: for each iterator of `kind` found in both the lhs
    and the rhs map, its (lhs position, rhs position)."""
    out = []
    for i, it in enumerate(iterators):
        if it != kind:
            continue
        target = affine.Expr("dim", i)
        lhs = maps[0].results.index(target) if target in maps[0].results else -1
        rhs = maps[1].results.index(target) if target in maps[1].results else -1
        if lhs >= 0 and rhs >= 0:
            out.append((lhs, rhs))
    return out


def contract_dims(op: Operation) -> tuple[list[tuple[int, int]], list[tuple[int, int]]] | None:
    """The contracting and batch dim pairs of a `vector.contract` (None if
    its maps are not three affine maps)."""
    maps = _contract_maps(op)
    if len(maps) != 3 or any(m is None for m in maps):
        return None
    ms = [m for m in maps if m is not None]
    its = _iterators(op)
    return _dim_map(ms, its, "reduction"), _dim_map(ms, its, "parallel")


def _contract_output(
    op: Operation,
    lhs: VectorShape,
    rhs: VectorShape,
    maps: list[affine.AffineMap],
    contracting: list[tuple[int, int]],
    batch: list[tuple[int, int]],
) -> None:
    """MLIR's `verifyOutputShape`: the free and batch dims of the lhs, then the
    free dims of the rhs, make the result (a scalar when there are none),
    whose shape the result map gives from the extents of the dims."""
    acc_t, res_t = op.operands[2].type, op.results[0].type
    lhs_contracting = {a for a, _ in contracting}
    rhs_skipped = {b for _, b in contracting} | {b for _, b in batch}
    expected = [d for i, d in enumerate(lhs.sizes) if i not in lhs_contracting]
    expected += [d for i, d in enumerate(rhs.sizes) if i not in rhs_skipped]
    res, acc = res_t.vector, acc_t.vector
    if not expected:
        if res is not None or acc is not None:
            raise _fail(op, "invalid accumulator/result vector shape")
        return
    if res is None or acc is None:
        raise _fail(op, "invalid accumulator/result vector shape")
    lhs_map, rhs_map, res_map = maps
    used = {e.value for m in (lhs_map, rhs_map) for e in m.results if e.kind == "dim"}
    if len(used) != lhs_map.dims:
        raise _fail(op, "expected all dimensions to be either a LHS or a RHS dimension")
    extents: list[int | None] = [None] * lhs_map.dims
    for shape, m in ((lhs, lhs_map), (rhs, rhs_map)):
        for i in range(shape.rank):
            pos = m.results[i].value
            if extents[pos] is None:
                extents[pos] = shape.sizes[i]
    if any(e is None for e in extents):
        raise _fail(op, "expected all dimensions to get an extent as either a LHS or a RHS dimension")
    sizes = tuple(extents[e.value] or 0 for e in res_map.results)
    want = VectorShape(sizes, res.scalable if len(res.scalable) == len(sizes) else (False,) * len(sizes), res.element)
    if res_t.text != want.text() or acc_t.text != want.text():
        raise _fail(op, f"invalid accumulator/result vector shape, expected: '{want.text()}'")


def _contract(op: Operation) -> None:
    _types(op, [ANY_VECTOR, ANY_VECTOR, None])
    lhs, rhs = _vector(op.operands[0]), _vector(op.operands[1])
    acc_t, res_t = op.operands[2].type, op.results[0].type
    if lhs.element != rhs.element:
        raise _fail(op, "failed to verify that lhs and rhs have same element type")
    if _element_or_self(acc_t) != _element_or_self(res_t):
        raise _fail(op, "failed to verify that third operand acc and result have same element type")
    if re.fullmatch(r"[su]i\d+", lhs.element.text):
        raise _fail(op, "only supports signless integer types")
    maps = _contract_maps(op)
    if len(maps) != 3 or any(m is None for m in maps):
        raise _fail(op, "expected an indexing map for each vector operand")
    ms = [m for m in maps if m is not None]
    n_iterators = len(_iterators(op))
    for index, m in enumerate(ms):
        if m.syms:
            raise _fail(op, f"expected indexing map {index} to have no symbols")
        v = op.operands[index].type.vector
        rank = v.rank if v is not None else 0
        if m.dims != n_iterators:
            raise _fail(op, f"expected indexing map {index} to have {n_iterators} number of inputs")
        if len(m.results) != rank:
            raise _fail(op, f"expected indexing map {index} to have {rank} number of outputs")
        dims = [e.value for e in m.results if e.kind == "dim"]
        if len(dims) != len(m.results) or len(set(dims)) != len(dims):
            raise _fail(op, f"expected indexing map {index} to be a projected permutation of its inputs")
    its = _iterators(op)
    contracting, batch = _dim_map(ms, its, "reduction"), _dim_map(ms, its, "parallel")
    if not contracting:
        raise _fail(op, "expected at least one contracting dimension pair")

    def valid(pairs: list[tuple[int, int]]) -> bool:
        return all(0 <= a < lhs.rank and 0 <= b < rhs.rank and lhs.sizes[a] == rhs.sizes[b] for a, b in pairs)

    if not valid(contracting):
        raise _fail(op, "invalid contracting dimension map")
    if not valid(batch):
        raise _fail(op, "invalid batch dimension map")
    _contract_output(op, lhs, rhs, ms, contracting, batch)
    kind = kind_name(op.properties.get("kind"))
    if kind is not None and not supported_kind(kind, _element_or_self(res_t)):
        raise _fail(op, "unsupported contraction type")


def _permutation_map(op: Operation, perm: affine.AffineMap) -> None:
    """MLIR's `verifyPermutationMap`: each result the zero constant or a dim,
    no dim twice."""
    seen: set[int] = set()
    for e in perm.results:
        if e.kind == "const" and e.value == 0:
            continue
        if e.kind != "dim":
            raise _fail(
                op,
                "requires a projected permutation_map (at most one dim or the zero constant can appear in each result)",
            )
        if e.value in seen:
            raise _fail(op, "requires a permutation_map that is a permutation (found one dim used more than once)")
        seen.add(e.value)


def _transfer_common(
    op: Operation, shaped: Type, vec: VectorShape, mask: Value | None, perm: affine.AffineMap, in_bounds: ArrayAttr
) -> None:
    """MLIR's `verifyTransferOp`, shared by the two transfers."""
    if "masked" in op.attributes:
        raise _fail(op, "masked attribute has been removed. Use in_bounds instead.")
    if not (_ranked(shaped) is not None or RANKED_TENSOR[0](shaped)):
        raise _fail(op, "requires source to be a memref or ranked tensor type")
    elem = shaped_element(shaped)
    vec_bits = bit_width(vec.element)
    if elem.vector is not None:
        src_elem = elem.vector
        src_bits, last = bit_width(src_elem.element), (src_elem.sizes[-1] if src_elem.sizes else 1)
        if src_bits is not None and vec_bits is not None and vec.sizes:
            if (vec_bits * vec.sizes[-1]) % (src_bits * last) != 0:
                raise _fail(
                    op,
                    "requires the bitwidth of the minor 1-D vector to be an integral multiple of the bitwidth of the minor 1-D vector of the source",
                )
        if src_elem.rank > vec.rank:
            raise _fail(op, "requires source vector element and vector result ranks to match.")
        if len(perm.results) != vec.rank - src_elem.rank:
            raise _fail(op, "requires a permutation_map with result dims of the same rank as the vector type")
        if mask is not None:
            raise _fail(op, "does not support masks with vector element type")
    else:
        elem_bits = bit_width(elem)
        minor = vec.sizes[-1] if vec.sizes else 1
        if elem_bits and vec_bits is not None and (vec_bits * minor) % elem_bits != 0:
            raise _fail(
                op,
                "requires the bitwidth of the minor 1-D vector to be an integral multiple of the bitwidth of the source element type",
            )
        if len(perm.results) != vec.rank:
            raise _fail(op, "requires a permutation_map with result dims of the same rank as the vector type")
    if perm.syms:
        raise _fail(op, "requires permutation_map without symbols")
    if perm.dims != _shaped_rank(shaped):
        raise _fail(op, "requires a permutation_map with input dims of the same rank as the source type")
    if mask is not None:
        inferred = transfer_mask_type(Type(vec.text()), perm)
        if inferred is not None and inferred != mask.type:
            raise _fail(op, f"inferred mask type ('{inferred}') and mask operand type ('{mask.type}') don't match")
    if len(perm.results) != len(in_bounds.elements):
        raise _fail(
            op,
            f"expects the in_bounds attr of same rank as permutation_map results: {OpaqueAttr(perm.text)} "
            f"vs inBounds of size: {len(in_bounds.elements)}",
        )
    for e, ib in zip(perm.results, in_bounds.elements):
        if e.kind == "const" and not (isinstance(ib, IntegerAttr) and ib.value):
            raise _fail(op, "requires broadcast dimensions to be in-bounds")


def _tensor_refused(op: Operation, shaped: Type) -> None:
    """The subset's transfers are of memrefs: 19 declares no memory effect
    for a tensor's, and this tool gives effects by op name."""
    if shaped.text.startswith("tensor<"):
        raise DiagnosticError(
            error(
                op.loc,
                f"'{op.name}' op of a tensor is unsupported: this tool's subset has transfers of memrefs (docs/subset.md)",
            )
        )


def _transfer_read(op: Operation) -> None:
    source, indices, padding, mask = (_segment(op, i) for i in range(4))
    _types(op, [SHAPED, *([INDEX] * len(indices)), None, *([I1_VECTOR] * len(mask))], [ANY_VECTOR])
    if not source or not padding:
        return
    shaped = source[0].type
    _tensor_refused(op, shaped)
    vec = _vector(op.results[0])
    frame = _transfer_frame(op, shaped, indices)
    if frame is None:
        return
    perm, in_bounds = frame
    _transfer_common(op, shaped, vec, mask[0] if mask else None, perm, in_bounds)
    elem, pad_t = shaped_element(shaped), padding[0].type
    if elem.vector is not None:
        if elem != pad_t:
            raise _fail(op, "requires source element type and padding type to match.")
    else:
        if pad_t.vector is not None or pad_t.is_memref or pad_t.text.startswith(("tensor<", "!", "(")):
            raise _fail(op, "requires valid padding vector elemental type")
        if pad_t != elem:
            raise _fail(op, "requires formal padding and source of the same elemental type")
    _permutation_map(op, perm)


def _transfer_frame(op: Operation, shaped: Type, indices: list[Value]) -> tuple[affine.AffineMap, ArrayAttr] | None:
    """What a transfer's checks start from: its permutation map and
    `in_bounds` (None where the properties' own checks will speak), and one
    index per dimension of the source."""
    perm = parse_map(op.properties.get("permutation_map"))
    in_bounds = op.properties.get("in_bounds")
    if perm is None or not isinstance(in_bounds, ArrayAttr):
        return None
    rank = _shaped_rank(shaped)
    if len(indices) != rank:
        raise _fail(op, f"requires {rank} indices")
    return perm, in_bounds


def _transfer_write(op: Operation) -> None:
    vector, source, indices, mask = (_segment(op, i) for i in range(4))
    _types(op, [ANY_VECTOR, SHAPED, *([INDEX] * len(indices)), *([I1_VECTOR] * len(mask))], [RANKED_TENSOR])
    if not source or not vector:
        return
    shaped = source[0].type
    _tensor_refused(op, shaped)
    vec = _vector(vector[0])
    frame = _transfer_frame(op, shaped, indices)
    if frame is None:
        return
    perm, in_bounds = frame
    if any(e.kind == "const" and e.value == 0 for e in perm.results):
        raise _fail(op, "should not have broadcast dimensions")
    _transfer_common(op, shaped, vec, mask[0] if mask else None, perm, in_bounds)
    _permutation_map(op, perm)


def _inherent_attributes(op: Operation) -> None:
    """ODS's checks of the op's inherent attributes, by name, before its
    operand types: each required one present (`requires attribute 'k'`; a
    value of the wrong storage class counts as missing, as property
    conversion drops it), then each one's full constraint. An op written
    generically had them checked as it was read; these catch what the
    custom forms 19 parses by hand (the transfers, `contract`,
    `outerproduct`) leave to the verifier."""
    own = sorted(declared(op.name).items())
    for key, inherent in own:
        value = op.properties.get(key)
        if inherent.required and (value is None or not inherent.kind.stored(value)):
            raise op_error(op, f"requires attribute '{key}'")
    for key, inherent in own:
        value = op.properties.get(key)
        if value is not None and not inherent.kind.satisfied(value):
            raise op_error(op, f"attribute '{key}' failed to satisfy constraint: {inherent.kind.summary}")


def _with_attributes(rule: Callable[[Operation], None]) -> Callable[[Operation], None]:
    def checked(op: Operation) -> None:
        _inherent_attributes(op)
        rule(op)

    return checked


RULES: dict[str, Callable[[Operation], None]] = {
    "vector.bitcast": _bitcast,
    "vector.broadcast": _broadcast,
    "vector.splat": _splat,
    "vector.from_elements": _from_elements,
    "vector.shape_cast": _shape_cast,
    "vector.type_cast": _type_cast,
    "vector.transpose": _transpose,
    "vector.fma": _fma,
    "vector.extract": _extract,
    "vector.insert": _insert,
    "vector.load": _load_store,
    "vector.store": _load_store,
    "vector.gather": _gather,
    "vector.compressstore": _compressstore,
    "vector.constant_mask": _constant_mask,
    "vector.create_mask": _create_mask,
    "vector.reduction": _reduction,
    "vector.outerproduct": _outerproduct,
    "vector.contract": _contract,
    "vector.transfer_read": _transfer_read,
    "vector.transfer_write": _transfer_write,
}
RULES = {name: _with_attributes(rule) for name, rule in RULES.items()}
"""Each vector op's rule, by op name (the registry's `OpInfo.verifier`): its
inherent attributes' checks, then its own."""
