"""Where an exhaustive run's CPU goes, phase by phase.

    python bench/exhaustive_phases.py [--alphabet whole] [--size 4] [--start 200000] [--count 15000]

Checks `--count` programs of `--size` from `--start` on (in the run's
order, with the run's shortcuts, as `python -m verifier exhaustive` does
in-process) with the pipeline's steps wrapped in timers, and reports each
phase's CPU (`time.process_time`) per program, exclusive: a step's time
less the time of the wrapped steps it called. The wrappers cost time
themselves (a few percent, counted in the phases that call them), so the
total is above an unwrapped run's; the shares are what this bench is for.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import itertools
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PHASES: list[tuple[str, str, str]] = [
    # (module, attribute, phase); the attribute is replaced in every module of CONSUMERS that holds it.
    ("verifier.programs.program_ir", "program_ir", "program IR built from the enumerator's ops"),
    ("verifier.proof.induction", "clone", "IR copied (the pass's copy, induction's copies)"),
    ("verifier.harness.reference_impl", "rewrite", "the pass (refimpl)"),
    ("verifier.proof.pipeline", "correspond", "matching and well-formedness"),
    ("verifier.proof.pipeline", "added_waits", "matching and well-formedness"),
    ("verifier.proof.pipeline", "match_module", "module outside functions"),
    ("verifier.proof.pipeline", "prove_composed", "compositional proof (bookkeeping, region graphs)"),
    ("verifier.proof.every_path", "build_graphs", "event graphs of whole functions"),
    ("spec.semantics.guarded_builder", "build_guarded", "event graphs of whole functions"),
    ("verifier.proof.every_path", "check_all_paths", "all-paths proof: prover, lemma"),
    ("verifier.proof.every_path", "prove_obligations", "all-paths proof: obligations and queries"),
    ("verifier.proof.every_path", "cross_check_samples", "all-paths proof: cross-check on sampled paths"),
    ("verifier.proof.every_path", "cross_check_refuted", "all-paths proof: cross-check on sampled paths"),
    ("verifier.proof.one_path", "prove_one_path", "one-path proof"),
    ("verifier.proof.shapes", "proof_key", "shape keys"),
    ("verifier.proof.induction", "prove", "induction (steps and contexts made)"),
    ("verifier.proof.pairs", "function_key", "induction (steps and contexts made)"),
    ("verifier.proof.pipeline", "conclude", "verdict"),
]
CONSUMERS = [
    "verifier.harness.exhaustive_runners",
    "verifier.proof.pipeline",
    "verifier.proof.compose",
    "verifier.proof.every_path",
    "verifier.proof.one_path",
    "verifier.proof.induction",
]

EXCLUSIVE: Counter[str] = Counter()
_stack: list[float] = []


def _timed(f: Callable[..., Any], phase: str) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t0 = time.process_time()
        _stack.append(0.0)
        try:
            return f(*args, **kwargs)
        finally:
            dt = time.process_time() - t0
            inner = _stack.pop()
            EXCLUSIVE[phase] += dt - inner
            if _stack:
                _stack[-1] += dt

    return wrapper


def _install() -> None:
    consumers = [importlib.import_module(m) for m in CONSUMERS]
    for module_name, attr, phase in PHASES:
        module = importlib.import_module(module_name)
        original = getattr(module, attr)
        wrapped = _timed(original, phase)
        setattr(module, attr, wrapped)
        for c in consumers:
            if getattr(c, attr, None) is original:
                setattr(c, attr, wrapped)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--alphabet", default="whole")
    ap.add_argument("--size", type=int, default=4)
    ap.add_argument("--start", type=int, default=200_000)
    ap.add_argument("--count", type=int, default=15_000)
    args = ap.parse_args()
    _install()
    from verifier.harness.exhaustive import _collecting
    from verifier.harness.exhaustive_runners import RefimplRunner
    from verifier.programs.enumeration import ALPHABETS, batched, programs

    work = list(itertools.islice(programs(ALPHABETS[args.alphabet], args.size), args.start, args.start + args.count))
    runner = RefimplRunner("reference", 10_000)
    gc.collect()
    with _collecting():
        c0 = time.process_time()
        for batch in batched(iter(work), 64):
            _stack.append(0.0)
            t0 = time.process_time()
            runner.run(batch)
            EXCLUSIVE["the rest (check set-up, budget, release, results)"] += time.process_time() - t0 - _stack.pop()
        total = time.process_time() - c0
    n = len(work)
    print(
        f"{args.alphabet} size {args.size}, programs {args.start}..{args.start + n - 1}: {1000 * total / n:.3f} ms/program (wrapped)\n"
    )
    print("| phase | ms/program | share |\n|---|---|---|")
    for phase, t in EXCLUSIVE.most_common():
        print(f"| {phase} | {1000 * t / n:.3f} | {100 * t / total:.0f}% |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
