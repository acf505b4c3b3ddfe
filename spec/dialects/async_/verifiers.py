"""`async.func`'s and `async.return`'s verifiers as mlir-opt-19 runs them,
with its messages (compared with it in `tests/syntax/test_syntax_async_func.py`).

`async.func`: its entry block's argument types those of its signature
(their count is checked as the generic form is read), at least one result, each an `!async.token` or an
`!async.value<T>`, a token only first (a "stateful" function). `async.return`:
its operands' types are the `T`s of the function's `!async.value<T>` results.
`async.call`'s callee, operands and results are checked with the symbol
uses (`spec.syntax.structure`), as `func.call`'s are.
"""

from __future__ import annotations

from collections.abc import Callable

from spec.attributes import FunctionType, Type, TypeAttr
from spec.ir import Operation
from spec.syntax.structure import op_error


def _results(op: Operation) -> tuple[Type, ...]:
    fn = op.properties.get("function_type")
    return fn.type.results if isinstance(fn, TypeAttr) and isinstance(fn.type, FunctionType) else ()


def _func(op: Operation) -> None:
    fn = op.properties.get("function_type")
    if isinstance(fn, TypeAttr) and isinstance(fn.type, FunctionType) and op.regions and op.regions[0].blocks:
        for i, (want, arg) in enumerate(zip(fn.type.inputs, op.regions[0].blocks[0].args)):
            if arg.type != want:
                raise op_error(
                    op,
                    f"type of entry block argument #{i}('{arg.type}') must match the type of the corresponding "
                    f"argument in function signature('{want}')",
                )
    results = _results(op)
    if not results:
        raise op_error(op, "result is expected to be at least of size 1, but got 0")
    for i, t in enumerate(results):
        if not (t.is_async_token or t.is_async_value):
            raise op_error(op, f"result type must be async value type or async token type, but got '{t}'")
        if t.is_async_token and i != 0:
            raise op_error(
                op,
                f" results' (optional) async token type is expected to appear as the 1st return value, but got {i + 1}",
            )


def _return(op: Operation) -> None:
    func = op.parent_op
    if func is None or func.name != "async.func":
        return  # the parent check reports it
    results = _results(func)
    values = results[1:] if results and results[0].is_async_token else results
    wanted = [t.async_value_inner for t in values]
    if [v.type for v in op.operands] != wanted:
        raise op_error(op, "operand types do not match the types returned from the parent FuncOp")


ASYNC_RULES: dict[str, Callable[[Operation], None]] = {"async.func": _func, "async.return": _return}
"""Each rule the registry names for an async op (`OpInfo.verifier`)."""
