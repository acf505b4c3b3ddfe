"""The op registry: everything the tools know about an op, looked up by name.

Each dialect states the facts of its ops (`OpInfo`, see `spec.op_info` for
what they are) in its own package, beside their syntax:
`spec.dialects.<dialect>.ops` (the `gpu` dialect in three tables: host
side, device side, sparse library). This module gathers those tables and
answers questions about an op by its name: `lookup(name)` gives its entry,
and the accessors below one fact each. The syntax checks, the printer, the
semantics, the pass and the verifier all ask here, so adding an op touches
its dialect's package (its table, its syntax, its checks) and the grammar,
and nothing else.

It also holds what is said of dialects as a whole: the ops mlir-opt-19
registers in the dialects known in full (`COMPLETE_DIALECTS`, each
dialect's list in its table's module), the dialects it registers at all,
and the discardable attributes that verify their op.

`OpInfo`, `Inherent`, `LibraryForm` and the effect names (`READ`, ...) are
`spec.op_info`'s, re-exported here for the callers that read an entry.

Unknown ops are what MLIR makes of unregistered ops: unknown effects, possibly
a terminator.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import TYPE_CHECKING

from spec.attributes import Attr, DenseArrayAttr
from spec.dialects.affine import ops as affine
from spec.dialects.arith import ops as arith
from spec.dialects.async_ import ops as async_
from spec.dialects.builtin import ops as builtin
from spec.dialects.cf import ops as cf
from spec.dialects.func import ops as func
from spec.dialects.gpu import device_ops as gpu_device
from spec.dialects.gpu import library_ops as gpu_library
from spec.dialects.gpu import ops as gpu
from spec.dialects.index import ops as index
from spec.dialects.llvm import ops as llvm
from spec.dialects.math import ops as math
from spec.dialects.memref import ops as memref
from spec.dialects.scf import ops as scf
from spec.dialects.vector import ops as vector
from spec.invariant import InternalError
from spec.op_info import ALLOC as ALLOC
from spec.op_info import FREE as FREE
from spec.op_info import READ as READ
from spec.op_info import WRITE as WRITE
from spec.op_info import Inherent as Inherent
from spec.op_info import LibraryForm as LibraryForm
from spec.op_info import OpInfo as OpInfo

if TYPE_CHECKING:
    from spec.ir import Operation, Value


def _gather(tables: Iterable[tuple[OpInfo, ...]]) -> dict[str, OpInfo]:
    """Op name -> its entry, from the dialects' tables, in name order; an op
    stated twice is a mistake in the tables."""
    entries: dict[str, OpInfo] = {}
    for table in tables:
        for info in table:
            if info.name in entries:
                raise InternalError(f"spec.registry: {info.name} is stated twice")
            entries[info.name] = info
    return dict(sorted(entries.items()))


_REGISTRY: dict[str, OpInfo] = _gather(
    (
        builtin.OPS,
        func.OPS,
        gpu.OPS,
        gpu_device.OPS,
        gpu_library.OPS,
        arith.OPS,
        math.OPS,
        index.OPS,
        memref.OPS,
        vector.OPS,
        scf.OPS,
        cf.OPS,
        async_.OPS,
        llvm.OPS,
        affine.OPS,
    )
)
"""Op name -> its entry: every op of the subset."""


COMPLETE_DIALECTS: dict[str, frozenset[str]] = {
    "scf": scf.REGISTERED_OPS,
    "cf": cf.REGISTERED_OPS,
    "func": func.REGISTERED_OPS,
    "arith": arith.REGISTERED_OPS,
    "math": math.REGISTERED_OPS,
    "index": index.REGISTERED_OPS,
    "memref": memref.REGISTERED_OPS,
    "gpu": gpu.REGISTERED_OPS,
    "vector": vector.REGISTERED_OPS,
    "affine": affine.REGISTERED_OPS,
    "async": async_.REGISTERED_OPS,
}
"""Every op mlir-opt-19 (LLVM 19.1) registers in these dialects, and no
other: scf 12, cf 4, func 5, arith 49, memref 31, gpu 62, async 29, vector
45, affine 15 (each dialect's list is its table module's `REGISTERED_OPS`).
Any other name there, even in the generic form, is an unregistered op of a dialect that
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


DIALECT_ATTRIBUTE_VERIFIERS: dict[str, str] = {**gpu.ATTRIBUTE_VERIFIERS}
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
