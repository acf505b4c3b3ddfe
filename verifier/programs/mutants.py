"""Broken variants of the pass, to check that the gate catches them.

Each mutant is the refimpl's correct rewrite (reference mode) followed by one
IR edit that reproduces a plausible bug of a `-gpu-async-region`
implementation: a missing blocking wait, a missing dependency, a wait in the
wrong place, a stale token, an op wrongly treated as pure, a wait deferred
out of an `async.execute` to nobody. Every edit keeps the output well formed
(SSA, dominance), so what the verifier must find is the ordering bug itself,
not a syntax slip. A mutant applies its edit at every site it matches.

    python -m verifier.programs.mutants NAME FILE     # prints the mutated rewrite
    python -m verifier.programs.mutants --list        # names and descriptions

so a mutant is an implementation for `pytest verifier/ --impl` like any
other (`--impl "python -m verifier.programs.mutants calls-pure"`).
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from dataclasses import dataclass

from spec import gpu_async, registry
from spec.attributes import GPU_TOKEN
from spec.diagnostics import DiagnosticError, render
from spec.ir import Block, Operation, Value
from spec.syntax.parser import parse_module
from spec.syntax.printing import join_outputs, print_op


def _blocks(module: Operation) -> list[Block]:
    return [
        b
        for op in module.walk()
        if registry.is_host_function(op.name)
        for o in op.walk()
        for r in o.regions
        for b in r.blocks
    ]


def _is_blocking_wait(op: Operation) -> bool:
    return gpu_async.is_gpu_wait(op) and not op.results and bool(op.operands)


def _drop_waits_before(pred: Callable[[Operation], bool]) -> Callable[[Operation], int]:
    """An edit removing every blocking wait right before an op matching `pred`."""

    def edit(module: Operation) -> int:
        n = 0
        for block in _blocks(module):
            keep = []
            for i, op in enumerate(block.ops):
                nxt = block.ops[i + 1] if i + 1 < len(block.ops) else None
                if _is_blocking_wait(op) and nxt is not None and pred(nxt):
                    n += 1
                    continue
                keep.append(op)
            block.ops[:] = keep
        return n

    return edit


def _drop_first_wait(module: Operation) -> int:
    """The first blocking wait of each function goes."""
    n = 0
    for func in (op for op in module.walk() if registry.is_host_function(op.name)):
        for op in func.walk():
            if _is_blocking_wait(op) and op.parent is not None:
                op.parent.ops.remove(op)
                n += 1
                break
    return n


def _drop_dependency(module: Operation) -> int:
    """GPU ops (other than waits) lose the first token of their `[deps]`."""
    n = 0
    for op in module.walk():
        if gpu_async.is_gpu_async(op) and not gpu_async.is_gpu_wait(op):
            deps = gpu_async.async_deps(op)
            if deps:
                gpu_async.set_async_deps(op, deps[1:])
                n += 1
    return n


def _wait_after_effect(module: Operation) -> int:
    """A blocking wait is moved after the op it should precede."""
    n = 0
    for block in _blocks(module):
        i = 0
        while i + 1 < len(block.ops):
            op, nxt = block.ops[i], block.ops[i + 1]
            if _is_blocking_wait(op) and not registry.lookup(nxt.name).terminator and not gpu_async.is_gpu_async(nxt):
                block.ops[i], block.ops[i + 1] = nxt, op
                n += 1
                i += 2
                continue
            i += 1
    return n


def _stale_token(module: Operation) -> int:
    """A blocking wait waits for the token its producer depended on (one
    step back in the chain) instead of the producer's own token."""
    n = 0
    for op in module.walk():
        if not _is_blocking_wait(op):
            continue
        for k, tok in enumerate(op.operands):
            producer = tok.defining_op
            if producer is not None and gpu_async.is_gpu_async(producer) and not gpu_async.is_gpu_wait(producer):
                older = gpu_async.async_deps(producer)
                if older:
                    op.operands[k] = older[0]
                    n += 1
    return n


def _wait_async_instead(module: Operation) -> int:
    """A blocking wait becomes a non-blocking join (`gpu.wait async`)."""
    n = 0
    for op in module.walk():
        if _is_blocking_wait(op):
            op.add_result(GPU_TOKEN)
            n += 1
    return n


def _defer_unchecked(module: Operation) -> int:
    """The last wait of every `async.execute` body is dropped (deferred)
    whoever consumes the execute's results, with no await added for it."""
    n = 0
    for op in module.walk():
        if not registry.begins_thread(op.name):
            continue
        body = op.regions[0].blocks[0]
        for inner in reversed(body.ops[:-1]):
            if _is_blocking_wait(inner):
                body.ops.remove(inner)
                n += 1
                break
            if not _pure(inner):
                break
    return n


def _pure(op: Operation) -> bool:
    from spec.effects import is_memory_effect_free

    return is_memory_effect_free(op)


def _is_deferred_token_await(op: Operation) -> bool:
    return registry.awaits_one(op.name) and any(r.type.is_gpu_token for r in op.results)


def _drop_deferred_waits(module: Operation) -> int:
    """Waits on tokens that come out of an `async.await` (the deferred
    waits of phase 2) are dropped."""
    n = 0
    for block in _blocks(module):
        keep = []
        for op in block.ops:
            if _is_blocking_wait(op) and all(_from_await(v) for v in op.operands):
                n += 1
                continue
            keep.append(op)
        block.ops[:] = keep
    return n


def _from_await(v: Value) -> bool:
    d = v.defining_op
    return d is not None and _is_deferred_token_await(d)


@dataclass(frozen=True)
class Mutant:
    name: str
    description: str
    edit: Callable[[Operation], int]
    """Applies the bug in place; returns how many sites it changed."""


def _named(*names: str) -> Callable[[Operation], bool]:
    return lambda op: op.name in names


MUTANTS: dict[str, Mutant] = {
    m.name: m
    for m in [
        Mutant("drop-blocking-wait", "the first blocking gpu.wait of each function is dropped", _drop_first_wait),
        Mutant("drop-dependency", "GPU ops lose the first token of their [deps]", _drop_dependency),
        Mutant(
            "wait-after-effect", "a blocking gpu.wait comes after the host op it should precede", _wait_after_effect
        ),
        Mutant(
            "calls-pure", "func.call treated as pure: no wait before a call", _drop_waits_before(_named("func.call"))
        ),
        Mutant(
            "skip-terminator-wait",
            "no wait before terminators (func.return, scf.yield, async.yield, cf.br, ...)",
            _drop_waits_before(lambda op: registry.lookup(op.name).terminator),
        ),
        Mutant("stale-token", "a blocking wait waits for an older token of the chain", _stale_token),
        Mutant("defer-unchecked", "an execute's last wait is deferred whoever consumes its results", _defer_unchecked),
        Mutant("if-no-wait", "no wait before an scf.if holding an effect", _drop_waits_before(_named("scf.if"))),
        Mutant(
            "loops-no-wait",
            "no wait before scf.for / scf.while / scf.parallel holding an effect",
            _drop_waits_before(_named("scf.for", "scf.while", "scf.parallel")),
        ),
        Mutant(
            "memref-pure",
            "memref loads and stores treated as pure",
            _drop_waits_before(_named("memref.load", "memref.store")),
        ),
        Mutant(
            "execute-no-wait",
            "async.execute treated as pure: no wait before it",
            _drop_waits_before(_named("async.execute")),
        ),
        Mutant(
            "await-no-wait", "async.await treated as pure: no wait before it", _drop_waits_before(_named("async.await"))
        ),
        Mutant("wait-async-instead", "blocking waits become non-blocking joins (gpu.wait async)", _wait_async_instead),
        Mutant("drop-deferred-wait", "the wait after a deferred token's await is dropped", _drop_deferred_waits),
    ]
}


@functools.lru_cache(maxsize=512)
def _correct_rewrite(text: str) -> str:
    """The refimpl's rewrite of `text`, shared by every mutant of it."""
    from verifier.harness.gate import RefimplImpl

    return RefimplImpl("reference")(text)


@dataclass(frozen=True)
class MutantImpl:
    """A mutant as an implementation (`str -> str`) for `verifier.harness.gate`."""

    name: str

    def __call__(self, text: str) -> str:
        from verifier.harness.gate import ImplFailed

        correct = _correct_rewrite(text)
        try:
            module = parse_module(correct, "<rewrite>")
        except DiagnosticError as exc:  # the refimpl printed something unparsable
            raise ImplFailed("".join(render(d, {"<rewrite>": correct}) for d in exc.diagnostics)) from None
        MUTANTS[self.name].edit(module)
        return join_outputs([print_op(module)])

    def __str__(self) -> str:
        return f"mutant {self.name}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m verifier.programs.mutants", description=__doc__.split("\n\n")[0])
    p.add_argument("--list", action="store_true", help="list the mutants")
    p.add_argument("name", nargs="?", choices=sorted(MUTANTS))
    p.add_argument("file", nargs="?", default="-")
    args = p.parse_args(argv)
    if args.list or args.name is None:
        for m in MUTANTS.values():
            print(f"{m.name:22} {m.description}")
        return 0
    from verifier.harness.gate import ImplFailed

    text = sys.stdin.read() if args.file == "-" else open(args.file).read()
    try:
        sys.stdout.write(MutantImpl(args.name)(text))
    except (ImplFailed, DiagnosticError) as exc:
        sys.stderr.write(str(exc) + "\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
