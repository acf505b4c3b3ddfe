"""The op registry: everything the tools know about an op, by name, in one place.

Per op: whether it is a GPU async op (MLIR's `gpu::AsyncOpInterface`) and
where its dependency operands sit; its memory effects as MLIR declares them
(`pure`, a set of `read`/`write`/`alloc`/`free`, `recursive` for region ops
whose effects are those of their bodies, or `None` when the op implements no
effects interface); whether it is a terminator; the 2020 classification the
seed used; and printing facts (inherent attributes, operand segments, the
default properties the custom form elides).

Unknown ops are what MLIR makes of unregistered ops: unknown effects, possibly
a terminator.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spec.attributes import Attr, OpaqueAttr

READ, WRITE, ALLOC, FREE = "read", "write", "alloc", "free"


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
    fixed_trailing: int = 0
    """GPU async ops without operand segments: operands after the deps."""
    segments: tuple[str, ...] = ()
    """Names of the operand segments (`operandSegmentSizes`), if any."""
    deps_segment: int | None = None
    """Index of the async-dependencies segment."""
    properties: frozenset[str] = frozenset()
    """Inherent attributes printed in `<{...}>` in the generic form."""
    default_properties: dict[str, Attr] = field(default_factory=dict)
    """Properties with a default value: elided by the custom form."""
    operand_count: tuple[int, int | None] = (0, None)
    """Allowed number of operands (min, max or None)."""
    default_dialect: str = ""
    """Dialect whose ops print without prefix directly inside this op."""
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
_REGISTRY: dict[str, OpInfo] = {}


def _op(name: str, **kw: object) -> None:
    defaults = kw.get("default_properties", {})
    props = set(kw.pop("properties", ())) | set(defaults)  # type: ignore[arg-type]
    if kw.get("segments"):
        props.add("operandSegmentSizes")
    _REGISTRY[name] = OpInfo(name, properties=frozenset(props), **kw)  # type: ignore[arg-type]


def _pure(names: str, **kw: object) -> None:
    for n in names.split():
        _op(n, **kw)


# builtin / func
_op("builtin.module", effects=None, properties={"sym_name", "sym_visibility"}, operand_count=(0, 0))
_op("func.func", effects=None, properties={"sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"}, operand_count=(0, 0), default_dialect="func")
_op("func.call", effects=None, properties={"callee"})
_op("func.return", terminator=True, parents=("func.func",))

# gpu: kernels and modules (opaque to the pass)
_op("gpu.module", effects=None, properties={"sym_name", "targets", "offloadingHandler"}, operand_count=(0, 0), generic_terminator="gpu.module_end")
_op("gpu.module_end", terminator=True, operand_count=(0, 0), parents=("gpu.module",))
_op("gpu.func", effects=None, properties={"function_type", "arg_attrs", "res_attrs", "workgroup_attrib_attrs", "private_attrib_attrs", "known_block_size", "known_grid_size"}, operand_count=(0, 0))
_op("gpu.return", terminator=True, parents=("gpu.func",))
_op("gpu.terminator", terminator=True, operand_count=(0, 0), parents=("gpu.launch",))
_op("gpu.barrier", effects=None, operand_count=(0, 0))
_pure("gpu.thread_id gpu.block_id gpu.block_dim gpu.grid_dim", properties={"dimension", "upper_bound"}, operand_count=(0, 0))
_pure("gpu.cluster_id gpu.cluster_dim", properties={"dimension", "upper_bound"}, operand_count=(0, 0))
_op("gpu.launch", effects=None, segments=("asyncDependencies", "gridSizeX", "gridSizeY", "gridSizeZ", "blockSizeX", "blockSizeY", "blockSizeZ", "clusterSizeX", "clusterSizeY", "clusterSizeZ", "dynamicSharedMemorySize"), deps_segment=0)

# gpu: the async ops the pass threads tokens through
_op("gpu.launch_func", effects=None, gpu_async=True, properties={"kernel"}, segments=("asyncDependencies", "gridSizeX", "gridSizeY", "gridSizeZ", "blockSizeX", "blockSizeY", "blockSizeZ", "clusterSizeX", "clusterSizeY", "clusterSizeZ", "dynamicSharedMemorySize", "kernelOperands", "asyncObject"), deps_segment=0)
_op("gpu.memcpy", effects=frozenset({READ, WRITE}), gpu_async=True, fixed_trailing=2)
_op("gpu.memset", effects=frozenset({WRITE}), gpu_async=True, fixed_trailing=2)
_op("gpu.alloc", effects=frozenset({ALLOC}), gpu_async=True, properties={"hostShared"}, segments=("asyncDependencies", "dynamicSizes", "symbolOperands"), deps_segment=0)
_op("gpu.dealloc", effects=frozenset({FREE}), gpu_async=True, fixed_trailing=1)
_op("gpu.wait", effects=None, gpu_async=True, fixed_trailing=0)

# arith: all pure
for _n in "addi subi muli shli".split():
    _op(f"arith.{_n}", default_properties=_OVERFLOW, operand_count=(2, 2))
for _n in "addf subf mulf divf remf maximumf minimumf maxnumf minnumf".split():
    _op(f"arith.{_n}", default_properties=_FASTMATH, operand_count=(2, 2))
_pure(" ".join(f"arith.{n}" for n in "divsi divui remsi remui andi ori xori maxsi minsi maxui minui shrsi shrui ceildivsi floordivsi".split()), operand_count=(2, 2))
_op("arith.negf", default_properties=_FASTMATH, operand_count=(1, 1))
_pure(" ".join(f"arith.{n}" for n in "index_cast index_castui sitofp uitofp fptosi fptoui extsi extui trunci extf truncf bitcast".split()), operand_count=(1, 1))
_op("arith.constant", properties={"value"}, operand_count=(0, 0))
_op("arith.cmpi", properties={"predicate"}, operand_count=(2, 2))
_op("arith.cmpf", properties={"predicate"}, default_properties=_FASTMATH, operand_count=(2, 2))
_op("arith.select", operand_count=(3, 3))

# memref
_op("memref.alloc", effects=frozenset({ALLOC}), properties={"alignment"}, segments=("dynamicSizes", "symbolOperands"))
_op("memref.alloca", effects=frozenset({ALLOC}), properties={"alignment"}, segments=("dynamicSizes", "symbolOperands"))
_op("memref.dealloc", effects=frozenset({FREE}), operand_count=(1, 1))
_op("memref.load", effects=frozenset({READ}), properties={"nontemporal"}, operand_count=(1, None), elided_defaults={"nontemporal": "false"})
_op("memref.store", effects=frozenset({WRITE}), properties={"nontemporal"}, operand_count=(2, None), elided_defaults={"nontemporal": "false"})
_op("memref.copy", effects=frozenset({READ, WRITE}), operand_count=(2, 2))
_op("memref.dim", operand_count=(2, 2))
_op("memref.cast", operand_count=(1, 1))
_op("memref.subview", properties={"static_offsets", "static_sizes", "static_strides"}, segments=("source", "offsets", "sizes", "strides"))

# scf
_op("scf.for", recursive=True, operand_count=(3, None))
_op("scf.if", recursive=True, operand_count=(1, 1))
_op("scf.while", recursive=True)
_op("scf.parallel", recursive=True, segments=("lowerBound", "upperBound", "step", "initVals"))
_op("scf.execute_region", effects=None, operand_count=(0, 0))
_op("scf.yield", terminator=True, parents=("scf.execute_region", "scf.for", "scf.if", "scf.index_switch", "scf.while"))
_op("scf.condition", terminator=True, operand_count=(1, None), parents=("scf.while",))
_op("scf.reduce", terminator=True, recursive=True, parents=("scf.parallel",))
_op("scf.reduce.return", terminator=True, operand_count=(1, 1), parents=("scf.reduce",))

# cf
_op("cf.br", terminator=True)
_op("cf.cond_br", terminator=True, segments=("condition", "trueDestOperands", "falseDestOperands"), properties={"branch_weights"})
_op("cf.assert", effects=frozenset({WRITE}), properties={"msg"}, operand_count=(1, 1))

# async
_op("async.execute", effects=None, segments=("dependencies", "bodyOperands"))
_op("async.await", effects=None, operand_count=(1, 1))
_op("async.yield", terminator=True, parents=("async.execute",))
_op("async.create_group", operand_count=(1, 1))
_op("async.add_to_group", effects=None, operand_count=(2, 2))
_op("async.await_all", effects=None, operand_count=(1, 1))


COMPLETE_DIALECTS: dict[str, frozenset[str]] = {
    "scf": frozenset(
        "scf.condition scf.execute_region scf.for scf.forall scf.forall.in_parallel scf.if scf.index_switch "
        "scf.parallel scf.reduce scf.reduce.return scf.while scf.yield".split()
    ),
    "cf": frozenset("cf.assert cf.br cf.cond_br cf.switch".split()),
    "func": frozenset("func.call func.call_indirect func.constant func.func func.return".split()),
}
"""Every op mlir-opt-19 registers in these dialects (checked one by one
against it): any other name there, even in the generic form, is an
unregistered op of a dialect that allows none. Other dialects are not
listed in full, so their unknown names are let through."""


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
        info = OpInfo(name, effects=None, known=False)
    return info


def without_defaults(name: str, props: dict[str, Attr]) -> dict[str, Attr]:
    """`props` less the entries equal to the op's elided defaults."""
    defaults = lookup(name).elided_defaults
    if not defaults:
        return props
    return {k: v for k, v in props.items() if defaults.get(k) != str(v)}


def is_known(name: str) -> bool:
    return name in _REGISTRY


def known_ops() -> list[str]:
    return sorted(_REGISTRY)
