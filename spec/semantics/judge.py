"""A semantic judgement of a rewrite: explore both functions, compare.

`judge(input_func, output_func)` says whether the output of a rewrite (by
`-gpu-async-region` or anything else) can do something its input cannot,
using only the executable semantics and the IR: no event graph, no solver,
nothing of the verifier. It is an independent judge: the
verifier's two oracles read the same event graph, so a hole in the graph
fools both, but not this.

How:

1. The interface: the two functions must take the same argument types and
   return the same result types, and everything around them a caller or the
   runtime can see (module attributes, the function's own attributes, every
   other top-level op, e.g. the kernels in `gpu.module`s) must print the same.
   Otherwise the judgement is `wrong` (kind `interface`).
2. Locations: output ops are paired with input ops by aligning the two
   pre-order op sequences (`difflib`, on op names; `scf.yield`s are left
   out, `gpu.wait`s and `async.await`s aligned among themselves); while the output is explored, each paired op
   carries its input op's location and every other output op a location in
   the file `<added>`. So an event, a thread, a buffer and an observation
   are named the same on both sides.
3. Arguments: every `i1` argument both ways (the first `MAX_FLAGS`), every
   integer and `index` argument first 2 (loops run twice) then 0 (loops do
   not run), memrefs as `interp.default_args` makes them (the same contents
   on both sides), tokens as caller work (`spec.semantics.boundary`).
4. For each argument vector, `schedule.explore` runs exhaustively (sleep
   sets) on both sides with `boundary.BoundaryMachine`: caller work behind
   incoming tokens, receivers of escaping tokens, a return and an end that
   read every buffer, kernels that depend on their code.
5. The output is `wrong` if it shows a race (a GPU op overlapping a
   conflicting access) or an out-of-order pair of one thread that the
   input never shows, or an outcome (observations of every thread,
   receivers included, and the final buffers) the input never produces.
   It is `undecided` where the input faults (a use after free, an
   out-of-bounds access, a division by zero: undefined behaviour, after
   which nothing is compared; a failed `cf.assert` is no fault but a
   defined outcome, `abort`, which the output must keep), where an exploration hit its bound (the input's,
   when something was found; the output's, when nothing was) or a function
   cannot be interpreted, and `ok` only when both explorations were complete
   for every argument vector and nothing was found.
"""

from __future__ import annotations

import difflib
import functools
import itertools
from dataclasses import dataclass, field
from typing import Any

from spec import registry
from spec.diagnostics import DiagnosticError
from spec.ir import Location, Operation, outermost, symbol_path
from spec.semantics.boundary import CUT_OFF, BlockingBoundaryMachine, BoundaryMachine, blocks_on_return
from spec.semantics.interp import check_supported, default_args, switch_values
from spec.semantics.outcome import Exploration, Outcome
from spec.semantics.schedule import MachineFactory, explore

OK = "ok"
WRONG = "wrong"
UNDECIDED = "undecided"

MAX_FLAGS = 3
"""`i1` arguments explored both ways (2**MAX_FLAGS vectors at most)."""
INDEX_VALUES = (2, 0)
"""Values given to every integer / `index` argument, one vector each (the
second only for a function with a loop: `scf.for`/`while`/`parallel` or a
`cf` branch back to its own block, or an op that can fault on it)."""
DEFAULT_BOUND = 1000
"""Complete schedules per exploration before it is cut off (`undecided`)."""
STEP_BUDGET = 300_000
"""Machine steps (replayed prefixes included) for one judgement, every
argument vector and both sides, before it is cut off (`undecided`): the
schedule bound alone lets one exploration of a deep program, with its
sleep-set-pruned runs, take minutes. A step costs about 50 us here."""

SKIP_IN_ALIGNMENT = frozenset(n for n in registry.known_ops() if registry.yields_to_parent(n))
"""Terminators that hand values back to their parent op (the registry's
`yields`): left out where the two sides' ops are aligned."""
PLUMBING = frozenset(n for n in registry.known_ops() if registry.sync_kind(n) == "wait")
"""Ops a rewrite adds, drops or moves (the registry's single waits:
`gpu.wait`, `async.await`): aligned among themselves."""


@dataclass(frozen=True)
class SemanticViolation:
    kind: str
    """`interface`, `race`, `out-of-order` or `outcome`."""
    message: str
    args: str = ""
    """The argument vector it shows under (`p=1, n=2`)."""
    schedule: tuple[str, ...] = ()
    """A schedule of the output that shows it (labels with input locations)."""

    def __str__(self) -> str:
        where = f" [{self.args}]" if self.args else ""
        return f"{self.kind}{where}: {self.message}"


@dataclass
class Judgement:
    verdict: str
    """`ok`, `wrong` or `undecided`."""
    violations: list[SemanticViolation] = field(default_factory=list)
    reason: str = ""
    """Why `undecided`."""
    schedules: int = 0
    """Complete schedules explored, both sides, every vector."""

    @property
    def wrong(self) -> bool:
        return self.verdict == WRONG

    def text(self) -> str:
        lines = [f"semantic judgement: {self.verdict}" + (f" ({self.reason})" if self.reason else "")]
        lines += [f"  {v}" for v in self.violations]
        return "\n".join(lines)


# -- interface ------------------------------------------------------------------


def _printed(op: Operation) -> str:
    from spec.syntax.printer import Printer

    return Printer(True).print_top(op)


def _attrs(op: Operation) -> str:
    return repr(sorted((k, str(v)) for k, v in {**op.properties, **op.attributes}.items()))


def _context(func: Operation) -> list[str]:
    """What a caller or the runtime sees besides `func`'s body: the module's
    attributes, `func`'s attributes, and every other op of the module (the
    other functions' attributes; nested modules op by op, the same way;
    every other op printed whole)."""
    root = outermost(func)
    out = [f"function {_attrs(func)}"]
    _surroundings(root, func, out)
    return out


def _surroundings(module: Operation, func: Operation, out: list[str]) -> None:
    out.append(f"module {_attrs(module)}")
    for op in module.regions[0].blocks[0].ops if module.regions and module.regions[0].blocks else []:
        if op is func:
            out.append("(the function)")
        elif registry.is_host_function(op.name):
            out.append(f"func {_attrs(op)}")
        elif registry.is_top_level(op.name):
            _surroundings(op, func, out)
            out.append("end module")
        else:
            out.append(_printed(op))


def _interface(fin: Operation, fout: Operation) -> list[SemanticViolation]:
    out = []
    ain = [str(a.type) for a in fin.regions[0].blocks[0].args]
    aout = [str(a.type) for a in fout.regions[0].blocks[0].args]
    if ain != aout:
        out.append(SemanticViolation("interface", f"arguments differ: ({', '.join(ain)}) vs ({', '.join(aout)})"))
    cin, cout = _context(fin), _context(fout)
    if cin != cout:
        diff = [
            line for line in difflib.unified_diff(cin, cout, "input", "output", n=0, lineterm="") if line[:1] in "+-"
        ]
        out.append(
            SemanticViolation(
                "interface", "what surrounds the function differs: " + " | ".join(d.strip()[:200] for d in diff[:4])
            )
        )
    return out


# -- locations --------------------------------------------------------------------


def _ops(func: Operation, plumbing: bool) -> list[Operation]:
    return [op for op in func.nested_ops() if op.name not in SKIP_IN_ALIGNMENT and (op.name in PLUMBING) == plumbing]


def _relocate(fin: Operation, fout: Operation) -> list[tuple[Operation, Location]]:
    """Give output ops their input partner's location (others `<added>`);
    returns what to restore. The ops a rewrite adds or moves (`PLUMBING`)
    are aligned apart from the rest, so they cannot pull the rest out of
    line."""
    partner: dict[int, Location] = {}
    for plumbing in (False, True):
        a, b = _ops(fin, plumbing), _ops(fout, plumbing)
        sm = difflib.SequenceMatcher(None, [o.name for o in a], [o.name for o in b], autojunk=False)
        for i, j, n in sm.get_matching_blocks():
            for k in range(n):
                partner[id(b[j + k])] = a[i + k].loc
    saved = []
    for n, op in enumerate(fout.nested_ops()):
        saved.append((op, op.loc))
        op.loc = partner.get(id(op), Location("<added>", n + 1, 1))
    return saved


# -- exploration -------------------------------------------------------------------


def _int_values(func: Operation, loops: bool) -> list[int]:
    """The values every integer argument takes, one vector each: the first
    of `INDEX_VALUES` (both where `loops`), then each case value of a
    switch, so that every case is taken (the values a switch compares the
    argument with, or a value derived from it, are the ones that matter)."""
    values = list(INDEX_VALUES if loops else INDEX_VALUES[:1])
    for op in func.nested_ops():
        cases: list[int] = []
        if registry.jump_kind(op.name) == "cases":
            try:
                cases = switch_values(op)
            except ValueError:
                cases = []
        elif registry.region_flow(op.name) == "cases":
            attr = op.properties.get("cases")
            cases = list(getattr(attr, "ints", ()))
        values += [c for c in cases if c not in values]
    return values


def _vectors(func: Operation) -> list[tuple[str, list, MachineFactory]]:
    entry = func.regions[0].blocks[0]
    flags = [i for i, a in enumerate(entry.args) if a.type.int_width == 1][:MAX_FLAGS]
    ints = [
        i
        for i, a in enumerate(entry.args)
        if (a.type.is_index or a.type.int_width is not None) and a.type.int_width != 1
    ]
    out: list[tuple[str, list, MachineFactory]] = []
    # Zero as well where it can change what happens: loops that do not run,
    # and ops that can fault on it (a division: a rewrite that hoists one
    # above its guard faults where the input stops at the guard).
    loops = any(
        registry.is_loop(op.name)
        or (registry.is_branch(op.name) and op.parent in op.successors)
        or not registry.lookup(op.name).speculatable
        for op in func.nested_ops()
    )
    for n in _int_values(func, loops) if ints else (None,):
        for bits in itertools.product((0, 1), repeat=len(flags)):
            over: dict[str, object] = {str(i): n for i in ints} if n is not None else {}
            fl = dict(zip(flags, bits))
            shown = [f"{entry.args[i].hint or i}={v}" for i, v in fl.items()] + ([f"ints={n}"] if n is not None else [])
            out.append((", ".join(shown), default_args(func, over, fl), BoundaryMachine))
    # Each incoming `!async.token`/`!async.value` argument alone with its
    # caller work beginning only after the return (`BlockingBoundaryMachine`):
    # an await of it the input does not make blocks forever. Only the first
    # integer value.
    first = INDEX_VALUES[0] if ints else None
    plain = [v for v in out if first is None or v[0].endswith(f"ints={first}")]
    for i in [i for i, a in enumerate(entry.args) if blocks_on_return(a.type)]:
        late = functools.partial(BlockingBoundaryMachine, late=frozenset({i}))
        for text, args, _ in plain:
            out.append((", ".join(x for x in (text, f"{entry.args[i].hint or i} blocking") if x), args, late))
    return out


def _compare(ex_in: Exploration, ex_out: Exploration, shown: str) -> list[SemanticViolation]:
    found: list[SemanticViolation] = []
    # A race is a pair, not an order: which of two GPU ops a run names first
    # follows the order they were issued in, which a rewrite may change.
    races_in = {frozenset(k) for k in ex_in.races}
    for key in [k for k in ex_out.races if frozenset(k) not in races_in]:
        r = ex_out.races[key]
        found.append(
            SemanticViolation(
                "race",
                f"'{r.first.op}' ({r.first.loc}) may overlap '{r.second.op}' ({r.second.loc}) on {r.buffer} [{r.first.key} / {r.second.key}]",
                shown,
                r.schedule,
            )
        )
    for key in [k for k in ex_out.out_of_order if k not in ex_in.out_of_order]:
        u = ex_out.out_of_order[key]
        found.append(
            SemanticViolation(
                "out-of-order",
                f"'{u.second.op}' ({u.second.loc}) may start before '{u.first.op}' ({u.first.loc}) ends",
                shown,
                u.schedule,
            )
        )
    for out in [o for o in ex_out.outcomes if o not in ex_in.outcomes]:
        found.append(
            SemanticViolation(
                "outcome",
                "an outcome the input cannot produce:\n" + _outcome_diff(out, ex_in),
                shown,
                ex_out.outcomes[out],
            )
        )
    return found


def _outcome_diff(out: Outcome, ex_in: Exploration) -> str:
    """`out` against the nearest outcome of the input (fewest differing lines)."""
    mine = out.render("    ").splitlines()
    best: list[str] | None = None
    for o in ex_in.outcomes:
        theirs = o.render("    ").splitlines()
        d = [
            line
            for line in difflib.unified_diff(theirs, mine, n=0, lineterm="")
            if line[:1] in "+-" and line[:3] not in ("+++", "---")
        ]
        if best is None or len(d) < len(best):
            best = d
    return "\n".join((best or mine)[:12])


def judge(
    input_func: Operation, output_func: Operation, bound: int = DEFAULT_BOUND, steps: int = STEP_BUDGET
) -> Judgement:
    """Judge `output_func` as a rewrite of `input_func` (module docstring)."""
    interface = _interface(input_func, output_func)
    if interface:
        return Judgement(WRONG, interface)
    try:
        check_supported(input_func)
        check_supported(output_func)
    except DiagnosticError as exc:
        return Judgement(UNDECIDED, reason=str(exc.diagnostics[0].message) if exc.diagnostics else "not supported")
    saved = _relocate(input_func, output_func)
    try:
        return _judge(input_func, output_func, bound, steps)
    finally:
        for op, loc in saved:
            op.loc = loc


def _faults(ex: Exploration) -> bool:
    return any(o.kind == "fault" for out in ex.outcomes for _, obs in out.observations for o in obs)


def _cut(ex: Exploration) -> bool:
    return any(CUT_OFF in o.detail for out in ex.outcomes for _, obs in out.observations for o in obs)


def _judge(fin: Operation, fout: Operation, bound: int, steps: int) -> Judgement:
    found: list[SemanticViolation] = []
    reason = ""
    total = spent = 0
    budget: dict[str, Any] = {
        "bound": bound,
        "max_pruned": 4 * bound,
        "witnesses": False,
        "stop": BoundaryMachine.was_cut_off,
    }
    for shown, args, machine in _vectors(fin):
        left = steps - spent
        if left <= 0:
            reason = reason or f"step budget of {steps} spent before {shown}"
            break
        ex_in = explore(fin, args, max_steps=left, machine=machine, **budget)
        ex_out = explore(fout, args, max_steps=max(left - ex_in.steps, 1), machine=machine, **budget)
        spent += ex_in.steps + ex_out.steps
        total += ex_in.schedules_explored + ex_out.schedules_explored
        if _cut(ex_in) or _cut(ex_out):
            reason = reason or f"a run was cut off after {BoundaryMachine.MAX_RUN_STEPS} steps ({shown})"
            continue
        new = _compare(ex_in, ex_out, shown)
        if new and _faults(ex_in):
            reason = reason or f"the input faults (undefined behaviour: any output is allowed) ({shown})"
            continue
        if new and ex_in.complete:
            found += new
        elif new or not ex_out.complete:
            reason = (
                reason
                or f"exploration bound ({bound} schedules, or {steps} steps in all) reached ({'input' if not ex_in.complete else 'output'}, {shown})"
            )
    if found:
        return Judgement(WRONG, found, schedules=total)
    if reason:
        return Judgement(UNDECIDED, reason=reason, schedules=total)
    return Judgement(OK, schedules=total)


def judge_modules(
    input_module: Operation, output_module: Operation, bound: int = DEFAULT_BOUND, steps: int = STEP_BUDGET
) -> dict[str, Judgement]:
    """`judge` for every function with a body, paired by symbol path (`f`,
    `A::@f` in `module @A`); a function missing on one side (or moved to
    another module) is `wrong` (kind `interface`)."""

    def named(m: Operation) -> dict[str, Operation]:
        return {
            symbol_path(f): f
            for f in m.walk()
            if registry.is_host_function(f.name) and f.regions and f.regions[0].blocks
        }

    fins, fouts = named(input_module), named(output_module)
    out: dict[str, Judgement] = {}
    for name in sorted(set(fins) | set(fouts)):
        if name not in fins or name not in fouts:
            side = "output" if name not in fouts else "input"
            out[name] = Judgement(
                WRONG, [SemanticViolation("interface", f"function @{name} is missing from the {side}")]
            )
            continue
        out[name] = judge(fins[name], fouts[name], bound, steps)
    return out
