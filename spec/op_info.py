"""What the tools know about one op: the `OpInfo` record, and the helpers a
dialect's table builds its entries with.

Per op: whether it is a GPU async op (MLIR's `gpu::AsyncOpInterface`) and
where its dependency operands sit; its memory effects as MLIR declares them
(`pure`, a set of `read`/`write`/`alloc`/`free`, `recursive` for region ops
whose effects are those of their bodies, or `None` when the op implements no
effects interface); what it does for ordering if it is a synchronization op
(`sync`: waits, threads, groups); whether it is a terminator; its traits
(`IsolatedFromAbove`, `Symbol`, `SymbolTable`, `NoTerminator`); its inherent
attributes as mlir-opt-19 declares them, each with its ODS constraint
(`inherent`); printing facts (operand segments, the default properties the
custom form elides); and what the semantics, the pass and the proofs that
walk a program need to know of it: how its regions run (`region_flow`: a
branch, a loop that carries values, a region run once, ...) and where a
jump goes (`jump`), whether it yields to its parent op, is a function (and
whose), the top-level module, a group op, a thread's begin or end, a
constant, a call, a kernel launch or a kernel container.

Each dialect states these facts for its ops in its own package, beside the
op's syntax (`spec.dialects.<dialect>.ops`, a tuple of `OpInfo` built with
`op` and `ops`); `spec.registry` gathers the tables and answers questions
by op name. This module depends on no dialect, so that every table can
import it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from spec.attributes import Attr

READ, WRITE, ALLOC, FREE = "read", "write", "alloc", "free"
"""The memory effects an op may declare (`OpInfo.effects`)."""


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


@dataclass(frozen=True)
class Inherent:
    """An inherent attribute as mlir-opt-19 declares it: the name of its ODS
    constraint and whether the op requires it. What each constraint accepts,
    and the summary mlir-opt-19's verifier prints for it, is syntax's
    business: `spec.syntax.op_checks.CONSTRAINTS`, keyed by these names."""

    constraint: str
    required: bool = False


def req(constraint: str) -> Inherent:
    """A required inherent attribute of ODS constraint `constraint`."""
    return Inherent(constraint, required=True)


def opt(constraint: str) -> Inherent:
    """An optional inherent attribute of ODS constraint `constraint`."""
    return Inherent(constraint)


SYMBOL_ATTRS = {"sym_name": req("string"), "sym_visibility": opt("string")}
"""The inherent attributes of a symbol op (MLIR's `Symbol`)."""

FUNCTION_ATTRS = {
    "function_type": req("function_type"),
    "arg_attrs": opt("dict_array"),
    "res_attrs": opt("dict_array"),
}
"""The inherent attributes of a function op (MLIR's `FunctionOpInterface`)."""

SEGMENTS_ATTR = opt("segments")
"""The constraint of `operandSegmentSizes` and `resultSegmentSizes`."""


@dataclass(frozen=True)
class OpInfo:
    """One op's facts (see the module docstring), by field; an op that
    does not state a fact has its default. `spec.registry.lookup` gives an
    op's entry by name."""

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


def op(name: str, *, checked: bool = False, **facts: Any) -> OpInfo:
    """The entry of op `name`, from its facts (`OpInfo`'s fields by name).

    `checked`: the op has its own verifier, the rule of its name
    (`verifier`). Operand or result segments declare their sizes' inherent
    attribute; the properties the generic form prints are the inherent
    attributes, those with a default and any `properties` named here."""
    if checked:
        facts["verifier"] = name
    defaults: Mapping[str, Attr] = facts.get("default_properties", {})
    inherent = dict(facts.pop("inherent", {}))
    if facts.get("segments"):
        inherent["operandSegmentSizes"] = SEGMENTS_ATTR
    if facts.get("result_segments"):
        inherent["resultSegmentSizes"] = SEGMENTS_ATTR
    properties = set(facts.pop("properties", ())) | set(defaults) | set(inherent)
    return OpInfo(name, properties=frozenset(properties), inherent=inherent, **facts)


def ops(dialect: str, mnemonics: str, **facts: Any) -> tuple[OpInfo, ...]:
    """The entries of the ops `dialect.m`, for each blank-separated mnemonic
    `m`, that share the same facts (see `op`)."""
    return tuple(op(f"{dialect}.{m}", **facts) for m in mnemonics.split())


def names(dialect: str, mnemonics: str) -> frozenset[str]:
    """`dialect.m` for each blank-separated mnemonic `m` (a dialect's list
    of op names stays readable, without its prefix on each)."""
    return frozenset(f"{dialect}.{m}" for m in mnemonics.split())
