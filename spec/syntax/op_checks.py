"""What MLIR's property conversion and op verifiers check of a known op
written in the generic form, as far as the parser must check it too: the
custom printer relies on it, and mlir-opt-19 rejects what fails it.

The custom forms cannot express a wrong count or a malformed property, so
these checks matter for ops written generically. They are data-driven:
the registry entry of each op lists the inherent attributes mlir-opt-19
declares (which can differ from mlir-opt-22's and from what the custom-form
parser accepts), each with the name of its ODS constraint
(`registry.inherent_attributes`); `CONSTRAINTS` says what each constraint
means: what property conversion stores (the attribute's storage class) and
what the verifier requires on top, with the summary the verifier prints.

How mlir-opt-19 treats the two places an inherent attribute can be written
(observed, and what this module does):

- in `<{...}>`: converted at parse time, by name with `operandSegmentSizes`
  last; a value of the wrong storage class is `invalid properties {...} for
  op X: Invalid attribute `k` in property conversion: V`; names the op does
  not declare are dropped; an op with no inherent attributes rejects
  `<{...}>` altogether (`this operation does not support properties`). The
  discardable dict may then still supply an inherent attribute `<{...}>`
  lacks: it is taken if its storage class fits and silently dropped
  otherwise; one `<{...}>` also has is dropped.
- only in the discardable dict (no `<{...}>`): checked against the full
  constraint at parse time (`'X' op attribute 'k' failed to satisfy
  constraint: ...`), then stored. `operandSegmentSizes` has no constraint:
  a value that does not convert is dropped.

The verifier then checks, in its order: operand segments summing to the
operand count (a trait, so first), the required attributes, every
constraint of what was stored, and the op's own rules modelled here:
`arith.constant`'s value type; a function's argument/result attributes
(count, dialect-prefixed names) and entry block against `function_type`;
symbol visibility; `builtin.module`'s dialect-prefixed attributes. A missing
`operandSegmentSizes` stands for all zeros, as MLIR default-initialises it.

Where this differs from mlir-opt-19 (recorded in
tests/syntax/test_syntax_op_checks.py): an unknown arith flag is an attribute parse
error there and an invalid property here (same verdict, other message); the
ODS constraints of GPU target and offloading attributes are approximated by
the attribute's name (`spec/syntax/dialect_attrs/gpu_targets.py`); a dict value that fails conversion next to
`<{...}>` leaves a default-valued property at its default (mlir-opt-19
nulls it). Not modelled here: symbol uses (calls: `structure`; kernels:
`op_verifiers`), the address
spaces of `gpu.func` attributions, `memref.subview`'s inferred result type.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from spec import registry
from spec.attributes import (
    ArrayAttr,
    Attr,
    DenseArrayAttr,
    DictAttr,
    FloatAttr,
    FunctionType,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    Type,
    TypeAttr,
    UnitAttr,
    arith_flags_text,
    format_attr_entries,
)
from spec.diagnostics import Diagnostic, DiagnosticError, error
from spec.ir import Location, Region, Value
from spec.syntax.dialect_attrs import is_gpu_target, is_offloading_handler
from spec.syntax.dialect_attrs.vector_enums import KINDS as VECTOR_KINDS


@dataclass(frozen=True)
class AttrKind:
    """An ODS attribute constraint: what property conversion stores and what
    the verifier requires, with the summary the verifier prints."""

    summary: str
    stored: Callable[[Attr], bool]
    """The storage class check of property conversion."""
    valid: Callable[[Any], bool] | None = None
    """The full constraint; `None` when it is the storage check. Asked only
    of an attribute `stored` accepts, so of the class it checks (typed Any:
    each constraint reads its own class's fields)."""

    def satisfied(self, value: Attr) -> bool:
        return self.stored(value) and (self.valid is None or self.valid(value))


def _is(cls: type) -> Callable[[Attr], bool]:
    return lambda a: isinstance(a, cls)


def _int_of(type_text: str) -> Callable[[Attr], bool]:
    return lambda a: isinstance(a, IntegerAttr) and a.type.text == type_text


def _dense_of(elem: str) -> Callable[[Attr], bool]:
    return lambda a: isinstance(a, DenseArrayAttr) and a.element.text == elem


def _opaque(pattern: str) -> Callable[[Attr], bool]:
    return lambda a: isinstance(a, OpaqueAttr) and re.fullmatch(pattern, a.text) is not None


def _enum(count: int) -> AttrKind:
    """An `I64EnumAttr` with cases 0..count-1: its storage class is itself an
    i64 integer attribute restricted to the cases."""
    cases = ", ".join(str(i) for i in range(count))
    ok = lambda a: isinstance(a, IntegerAttr) and a.type.text == "i64" and 0 <= a.value < count  # noqa: E731
    return AttrKind(f"allowed 64-bit signless integer cases: {cases}", ok)


def _typed(a: Attr) -> bool:
    """`TypedAttr`: integers, floats, strings (typed `none`) and elements
    attributes written with a type."""
    return isinstance(a, IntegerAttr | FloatAttr | StringAttr) or (isinstance(a, OpaqueAttr) and " : " in a.text)


def _arith_flags(kind: str) -> Callable[[Attr], bool]:
    """`#arith.overflow<...>` / `#arith.fastmath<...>` naming known flags
    only. mlir-opt-19 rejects an unknown flag while parsing the attribute
    (`expected ::mlir::arith::IntegerOverflowFlags to be one of: ...`, at the
    flag); the parser keeps such text opaque, so it is caught here, as an
    invalid property, with a different message."""

    def ok(a: Attr) -> bool:
        m = re.fullmatch(rf"#arith\.{kind}<([\w ,]*)>", a.text) if isinstance(a, OpaqueAttr) else None
        return (
            m is not None
            and arith_flags_text(kind, [f.strip() for f in m.group(1).split(",") if f.strip()]) is not None
        )

    return ok


STRING = AttrKind("string attribute", _is(StringAttr))
SYMBOL_REF = AttrKind("symbol reference attribute", _is(SymbolRefAttr))
FLAT_SYMBOL_REF = AttrKind("flat symbol reference attribute", lambda a: isinstance(a, SymbolRefAttr) and not a.nested)
FUNCTION_TYPE = AttrKind("type attribute of function type", _is(TypeAttr), lambda a: isinstance(a.type, FunctionType))
DICT_ARRAY = AttrKind(
    "Array of dictionary attributes", _is(ArrayAttr), lambda a: all(isinstance(e, DictAttr) for e in a.elements)
)
UNIT = AttrKind("unit attribute", _is(UnitAttr))
BOOL = AttrKind("bool attribute", _int_of("i1"))
INDEX = AttrKind("index attribute", _is(IntegerAttr), _int_of("index"))
ALIGNMENT = AttrKind(
    "64-bit signless integer attribute whose minimum value is 0",
    _is(IntegerAttr),
    lambda a: a.type.text == "i64" and a.value >= 0,
)
DENSE_I64 = AttrKind("i64 dense array attribute", _dense_of("i64"))
DENSE_I32_3 = AttrKind(
    "i32 dense array attribute with 3 elements (if present)", _dense_of("i32"), lambda a: len(a.values) == 3
)
OVERFLOW = AttrKind("Integer overflow arith flags", _arith_flags("overflow"))
FASTMATH = AttrKind("Floating point fast math flags", _arith_flags("fastmath"))
GPU_DIM = AttrKind("a dimension, either 'x', 'y', or 'z'", _opaque(r"#gpu<dim [xyz]>"))
TYPED = AttrKind("TypedAttr instance", _typed)
GPU_TARGETS = AttrKind(
    "array of GPU target attributes with at least 1 elements",
    _is(ArrayAttr),
    lambda a: bool(a.elements) and all(is_gpu_target(e) for e in a.elements),
)
OFFLOADING_HANDLER = AttrKind(
    "any attribute with the `OffloadingTranslationAttrTrait` trait.", lambda a: True, is_offloading_handler
)
SEGMENTS = AttrKind("", _dense_of("i32"))
MAT_TRANSPOSE_MODE = AttrKind(
    "transpose mode of sparse matrix supported by sparse tensor ops", _opaque(r"#gpu<mat_transpose_mode \w+>")
)
"""`operandSegmentSizes`: no ODS constraint; its conversion has its own wording."""


CONSTRAINTS: dict[str, AttrKind] = {
    "string": STRING,
    "symbol_ref": SYMBOL_REF,
    "flat_symbol_ref": FLAT_SYMBOL_REF,
    "function_type": FUNCTION_TYPE,
    "dict_array": DICT_ARRAY,
    "unit": UNIT,
    "bool": BOOL,
    "index": INDEX,
    "alignment": ALIGNMENT,
    "dense_i64": DENSE_I64,
    "dense_i32_3": DENSE_I32_3,
    "overflow": OVERFLOW,
    "fastmath": FASTMATH,
    "gpu_dim": GPU_DIM,
    "typed": TYPED,
    "gpu_targets": GPU_TARGETS,
    "offloading_handler": OFFLOADING_HANDLER,
    "segments": SEGMENTS,
    "mat_transpose_mode": MAT_TRANSPOSE_MODE,
    # `scf.forall`'s `mapping`: gpu's `DeviceMappingAttrInterface` attributes.
    "device_mapping": AttrKind(
        "Device Mapping array attribute",
        _is(ArrayAttr),
        lambda a: all(
            isinstance(e, OpaqueAttr)
            and re.fullmatch(r"#gpu\.(?:(?:block|thread|warp|warpgroup)<\w+>|memory_space<\w+>)", e.text)
            for e in a.elements
        ),
    ),
    "reassociation": AttrKind(
        "Array of 64-bit integer array attributes",
        _is(ArrayAttr),
        lambda a: all(
            isinstance(g, ArrayAttr) and all(isinstance(i, IntegerAttr) and i.type.text == "i64" for i in g.elements)
            for g in a.elements
        ),
    ),
    "type": AttrKind("any type attribute", _is(TypeAttr)),
    "cmpi_predicate": _enum(10),
    "cmpf_predicate": _enum(16),
    "atomic_rmw_kind": _enum(15),
    "shuffle_mode": AttrKind(
        "Indexing modes supported by gpu.shuffle.", _opaque(r"#gpu<shuffle_mode (xor|up|down|idx)>")
    ),
    "all_reduce_op": AttrKind(
        "built-in reduction operations supported by gpu.allreduce.", _opaque(r"#gpu<all_reduce_op \w+>")
    ),
    "vector_punctuation": AttrKind(
        "Punctuation for separating vectors or vector elements", _opaque(r"#vector\.punctuation<\w+>")
    ),
    "string_literal": AttrKind("An Attribute containing a string", _is(StringAttr)),
    # The sparse ops' enums, with 19's summaries.
    "prune_2to4_spmat_flag": AttrKind(
        "pruning strategy for 2:4 sparse matrix", _opaque(r"#gpu<prune_2to4_spmat_flag \w+>")
    ),
    "spgemm_work_estimation_or_compute_kind": AttrKind(
        "choose whether spgemm_work_estimation_or_compute does work estimation or compute",
        _opaque(r"#gpu<spgemm_work_estimation_or_compute_kind \w+>"),
    ),
}
"""What each ODS constraint named in the registry's `Inherent` entries
accepts, with the summary mlir-opt-19 prints (the registry says which op has
which attribute; this says what the attribute's constraint means)."""

# ---- Constraints of the cf.switch, memref global, reshape and view, gpu
# reduction, vector, llvm and affine ops. Storage classes as mlir-opt-19
# converts them; the full ODS constraints of the llvm ops are not modelled
# (`any`: stored as written).
CONSTRAINTS.update(
    {
        "any": AttrKind("any attribute", lambda a: True),
        "array": AttrKind("array attribute", _is(ArrayAttr)),
        "dense_i32": AttrKind("i32 dense array attribute", _dense_of("i32")),
        "affine_map": AttrKind("AffineMap attribute", _opaque(r"affine_map<.*>")),
    }
)
# ---- Constraints of gpu.binary, the subgroup MMA ops, index.cmp and the
# memref alignment and prefetch ops, with mlir-opt-19's summaries.
CONSTRAINTS.update(
    {
        "gpu_objects": AttrKind(
            "an array of GPU object attributes with at least 1 elements",
            _is(ArrayAttr),
            lambda a: bool(a.elements) and all(str(e).startswith("#gpu.object<") for e in a.elements),
        ),
        "mma_element_wise": AttrKind(
            "elementwise operation to apply to mma matrix", _opaque(r"#gpu<mma_element_wise \w+>")
        ),
        "index_cmp_predicate": AttrKind("index comparison predicate kind", _opaque(r"#index<cmp_predicate \w+>")),
        "positive_i32": AttrKind(
            "32-bit signless integer attribute whose value is positive",
            _is(IntegerAttr),
            lambda a: a.type.text == "i32" and a.value > 0,
        ),
        "locality_hint": AttrKind(
            "32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3",
            _is(IntegerAttr),
            lambda a: a.type.text == "i32" and 0 <= a.value <= 3,
        ),
    }
)

# ---- Constraints of the vector ops' attributes, with mlir-opt-19's summaries.
CONSTRAINTS.update(
    {
        "vector_kind": AttrKind(
            "Kind of combining function for contractions and reductions",
            _opaque(rf"#vector\.kind<({'|'.join(VECTOR_KINDS)})>"),
        ),
        "vector_iterator_types": AttrKind(
            "Iterator type should be an enum.",
            _is(ArrayAttr),
            lambda a: all(
                isinstance(e, OpaqueAttr) and re.fullmatch(r"#vector\.iterator_type<(parallel|reduction)>", e.text)
                for e in a.elements
            ),
        ),
        "bool_array": AttrKind(
            "1-bit boolean array attribute",
            _is(ArrayAttr),
            lambda a: all(isinstance(e, IntegerAttr) and e.type.text == "i1" for e in a.elements),
        ),
        "i64_array": AttrKind(
            "64-bit integer array attribute",
            _is(ArrayAttr),
            lambda a: all(isinstance(e, IntegerAttr) and e.type.text == "i64" for e in a.elements),
        ),
    }
)

_FLOAT_REDUCTIONS = frozenset("minnumf maxnumf minimumf maximumf".split())
_INT_REDUCTIONS = frozenset("minui minsi maxui maxsi and or xor".split())


def check_reduction_kind(kind: Attr | None, value_type: str, loc: Location, *more: Diagnostic) -> None:
    """`gpu.all_reduce` and `gpu.subgroup_reduce`: a float reduction needs a
    float value, an integer one an integer value (of a vector: its element)."""
    m = re.fullmatch(r"#gpu<all_reduce_op (\w+)>", str(kind)) if kind is not None else None
    if m is None:
        return
    elem = re.sub(r"^vector<(?:\d+x)*", "", value_type).rstrip(">")
    is_float = Type(elem).is_float
    if (m.group(1) in _FLOAT_REDUCTIONS and not is_float) or (m.group(1) in _INT_REDUCTIONS and is_float):
        raise DiagnosticError(
            error(loc, f"`{m.group(1)}` reduction operation is not compatible with type '{value_type}'", *more)
        )


@dataclass(frozen=True)
class Declared:
    """An inherent attribute of an op with its constraint resolved."""

    kind: AttrKind
    required: bool = False


@functools.cache
def declared(name: str) -> dict[str, Declared]:
    """mlir-opt-19's inherent attributes of op `name` (from its registry
    entry), each with its constraint: empty when it declares none."""
    return {
        key: Declared(CONSTRAINTS[i.constraint], i.required) for key, i in registry.inherent_attributes(name).items()
    }


def _in_check_order(name: str) -> list[tuple[str, Declared]]:
    """mlir-opt-19 converts and verifies inherent attributes by name, with
    `operandSegmentSizes` last."""
    entries = declared(name)
    return sorted(entries.items(), key=lambda kv: (kv[0] == "operandSegmentSizes", kv[0]))


_VISIBILITIES = ("public", "private", "nested")


def _fail(loc: Location, message: str) -> DiagnosticError:
    return DiagnosticError(error(loc, message))


def check_region_blocks(name: str, regions: Sequence[Region], loc: Location) -> DiagnosticError | None:
    """The block counts of `name`'s single-block regions (the registry's
    `single_block_regions`), as mlir-opt-19 words the failure (the trait's
    message for two blocks or more, the region constraint's for none), and a
    block without even its terminator. Checked where an empty region would
    reach code that takes the entry block (the refimpl's `async.execute`
    handling did, with an IndexError), and several blocks code that takes
    one (a loop body's, a branch's); mlir-opt-19 rejects every way of
    getting the count wrong."""
    for i, region_name in enumerate(registry.lookup(name).single_block_regions):
        if i >= len(regions):
            break
        n = len(regions[i].blocks)
        if n > 1:
            return _fail(loc, f"'{name}' op expects region #{i} to have 0 or 1 blocks")
        if n == 0 and region_name.endswith("?"):
            continue
        if n == 0:
            return _fail(
                loc, f"'{name}' op region #{i} ('{region_name}') failed to verify constraint: region with 1 blocks"
            )
        if not regions[i].blocks[0].ops:
            return _fail(loc, f"'{name}' op expects a non-empty block")
    return None


def _constraint_failure(name: str, key: str, kind: AttrKind, loc: Location) -> DiagnosticError:
    return _fail(loc, f"'{name}' op attribute '{key}' failed to satisfy constraint: {kind.summary}")


def _convert(name: str, key: str, value: Attr, n_segments: int) -> str | None:
    """Property conversion of one `<{...}>` entry: `None` if it converts,
    else the reason mlir-opt-19 gives."""
    kind = declared(name)[key].kind
    if kind is SEGMENTS:
        if not kind.stored(value):
            return "expected DenseI32ArrayAttr for key `value`"
        count = len(value.values)  # type: ignore[attr-defined]  # a DenseArrayAttr: kind.stored accepted it just above
        if key == "resultSegmentSizes":
            n_segments = 2  # the variadic results, then the optional token
        return None if count == n_segments else f"size mismatch in attribute conversion: {count} vs {n_segments}"
    return None if kind.stored(value) else f"Invalid attribute `{key}` in property conversion: {value}"


def convert_generic_properties(
    name: str, written: dict[str, Attr] | None, attrs: dict[str, Attr], loc: Location
) -> tuple[dict[str, Attr], dict[str, Attr]]:
    """Parse-time half: the properties and discardable attributes a known op
    written generically ends up with (`written` is its `<{...}>`, `None` if
    absent), or the diagnostic mlir-opt-19 gives while converting them."""
    own = declared(name)
    n_segments = len(registry.lookup(name).segments)
    # Default-valued properties are set before conversion (mlir-opt-19 sets
    # an unconvertible dict value to null instead; kept at the default here,
    # so the custom form, which elides the default, round-trips).
    props: dict[str, Attr] = {k: v for k, v in registry.lookup(name).default_properties.items() if k in own}
    attrs = dict(attrs)
    if written is not None:
        if not own:
            raise _fail(
                loc,
                f"invalid properties {{{format_attr_entries(written)}}} for op {name}: this operation does not support properties",
            )
        for key, _ in _in_check_order(name):
            if key in written:
                reason = _convert(name, key, written[key], n_segments)
                if reason is not None:
                    raise _fail(loc, f"invalid properties {{{format_attr_entries(written)}}} for op {name}: {reason}")
                props[key] = written[key]
        for key in own:
            if key in attrs:
                value = attrs.pop(key)
                if key not in written and _convert(name, key, value, n_segments) is None:
                    props[key] = value
    else:
        for key, inherent in _in_check_order(name):
            if key not in attrs:
                continue
            value = attrs.pop(key)
            if inherent.kind is not SEGMENTS and not inherent.kind.satisfied(value):
                raise _constraint_failure(name, key, inherent.kind, loc)
            if _convert(name, key, value, n_segments) is None:
                props[key] = value
    if "operandSegmentSizes" in own and "operandSegmentSizes" not in props:
        props["operandSegmentSizes"] = DenseArrayAttr(Type("i32"), (0,) * n_segments)
    return props, attrs


def check_generic_properties(
    name: str,
    props: dict[str, Attr],
    attrs: dict[str, Attr],
    n: int,
    results: Sequence[Type],
    loc: Location,
    regions: Sequence[Region] = (),
) -> None:
    """Verifier half, after conversion: required attributes, constraints of
    what was stored, and the op's own rules the custom form relies on."""
    # `AttrSizedOperandSegments` is a trait: verified before the attributes.
    _check_segments(name, props, n, loc)
    ordered = _in_check_order(name)
    for key, inherent in ordered:
        if inherent.required and key not in props:
            raise _fail(loc, f"'{name}' op requires attribute '{key}'")
    for key, inherent in ordered:
        if key in props and not inherent.kind.satisfied(props[key]):
            raise _constraint_failure(name, key, inherent.kind, loc)
    if registry.function_kind(name) == "gpu" and not isinstance(attrs.get("sym_name"), StringAttr):
        raise _fail(loc, f"'{name}' op requires string attribute 'sym_name'")
    # Checked only of a symbol: `builtin.module`'s name is optional.
    visibility = props.get("sym_visibility")
    if "sym_name" in props and isinstance(visibility, StringAttr) and visibility.value not in _VISIBILITIES:
        raise _fail(
            loc, f'\'{name}\' op visibility expected to be one of ["public", "private", "nested"], but got {visibility}'
        )
    fn = props.get("function_type")
    if isinstance(fn, TypeAttr) and isinstance(fn.type, FunctionType):
        for key, what, types in (("arg_attrs", "argument", fn.type.inputs), ("res_attrs", "result", fn.type.results)):
            array = props.get(key)
            if not isinstance(array, ArrayAttr):
                continue
            plural = "arguments" if what == "argument" else "results"
            if len(array.elements) != len(types):
                raise _fail(
                    loc,
                    f"'{name}' op expects {what} attribute array to have the same number of elements as the number of "
                    f"function {plural}, got {len(array.elements)}, but expected {len(types)}",
                )
            # Only dialect attributes (a dotted name) may sit on arguments and results.
            if any("." not in k for d in array.elements if isinstance(d, DictAttr) for k, _ in d.entries):
                raise _fail(loc, f"'{name}' op {plural} may only have dialect attributes")
    for predicate in registry.lookup(name).predicates:
        PREDICATES[predicate](name, props, n, results, loc)
    if isinstance(fn, TypeAttr) and isinstance(fn.type, FunctionType) and regions and regions[0].blocks:
        _check_entry_block(name, fn.type, attrs, regions[0].blocks[0].args, loc)
    if registry.is_top_level(name):
        for key in sorted(attrs):
            if "." not in key:
                raise _fail(
                    loc, f"'builtin.module' op can only contain attributes with dialect-prefixed names, found: '{key}'"
                )
    blocks = check_region_blocks(name, regions, loc)
    if blocks is not None:
        raise blocks


Predicate = Callable[[str, dict[str, Attr], int, Sequence[Type], Location], None]
"""A check of an op's properties against its operand count and results."""


def _value_type(name: str, props: dict[str, Attr], n: int, results: Sequence[Type], loc: Location) -> None:
    """ODS `AllTypesMatch<["value", "result"]>`."""
    if len(results) == 1 and _attr_type(props["value"]) != results[0].text:
        raise _fail(loc, f"'{name}' op failed to verify that all of {{value, result}} have same type")


def _string_alone(name: str, props: dict[str, Attr], n: int, results: Sequence[Type], loc: Location) -> None:
    """A string is printed with neither an operand nor a punctuation of its own."""
    if "stringLiteral" in props and (n or _punctuation_set(name, props)):
        raise _fail(
            loc, f"'{name}' op failed to verify that `source` or `punctuation` are not set when printing strings"
        )


def _atomic_kind(name: str, props: dict[str, Attr], n: int, results: Sequence[Type], loc: Location) -> None:
    """The `kind` suits the value's type (`_check_atomic_kind`)."""
    kind = props.get("kind")
    if len(results) == 1 and isinstance(kind, IntegerAttr) and 0 <= kind.value < 15:
        _check_atomic_kind(kind.value, results[0].text, loc)


def _reduction_kind(name: str, props: dict[str, Attr], n: int, results: Sequence[Type], loc: Location) -> None:
    """The reduction `op` suits the value's type (`check_reduction_kind`)."""
    if len(results) == 1:
        check_reduction_kind(props.get("op"), results[0].text, loc)


PREDICATES: dict[str, Predicate] = {
    "value_type": _value_type,
    "string_alone": _string_alone,
    "atomic_kind": _atomic_kind,
    "reduction_kind": _reduction_kind,
}
"""What each of the registry's `predicates` checks, by name."""


_ATOMIC_FLOAT_KINDS = {0: "addf", 3: "maximumf", 6: "minimumf", 9: "mulf", 13: "maxnumf", 14: "minnumf"}
_ATOMIC_INT_KINDS = {1: "addi", 4: "maxs", 5: "maxu", 7: "mins", 8: "minu", 10: "muli", 11: "ori", 12: "andi"}


def _punctuation_set(name: str, props: dict[str, Attr]) -> bool:
    """A `punctuation` other than the op's default (`newline`)."""
    default = registry.lookup(name).default_properties["punctuation"]
    return props.get("punctuation", default) != default


def _check_atomic_kind(kind: int, value_type: str, loc: Location) -> None:
    """`memref.atomic_rmw`: a float kind needs a float value, an integer
    kind an integer (mlir-opt-19's words); `assign` takes either."""
    is_float = re.fullmatch(r"f\d+|bf16|tf32|f8\w*", value_type) is not None
    is_int = re.fullmatch(r"[su]?i\d+", value_type) is not None
    if kind in _ATOMIC_FLOAT_KINDS and not is_float:
        raise _fail(
            loc, f"'memref.atomic_rmw' op with kind '{_ATOMIC_FLOAT_KINDS[kind]}' expects a floating-point type"
        )
    if kind in _ATOMIC_INT_KINDS and not is_int:
        raise _fail(loc, f"'memref.atomic_rmw' op with kind '{_ATOMIC_INT_KINDS[kind]}' expects an integer type")


def _check_entry_block(
    name: str, fn: FunctionType, attrs: dict[str, Attr], args: Sequence[Value], loc: Location
) -> None:
    """A function body's entry block against `function_type`: the custom
    form prints the arguments from both, zipped. (Argument types of
    `func.func` are checked after name resolution, in `resolve`.)"""
    n_in = len(fn.inputs)
    if registry.function_kind(name) in ("host", "async") and len(args) != n_in:
        raise _fail(loc, f"'{name}' op entry block must have {n_in} arguments to match function signature")
    if registry.function_kind(name) != "gpu":
        return
    # Workgroup attributions follow the arguments, then private ones.
    workgroup = attrs.get("workgroup_attributions")
    n_wg = workgroup.value if isinstance(workgroup, IntegerAttr) else 0
    if len(args) < n_in + n_wg:
        raise _fail(loc, f"'gpu.func' op expected at least {n_in + n_wg} arguments to body region")
    for i, (want, arg) in enumerate(zip(fn.inputs, args)):
        if arg.type != want:
            raise _fail(
                loc, f"'gpu.func' op expected body region argument #{i} to be of type '{want}', got '{arg.type}'"
            )
    if any(not arg.type.is_memref for arg in args[n_in:]):
        raise _fail(loc, "'gpu.func' op expected memref type in attribution")


def _attr_type(value: Attr) -> str:
    """The type of a `TypedAttr`, as text."""
    if isinstance(value, IntegerAttr | FloatAttr):
        return value.type.text
    if isinstance(value, OpaqueAttr):
        return value.text.rpartition(" : ")[2]
    return "none"


def _check_segments(name: str, props: dict[str, Attr], n: int, loc: Location) -> None:
    """`AttrSizedOperandSegments`: one size per segment, summing to the
    operand count."""
    segments = registry.lookup(name).segments
    if not segments:
        return
    sizes = props.get("operandSegmentSizes")
    values = sizes.values if isinstance(sizes, DenseArrayAttr) else ()
    if len(values) != len(segments):
        raise _fail(
            loc,
            f"'{name}' op 'operandSegmentSizes' attribute for specifying operand segments must have {len(segments)} elements, but got {len(values)}",
        )
    if sum(values) != n or any(v < 0 for v in values):
        raise _fail(
            loc,
            f"'{name}' op operand count ({n}) does not match with the total size ({sum(values)}) specified in attribute 'operandSegmentSizes'",
        )


def check_result_count(name: str, n: int, loc: Location) -> None:
    """The result-count traits of the known ops (`ZeroResults`, `OneResult`,
    `NResults<N>`: the registry's `result_count`), whose custom forms could
    not show another count."""
    fixed = registry.lookup(name).result_count
    if fixed is not None and n != fixed:
        raise _fail(
            loc,
            f"'{name}' op "
            + (
                "requires zero results"
                if fixed == 0
                else "requires one result"
                if fixed == 1
                else f"expected {fixed} results"
            ),
        )


def operand_count_message(lo: int, hi: int | None, n: int) -> str:
    """The verifier's wording for a wrong operand count (op traits
    `ZeroOperands`, `OneOperand`, `NOperands<N>`, `AtLeastNOperands<N>`)."""
    if lo == hi == 0:
        return "requires zero operands"
    if lo == hi == 1:
        return "requires a single operand"
    if lo == hi or (hi is not None and n > hi):
        return f"expected {hi} operands, but found {n}"
    return f"expected {lo} or more operands, but found {n}"
