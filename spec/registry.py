"""The op registry: everything the tools know about an op, by name, in one place.

Per op: whether it is a GPU async op (MLIR's `gpu::AsyncOpInterface`) and
where its dependency operands sit; its memory effects as MLIR declares them
(`pure`, a set of `read`/`write`/`alloc`/`free`, `recursive` for region ops
whose effects are those of their bodies, or `None` when the op implements no
effects interface); what it does for ordering if it is a synchronization op
(`sync`: waits, threads, groups); whether it is a terminator; its traits
(`IsolatedFromAbove`, `Symbol`, `SymbolTable`, `NoTerminator`); the 2020
classification the seed used; its inherent attributes as mlir-opt-19
declares them, each with its ODS constraint (`inherent`, read through
`inherent_attributes`); printing facts (operand segments, the default
properties the custom form elides); and what the semantics, the pass and
the proofs that walk a program need to know of it: how its regions run
(`region_flow`: a branch, a loop that carries values, a region run once,
...) and where a jump goes (`jump`), whether it yields to its parent op,
is a function (and whose), the top-level module, a group op, a thread's
begin or end, a constant, a call, a kernel launch or a kernel container.

This is the one place for such facts: the syntax checks, the printer, the
semantics, the pass and the verifier read them here (through the accessors
at the end, or `lookup(name)`), so adding an op touches its entry and its
syntax.

Unknown ops are what MLIR makes of unregistered ops: unknown effects, possibly
a terminator.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from spec.attributes import I64, Attr, DenseArrayAttr, IntegerAttr, OpaqueAttr

if TYPE_CHECKING:
    from spec.ir import Operation, Value

READ, WRITE, ALLOC, FREE = "read", "write", "alloc", "free"


@dataclass(frozen=True)
class LibraryForm:
    """The custom form shared by the GPU library ops (the sparse ops):

        NAME async-deps [{ LEAD}] operand[{ MODE}], ... attr-dict [: TYPES] [into TYPE]

    Operand kinds: `index`, `memref`, a handle (`spmat`, `dntensor`,
    `spgemm`), and at most one variadic group (`index*`, `memref*`) that
    takes the operands the fixed ones leave. What follows `:` and `into`
    (`colon`, `into`): `memrefs` (the types of the memref operands, in
    order), `dims` (the variadic index operands' types), `results` (the
    variadic index results' types), `compute` (the `computeType` property),
    `memref` (the one memref operand's type)."""

    operands: tuple[str, ...]
    results: tuple[tuple[str, str], ...] = ()
    """(name, kind) of the results before the token; the names are those
    mlir-opt-19 gives the values (`%spmat`, `%bufferSz`)."""
    lead: str = ""
    """Enum property written `{ X}` right after the deps (always printed)."""
    lead_enum: str = ""
    """Its MLIR enum mnemonic (`#gpu<ENUM X>`)."""
    modes: tuple[int, ...] = ()
    """Positions of the operands that take `{ MODE}` (`modeA`, `modeB` in
    order; printed only when not `NON_TRANSPOSE`)."""
    colon: str = ""
    into: str = ""
    order: tuple[int, ...] = ()
    """Where each written operand sits among the op's operands after the
    deps, when that differs (`desc` is written fourth but is the first)."""


HANDLE_TYPES = {
    "spmat": "!gpu.sparse.spmat_handle",
    "dntensor": "!gpu.sparse.dntensor_handle",
    "spgemm": "!gpu.sparse.spgemmop_handle",
}
"""The `!gpu.sparse.*` handle types of `LibraryForm` operand kinds."""


@dataclass(frozen=True)
class Inherent:
    """An inherent attribute as mlir-opt-19 declares it: the name of its ODS
    constraint and whether the op requires it. What each constraint accepts,
    and the summary mlir-opt-19's verifier prints for it, is syntax's
    business: `spec.syntax.op_checks.CONSTRAINTS`, keyed by these names."""

    constraint: str
    required: bool = False


def _req(constraint: str) -> Inherent:
    return Inherent(constraint, required=True)


def _opt(constraint: str) -> Inherent:
    return Inherent(constraint)


@dataclass(frozen=True)
class OpInfo:
    name: str
    effects: frozenset[str] | None = frozenset()
    """Declared effects; empty = pure; `None` = no effects interface
    (MLIR then assumes anything can happen)."""
    recursive: bool = False
    """Effects are those of the ops in its regions (`HasRecursiveMemoryEffects`)."""
    terminator: bool = False
    gpu_async: bool = False
    """Implements `gpu::AsyncOpInterface` (deps operands and an optional token)."""
    wait_only: bool = False
    """A GPU async op with no GPU work of its own (`gpu.wait`): it only
    orders on its dependencies, blocking the host unless it is `async`. Not
    an effectful event; the pass adds, merges and moves such ops."""
    sync: str = ""
    """What the op does for the ordering of other ops, if it is no event of
    the semantics itself (docs/design.md section 4): `wait` holds its thread
    until one token or value completes (`gpu.wait`, `async.await`: the waits
    a rewrite adds); `wait_group` until a group's tokens do
    (`async.await_all`); `thread` begins or completes an async thread
    (`async.execute`, `async.yield`); `group` only gathers tokens
    (`async.create_group`, `async.add_to_group`). Read through `sync_kind`."""
    tokens: str = ""
    """What the op does with a token operand, if it is not a GPU, async or
    synchronization op (the event model follows no other): `pass` hands
    its operands on to block arguments or region results (`scf.yield`,
    `scf.condition`, `cf.br`, `cf.cond_br`); `select` picks one of two on
    an `i1`, a decision (`arith.select`); `escape` hands them out of the
    function, to a receiver (`func.return`, `func.call`). Read through
    `token_use`."""
    loop: bool = False
    """Runs its body a number of times: a decision on the trip count
    (`scf.for`, `scf.while`, `scf.parallel`, `scf.forall`). Read through `is_loop`."""
    fixed_trailing: int = 0
    """GPU async ops without operand segments: operands after the deps."""
    segments: tuple[str, ...] = ()
    """Names of the operand segments (`operandSegmentSizes`), if any."""
    deps_segment: int | None = None
    """Index of the async-dependencies segment."""
    properties: frozenset[str] = frozenset()
    """Inherent attributes printed in `<{...}>` in the generic form: those
    of `inherent` and the few the custom-form parser takes that mlir-opt-19
    does not declare (mlir-opt-22's `cf.cond_br` `branch_weights`)."""
    inherent: Mapping[str, Inherent] = field(default_factory=dict)
    """mlir-opt-19's inherent attributes, by name (`operandSegmentSizes` and
    `resultSegmentSizes` included): what its property conversion and
    verifier check of an op written generically. Empty: it declares none."""
    default_properties: dict[str, Attr] = field(default_factory=dict)
    """Properties with a default value: elided by the custom form."""
    operand_count: tuple[int, int | None] = (0, None)
    """Allowed number of operands (min, max or None)."""
    default_dialect: str = ""
    """Dialect whose ops print without prefix directly inside this op, and
    the dialect a name without one (`call`) is looked up in there when this
    op is written in its custom form (MLIR's `getDefaultDialect`)."""
    known: bool = True
    generic_terminator: str = ""
    """An implicit terminator mlir-opt-19 shows only in the generic form
    (`gpu.module_end`; mlir-opt-22 no longer has it)."""
    elided_defaults: dict[str, str] = field(default_factory=dict)
    """Optional properties with a default (`DefaultValuedOptionalAttr`): the
    custom form leaves out a value equal to it (printed form here), and an
    op with it equals one without it."""
    parents: tuple[str, ...] = ()
    """The ops it may sit directly in (MLIR's `HasParent` / `ParentOneOf`)."""
    isolated: bool = False
    """MLIR's `IsolatedFromAbove`: no op in its regions uses a value defined
    outside them (and where the generic printer's numbering starts)."""
    symbol: bool = False
    """MLIR's `Symbol` trait: it defines a symbol (`sym_name`)."""
    symbol_table: bool = False
    """MLIR's `SymbolTable` trait: its block holds symbols, unique by name."""
    no_terminator: bool = False
    """MLIR's `NoTerminator` (or an implicit terminator the custom form
    hides): its blocks need not end in a terminator."""
    indexed_memref: tuple[int, str] | None = None
    """For an op that indexes a memref (`memref.load`, `memref.store`): the
    memref operand's position (the indices follow it) and mlir-opt-19's
    message when their count is not the memref's rank (`{rank}` and
    `{count}` filled in)."""
    library_form: LibraryForm | None = None
    """The GPU library ops' shared custom form (see `LibraryForm`)."""
    result_segments: bool = False
    """Has `resultSegmentSizes` (variadic results, then the optional token)."""
    result_names: tuple[str, ...] = ()
    """The names mlir-opt-19 gives its results (`getAsmResultNames`), in
    order: `{dim}` is replaced by the `dimension` property (`x`), `{value}`
    by the `value` property's bare value (`42`, `true`); a name ending in
    `*` names a group, the groups sharing what the fixed names leave
    (`%sizes:2`). Read by `spec.syntax.printer.result_name_hints`."""
    result_count: int | None = None
    """The fixed number of results (MLIR's `ZeroResults`, `OneResult`,
    `NResults<N>`), which an op written generically is checked against
    (`op_checks.check_result_count`, in mlir-opt-19's words); `None`: not
    checked."""

    subset_form: str = ""
    """For an op this tool reads in one of its forms only: which (a syntax
    error inside another form names the op and says so, rather than only
    the token it stopped at)."""
    verifier: str = ""
    """The name of the op's own verifier (MLIR's `verify()`) among
    `spec.syntax.op_verifiers.RULES`, run on the op's entrance after the
    checks above: `gpu.launch_func` needs a container module, `gpu.alloc`
    as many size operands as its type has dynamic dims."""
    operand_types: tuple[tuple[int, str], ...] = ()
    """(operand position, counted from the end if negative, ODS type constraint) the op declares beyond any
    type: the custom form refuses another type as it reads it (`invalid
    kind of type specified`), the verifier a generic op's (`operand #N must
    be ...`). What each constraint accepts is
    `spec.syntax.op_verifiers.TYPE_CONSTRAINTS`."""

    speculatable: bool = True
    """For a pure op: it may run where the program would not have reached it
    (MLIR's `Pure` = no effect and `AlwaysSpeculatable`). False for the
    `ConditionallySpeculatable` ops that can stop the program at run time
    (an integer division by zero, a memref whose dynamic shape does not
    match the static one the op asks for): such an op may not move across
    anything that can stop the program or be observed before it."""

    region_flow: str = ""
    """How a thread runs the op's regions (what the semantics, the proofs
    and the program edits that walk them follow): `then_else` one of its
    two, on an `i1` (`scf.if`, `affine.if`; an empty else region runs
    nothing); `cases` one, the first (the default) or one per case value
    (`scf.index_switch`); `once` its one region, once
    (`scf.execute_region`, `memref.alloca_scope`); `counted` its body a
    number of times, each iteration handing values to the next (`scf.for`,
    `affine.for`); `while` its `before` region, then its `after` region for
    as long as the first says so (`scf.while`); `parallel` its body's
    iterations side by side (`scf.parallel`). Read through `region_flow`."""
    jump: str = ""
    """For a terminator that goes to other blocks of its region: `always`
    to its one successor (`cf.br`); on a `condition`, `i1`, to its true or
    false one (`cf.cond_br`); on an integer, to one of its `cases`, the
    default first (`cf.switch`). Read through `jump_kind`."""
    yields: bool = False
    """Ends a region of a structured op, handing its operands to the op's
    results or next iteration (`scf.yield`, `affine.yield`,
    `memref.alloca_scope.return`). Read through `yields_to_parent`."""
    function: str = ""
    """A function: `host` for the functions the pass rewrites and the
    semantics runs (`func.func`), `gpu` for a kernel's (`gpu.func`),
    `llvm` (`llvm.func`), `async` for a coroutine (`async.func`, which the
    pass leaves alone). Read through `function_kind`."""
    top_level: bool = False
    """The op a file's ops sit in (`builtin.module`: implicit around them
    when not written; nested, a named scope of symbols)."""
    group: str = ""
    """What the op does with an `!async.group`: `create` makes one,
    `add` adds a token to one, `await` waits for its tokens. Read through
    `group_role`."""
    constant: bool = False
    """Makes a number given by its `value` property (`arith.constant`,
    `index.constant`)."""
    calls: bool = False
    """Calls a function of the module named by its `callee` (`func.call`)."""
    callee: str = ""
    """The function op a call names by its `callee` symbol, which must be
    one (`func.func` for `func.call`, `async.func` for `async.call`)."""
    launches: bool = False
    """Runs a GPU kernel named by its `kernel` (`gpu.launch_func`)."""
    kernels: bool = False
    """Holds GPU kernels, the code launches run (`gpu.module`)."""
    single_block_regions: tuple[str, ...] = ()
    """Its regions that ODS declares `SizedRegion<1>` under the
    `SingleBlock` trait, by name, in order (`MaxSizedRegion<1>` where the
    name ends in `?`: it may be empty); `spec.syntax.op_checks` checks
    their block counts in mlir-opt-19's words."""
    predicates: tuple[str, ...] = ()
    """The ODS predicates and verifier parts that hold its properties to its
    operand count and result types, checked with its attributes, by name
    (what each checks: `spec.syntax.op_checks.PREDICATES`): `value_type`
    (the `value`'s type is the result's), `string_alone` (a string is
    printed with neither an operand nor a punctuation), `atomic_kind` and
    `reduction_kind` (the kind of operation suits the value's type)."""
    inline_kernel: bool = False
    """Launches a kernel written in its own region (`gpu.launch`): the pass
    and the event model take outlined kernels only (`gpu.launch_func`)."""

    @property
    def pure(self) -> bool:
        return self.effects is not None and not self.effects and not self.recursive

    @property
    def seed_no_effect(self) -> bool:
        """2020's `MemoryEffectOpInterface::hasNoEffect(op)`: an op with the
        interface is free iff it declares no effects; an op without it is free
        iff it has the recursive-effects trait, whatever its regions hold."""
        if self.recursive:
            return True
        return self.effects is not None and not self.effects


_OVERFLOW = {"overflowFlags": OpaqueAttr("#arith.overflow<none>")}
_FASTMATH = {"fastmath": OpaqueAttr("#arith.fastmath<none>")}
_OVERFLOW_ATTR = {"overflowFlags": _opt("overflow")}
_FASTMATH_ATTR = {"fastmath": _opt("fastmath")}
_SYMBOL_ATTRS = {"sym_name": _req("string"), "sym_visibility": _opt("string")}
_FUNCTION_ATTRS = {
    "function_type": _req("function_type"),
    "arg_attrs": _opt("dict_array"),
    "res_attrs": _opt("dict_array"),
}
_GPU_DIM_ATTRS = {"dimension": _req("gpu_dim"), "upper_bound": _opt("index")}
_NONTEMPORAL = {"nontemporal": _opt("bool")}
_REGISTRY: dict[str, OpInfo] = {}
"""Op name -> its entry, filled as this module is imported and fixed after."""


_SEGMENTS_ATTR = _opt("segments")


def _op(name: str, **kw: Any) -> None:  # kw: OpInfo's fields by name
    defaults = kw.get("default_properties", {})
    inherent = dict(kw.pop("inherent", {}))
    if kw.get("segments"):
        inherent["operandSegmentSizes"] = _SEGMENTS_ATTR
    if kw.get("result_segments"):
        inherent["resultSegmentSizes"] = _SEGMENTS_ATTR
    props = set(kw.pop("properties", ())) | set(defaults) | set(inherent)
    _REGISTRY[name] = OpInfo(name, properties=frozenset(props), inherent=inherent, **kw)


def _pure(names: str, **kw: object) -> None:
    for n in names.split():
        _op(n, **kw)


def _checked(names: str, **kw: Any) -> None:
    """Ops each verified by the rule of its own name."""
    for n in names.split():
        _op(n, verifier=n, **kw)


# builtin / func
_op(
    "builtin.module",
    effects=None,
    top_level=True,
    symbol_table=True,
    no_terminator=True,
    inherent={"sym_name": _opt("string"), "sym_visibility": _opt("string")},
    operand_count=(0, 0),
    default_dialect="builtin",
    isolated=True,
    result_count=0,
)
_op(
    "func.func",
    effects=None,
    function="host",
    symbol=True,
    inherent={**_SYMBOL_ATTRS, **_FUNCTION_ATTRS},
    operand_count=(0, 0),
    default_dialect="func",
    isolated=True,
    result_count=0,
)
_op(
    "func.call",
    effects=None,
    tokens="escape",
    inherent={"callee": _req("flat_symbol_ref")},
    calls=True,
    callee="func.func",
)  # 19's has no arg_attrs/res_attrs/no_inline (22's has)
_op("func.return", terminator=True, tokens="escape", parents=("func.func",), result_count=0)

# gpu: kernels and modules (opaque to the pass)
_op(
    "gpu.module",
    effects=None,
    kernels=True,
    symbol=True,
    symbol_table=True,
    no_terminator=True,
    inherent={
        "sym_name": _req("string"),
        "targets": _opt("gpu_targets"),
        "offloadingHandler": _opt("offloading_handler"),
    },
    operand_count=(0, 0),
    generic_terminator="gpu.module_end",
    isolated=True,
    result_count=0,
)
_op("gpu.module_end", terminator=True, operand_count=(0, 0), parents=("gpu.module",), result_count=0)
# gpu.func keeps `sym_name` in the discardable dict (spec.syntax.op_checks checks it).
_op(
    "gpu.func",
    effects=None,
    function="gpu",
    symbol=True,
    verifier="gpu.func",
    inherent={
        **_FUNCTION_ATTRS,
        "workgroup_attrib_attrs": _opt("dict_array"),
        "private_attrib_attrs": _opt("dict_array"),
        "known_block_size": _opt("dense_i32_3"),
        "known_grid_size": _opt("dense_i32_3"),
    },
    operand_count=(0, 0),
    isolated=True,
    parents=("gpu.module",),
    result_count=0,
)
_op("gpu.return", terminator=True, verifier="gpu.return", parents=("gpu.func",), result_count=0)
_op("gpu.terminator", terminator=True, operand_count=(0, 0), parents=("gpu.launch",), result_count=0)
_op("gpu.barrier", effects=None, operand_count=(0, 0), result_count=0)
_pure(
    "gpu.thread_id gpu.block_id gpu.block_dim gpu.grid_dim",
    inherent=_GPU_DIM_ATTRS,
    operand_count=(0, 0),
    result_count=1,
)
_pure("gpu.cluster_id gpu.cluster_dim", inherent=_GPU_DIM_ATTRS, operand_count=(0, 0), result_count=1)
_op(
    "gpu.launch",
    effects=None,
    segments=(
        "asyncDependencies",
        "gridSizeX",
        "gridSizeY",
        "gridSizeZ",
        "blockSizeX",
        "blockSizeY",
        "blockSizeZ",
        "clusterSizeX",
        "clusterSizeY",
        "clusterSizeZ",
        "dynamicSharedMemorySize",
    ),
    deps_segment=0,
    inline_kernel=True,
)

# gpu: the async ops the pass threads tokens through
_op(
    "gpu.launch_func",
    effects=None,
    launches=True,
    gpu_async=True,
    inherent={"kernel": _req("symbol_ref")},
    verifier="gpu.launch_func",
    segments=(
        "asyncDependencies",
        "gridSizeX",
        "gridSizeY",
        "gridSizeZ",
        "blockSizeX",
        "blockSizeY",
        "blockSizeZ",
        "clusterSizeX",
        "clusterSizeY",
        "clusterSizeZ",
        "dynamicSharedMemorySize",
        "kernelOperands",
        "asyncObject",
    ),
    deps_segment=0,
)
_op(
    "gpu.memcpy",
    effects=frozenset({READ, WRITE}),
    gpu_async=True,
    fixed_trailing=2,
    verifier="gpu.memcpy",
    operand_types=((-2, "ranked_memref"), (-1, "ranked_memref")),
)
_op(
    "gpu.memset",
    effects=frozenset({WRITE}),
    gpu_async=True,
    fixed_trailing=2,
    verifier="gpu.memset",
    operand_types=((-2, "ranked_memref"),),
)
_op(
    "gpu.alloc",
    effects=frozenset({ALLOC}),
    gpu_async=True,
    inherent={"hostShared": _opt("unit")},
    verifier="gpu.alloc",
    segments=("asyncDependencies", "dynamicSizes", "symbolOperands"),
    deps_segment=0,
)
_op("gpu.dealloc", effects=frozenset({FREE}), gpu_async=True, fixed_trailing=1)
_op("gpu.wait", effects=None, gpu_async=True, wait_only=True, sync="wait", fixed_trailing=0)

# gpu: the sparse library ops (cuSPARSE / cuSPARSELt calls), all GPU async.
# MLIR 19 declares no memory effects for them (effects None): they read and
# write memory only through the handles, which alias their memrefs.
_MODES = {
    "modeA": OpaqueAttr("#gpu<mat_transpose_mode NON_TRANSPOSE>"),
    "modeB": OpaqueAttr("#gpu<mat_transpose_mode NON_TRANSPOSE>"),
}
_IDX3 = ("index", "index", "index")


def _library(name: str, form: LibraryForm, segments: tuple[str, ...] = (), **kw: object) -> None:
    """A GPU library op: its operand layout and inherent attributes follow
    from its custom form (modes, the lead enum, a compute type)."""
    fixed = sum(1 for k in form.operands if not k.endswith("*"))
    layout: dict[str, object] = {"segments": segments, "deps_segment": 0} if segments else {"fixed_trailing": fixed}
    inherent: dict[str, Inherent] = {}
    if form.modes:
        kw["default_properties"] = {k: _MODES[k] for k in list(_MODES)[: len(form.modes)]}
        inherent.update({k: _opt("mat_transpose_mode") for k in list(_MODES)[: len(form.modes)]})
    if form.lead == "pruneFlag":
        # 19's `pruneFlag` has a default (PRUNE_AND_CHECK): optional, and
        # set when missing; the custom form prints it all the same.
        inherent[form.lead] = _opt(form.lead_enum)
        kw["default_properties"] = {"pruneFlag": OpaqueAttr("#gpu<prune_2to4_spmat_flag PRUNE_AND_CHECK>")}
    elif form.lead:
        inherent[form.lead] = _req(form.lead_enum)
    if "compute" in (form.colon, form.into):
        inherent["computeType"] = _req("type")
    _op(name, effects=None, gpu_async=True, library_form=form, inherent=inherent, **layout, **kw)


_library(
    "gpu.create_dn_tensor",
    LibraryForm(("memref", "index*"), (("dnTensor", "dntensor"),), colon="dims", into="memref"),
    segments=("asyncDependencies", "memref", "dims"),
)
_library("gpu.destroy_dn_tensor", LibraryForm(("dntensor",)))
_library("gpu.create_coo", LibraryForm((*_IDX3, "memref", "memref", "memref"), (("spmat", "spmat"),), colon="memrefs"))
_library("gpu.create_coo_aos", LibraryForm((*_IDX3, "memref", "memref"), (("spmat", "spmat"),), colon="memrefs"))
_library("gpu.create_csr", LibraryForm((*_IDX3, "memref", "memref", "memref"), (("spmat", "spmat"),), colon="memrefs"))
_library("gpu.create_csc", LibraryForm((*_IDX3, "memref", "memref", "memref"), (("spmat", "spmat"),), colon="memrefs"))
_library(
    "gpu.create_bsr",
    LibraryForm((*_IDX3, "index", "index", "memref", "memref", "memref"), (("spmat", "spmat"),), colon="memrefs"),
)
_library(
    "gpu.create_2to4_spmat",
    LibraryForm(
        ("index", "index", "memref"),
        (("spMat", "spmat"),),
        lead="pruneFlag",
        lead_enum="prune_2to4_spmat_flag",
        colon="memrefs",
    ),
)
_library("gpu.destroy_sp_mat", LibraryForm(("spmat",)))
_library(
    "gpu.spmv_buffer_size",
    LibraryForm(("spmat", "dntensor", "dntensor"), (("bufferSz", "index"),), modes=(0,), into="compute"),
)
_library(
    "gpu.spmv", LibraryForm(("spmat", "dntensor", "dntensor", "memref"), modes=(0,), colon="memrefs", into="compute")
)
_library(
    "gpu.spmm_buffer_size",
    LibraryForm(
        ("spmat", "dntensor", "dntensor"), (("bufferSzs", "index*"),), modes=(0, 1), colon="results", into="compute"
    ),
    result_segments=True,
)
_library(
    "gpu.spmm",
    LibraryForm(("spmat", "dntensor", "dntensor", "memref*"), modes=(0, 1), colon="memrefs", into="compute"),
    segments=("asyncDependencies", "spmatA", "dnmatB", "dnmatC", "buffers"),
)
_library(
    "gpu.sddmm_buffer_size",
    LibraryForm(("dntensor", "dntensor", "spmat"), (("bufferSz", "index"),), modes=(0, 1), into="compute"),
)
_library(
    "gpu.sddmm", LibraryForm(("dntensor", "dntensor", "spmat", "memref"), modes=(0, 1), colon="memrefs", into="compute")
)
_library("gpu.spgemm_create_descr", LibraryForm((), (("desc", "spgemm"),)))
_library("gpu.spgemm_destroy_descr", LibraryForm(("spgemm",)))
_library(
    "gpu.spgemm_work_estimation_or_compute",
    LibraryForm(
        ("spmat", "spmat", "spmat", "spgemm", "index", "memref"),
        (("bufferSzNew", "index"),),
        lead="kind",
        lead_enum="spgemm_work_estimation_or_compute_kind",
        modes=(0, 1),
        colon="compute",
        into="memref",
        order=(1, 2, 3, 0, 4, 5),
    ),
)
_library(
    "gpu.spgemm_copy",
    LibraryForm(("spmat", "spmat", "spmat", "spgemm"), modes=(0, 1), colon="compute", order=(1, 2, 3, 0)),
)
_library("gpu.spmat_get_size", LibraryForm(("spmat",), (("rows", "index"), ("cols", "index"), ("nnz", "index"))))
_library("gpu.set_csr_pointers", LibraryForm(("spmat", "memref", "memref", "memref"), colon="memrefs"))

# Ops found around the pass in real files. Effects as mlir-opt-19
# declares them, checked by where its -gpu-async-region puts a wait: an op
# before which it waits is not effect free (host_register, host_unregister,
# subgroup_reduce: no effects interface, so None; printf and vector.print
# write, atomic_rmw reads and writes); the others keep the chain (pure).
_op("gpu.host_register", effects=None, operand_count=(1, 1), operand_types=((0, "unranked_memref"),))
_op("gpu.host_unregister", effects=None, operand_count=(1, 1), operand_types=((0, "unranked_memref"),))
_pure("gpu.global_id", inherent=_GPU_DIM_ATTRS, operand_count=(0, 0))
_pure(
    "gpu.lane_id gpu.subgroup_id gpu.num_subgroups gpu.subgroup_size",
    inherent={"upper_bound": _opt("index")},
    operand_count=(0, 0),
)
_op("gpu.shuffle", verifier="gpu.shuffle", inherent={"mode": _req("shuffle_mode")}, operand_count=(3, 3))
_op(
    "gpu.subgroup_reduce",
    effects=None,
    inherent={"op": _req("all_reduce_op"), "uniform": _opt("unit")},
    operand_count=(1, 1),
    predicates=("reduction_kind",),
)
_op("gpu.printf", effects=frozenset({WRITE}), inherent={"format": _req("string")})
_op(
    "memref.atomic_rmw",
    effects=frozenset({READ, WRITE}),
    inherent={"kind": _req("atomic_rmw_kind")},
    operand_count=(2, None),
    predicates=("atomic_kind",),
)
_op("memref.get_global", inherent={"name": _req("flat_symbol_ref")}, operand_count=(0, 0))
_checked(
    "vector.load",
    effects=frozenset({READ}),
    inherent=_NONTEMPORAL,
    operand_count=(1, None),
    elided_defaults={"nontemporal": "false"},
    result_count=1,
)
_checked(
    "vector.store",
    effects=frozenset({WRITE}),
    inherent=_NONTEMPORAL,
    operand_count=(2, None),
    elided_defaults={"nontemporal": "false"},
    result_count=0,
)
_op(
    "vector.print",
    effects=frozenset({WRITE}),
    inherent={"punctuation": _opt("vector_punctuation"), "stringLiteral": _opt("string_literal")},
    default_properties={"punctuation": OpaqueAttr("#vector.punctuation<newline>")},
    operand_count=(0, 1),
    predicates=("string_alone",),
)
_checked("vector.splat vector.broadcast", operand_count=(1, 1), result_count=1)
_checked("vector.from_elements", result_count=1)
_MATH1 = "absf atan cbrt ceil cos erf exp exp2 expm1 floor log log10 log1p log2 round roundeven rsqrt sin sqrt tan tanh trunc"
for _n in _MATH1.split():
    _op(f"math.{_n}", default_properties=_FASTMATH, inherent=_FASTMATH_ATTR, operand_count=(1, 1))
for _n in "atan2 copysign powf".split():
    _op(f"math.{_n}", default_properties=_FASTMATH, inherent=_FASTMATH_ATTR, operand_count=(2, 2))
_INDEX2 = "add sub mul divs divu rems remu maxs mins maxu minu and or xor shl shrs shru ceildivs ceildivu floordivs"
_INDEX_DIVISIONS = "divs divu rems remu ceildivs ceildivu floordivs"
_pure(" ".join(f"index.{n}" for n in _INDEX2.split() if n not in _INDEX_DIVISIONS.split()), operand_count=(2, 2))
_pure(" ".join(f"index.{n}" for n in _INDEX_DIVISIONS.split()), operand_count=(2, 2), speculatable=False)

# More ops found around the pass, effects as mlir-opt-19
# declares them: the reshapes, casts, views, extracts and inserts are pure
# (views of their operand); `gpu.all_reduce` has no effects interface (None);
# `llvm.call` neither (None: a call may do anything); the symbol ops
# (`memref.global`, `llvm.func`, `llvm.mlir.global`) sit outside functions.
_op(
    "cf.switch",
    terminator=True,
    tokens="pass",
    segments=("flag", "defaultOperands", "caseOperands"),
    inherent={"case_values": _opt("any"), "case_operand_segments": _req("dense_i32")},
    jump="cases",
)
_op(
    "memref.global",
    effects=None,
    inherent={
        **_SYMBOL_ATTRS,
        "type": _req("type"),
        "initial_value": _opt("any"),
        "constant": _opt("unit"),
        "alignment": _opt("alignment"),
    },
    operand_count=(0, 0),
)
_pure(
    "memref.collapse_shape",
    inherent={"reassociation": _req("reassociation")},
    operand_count=(1, 1),
    speculatable=False,
    operand_types=((0, "strided_memref"),),
    verifier="memref.collapse_shape",
)
_pure(
    "memref.expand_shape",
    inherent={"reassociation": _req("reassociation"), "static_output_shape": _req("dense_i64")},
    operand_count=(1, None),
    speculatable=False,
    operand_types=((0, "strided_memref"),),
    verifier="memref.expand_shape",
)
_pure(
    "memref.reinterpret_cast",
    inherent={
        "static_offsets": _req("dense_i64"),
        "static_sizes": _req("dense_i64"),
        "static_strides": _req("dense_i64"),
    },
    segments=("source", "offsets", "sizes", "strides"),
    speculatable=False,
)
_pure("memref.view", operand_count=(2, None), speculatable=False)
_op(
    "gpu.all_reduce",
    effects=None,
    verifier="gpu.all_reduce",
    inherent={"op": _opt("all_reduce_op"), "uniform": _opt("unit")},
    operand_count=(1, 1),
    isolated=True,
)
_op("gpu.yield", terminator=True)
_checked(
    "vector.extract",
    inherent={"static_position": _req("dense_i64")},
    operand_count=(1, None),
    result_count=1,
)
_checked(
    "vector.insert",
    inherent={"static_position": _req("dense_i64")},
    operand_count=(2, None),
    result_count=1,
)
# The transfers read and write memory only when their source is a memref
# (19 declares no effect on a tensor): the subset takes memrefs only.
_TRANSFER = {"permutation_map": _req("affine_map"), "in_bounds": _req("bool_array")}
_checked(
    "vector.transfer_read",
    operand_count=(2, None),
    effects=frozenset({READ}),
    inherent=_TRANSFER,
    segments=("source", "indices", "padding", "mask"),
    result_count=1,
)
_checked(
    "vector.transfer_write",
    operand_count=(2, None),
    effects=frozenset({WRITE}),
    inherent=_TRANSFER,
    segments=("vector", "source", "indices", "mask"),
)
_pure("llvm.mlir.addressof", inherent={"global_name": _req("flat_symbol_ref")}, operand_count=(0, 0))
_op(
    "llvm.call",
    effects=None,
    inherent={
        "callee": _opt("any"),
        "var_callee_type": _opt("any"),
        "CConv": _opt("any"),
        "TailCallKind": _opt("any"),
        "fastmathFlags": _opt("any"),
        "branch_weights": _opt("any"),
        "access_groups": _opt("any"),
        "alias_scopes": _opt("any"),
        "noalias_scopes": _opt("any"),
        "tbaa": _opt("any"),
        "memory_effects": _opt("any"),
        "convergent": _opt("any"),
        "no_unwind": _opt("any"),
        "will_return": _opt("any"),
        "op_bundle_sizes": _opt("any"),
    },
    default_properties={
        "CConv": OpaqueAttr("#llvm.cconv<ccc>"),
        "TailCallKind": OpaqueAttr("#llvm.tailcallkind<none>"),
        "fastmathFlags": OpaqueAttr("#llvm.fastmath<none>"),
    },
)
_op(
    "llvm.func",
    effects=None,
    function="llvm",
    isolated=True,
    operand_count=(0, 0),
    subset_form="a declaration (argument types, no names, no body)",
    inherent={
        "sym_name": _opt("any"),
        "sym_visibility": _opt("any"),
        "function_type": _opt("any"),
        "linkage": _opt("any"),
        "dso_local": _opt("any"),
        "CConv": _opt("any"),
        "comdat": _opt("any"),
        "convergent": _opt("any"),
        "personality": _opt("any"),
        "garbageCollector": _opt("any"),
        "passthrough": _opt("any"),
        "arg_attrs": _opt("any"),
        "res_attrs": _opt("any"),
        "function_entry_count": _opt("any"),
        "memory_effects": _opt("any"),
        "visibility_": _opt("any"),
        "arm_streaming": _opt("any"),
        "arm_locally_streaming": _opt("any"),
        "arm_streaming_compatible": _opt("any"),
        "arm_new_za": _opt("any"),
        "arm_in_za": _opt("any"),
        "arm_out_za": _opt("any"),
        "arm_inout_za": _opt("any"),
        "arm_preserves_za": _opt("any"),
        "section": _opt("any"),
        "unnamed_addr": _opt("any"),
        "alignment": _opt("any"),
        "vscale_range": _opt("any"),
        "frame_pointer": _opt("any"),
        "target_cpu": _opt("any"),
        "tune_cpu": _opt("any"),
        "target_features": _opt("any"),
        "unsafe_fp_math": _opt("any"),
        "no_infs_fp_math": _opt("any"),
        "no_nans_fp_math": _opt("any"),
        "approx_func_fp_math": _opt("any"),
        "no_signed_zeros_fp_math": _opt("any"),
        "denormal_fp_math": _opt("any"),
        "denormal_fp_math_f32": _opt("any"),
        "fp_contract": _opt("any"),
        "no_inline": _opt("any"),
        "always_inline": _opt("any"),
        "no_unwind": _opt("any"),
        "will_return": _opt("any"),
        "optimize_none": _opt("any"),
    },
    default_properties={
        "CConv": OpaqueAttr("#llvm.cconv<ccc>"),
        "linkage": OpaqueAttr("#llvm.linkage<external>"),
        "unnamed_addr": IntegerAttr(0, I64),
        "visibility_": IntegerAttr(0, I64),
    },
)
_op(
    "llvm.mlir.global",
    effects=None,
    isolated=True,
    operand_count=(0, 0),
    inherent={
        "global_type": _opt("any"),
        "constant": _opt("any"),
        "sym_name": _opt("any"),
        "linkage": _opt("any"),
        "dso_local": _opt("any"),
        "thread_local_": _opt("any"),
        "externally_initialized": _opt("any"),
        "value": _opt("any"),
        "alignment": _opt("any"),
        "addr_space": _opt("any"),
        "unnamed_addr": _opt("any"),
        "section": _opt("any"),
        "comdat": _opt("any"),
        "dbg_expr": _opt("any"),
        "visibility_": _opt("any"),
    },
    default_properties={"unnamed_addr": IntegerAttr(0, I64), "visibility_": IntegerAttr(0, I64)},
)

# affine: apply pure, load reads, store writes, for and if have
# their bodies' effects (`RecursiveMemoryEffects`), yield a terminator.
_pure("affine.apply", inherent={"map": _req("affine_map")}, operand_count=(0, None))
_op("affine.load", effects=frozenset({READ}), inherent={"map": _req("affine_map")}, operand_count=(1, None))
_op("affine.store", effects=frozenset({WRITE}), inherent={"map": _req("affine_map")}, operand_count=(2, None))
_op(
    "affine.for",
    recursive=True,
    loop=True,
    region_flow="counted",
    inherent={"lowerBoundMap": _req("affine_map"), "upperBoundMap": _req("affine_map"), "step": _req("index")},
    segments=("lowerBoundOperands", "upperBoundOperands", "inits"),
)
_op("affine.if", recursive=True, region_flow="then_else")
_op("affine.yield", terminator=True, tokens="pass", parents=("affine.for", "affine.if", "affine.parallel"), yields=True)

# arith: all pure
for _n in "addi subi muli shli".split():
    _op(f"arith.{_n}", default_properties=_OVERFLOW, inherent=_OVERFLOW_ATTR, operand_count=(2, 2), result_count=1)
for _n in "addf subf mulf divf remf maximumf minimumf maxnumf minnumf".split():
    _op(f"arith.{_n}", default_properties=_FASTMATH, inherent=_FASTMATH_ATTR, operand_count=(2, 2), result_count=1)
_pure(
    " ".join(f"arith.{n}" for n in "andi ori xori maxsi minsi maxui minui shrsi shrui".split()),
    operand_count=(2, 2),
    result_count=1,
)
# Integer division traps on a zero divisor (and signed overflow): undefined behaviour, not speculatable.
_pure(
    " ".join(f"arith.{n}" for n in "divsi divui remsi remui ceildivsi floordivsi".split()),
    operand_count=(2, 2),
    speculatable=False,
    result_count=1,
)
_op("arith.negf", default_properties=_FASTMATH, inherent=_FASTMATH_ATTR, operand_count=(1, 1), result_count=1)
_pure(
    " ".join(
        f"arith.{n}"
        for n in "index_cast index_castui sitofp uitofp fptosi fptoui extsi extui trunci extf truncf bitcast".split()
    ),
    operand_count=(1, 1),
    result_count=1,
)
_op(
    "arith.constant",
    inherent={"value": _req("typed")},
    operand_count=(0, 0),
    result_count=1,
    constant=True,
    predicates=("value_type",),
)
_op("arith.cmpi", inherent={"predicate": _req("cmpi_predicate")}, operand_count=(2, 2), result_count=1)
_op(
    "arith.cmpf",
    inherent={"predicate": _req("cmpf_predicate"), **_FASTMATH_ATTR},
    default_properties=_FASTMATH,
    operand_count=(2, 2),
    result_count=1,
)
_op("arith.select", tokens="select", operand_count=(3, 3), result_count=1)

# memref
_op(
    "memref.alloc",
    effects=frozenset({ALLOC}),
    inherent={"alignment": _opt("alignment")},
    segments=("dynamicSizes", "symbolOperands"),
    result_count=1,
)
_op(
    "memref.alloca",
    effects=frozenset({ALLOC}),
    inherent={"alignment": _opt("alignment")},
    segments=("dynamicSizes", "symbolOperands"),
    result_count=1,
)
_op("memref.dealloc", effects=frozenset({FREE}), operand_count=(1, 1), result_count=0)
_op("memref.load", effects=frozenset({READ}), inherent=_NONTEMPORAL, operand_count=(1, None), elided_defaults={"nontemporal": "false"},
    indexed_memref=(0, "incorrect number of indices for load, expected {rank} but got {count}"), result_count=1)  # fmt: skip
_op("memref.store", effects=frozenset({WRITE}), inherent=_NONTEMPORAL, operand_count=(2, None), elided_defaults={"nontemporal": "false"},
    indexed_memref=(1, "store index operand count not equal to memref rank"), result_count=0)  # fmt: skip
_op("memref.copy", effects=frozenset({READ, WRITE}), operand_count=(2, 2), result_count=0)
# dim of an index out of range, a cast or view whose static shape the
# dynamic one does not match: undefined at run time, not speculatable.
_op("memref.dim", operand_count=(2, 2), speculatable=False, result_count=1)
_op("memref.cast", operand_count=(1, 1), speculatable=False, result_count=1)
_op(
    "memref.subview",
    inherent={
        "static_offsets": _req("dense_i64"),
        "static_sizes": _req("dense_i64"),
        "static_strides": _req("dense_i64"),
    },
    segments=("source", "offsets", "sizes", "strides"),
    speculatable=False,
    result_count=1,
)

# scf
_op(
    "scf.for",
    recursive=True,
    loop=True,
    operand_count=(3, None),
    region_flow="counted",
    single_block_regions=("region",),
)
_op(
    "scf.if",
    recursive=True,
    operand_count=(1, 1),
    region_flow="then_else",
    single_block_regions=("thenRegion", "elseRegion?"),
)
_op("scf.while", recursive=True, loop=True, region_flow="while", single_block_regions=("before", "after"))
_op(
    "scf.parallel",
    recursive=True,
    loop=True,
    segments=("lowerBound", "upperBound", "step", "initVals"),
    region_flow="parallel",
)
_op("scf.execute_region", effects=None, operand_count=(0, 0), region_flow="once")
# `scf.forall`: its body's effects (`RecursiveMemoryEffects`), run for every
# point of its iteration space in any order; `in_parallel` its (pure)
# terminator, whose own region holds the `shared_outs` inserts.
_op(
    "scf.forall",
    recursive=True,
    loop=True,
    segments=("dynamicLowerBound", "dynamicUpperBound", "dynamicStep", "outputs"),
    inherent={
        "staticLowerBound": _req("dense_i64"),
        "staticUpperBound": _req("dense_i64"),
        "staticStep": _req("dense_i64"),
        "mapping": _opt("device_mapping"),
    },
    verifier="scf.forall",
    single_block_regions=("region",),
)
_op(
    "scf.forall.in_parallel",
    terminator=True,
    no_terminator=True,
    verifier="scf.forall.in_parallel",
    operand_count=(0, 0),
    parents=("scf.forall",),
    result_count=0,
)
_op(
    "scf.yield",
    terminator=True,
    tokens="pass",
    parents=("scf.execute_region", "scf.for", "scf.if", "scf.index_switch", "scf.while"),
    result_count=0,
    yields=True,
)
_op("scf.condition", terminator=True, tokens="pass", operand_count=(1, None), parents=("scf.while",), result_count=0)
_op("scf.reduce", terminator=True, recursive=True, parents=("scf.parallel",), result_count=0)
_op("scf.reduce.return", terminator=True, operand_count=(1, 1), parents=("scf.reduce",), result_count=0)

# cf
_op("cf.br", terminator=True, tokens="pass", result_count=0, jump="always")
_op(
    "cf.cond_br",
    terminator=True,
    tokens="pass",
    segments=("condition", "trueDestOperands", "falseDestOperands"),
    properties={"branch_weights"},
    result_count=0,
    jump="condition",
)  # 22's, not 19's: no inherent entry
_op("cf.assert", effects=frozenset({WRITE}), inherent={"msg": _req("string")}, operand_count=(1, 1), result_count=0)

# async
_op(
    "async.execute",
    effects=None,
    sync="thread",
    segments=("dependencies", "bodyOperands"),
    single_block_regions=("bodyRegion",),
)
_op("async.await", effects=None, sync="wait", operand_count=(1, 1))
_op("async.yield", terminator=True, sync="thread", parents=("async.execute",), result_count=0)
_op("async.create_group", sync="group", operand_count=(1, 1), result_count=1, group="create")
_op("async.add_to_group", effects=None, sync="group", operand_count=(2, 2), result_count=1, group="add")
_op("async.await_all", effects=None, sync="wait_group", operand_count=(1, 1), result_count=0, group="await")
# `async.func` is a function whose body runs as a coroutine (`async.call`
# starts it and gives its token and values); -gpu-async-region runs on
# `func.func` only, so it leaves these bodies as they are. The call has no
# effects interface: anything may happen (the pass waits before it).
_op(
    "async.func",
    effects=None,
    symbol=True,
    inherent={**_SYMBOL_ATTRS, **_FUNCTION_ATTRS},
    operand_count=(0, 0),
    default_dialect="async",
    isolated=True,
    result_count=0,
    verifier="async.func",
    function="async",
)
_op("async.call", effects=None, inherent={"callee": _req("flat_symbol_ref")}, callee="async.func")
_op("async.return", terminator=True, parents=("async.func",), result_count=0, verifier="async.return")


# The rest of what mlir-opt-19 registers in gpu, arith, math, index, func
# and memref. Effects as 19 declares them, checked by
# where its -gpu-async-region waits: set_default_device, the mma load and
# store, assume_alignment (no interface), generic_atomic_rmw, the DMA ops,
# prefetch, realloc and func.call_indirect (no interface) are waited
# before; alloca_scope has its body's effects; the others keep the chain.
_MMA_LEAD = {"leadDimension": _req("index"), "transpose": _opt("unit")}
_op("gpu.binary", effects=None, symbol=True, operand_count=(0, 0), result_count=0,
    inherent={"sym_name": _req("string"), "offloadingHandler": _opt("offloading_handler"), "objects": _req("gpu_objects")})  # fmt: skip
_pure(
    "gpu.cluster_block_id gpu.cluster_dim_blocks",
    inherent=_GPU_DIM_ATTRS,
    operand_count=(0, 0),
    result_names=("{name}_{dim}",),
    result_count=1,
)
_pure("gpu.dynamic_shared_memory", operand_count=(0, 0), result_count=1)
_op("gpu.set_default_device", effects=frozenset({WRITE}), operand_count=(1, 1), result_count=0)
_op(
    "gpu.subgroup_mma_load_matrix",
    effects=frozenset({READ}),
    verifier="gpu.subgroup_mma_load_matrix",
    inherent=_MMA_LEAD,
    operand_count=(1, None),
    result_count=1,
)
_op(
    "gpu.subgroup_mma_store_matrix",
    effects=frozenset({WRITE}),
    verifier="gpu.subgroup_mma_store_matrix",
    inherent=_MMA_LEAD,
    operand_count=(2, None),
    result_count=0,
)
_pure(
    "gpu.subgroup_mma_compute",
    verifier="gpu.subgroup_mma_compute",
    inherent={"a_transpose": _opt("unit"), "b_transpose": _opt("unit")},
    operand_count=(3, 3),
    result_count=1,
)
_pure(
    "gpu.subgroup_mma_constant_matrix",
    verifier="gpu.subgroup_mma_constant_matrix",
    operand_count=(1, 1),
    result_count=1,
)
_pure(
    "gpu.subgroup_mma_elementwise",
    verifier="gpu.subgroup_mma_elementwise",
    inherent={"opType": _req("mma_element_wise")},
    operand_count=(1, None),
    result_count=1,
)

_pure("arith.ceildivui", operand_count=(2, 2), result_count=1, speculatable=False)
_pure("arith.addui_extended", operand_count=(2, 2), result_count=2, result_names=("sum", "overflow"))
_pure("arith.mulsi_extended arith.mului_extended", operand_count=(2, 2), result_count=2, result_names=("low", "high"))
for _n in "acos acosh asin asinh atanh cosh sinh".split():
    _op(f"math.{_n}", default_properties=_FASTMATH, inherent=_FASTMATH_ATTR, operand_count=(1, 1), result_count=1)
_op("math.fma", default_properties=_FASTMATH, inherent=_FASTMATH_ATTR, operand_count=(3, 3), result_count=1)
_op("math.fpowi", default_properties=_FASTMATH, inherent=_FASTMATH_ATTR, operand_count=(2, 2), result_count=1)
_pure("math.absi math.ctlz math.ctpop math.cttz", operand_count=(1, 1), result_count=1)
_pure("math.ipowi", operand_count=(2, 2), result_count=1)
_pure(
    "index.bool.constant",
    inherent={"value": _req("bool")},
    operand_count=(0, 0),
    result_count=1,
    result_names=("{value}",),
)
_pure(
    "index.constant",
    inherent={"value": _req("index")},
    operand_count=(0, 0),
    result_count=1,
    result_names=("idx{value}",),
    constant=True,
)
_pure("index.casts index.castu", operand_count=(1, 1), result_count=1)
_pure("index.cmp", inherent={"pred": _req("index_cmp_predicate")}, operand_count=(2, 2), result_count=1)
_pure("index.sizeof", operand_count=(0, 0), result_count=1)
_pure(
    "func.constant",
    inherent={"value": _req("flat_symbol_ref")},
    operand_count=(0, 0),
    result_count=1,
    result_names=("f",),
)
_op("func.call_indirect", effects=None, tokens="escape", operand_count=(1, None))

_op("memref.alloca_scope", recursive=True, operand_count=(0, 0), region_flow="once")
_op("memref.alloca_scope.return", terminator=True, parents=("memref.alloca_scope",), result_count=0, yields=True)
_op(
    "memref.assume_alignment",
    effects=None,
    inherent={"alignment": _req("positive_i32")},
    operand_count=(1, 1),
    result_count=0,
)
_op("memref.generic_atomic_rmw", effects=frozenset({READ, WRITE}), operand_count=(1, None), result_count=1)
_op(
    "memref.atomic_yield", terminator=True, parents=("memref.generic_atomic_rmw",), operand_count=(1, 1), result_count=0
)
_op("memref.dma_start", effects=frozenset({READ, WRITE}), operand_count=(4, None), result_count=0)
_op("memref.dma_wait", effects=frozenset({READ, WRITE}), operand_count=(2, None), result_count=0)
_pure("memref.extract_aligned_pointer_as_index", operand_count=(1, 1), result_count=1, result_names=("intptr",))
_pure(
    "memref.extract_strided_metadata",
    operand_count=(1, 1),
    result_names=("base_buffer", "offset", "sizes*", "strides*"),
)
_pure("memref.memory_space_cast", operand_count=(1, 1), result_count=1, result_names=("memspacecast",))
_op(
    "memref.prefetch",
    effects=frozenset({READ}),
    inherent={"isWrite": _req("bool"), "localityHint": _req("locality_hint"), "isDataCache": _req("bool")},
    operand_count=(1, None),
    result_count=0,
)
_pure("memref.rank", operand_count=(1, 1), result_count=1)
_op(
    "memref.realloc",
    effects=frozenset({ALLOC, FREE}),
    inherent={"alignment": _opt("alignment")},
    operand_count=(1, 2),
    result_count=1,
)
_pure("memref.reshape", operand_count=(2, 2), result_count=1, result_names=("reshape",), speculatable=False)
_op(
    "scf.index_switch", recursive=True, inherent={"cases": _req("dense_i64")}, operand_count=(1, 1), region_flow="cases"
)
_pure(
    "memref.transpose",
    inherent={"permutation": _req("affine_map")},
    operand_count=(1, 1),
    result_count=1,
    result_names=("transpose",),
)

# vector: the ops found in host code around launches. Memory effects as
# mlir-opt-19 declares them (its -gpu-async-region waits before the gather
# and the compressing store, not before the others); every other one is
# `Pure` there, so speculatable. `kind` has a default (`add`), which the
# custom forms print all the same (`contract`; `outerproduct` with an
# accumulator). Each op's own checks are the rule of its name in
# `spec.syntax.vector_verifiers`.
_KIND = {"kind": OpaqueAttr("#vector.kind<add>")}
_checked("vector.bitcast vector.shape_cast vector.type_cast", operand_count=(1, 1), result_count=1)
_checked("vector.gather", effects=frozenset({READ}), operand_count=(4, None), result_count=1)
_checked("vector.compressstore", effects=frozenset({WRITE}), operand_count=(3, None), result_count=0)
_checked(
    "vector.constant_mask",
    inherent={"mask_dim_sizes": _req("i64_array")},
    operand_count=(0, 0),
    result_count=1,
)
_checked("vector.create_mask", operand_count=(0, None), result_count=1)
_checked("vector.fma", operand_count=(3, 3), result_count=1)
_checked(
    "vector.contract",
    inherent={
        "indexing_maps": _req("array"),
        "iterator_types": _req("vector_iterator_types"),
        "kind": _opt("vector_kind"),
    },
    default_properties=_KIND,
    operand_count=(3, 3),
    result_count=1,
)
_checked(
    "vector.outerproduct",
    inherent={"kind": _opt("vector_kind")},
    default_properties=_KIND,
    operand_count=(2, None),
    result_count=1,
)
_checked(
    "vector.reduction",
    inherent={"kind": _req("vector_kind"), **_FASTMATH_ATTR},
    default_properties=_FASTMATH,
    operand_count=(1, None),
    result_count=1,
)
_checked(
    "vector.transpose",
    inherent={"permutation": _req("dense_i64")},
    operand_count=(1, 1),
    result_count=1,
)


def _names(dialect: str, mnemonics: str) -> frozenset[str]:
    """`dialect.m` for each blank-separated mnemonic `m` (the lists below
    stay readable, one dialect prefix each)."""
    return frozenset(f"{dialect}.{m}" for m in mnemonics.split())


COMPLETE_DIALECTS: dict[str, frozenset[str]] = {
    "scf": _names(
        "scf",
        "condition execute_region for forall forall.in_parallel if index_switch "
        "parallel reduce reduce.return while yield",
    ),
    "cf": _names("cf", "assert br cond_br switch"),
    "func": _names("func", "call call_indirect constant func return"),
    "arith": _names(
        "arith",
        "addf addi addui_extended andi bitcast ceildivsi ceildivui cmpf cmpi constant "
        "divf divsi divui extf extsi extui floordivsi fptosi fptoui index_cast index_castui "
        "maximumf maxnumf maxsi maxui minimumf minnumf minsi minui mulf muli mulsi_extended "
        "mului_extended negf ori remf remsi remui select shli shrsi shrui sitofp subf subi "
        "truncf trunci uitofp xori",
    ),
    "math": _names(
        "math",
        "absf absi acos acosh asin asinh atan atan2 atanh cbrt ceil copysign cos cosh ctlz "
        "ctpop cttz erf exp exp2 expm1 floor fma fpowi ipowi log log10 log1p log2 powf round "
        "roundeven rsqrt sin sinh sqrt tan tanh trunc",
    ),
    "index": _names(
        "index",
        "add and bool.constant casts castu ceildivs ceildivu cmp constant divs divu floordivs "
        "maxs maxu mins minu mul or rems remu shl shrs shru sizeof sub xor",
    ),
    "memref": _names(
        "memref",
        "alloc alloca alloca_scope alloca_scope.return assume_alignment atomic_rmw atomic_yield "
        "cast collapse_shape copy dealloc dim dma_start dma_wait expand_shape "
        "extract_aligned_pointer_as_index extract_strided_metadata generic_atomic_rmw get_global "
        "global load memory_space_cast prefetch rank realloc reinterpret_cast reshape store "
        "subview transpose view",
    ),
    "gpu": _names(
        "gpu",
        "all_reduce alloc barrier binary block_dim block_id cluster_block_id cluster_dim "
        "cluster_dim_blocks cluster_id create_2to4_spmat create_bsr create_coo create_coo_aos "
        "create_csc create_csr create_dn_tensor dealloc destroy_dn_tensor destroy_sp_mat "
        "dynamic_shared_memory func global_id grid_dim host_register host_unregister lane_id "
        "launch launch_func memcpy memset module module_end num_subgroups printf return sddmm "
        "sddmm_buffer_size set_csr_pointers set_default_device shuffle spgemm_copy "
        "spgemm_create_descr spgemm_destroy_descr spgemm_work_estimation_or_compute "
        "spmat_get_size spmm spmm_buffer_size spmv spmv_buffer_size subgroup_id "
        "subgroup_mma_compute subgroup_mma_constant_matrix subgroup_mma_elementwise "
        "subgroup_mma_load_matrix subgroup_mma_store_matrix subgroup_reduce subgroup_size "
        "terminator thread_id wait yield",
    ),
    "vector": _names(
        "vector",
        "bitcast broadcast compressstore constant_mask contract create_mask deinterleave expandload "
        "extract extractelement extract_strided_slice fma flat_transpose from_elements gather insert "
        "insertelement insert_strided_slice interleave load mask maskedload maskedstore matrix_multiply "
        "multi_reduction outerproduct print reduction scalable.extract scalable.insert scan scatter "
        "shape_cast shuffle splat step store transfer_read transfer_write transpose type_cast vscale "
        "warp_execute_on_lane_0 yield",
    ),
    "affine": _names(
        "affine",
        "apply delinearize_index dma_start dma_wait for if load max min parallel prefetch store "
        "vector_load vector_store yield",
    ),
    "async": _names(
        "async",
        "add_to_group await await_all call coro.begin coro.end coro.free coro.id coro.save "
        "coro.suspend create_group execute func return runtime.add_ref runtime.add_to_group "
        "runtime.await runtime.await_and_resume runtime.create runtime.create_group "
        "runtime.drop_ref runtime.is_error runtime.load runtime.num_worker_threads "
        "runtime.resume runtime.set_available runtime.set_error runtime.store yield",
    ),
}
"""Every op mlir-opt-19 (LLVM 19.1) registers in these dialects, and no
other: scf 12, cf 4, func 5, arith 49, memref 31, gpu 62, async 29, vector
45, affine 15. Any other
name there, even in the generic form, is an unregistered op of a dialect that
allows none, and mlir-opt-19 rejects it; we must too, or a misspelled op
would pass as opaque and print as something mlir-opt-19 cannot read back.
(mlir-opt-19 finds it when it verifies the parsed module, and so do we:
`spec.syntax.resolve.verify`, in the verifier's order.)

How the lists were made: the MLIR 19 dialect docs gave the starting names;
each listed name was then checked one by one against mlir-opt-19 (the bare
generic op `"d.x"() : () -> ()` in a function passes or fails op
verification, never with "unregistered operation"), and plausible extra
names were probed the same way, none of which it registers: names from other MLIR versions
(`arith.scaling_extf`, `memref.tensor_store`, `gpu.rotate`,
`gpu.warp_execute_on_lane_0`, ...) and every identifier in the mlir-opt-19
binary's strings under each dialect prefix (about 30,000 per dialect).
`tests/syntax/test_syntax_placement.py` re-checks every listed name against
mlir-opt-19 when it is installed.

Dialects not listed here (`builtin`, `test`, ...) are not known in full, so
their unknown names are let through as opaque ops."""


REGISTERED_DIALECTS: frozenset[str] = frozenset(
    "acc affine amdgpu amx arith arm_neon arm_sme arm_sve async bufferization builtin cf complex dlti "
    "emitc func gpu index irdl linalg llvm math memref mesh ml_program mpi nvgpu nvvm omp pdl "
    "pdl_interp polynomial ptr quant rocdl scf shape sparse_tensor spirv tensor test test_dyn tosa "
    "transform ub vector x86vector xegpu".split()
)
"""The dialects mlir-opt-19 registers (its note under "Dialect `x' not found
for custom op"). An op, type or attribute of any other dialect is rejected
unless `-allow-unregistered-dialect` is given; an unknown op of one of these
that is not in `COMPLETE_DIALECTS` (`vector.print`, `memref.atomic_rmw` in
the generic form, `test.*`) parses as an opaque op with unknown effects."""


DIALECT_ATTRIBUTE_VERIFIERS: dict[str, str] = {
    "gpu.container_module": "gpu.container_module",
    "gpu.known_block_size": "gpu.known_block_size",
    "gpu.known_grid_size": "gpu.known_grid_size",
}
"""Discardable attributes whose dialect verifies the op that carries them
(MLIR's `Dialect::verifyOperationAttribute`, run on the op's entrance before
its own checks): the attribute's name to its rule among
`spec.syntax.op_verifiers.RULES`. A `gpu.container_module` module checks the
kernels its launches name."""


def subset_dialects() -> frozenset[str]:
    """The dialects of which this tool's subset reads at least one op."""
    return frozenset(n.split(".", 1)[0] for n in _REGISTRY)


def registered_dialect(name: str) -> bool:
    """Whether the dialect of op name `name` (the part before the first
    dot; the whole name if it has none) is one mlir-opt-19 registers."""
    return name.split(".", 1)[0] in REGISTERED_DIALECTS


def unregistered_in_dialect(name: str) -> str | None:
    """The dialect, if `name` claims a listed dialect that has no such op."""
    dialect = name.split(".", 1)[0]
    ops = COMPLETE_DIALECTS.get(dialect)
    return dialect if ops is not None and name not in ops else None


def lookup(name: str) -> OpInfo:
    """The registry entry for `name`; unknown ops get MLIR's unregistered-op
    defaults (unknown effects, possibly a terminator)."""
    info = _REGISTRY.get(name)
    if info is None:
        # Kept, so that a hot loop asking about the same unknown op does not
        # build its entry each time (the registry is complete after import).
        info = _REGISTRY_UNKNOWN.setdefault(name, OpInfo(name, effects=None, known=False))
    return info


_REGISTRY_UNKNOWN: dict[str, OpInfo] = {}
"""The entries `lookup` made for ops the registry does not list. A cache:
such an entry depends on the name alone."""


def without_defaults(name: str, props: dict[str, Attr]) -> dict[str, Attr]:
    """`props` less the entries equal to the op's elided defaults."""
    defaults = lookup(name).elided_defaults
    if not defaults:
        return props
    return {k: v for k, v in props.items() if defaults.get(k) != str(v)}


def inherent_attributes(name: str) -> Mapping[str, Inherent]:
    """mlir-opt-19's inherent attributes of op `name` with their constraints
    (empty for an op that declares none, or an unknown op)."""
    return lookup(name).inherent


def is_known(name: str) -> bool:
    return name in _REGISTRY


def known_ops() -> list[str]:
    return sorted(_REGISTRY)


# -- GPU async ops: one accessor per fact ---------------------------------------


@cache
def is_gpu_async(name: str) -> bool:
    """Whether op `name` implements MLIR's `gpu::AsyncOpInterface`."""
    return lookup(name).gpu_async


@cache
def is_gpu_wait(name: str) -> bool:
    """Whether op `name` is a GPU async op that only waits (`gpu.wait`)."""
    return lookup(name).wait_only


@cache
def sync_kind(name: str) -> str:
    """`OpInfo.sync` of op `name`: "" for an op that is no synchronization."""
    return lookup(name).sync


def is_group_op(name: str) -> bool:
    """Whether op `name` makes, fills or awaits an `!async.group`."""
    return sync_kind(name) in ("group", "wait_group")


@cache
def token_use(name: str) -> str:
    """`OpInfo.tokens` of op `name`: `pass`, `select`, `escape` or ""."""
    return lookup(name).tokens


@cache
def is_loop(name: str) -> bool:
    """Whether op `name` is a loop (`OpInfo.loop`)."""
    return lookup(name).loop


def blocks_thread(name: str) -> bool:
    """Whether op `name` may hold its thread until tokens complete (a
    blocking `gpu.wait`, `async.await`, `async.await_all`)."""
    return sync_kind(name) in ("wait", "wait_group")


@cache
def is_function_return(name: str) -> bool:
    """Whether op `name` returns from a `func.func` (the terminator whose
    parent is the function: an event of the semantics, design section 4)."""
    info = lookup(name)
    return info.terminator and info.parents == ("func.func",)


def gpu_work_ops() -> frozenset[str]:
    """The GPU async ops that do GPU work (an issue, a start, a finish)."""
    return frozenset(n for n, info in _REGISTRY.items() if info.gpu_async and not info.wait_only)


SEGMENT_SIZES = "operandSegmentSizes"


def loop_init_operands(op: Operation) -> list[Value]:
    """The initial values of a loop's carried values: `scf.for`'s operands
    after its bounds and step, `affine.for`'s `inits` segment (its bounds'
    operands come first)."""
    if op.name == "affine.for":
        sizes = op.properties.get(SEGMENT_SIZES)
        if isinstance(sizes, DenseArrayAttr) and len(sizes.values) == 3:
            return op.operands[sizes.ints[0] + sizes.ints[1] :]
        return []
    return op.operands[3:]


def loop_bound_operands(op: Operation) -> list[Value] | None:
    """A counted loop's lower bound, upper bound and step where they are
    operands (`scf.for`'s first three); None where maps over operands give
    them (`affine.for`) and for any other op."""
    if op.name != "scf.for" or len(op.operands) < 3:
        return None
    return op.operands[:3]


# -- control flow, functions, groups: one accessor per fact --------------------


@cache
def region_flow(name: str) -> str:
    """`OpInfo.region_flow` of op `name`: "" for an op whose regions no
    thread runs in a way the tools follow."""
    return lookup(name).region_flow


@cache
def is_counted_loop(name: str) -> bool:
    """Whether op `name` runs its body a number of times, carrying values
    from one iteration to the next (`scf.for`, `affine.for`)."""
    return region_flow(name) == "counted"


@cache
def runs_one_region(name: str) -> bool:
    """Whether op `name` runs one of its regions, chosen by its operand
    (`scf.if`, `affine.if`, `scf.index_switch`)."""
    return region_flow(name) in ("then_else", "cases")


@cache
def jump_kind(name: str) -> str:
    """`OpInfo.jump` of op `name`: "" for an op that goes to no other block."""
    return lookup(name).jump


@cache
def is_branch(name: str) -> bool:
    """Whether op `name` is a terminator that goes to other blocks of its
    region (the model follows them)."""
    return bool(jump_kind(name))


BRANCH_OPS = frozenset(n for n, info in _REGISTRY.items() if info.jump)
"""Terminators that go to other blocks of their region (the model follows them)."""


@cache
def decides(name: str) -> bool:
    """Whether op `name` takes a decision on an operand: which region runs
    (`scf.if`, `scf.index_switch`), which successor (`cf.cond_br`,
    `cf.switch`) or which operand it picks (`arith.select`). Loops decide
    too, on their trip count, but that is not an operand's to tell."""
    return runs_one_region(name) or jump_kind(name) in ("condition", "cases") or token_use(name) == "select"


@cache
def yields_to_parent(name: str) -> bool:
    """`OpInfo.yields` of op `name`."""
    return lookup(name).yields


@cache
def function_kind(name: str) -> str:
    """`OpInfo.function` of op `name`: "" for an op that is no function."""
    return lookup(name).function


@cache
def is_host_function(name: str) -> bool:
    """Whether op `name` is a function the pass rewrites (`func.func`)."""
    return lookup(name).function == "host"


@cache
def is_top_level(name: str) -> bool:
    """`OpInfo.top_level` of op `name` (`builtin.module`)."""
    return lookup(name).top_level


@cache
def group_role(name: str) -> str:
    """`OpInfo.group` of op `name`: `create`, `add`, `await` or ""."""
    return lookup(name).group


@cache
def begins_thread(name: str) -> bool:
    """Whether op `name` begins an async thread that runs its body (`async.execute`)."""
    info = lookup(name)
    return info.sync == "thread" and not info.terminator


@cache
def ends_thread(name: str) -> bool:
    """Whether op `name` completes the async thread it ends (`async.yield`)."""
    info = lookup(name)
    return info.sync == "thread" and info.terminator


@cache
def awaits_one(name: str) -> bool:
    """Whether op `name` holds its thread until one `!async.token` or
    `!async.value` is available (`async.await`; `gpu.wait` waits on GPU
    tokens, a GPU async op of its own)."""
    info = lookup(name)
    return info.sync == "wait" and not info.gpu_async


@cache
def is_constant(name: str) -> bool:
    """`OpInfo.constant` of op `name`."""
    return lookup(name).constant


@cache
def calls_function(name: str) -> bool:
    """`OpInfo.calls` of op `name`."""
    return lookup(name).calls


@cache
def launches_kernel(name: str) -> bool:
    """`OpInfo.launches` of op `name`."""
    return lookup(name).launches


@cache
def holds_kernels(name: str) -> bool:
    """`OpInfo.kernels` of op `name`."""
    return lookup(name).kernels


@cache
def launches_inline_kernel(name: str) -> bool:
    """`OpInfo.inline_kernel` of op `name`."""
    return lookup(name).inline_kernel


def switch_successor_operands(op: Operation) -> list[list[Value]]:
    """`cf.switch`'s operands passed to each successor: the default's, then
    each case's (`case_operand_segments`)."""
    sizes = op.properties.get(SEGMENT_SIZES)
    cases = op.properties.get("case_operand_segments")
    if not (isinstance(sizes, DenseArrayAttr) and len(sizes.values) == 3):
        return [[] for _ in op.successors]
    n_default = sizes.ints[1]
    out = [op.operands[1 : 1 + n_default]]
    at = 1 + n_default
    for n in cases.ints if isinstance(cases, DenseArrayAttr) else []:
        out.append(op.operands[at : at + n])
        at += n
    while len(out) < len(op.successors):
        out.append([])
    return out


def async_dependency_span(op: Operation) -> tuple[int, int]:
    """[start, end) of the dependency operands (`[deps]`) of a GPU async op
    among its operands: the registry's `deps_segment` of
    `operandSegmentSizes`, else all operands but the `fixed_trailing` ones.
    (0, 0) for a segmented op whose sizes are missing."""
    info = lookup(op.name)
    if info.deps_segment is not None:
        sizes = op.properties.get(SEGMENT_SIZES)
        if isinstance(sizes, DenseArrayAttr):
            start = sum(sizes.ints[: info.deps_segment])
            return start, start + sizes.ints[info.deps_segment]
        return 0, 0
    return 0, max(len(op.operands) - info.fixed_trailing, 0)
