"""The path-by-path checker: the reference the all-paths proof is tested against.

Every path of a function in turn (`path_builder.paths`), each built on its
own by the path builder, each proved with `verifier.proof.one_path.check_path`.
Plugged into the pipeline as its `prove` step: `check_path_by_path(a, b)`
is `verifier.check(a, b)` proved this way.
"""

from __future__ import annotations

import time
from typing import Any

from spec.ir import Operation
from tests.support import path_builder
from verifier.output.report import Report
from verifier.proof.one_path import check_path
from verifier.proof.pipeline import check
from verifier.proof.run import FunctionRun, unsupported_reason
from verifier.smt.solver import Status


def check_each_path(run: FunctionRun) -> bool:
    """Every path of the function, one after another. False if the verdict
    is already set (unknown or inconsistent)."""
    fin, fout, fr, opts = run.fin, run.fout, run.tally, run.options
    reported: set[tuple[int, int]] = set()
    limit = opts.max_paths if opts.max_paths is not None else path_builder.MAX_PATHS
    try:
        t0 = time.perf_counter()
        for gin in path_builder.paths(fin, opts.unroll, limit):
            fr.paths += 1
            fr.bounded = fr.bounded or gin.bounded
            if gin.unsupported:
                run.stop(Status.UNKNOWN, unsupported_reason(gin.unsupported))
                return False
            if gin.truncated:
                continue
            if run.budget.spent():
                run.undecided.append(run.budget.reason)
                break
            gout = path_builder.build(fout, gin.choices, opts.unroll)
            run.time("events", time.perf_counter() - t0)
            if gout.unsupported:
                run.stop(Status.UNKNOWN, unsupported_reason(gout.unsupported))
                return False
            if gout.options != gin.options or gout.truncated:
                run.stop(Status.UNKNOWN, "the output's control flow does not follow the input's")
                return False
            run.lemma.path(gin, gout)
            if fr.graph is None or fr.missing == []:
                fr.graph = gout
            if not check_path(run, gin, gout, reported):
                return False
            t0 = time.perf_counter()
    except path_builder.TooManyPaths as exc:
        run.stop(Status.UNKNOWN, str(exc))
        return False
    return True


def check_path_by_path(input_module: Operation, output_module: Operation, **keywords: Any) -> Report:
    """`verifier.check`, proved path by path."""
    return check(input_module, output_module, prove_step=check_each_path, **keywords)
