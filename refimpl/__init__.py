"""The reference implementation of MLIR's `-gpu-async-region` pass.

`rewrite(module, mode)` runs the pass on every `func.func` directly inside
`module` (the pipeline `builtin.module(func.func(gpu-async-region))` that
`mlir-opt -gpu-async-region` means; functions in nested modules are not
visited) and returns the module, edited in place, with the diagnostics.

Modes:

- `mlir19`: bug-compatible with `mlir-opt-19`/`mlir-opt-22`.
- `reference` (default): upstream's rules, except the deviations listed in
  `docs/refimpl.md`, where upstream's output is wrong.
- `seed`: the pass as first proposed for review in 2020 (`refimpl.seed`).

The phases, one module each, mirror upstream's callbacks:
`refimpl.thread` (thread a token through each block), `refimpl.defer`
(defer waits out of `async.execute`), `refimpl.single_use` (one token
result per use); phase 2 hands its use lists (`refimpl.uses`) to phase 3.
In the `mlir19` mode, a function whose tokens phase 1 let leak out of a
block without a terminator is then checked as mlir-opt's verifier does
(`refimpl.ir_verify`).
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field

from spec.diagnostics import Diagnostic
from spec.ir import Operation, module_body

MODES = ("reference", "mlir19", "seed")


@dataclass
class RewriteResult:
    module: Operation
    """The rewritten module (the input object, edited in place)."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """Errors; when non-empty the pass failed and `module` must not be used."""

    @property
    def ok(self) -> bool:
        return not self.diagnostics


def functions(module: Operation) -> list[Operation]:
    """The functions the pass runs on: `func.func` ops with a body directly
    inside `module`."""
    return [op for op in module_body(module).ops if op.name == "func.func" and op.regions and op.regions[0].blocks]


def rewrite(module: Operation, mode: str = "reference") -> RewriteResult:
    """Run the pass on `module` in `mode`; see the module docstring."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; expected one of {', '.join(MODES)}")
    result = RewriteResult(module)
    # The pass creates objects but frees none: the cyclic garbage collector
    # would only rescan the (large) IR again and again.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        _run(module, mode, result)
    finally:
        if was_enabled:
            gc.enable()
    return result


def _run(module: Operation, mode: str, result: RewriteResult) -> None:
    from refimpl import defer, ir_verify, seed, single_use, thread

    for func in functions(module):
        try:
            if mode == "seed":
                seed.run(func)
            else:
                leaked = thread.thread_tokens(func, mode)
                uses = defer.defer_waits(func, mode)
                single_use.single_token_uses(func, uses, mode)
                if leaked or (mode == "mlir19" and ir_verify.segment_mismatch(func) is not None):
                    # The output is likely invalid: mlir-opt's verifier
                    # reports it after the pass (on the first function).
                    diag = ir_verify.first_error(func)
                    if diag is not None:
                        raise thread.PassFailure(diag)
        except thread.PassFailure as failure:
            result.diagnostics.append(failure.diagnostic)
            # 19 (like 13 and the seed's pass manager) stops at the first
            # failing function; 22 and the reference report every one.
            if mode != "reference":
                break
