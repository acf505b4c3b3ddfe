"""The `python -m verifier` command line: `check`'s options and `exhaustive`'s
(the latter only when they are asked for: a `check` need not import the
exhaustive runner to parse its own)."""

from __future__ import annotations

import argparse

from spec.semantics.events import DEFAULT_UNROLL
from spec.tool import add_subcommand, cli_parser
from verifier.harness.external import IMPL_TIMEOUT_S
from verifier.proof import budget
from verifier.smt.solver import DEFAULT_SEED, DEFAULT_TIMEOUT_MS


def parser(prog: str = "python -m verifier", exhaustive_args: bool = True) -> argparse.ArgumentParser:
    """The command line; `exhaustive_args` False leaves the `exhaustive`
    subcommand's own arguments out (a `check` need not import the
    exhaustive runner and its enumerator only to parse its options)."""
    p = cli_parser(
        prog,
        "Translation validation of -gpu-async-region rewrites.",
        '{prog} check {corpus}/scf_if.mlir --impl "mlir-opt-19 -gpu-async-region"',
    )
    sub = p.add_subparsers(dest="command", required=True)
    c = add_subcommand(
        sub,
        "check",
        "prove that a rewrite keeps every GPU op and host effect ordered",
        "{prog} {corpus}/async_value_consumers.mlir --mode mlir19 --svg cex.svg",
    )
    c.add_argument("input", metavar="INPUT", help="the program before the rewrite (.mlir), or - for stdin")
    src = c.add_mutually_exclusive_group()
    src.add_argument("--after", metavar="OUTPUT", help="the rewritten program (.mlir), or - for stdin")
    src.add_argument("--impl", metavar="CMD", help="command that gets INPUT appended and prints the rewrite on stdout")
    c.add_argument(
        "--mode",
        choices=["reference", "mlir19", "seed"],
        default="reference",
        help="refimpl mode when neither --after nor --impl is given",
    )
    c.add_argument(
        "--impl-timeout",
        type=float,
        default=IMPL_TIMEOUT_S,
        metavar="SECONDS",
        help=f"the implementation (--impl or the refimpl) is killed, with all its children, after this (default {IMPL_TIMEOUT_S:g})",
    )
    c.add_argument("--func", metavar="NAME", help="check only this function")
    c.add_argument(
        "--allow-unregistered-dialect",
        "-allow-unregistered-dialect",
        action="store_true",
        help="ops, types and attributes of dialects mlir-opt-19 does not register are opaque, not errors (passed on to the refimpl run by --mode)",
    )
    c.add_argument(
        "--timeout-ms",
        type=int,
        default=DEFAULT_TIMEOUT_MS,
        help=f"Z3 timeout per query (default {DEFAULT_TIMEOUT_MS})",
    )
    c.add_argument("--seed", type=int, default=DEFAULT_SEED, help="Z3 random seed (default 0)")
    c.add_argument("--rlimit", type=int, default=None, help="Z3 resource limit per query (deterministic work bound)")
    c.add_argument(
        "--unroll",
        type=int,
        default=DEFAULT_UNROLL,
        help=f"loop iterations considered: every trip count 0..K of every loop (default {DEFAULT_UNROLL}; at least 1, "
        "since 0 would look at no iteration at all). A proof that holds only up to K is the verdict bounded (exit 4)",
    )
    c.add_argument(
        "--accept-bounded",
        action="store_true",
        help="a bounded verdict (proved up to the loop bound only) exits 0 like verified; its word stays bounded",
    )
    c.add_argument(
        "--no-compose",
        action="store_true",
        help="prove every function whole, its loops unrolled, instead of each closed region op apart "
        "(the reference the compositional proof is tested against)",
    )
    c.add_argument(
        "--no-induction",
        action="store_true",
        help="leave a function whose loops carry tokens bounded instead of proving those loops by induction on their iterations",
    )
    c.add_argument(
        "--require-unbounded",
        action="store_true",
        help="a verdict that holds only up to the loop bound is unknown (exit 3), as CBMC's unwinding assertions",
    )
    c.add_argument(
        "--budget-s",
        type=float,
        default=None,
        metavar="SECONDS",
        help=f"time for checking, once both programs are parsed (default {budget.FORMULA}; 0: no limit). What is "
        "not decided by then makes the verdict unknown, with the reason and how far the check got; a run that does "
        f"not stop on its own is ended {budget.GRACE_S:g} s later with that verdict",
    )
    c.add_argument(
        "--max-paths",
        type=int,
        default=None,
        metavar="N",
        help="verdict unknown for a function of more than N paths (default: no limit; paths are counted, not enumerated)",
    )
    c.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="1: everything in this one process; 2 or more: when a core is idle, parse INPUT and ask half of "
        "Z3's queries in a forked second process, whatever the size. Default: fork only large inputs (above "
        "about 4 MB). Forking saves wall time and costs CPU time",
    )
    c.add_argument(
        "--split-input-file",
        "-split-input-file",
        action="store_true",
        help="check every '// -----' chunk of INPUT against the same chunk of the rewrite (the refimpl is run with "
        "--split-input-file; an --impl command should split too); one report per chunk, the worst chunk's exit code",
    )
    c.add_argument(
        "--format", choices=["text", "json"], default="text", help="json: with --split-input-file, one report per line"
    )
    c.add_argument(
        "--dot", metavar="FILE", help="write the output's happens-before graph (DOT), the missing edge highlighted"
    )
    c.add_argument(
        "--svg",
        metavar="FILE",
        help="draw the counterexample schedule as a timeline (SVG): lanes for the host, GPU streams and execute "
        "bodies, the unordered pair in red, the missing edge dashed; nothing is written without a counterexample",
    )
    c.add_argument("--html", metavar="FILE", help="the same timeline in an HTML page, with the text report")
    c.add_argument(
        "--save-output",
        metavar="FILE",
        help="keep the rewrite the verifier ran (--impl or the refimpl) in FILE; the report's locations then name FILE",
    )
    if exhaustive_args:
        from verifier.harness import exhaustive

        exhaustive.add_parser(sub)
    else:
        sub.add_parser("exhaustive", help="rewrite and check every program up to a size")
    return p
