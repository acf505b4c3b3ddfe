"""GPU async ops over the generic IR: their dependency tokens and token
result, read and edited (the pass's and the checkers' one way to do so).

MLIR's `gpu::AsyncOpInterface` gives every GPU async op a list of
dependency tokens (`[%t0, %t1]`) and an optional `!gpu.async.token` result.
In the generic IR those are just operands and results; where they sit depends
on the op (`operandSegmentSizes` for `gpu.launch_func`/`gpu.alloc`, a fixed
number of trailing operands for `gpu.memcpy`/`gpu.memset`/`gpu.dealloc`, all
operands for `gpu.wait`). The registry records that layout
(`OpInfo.deps_segment`, `OpInfo.fixed_trailing`); these helpers read and
edit it, keeping `operandSegmentSizes` consistent, so no pass or checker
needs to know an op's operand layout.
"""

from __future__ import annotations

from spec import registry
from spec.attributes import GPU_TOKEN, DenseArrayAttr, Type
from spec.ir import Location, Operation, Value

SEGMENTS = registry.SEGMENT_SIZES


def is_gpu_async(op: Operation) -> bool:
    """Whether `op` implements MLIR's `gpu::AsyncOpInterface`."""
    return registry.is_gpu_async(op.name)


def is_gpu_wait(op: Operation) -> bool:
    """Whether `op` is a GPU async op that only waits (`gpu.wait`)."""
    return registry.is_gpu_wait(op.name)


_deps_range = registry.async_dependency_span


def async_deps(op: Operation) -> list[Value]:
    """The `[deps]` of a GPU async op, in order."""
    start, end = _deps_range(op)
    return op.operands[start:end]


def set_async_deps(op: Operation, deps: list[Value]) -> None:
    """Replace the `[deps]` of `op`, updating `operandSegmentSizes`."""
    _set_deps(op, _deps_range(op), deps)


def _set_deps(op: Operation, span: tuple[int, int], deps: list[Value]) -> None:
    op.operands[span[0] : span[1]] = deps
    info = registry.lookup(op.name)
    if info.deps_segment is not None:
        sizes = op.properties.get(SEGMENTS)
        if isinstance(sizes, DenseArrayAttr):
            values = list(sizes.values)
            values[info.deps_segment] = len(deps)
            op.properties[SEGMENTS] = DenseArrayAttr(sizes.element, tuple(values))


def add_async_dep(op: Operation, token: Value, dedup: bool = True) -> None:
    """MLIR's `addAsyncDependency`: prepend `token` to the deps (19/22 skip
    a token already there; the 2020 version and 13 do not check)."""
    span = _deps_range(op)
    deps = op.operands[span[0] : span[1]]
    if dedup and any(d is token for d in deps):
        return
    _set_deps(op, span, [token, *deps])


def async_token(op: Operation) -> Value | None:
    """The op's `!gpu.async.token` result, if it has one (the last result
    upstream; the first in the 2020 seed's clones)."""
    for r in reversed(op.results):
        if r.type.is_gpu_token:
            return r
    return None


def make_async(op: Operation, first: bool = False, keep_result_segments: bool = False) -> Value:
    """Give `op` a token result in place: appended after its results
    (upstream), or in front of them (`first`, the 2020 seed). Editing the op
    in place is equivalent to MLIR's clone-and-replace-all-uses, since every
    existing result keeps its uses, and it stays linear on large inputs."""
    if first:
        token = Value(GPU_TOKEN, op, 0, "", op.loc)
        op.results.insert(0, token)
        for i, r in enumerate(op.results):
            r.index = i
        return token
    token = op.add_result(GPU_TOKEN)
    sizes = op.properties.get("resultSegmentSizes")
    if registry.lookup(op.name).result_segments and isinstance(sizes, DenseArrayAttr) and not keep_result_segments:
        # The token is the last result segment. Upstream's clone keeps the
        # old sizes (`keep_result_segments`), which its verifier rejects.
        op.properties["resultSegmentSizes"] = DenseArrayAttr(sizes.element, (*sizes.values[:-1], sizes.values[-1] + 1))
    return token


def new_wait(loc: Location, deps: list[Value], is_async: bool) -> Operation:
    """A fresh `gpu.wait [deps]` (blocking) or `gpu.wait async [deps]`."""
    op = Operation("gpu.wait", operands=list(deps), loc=loc)
    if is_async:
        op.add_result(GPU_TOKEN)
    return op


def value_type_of_async(t: Type) -> Type:
    """`T` for `!async.value<T>`, else the type itself."""
    return t.async_value_inner if t.is_async_value else t
