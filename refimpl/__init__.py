"""The reference implementation of MLIR's `-gpu-async-region` pass.

`rewrite(module, mode)` runs the pass on every `func.func` directly inside
`module` (the pipeline `builtin.module(func.func(gpu-async-region))` that
`mlir-opt -gpu-async-region` means; functions in nested modules are not
visited) and returns the module, edited in place, with the diagnostics.

Modes (`refimpl.modes`: one field per difference, which the phases ask):

- `mlir19`: bug-compatible with `mlir-opt-19`/`mlir-opt-22`.
- `reference` (default): upstream's rules, except the deviations listed in
  `docs/refimpl.md`, where upstream's output is wrong.
- `seed`: the pass as first proposed for review in 2020 (`refimpl.seed`).

`mode` is a name or a `refimpl.modes.Mode`; a name is looked up once, here.

The phases, one module each, mirror upstream's callbacks:
`refimpl.thread` (thread a token through each block), `refimpl.defer`
(defer waits out of `async.execute`), `refimpl.single_use` (one token
result per use); phase 2 hands its use lists (`refimpl.uses`) to phase 3.
Where the mode leaves upstream's invalid outputs as they are (a token
phase 1 let leak out of a block without a terminator, a result segment
not grown), the function is then checked as mlir-opt's verifier does
(`refimpl.ir_verify`).
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field

from refimpl.modes import NAMES, Mode, mode_named
from spec import registry
from spec.diagnostics import Diagnostic
from spec.ir import Operation, module_body

MODES = NAMES
"""The mode names, the default first."""


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
    return [
        op
        for op in module_body(module).ops
        if registry.is_host_function(op.name) and op.regions and op.regions[0].blocks
    ]


def rewrite(module: Operation, mode: str | Mode = "reference") -> RewriteResult:
    """Run the pass on `module` in `mode`; see the module docstring. Raises
    `ValueError` for an unknown mode name."""
    chosen = mode_named(mode)
    result = RewriteResult(module)
    # The pass creates objects but frees none: the cyclic garbage collector
    # would only rescan the (large) IR again and again.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        _run(module, chosen, result)
    finally:
        if was_enabled:
            gc.enable()
    return result


def _run(module: Operation, mode: Mode, result: RewriteResult) -> None:
    from refimpl import defer, ir_verify, seed, single_use, thread

    for func in functions(module):
        try:
            if mode.seed_walk:
                seed.run(func)
            else:
                leaked = thread.thread_tokens(func, mode)
                uses = defer.defer_waits(func, mode)
                single_use.single_token_uses(func, uses, mode)
                if leaked or (not mode.grow_token_segment and ir_verify.segment_mismatch(func) is not None):
                    # The output is likely invalid: mlir-opt's verifier
                    # reports it after the pass (on the first function).
                    diag = ir_verify.first_error(func)
                    if diag is not None:
                        raise thread.PassFailure(diag)
        except thread.PassFailure as failure:
            result.diagnostics.append(failure.diagnostic)
            # 19 (like 13 and the seed's pass manager) stops at the first
            # failing function; 22 and the reference report every one.
            if mode.stop_at_first_failure:
                break
