"""Proving the obligations of a function without decisions: one path.

The guarded graphs (`every_path.build_graphs`) of a function without branch
or loop decisions have every guard true: each is the function's one path, a
concrete graph. It is proved with the slice batching of `encode.Prover`
(difference logic, which long straight-line code needs; the guarded
prover's Boolean guards would only cost time there), and every answer is
checked against graph reachability (`reach.py`). One graph, two solver
logics: the graph is the same builder's either way.

`check_path` proves one concrete path's obligations; the path-by-path
reference the all-paths proof is tested against (every path of a function
in turn, each built on its own) uses it too: `tests/support/path_reference.py`.
"""

from __future__ import annotations

import time

from spec.ir import Operation
from spec.semantics.event_graph import Event, EventGraph
from verifier.output.report import violation_of
from verifier.proof.every_path import AllPaths
from verifier.proof.obligations import obligations
from verifier.proof.reach import reachable
from verifier.proof.replay import Replay, replay
from verifier.proof.run import FunctionRun
from verifier.proof.second_process import Sharing
from verifier.proof.shapes import KnownProof, proof_key
from verifier.smt.encode import Prover
from verifier.smt.solver import Status


def prove_one_path(run: FunctionRun, graphs: AllPaths) -> bool:
    """The function's one path (`graphs.one_path`). False if the verdict is
    already set (inconsistent)."""
    gin, gout, tally = graphs.gin, graphs.gout, run.tally
    if gin.excluded:
        # The one path enters a block more often than the bound allows
        # (a `cf.br` cycle): nothing is checked on it.
        return True
    run.lemma.path(gin, gout)
    tally.graph = gout
    table = run.options.shapes
    if table is None or run.budget.spent():
        return check_path(run, gin, gout, set())
    key = proof_key("one", run, graphs.sym, gin, gout)
    known = table.get(key)
    if known is not None:
        # A pair of this shape was proved before: the same obligations, each
        # proved by Z3 and by reachability.
        tally.obligations += known.obligations
        tally.proved += known.proved
        tally.agreements += known.agreements
        return True
    before = (tally.obligations, tally.proved, tally.agreements, len(run.undecided), len(tally.violations))
    done = check_path(run, gin, gout, set())
    clean = (len(run.undecided), len(tally.violations)) == before[3:] and tally.stopped is None
    if done and clean and not run.budget.spent():
        table.put(
            key, KnownProof(tally.obligations - before[0], tally.proved - before[1], tally.agreements - before[2], 0)
        )
    return done


def check_path(run: FunctionRun, gin: EventGraph, gout: EventGraph, reported: set[tuple[int, int]]) -> bool:
    """Prove the obligations of one path, by Z3 and by reachability; False
    if the function is done (inconsistent). `reported`: the pairs of ops
    already reported refuted (on an earlier path)."""
    corr, tally = run.corr, run.tally
    obls = obligations(gin)
    tally.obligations += len(obls)
    prover = Prover(gout, run.options.solver, run.proved, share=Sharing(run.options.jobs), progress=run.budget.progress)
    ends: list[tuple[Event, Event, Operation, Operation]] = []
    for ob in obls:
        a_out = corr.to_output.get(ob.first)
        b_out = corr.to_output.get(ob.second)
        ea = gout.event(a_out, ob.first_occurrence, ob.first_role) if a_out is not None else None
        eb = gout.event(b_out, ob.second_occurrence, ob.second_role) if b_out is not None else None
        if ea is None or eb is None or a_out is None or b_out is None:
            run.stop(
                Status.INCONSISTENT,
                f"'{ob.first.name}' or '{ob.second.name}' op is an event of the input but not of the output",
            )
            return False
        ends.append((ea, eb, a_out, b_out))
    run.budget.at(phase="z3")
    t0 = time.perf_counter()
    reach = [reachable(gout, ea.end, eb.start) for ea, eb, _, _ in ends]
    t1 = time.perf_counter()
    c1 = time.process_time()
    outcomes = prover.prove_all([(ea.end, eb.start) for ea, eb, _, _ in ends])
    run.time("reach", t1 - t0)
    run.time("z3", time.perf_counter() - t1)
    # CPU time too (a second process's included): on a loaded machine it is
    # the steadier figure.
    run.time("z3_cpu", time.process_time() - c1 + prover.helper_cpu)
    tally.z3_checks += prover.checks
    for ob, (ea, eb, a_out, b_out), holds, outcome in zip(obls, ends, reach, outcomes):
        if outcome.status == Status.UNKNOWN:
            run.undecided.append(outcome.reason)
            continue
        if outcome.status == Status.INCONSISTENT or (outcome.status == Status.VERIFIED) != holds:
            run.stop(
                Status.INCONSISTENT,
                f"Z3 says {outcome.z3_says}, reachability says {'ordered' if holds else 'unordered'} "
                f"for '{ob.first.name}' ({ob.first.loc}) before '{ob.second.name}' ({ob.second.loc})",
            )
            return False
        tally.agreements += 1
        if outcome.status == Status.VERIFIED:
            tally.proved += 1
            continue
        key = (id(ob.first), id(ob.second))
        if key in reported:
            continue
        reported.add(key)
        if tally.graph is not gout:
            tally.graph, tally.missing = gout, []
        tally.missing.append((ea.end, eb.start))
        shown: Replay | None = None
        if not tally.violations:
            # One replay per function, the first counterexample. The
            # interpreter picks branches and trip counts from concrete
            # arguments, so only a path without decisions is replayed.
            if gin.choices:
                shown = Replay(False, reason="the path has branch or loop decisions the interpreter would not follow")
            else:
                shown = replay(gin.func, gout.func, gout, outcome.times, corr.to_output)
        tally.violations.append(violation_of(ob, a_out, b_out, ea.kind == "gpu", gin.path, outcome.schedule, shown))
    return True
