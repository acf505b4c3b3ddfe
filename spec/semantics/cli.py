"""`python -m spec run` and `python -m spec explore`: the semantics on the
command line.

    python -m spec run FILE [--func NAME] [--arg NAME=VALUE ...] [--schedule FILE]
    python -m spec explore FILE [--func NAME] [--arg NAME=VALUE ...]
                           [--exhaustive | --schedules N] [--seed S] [--bound B]
                           [--format text|json]

`run` runs each function (or `--func NAME`) once, in program order or
following the step labels in `--schedule` (one per line), and prints its
outcome. `explore` explores schedules (exhaustively with partial-order
reduction by default, or `--schedules N` random ones) and reports the distinct
outcomes, data races and out-of-order pairs. Arguments not given with `--arg`
get the defaults of `interp.default_args`; `explore` runs every unspecified
`i1` argument both ways (the first `MAX_FLAGS` of them; later ones are
false). Exit 0 on success, 1 with MLIR diagnostics on bad input.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable

from spec import registry
from spec.diagnostics import DiagnosticError, error
from spec.ir import Location, Operation
from spec.semantics.interp import default_args
from spec.semantics.outcome import Exploration
from spec.semantics.schedule import DEFAULT_BOUND, ReplayError, explore, run
from spec.syntax.parser import parse_module
from spec.tool import Source, add_subcommand, read_source, report

MAX_FLAGS = 4
"""Unspecified `i1` arguments explored both ways (2**MAX_FLAGS argument vectors at most)."""


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = add_subcommand(
        sub,
        "run",
        "run functions once (program order or a given schedule) and print the outcome",
        "{prog} {corpus}/straight_line.mlir --func straight",
    )
    _common(p)
    p.add_argument("--schedule", metavar="FILE", help="step labels to follow, one per line")
    p.set_defaults(func=_run_cmd)
    e = add_subcommand(
        sub,
        "explore",
        "explore schedules: outcomes, races, out-of-order pairs",
        "{prog} {corpus}/async_value_consumers.mlir --schedules 100 --seed 1",
    )
    _common(e)
    mode = e.add_mutually_exclusive_group()
    mode.add_argument("--exhaustive", action="store_true", help="all schedules up to partial-order reduction (default)")
    mode.add_argument("--schedules", type=int, metavar="N", help="N random schedules instead")
    e.add_argument("--seed", type=int, default=0)
    e.add_argument(
        "--bound", type=int, default=DEFAULT_BOUND, help="stop an exhaustive exploration after this many schedules"
    )
    e.add_argument("--format", choices=("text", "json"), default="text")
    e.set_defaults(func=_explore_cmd)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", nargs="?", default="-")
    p.add_argument(
        "--func", dest="function", metavar="NAME", help="only this function (default: every function with a body)"
    )
    p.add_argument(
        "--allow-unregistered-dialect",
        "-allow-unregistered-dialect",
        action="store_true",
        help="ops, types and attributes of dialects mlir-opt-19 does not register are opaque, not errors",
    )
    p.add_argument(
        "--arg",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an argument value (index, integer, float, true/false)",
    )


def _parse_value(text: str) -> object:
    low = text.strip().lower()
    if low in ("true", "false"):
        return int(low == "true")
    try:
        return int(low, 0)
    except ValueError:
        return float(low)


def _overrides(src: Source, items: list[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for item in items:
        name, sep, value = item.partition("=")
        try:
            if not sep:
                raise ValueError
            out[name.strip().lstrip("%")] = _parse_value(value)
        except ValueError:
            raise DiagnosticError(
                error(Location(src.name, 0, 0), f"bad --arg '{item}': expected NAME=VALUE with a number or true/false")
            ) from None
    return out


def _functions(module: Operation, src: Source, only: str | None) -> list[Operation]:
    funcs = [op for op in module.walk() if registry.is_host_function(op.name) and op.regions and op.regions[0].blocks]
    if only is not None:
        funcs = [f for f in funcs if str(f.properties.get("sym_name", "")).strip('"') == only]
        if not funcs:
            raise DiagnosticError(error(Location(src.name, 0, 0), f"no function named '{only}' with a body"))
    return funcs


def _name(func: Operation) -> str:
    return str(func.properties.get("sym_name", "")).strip('"')


def _load(args: argparse.Namespace) -> tuple[Source, list[Operation], dict[str, object]]:
    src = read_source(args.file)
    module = parse_module(src.text, src.name, allow_unregistered=args.allow_unregistered_dialect)
    return src, _functions(module, src, args.function), _overrides(src, args.arg)


def _guard(args: argparse.Namespace, body: Callable[[], int]) -> int:
    src: Source | None = None
    try:
        src = read_source(args.file) if args.file != "-" else None
        return body()
    except DiagnosticError as exc:
        report(exc.diagnostics, src)
        return 1
    except ReplayError as exc:
        sys.stderr.write(f"{args.file}: error: schedule does not fit the program: {exc}\n")
        return 1
    except (RecursionError, MemoryError) as exc:
        sys.stderr.write(f"{args.file}: error: program too large for the interpreter ({type(exc).__name__})\n")
        return 1
    except (TypeError, AttributeError, KeyError, IndexError, ValueError) as exc:
        # Ill-typed input the parser accepted (e.g. a load from a token):
        # say so in one line rather than with a traceback.
        sys.stderr.write(f"{args.file}: error: cannot interpret this program: {type(exc).__name__}: {exc}\n")
        return 1


def _run_cmd(args: argparse.Namespace) -> int:
    def body() -> int:
        src, funcs, over = _load(args)
        schedule = None
        if args.schedule:
            with open(args.schedule) as f:
                schedule = [line.strip() for line in f if line.strip() and not line.startswith("#")]
        out = []
        for func in funcs:
            r = run(func, default_args(func, over), schedule)
            how = "given schedule" if schedule else "program order"
            out.append(f"func @{_name(func)}: {len(r.schedule)} steps ({how})\n")
            out.append(r.outcome.render("  "))
        sys.stdout.write("".join(out))
        return 0

    return _guard(args, body)


def _flag_vectors(func: Operation, over: dict[str, object]) -> list[dict[int, int]]:
    entry = func.regions[0].blocks[0]
    free = [
        i
        for i, a in enumerate(entry.args)
        if a.type.int_width == 1 and a.hint.lstrip("%") not in over and str(i) not in over
    ]
    free = free[:MAX_FLAGS]
    return [dict(zip(free, bits)) for bits in itertools.product((0, 1), repeat=len(free))]


def explore_function(
    func: Operation, over: dict[str, object], exhaustive: bool, schedules: int, seed: int, bound: int
) -> tuple[dict, list[tuple[dict, Exploration]]]:
    """Explore one function over every flag vector; JSON summary and details."""
    entry = func.regions[0].blocks[0]
    runs = []
    for flags in _flag_vectors(func, over):
        ex = explore(
            func, default_args(func, over, flags), exhaustive=exhaustive, bound=bound, schedules=schedules, seed=seed
        )
        shown = {entry.args[i].hint.lstrip("%") or str(i): bool(v) for i, v in flags.items()}
        runs.append((shown, ex))
    races: dict = {}
    ooo: dict = {}
    for _, ex in runs:
        for k, r in ex.races.items():
            races.setdefault(k, r)
        for k, u in ex.out_of_order.items():
            ooo.setdefault(k, u)
    summary = {
        "name": _name(func),
        "schedules": sum(ex.schedules_explored for _, ex in runs),
        "outcomes": sum(len(ex.outcomes) for _, ex in runs),
        "deterministic": all(ex.deterministic for _, ex in runs),
        "complete": all(ex.complete for _, ex in runs),
        "races": [r.to_json() for r in races.values()],
        "out_of_order": [u.to_json() for u in ooo.values()],
        "runs": [{"args": a, "schedules": ex.schedules_explored, "outcomes": len(ex.outcomes)} for a, ex in runs],
    }
    return summary, runs


def _explore_cmd(args: argparse.Namespace) -> int:
    def body() -> int:
        _, funcs, over = _load(args)
        exhaustive = args.schedules is None
        results = []
        text = []
        for func in funcs:
            summary, runs = explore_function(func, over, exhaustive, args.schedules or 0, args.seed, args.bound)
            results.append(summary)
            text.append(_render(summary, runs))
        if args.format == "json":
            sys.stdout.write(json.dumps({"functions": results}, indent=2) + "\n")
        else:
            sys.stdout.write("".join(text))
        return 0

    return _guard(args, body)


def _render(summary: dict, runs: list[tuple[dict, Exploration]]) -> str:
    det = "deterministic" if summary["deterministic"] else "NOT deterministic"
    scope = "exhaustive" if summary["complete"] else "partial"
    lines = [
        f"func @{summary['name']}: {summary['schedules']} schedules ({scope}), {summary['outcomes']} outcomes, {det}"
    ]
    for shown, ex in runs:
        if shown:
            lines.append(
                f"  with {', '.join(f'{k}={str(v).lower()}' for k, v in shown.items())}: {ex.schedules_explored} schedules, {len(ex.outcomes)} outcomes"
            )
        if len(ex.outcomes) > 1:
            for i, (out, sched) in enumerate(ex.outcomes.items()):
                lines.append(f"  outcome {i + 1} (schedule of {len(sched)} steps):")
                lines.append(out.render("    ").rstrip("\n"))
    for r in summary["races"]:
        lines.append(
            f"  race on {r['buffer']}: {r['first']['op']} at {r['first']['loc']} overlaps {r['second']['op']} at {r['second']['loc']}"
        )
        lines.append("    witness: " + "; ".join(r["schedule"]))
    for u in summary["out_of_order"]:
        lines.append(
            f"  out of order: {u['second']['op']} at {u['second']['loc']} may start before {u['first']['op']} at {u['first']['loc']} ends"
        )
    return "\n".join(lines) + "\n"
