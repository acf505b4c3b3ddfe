"""Every program up to a size: bounded-exhaustive inputs for the pass.

Hypothesis samples; this module covers. `programs(alphabet, size)` yields
every function body of exactly `size` ops over an `Alphabet` (GPU ops on a
few buffers, host reads, writes and calls, `gpu.wait`, user tokens and
dependencies, `async.execute` with token and value results and their
awaits, `scf.if`, `scf.for`, `cf` diamonds, a token argument and a returned
token), each wrapped in a fixed module (`HEADER`) that `mlir-opt-19`
accepts. The size counts every op the body holds, nested ones included;
the prologue (`%c0`, `%c1`) and terminators (`return`, `scf.yield`,
`async.yield`, `cf.br`) are not counted, but a `return` that hands out a
token is one op (a choice the program makes).

**Once up to renaming.** A program is a tree of `Op`s. SSA results are
named by a counter in definition order (`%t3`, `%e4`, `%v5`), so their names
follow from the structure. What could be renamed freely are the function's
arguments: buffers (`%b0`, `%b1`, ...), conditions (`%p0`, `%p1`, ...) and the
token argument (`%a0`). The enumerator only ever picks an argument already
used or the next unused one (a restricted growth string), so arguments are
numbered in order of first use in the text (an `scf.while`'s condition
counts where the `while` starts), and the signature lists just the
arguments used. Symmetric choices are collapsed: dependency lists are
sets (one sorted list per set, never a permutation), and an `scf.if` or a
`cf` diamond whose first region is empty has an empty second region too
(the other case is the same program with the condition negated). At most
one token argument is offered: with two, a set `[%a0, %a1]` would leave
their first-use order undefined.

Duplicates are avoided by construction: a sequence of ops of total size n
is its first op (of size k, a distinct choice) followed by a sequence of
size n - k, and a region op of size k is its choices followed by a split of
k - 1 among its regions; every choice is made once. `brute_force` checks
that: it generates naively (any argument, dependencies as ordered lists,
any regions), canonicalises (`canonical`: arguments renamed by first use,
dependency lists sorted, empty-first regions swapped) and deduplicates; the
counts must be equal (`tests/verifier/test_enumeration.py`).

(Not `verifier/enumerate.py`: importing a submodule sets it as an attribute
of the package, which would shadow the builtin `enumerate` inside
`verifier/__init__.py`.)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

BUF = "memref<16xf32>"
GTOK = "!gpu.async.token"

HEADER = f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k0(%arg0: {BUF}) kernel {{
      gpu.return
    }}
  }}
  func.func private @use({BUF})
"""

GPU_OPS = ("launch", "memcpy", "memset", "alloc", "dealloc")
HOST_OPS = ("load", "store", "call")


@dataclass(frozen=True)
class Alphabet:
    """What a body may hold. The presets below grow from `TINY` to `FULL`."""

    name: str
    buffers: int = 1
    """Buffer arguments offered (`%b0`...)."""
    gpu: tuple[str, ...] = ("launch", "memcpy", "memset")
    """GPU ops, each synchronous or (with `user_tokens`) `async [deps]`."""
    host: tuple[str, ...] = ("load", "store", "call")
    """Host ops: `memref.load`, `memref.store`, `func.call @use`."""
    user_tokens: bool = False
    """GPU ops written `async` with a dependency set; `gpu.wait async`."""
    waits: bool = False
    """`gpu.wait [deps]` (blocking), and with `user_tokens` `gpu.wait async [deps]`."""
    execute: bool = False
    """`async.execute [deps]` with its body, and `async.await` of its token."""
    values: tuple[str, ...] = ()
    """Value results an execute may have: `"token"` (`!async.value<!gpu.async.token>`,
    yielding a GPU token of the body's scope) and `"f32"` (yielding `%x`)."""
    scf_if: bool = False
    scf_for: bool = False
    scf_while: bool = False
    """`scf.while` on a condition argument: a body before `scf.condition`, one after."""
    scf_parallel: bool = False
    """`scf.parallel` over `%c0 to %n`, one body."""
    cf: bool = False
    """A `cf.cond_br` diamond (in the function's body only, not nested)."""
    conditions: int = 1
    """Condition arguments offered (`%p0`...) to `scf.if` and `cf.cond_br`."""
    token_arg: bool = False
    """A `!gpu.async.token` argument `%a0`, usable as a dependency."""
    return_token: bool = False
    """`return %t : !gpu.async.token` ends the function (one op)."""
    max_depth: int | None = None
    """How deep region ops nest (`None`: no limit; 1: the bodies of the
    function's region ops hold no region op)."""

    def describe(self) -> str:
        """One line for reports: the name and what is on."""
        parts = [f"{self.buffers} buffer(s)", "gpu " + "/".join(self.gpu), "host " + ("/".join(self.host) or "none")]
        for flag in (
            "user_tokens",
            "waits",
            "execute",
            "scf_if",
            "scf_for",
            "scf_while",
            "scf_parallel",
            "cf",
            "token_arg",
            "return_token",
        ):
            if getattr(self, flag):
                parts.append(flag)
        if self.values:
            parts.append("values " + "/".join(self.values))
        if self.scf_if or self.cf or self.scf_while:
            parts.append(f"{self.conditions} condition(s)")
        if self.max_depth is not None:
            parts.append(f"region ops nested at most {self.max_depth} deep")
        return f"{self.name}: " + ", ".join(parts)


TINY = Alphabet("tiny", buffers=1, gpu=("launch", "memset"), host=("store", "call"))
"""Straight-line synchronous code: the smallest interesting alphabet."""
STRAIGHT = Alphabet("straight", buffers=2, user_tokens=True, waits=True, token_arg=True, return_token=True)
"""Straight-line code with user tokens, waits, a token argument and a returned token."""
ASYNC = Alphabet("async", buffers=1, gpu=("launch", "memset"), host=("store", "call"), user_tokens=True, waits=True,
                 execute=True, values=("token", "f32"))  # fmt: skip
"""`async.execute` with value results and awaits, one buffer."""
CONTROL = Alphabet("control", buffers=1, gpu=("launch", "memset"), host=("store", "call"), execute=True,
                   scf_if=True, scf_for=True, cf=True)  # fmt: skip
"""Control flow around synchronous GPU ops, executes and awaits."""
VALUES = Alphabet("values", buffers=1, gpu=("memset",), host=("store",), user_tokens=True, waits=True,
                  execute=True, values=("token", "f32"))  # fmt: skip
"""`async.execute` value results and awaits around one GPU op and one host
op, small enough to run to size 4 (where upstream's deferral past an
awaited value shows)."""
FULL = Alphabet(
    "full",
    buffers=2,
    gpu=GPU_OPS,
    host=HOST_OPS,
    user_tokens=True,
    waits=True,
    execute=True,
    values=("token", "f32"),
    scf_if=True,
    scf_for=True,
    scf_while=True,
    scf_parallel=True,
    cf=True,
    conditions=2,
    token_arg=True,
    return_token=True,
)
"""Everything this module knows."""
WHOLE = replace(FULL, name="whole", buffers=1, gpu=("launch",), host=("store",), conditions=1)
"""Every construct of `FULL`, one of each kind: one GPU op (a launch; sync
or `async [deps]`), one host effect (a store), one buffer and one condition,
with user tokens, both waits, executes with both value results and their
awaits, `scf.if`, `scf.for`, `scf.while`, `scf.parallel`, `cf` diamonds,
the token argument and the returned token: 13,952 programs of 1..3 ops,
596,261 of 1..4."""
CORE = replace(WHOLE, name="core", scf_while=False, scf_parallel=False)
"""`WHOLE` without `scf.while` and `scf.parallel` (`scf.for` stays): 326,117
programs of 1..4 ops, a size-4 run that fits in an hour on 2 cores."""
GATE = Alphabet("gate", buffers=1, gpu=("launch",), host=(), execute=True, scf_if=True, max_depth=1)
"""The conformance gate's enumerated prefix: launches, executes and their
awaits, `scf.if`, region bodies without region ops; 670 programs of 1..4
ops, among them upstream's loss of a launch past the function's end when an
execute's token is awaited on one path only (size 4)."""
ALPHABETS = {a.name: a for a in (TINY, STRAIGHT, ASYNC, CONTROL, VALUES, FULL, WHOLE, CORE, GATE)}


@dataclass(frozen=True)
class Op:
    """One op of a body. `bufs` are buffer references (`("b", j)` an
    argument, `("m", k)` a `gpu.alloc` result), `deps` value names, `result`
    the names it defines, `regions` its nested bodies."""

    kind: str
    bufs: tuple[tuple[str, int], ...] = ()
    deps: tuple[str, ...] = ()
    asy: bool = False
    result: tuple[str, ...] = ()
    operand: str = ""
    """The awaited value, the yielded token, the returned token, or the condition."""
    value_type: str = ""
    """An execute's value result type (`token`, `f32`) or an await's."""
    regions: tuple[tuple[Op, ...], ...] = ()

    def size(self) -> int:
        return 1 + sum(op.size() for r in self.regions for op in r)


@dataclass(frozen=True)
class State:
    """What is known at a point of the text while generating: arguments used
    so far and the fresh-name counter (global to the function), and the
    values in scope (dropped again when a region closes)."""

    nbuf: int = 0
    ncond: int = 0
    targ: bool = False
    counter: int = 0
    gtoks: tuple[str, ...] = ()
    atoks: tuple[str, ...] = ()
    avals: tuple[tuple[str, str], ...] = ()
    allocs: tuple[int, ...] = ()
    depth: int = 0
    """Region ops around this point."""

    def fresh(self, stem: str) -> tuple[str, State]:
        return f"%{stem}{self.counter}", replace(self, counter=self.counter + 1)

    def inner(self, outer: State) -> State:
        """`self` after a region closes: keeps the global parts, `outer`'s scope."""
        return replace(outer, nbuf=self.nbuf, ncond=self.ncond, targ=self.targ, counter=self.counter)


@dataclass(frozen=True)
class Program:
    """One enumerated program: its id (`SIZE-INDEX`, stable for a given
    alphabet), its body and the module text."""

    id: str
    size: int
    body: tuple[Op, ...] = field(repr=False)
    text: str = field(repr=False)
    ret: str = field(default="", repr=False)
    """The returned token ("" for a plain `return`)."""
    arguments: tuple[int, int, bool] | None = field(default=None, repr=False)
    """Buffers and conditions used, and whether the token argument is: with
    `body` and `ret`, what `render` made `text` of (None: only the text is
    known, as for a program read back from elsewhere)."""


# ---------------------------------------------------------------- choices


def _buffer_choices(a: Alphabet, s: State, canonical: bool) -> Iterator[tuple[tuple[str, int], State]]:
    limit = min(s.nbuf + 1, a.buffers) if canonical else a.buffers
    for j in range(limit):
        yield ("b", j), replace(s, nbuf=max(s.nbuf, j + 1))
    for k in s.allocs:
        yield ("m", k), s


def _cond_choices(a: Alphabet, s: State, canonical: bool) -> Iterator[tuple[str, State]]:
    limit = min(s.ncond + 1, a.conditions) if canonical else a.conditions
    for j in range(limit):
        yield f"%p{j}", replace(s, ncond=max(s.ncond, j + 1))


def _token_candidates(a: Alphabet, s: State) -> list[str]:
    """GPU tokens a dependency set may take, in canonical order: the token
    argument (used or next), then tokens in scope in definition order."""
    return (["%a0"] if a.token_arg else []) + list(s.gtoks)


def _dep_choices(a: Alphabet, s: State, canonical: bool) -> Iterator[tuple[tuple[str, ...], State]]:
    cands = _token_candidates(a, s)
    if canonical:
        sets: Iterator[tuple[str, ...]] = (c for k in range(len(cands) + 1) for c in itertools.combinations(cands, k))
    else:
        sets = (c for k in range(len(cands) + 1) for c in itertools.permutations(cands, k))
    for deps in sets:
        yield deps, (replace(s, targ=True) if "%a0" in deps else s)


def _async_forms(a: Alphabet, s: State, canonical: bool) -> Iterator[tuple[bool, tuple[str, ...], State]]:
    """Synchronous, or `async [deps]` for every dependency set."""
    yield False, (), s
    if a.user_tokens:
        for deps, s2 in _dep_choices(a, s, canonical):
            yield True, deps, s2


# ---------------------------------------------------------------- generation


def _ops_of_size(a: Alphabet, s: State, n: int, top: bool, canonical: bool) -> Iterator[tuple[tuple[Op, ...], State]]:
    """Every sequence of ops of total size `n` starting in state `s`."""
    if n == 0:
        yield (), s
        return
    for k in range(1, n + 1):
        for op, s1 in _op_of_size(a, s, k, top, canonical):
            for rest, s2 in _ops_of_size(a, s1, n - k, top, canonical):
                yield (op, *rest), s2


def _regions(
    a: Alphabet, s: State, n: int, count: int, canonical: bool, scopes: list[State] | None = None
) -> Iterator[tuple[tuple[tuple[Op, ...], ...], State, list[State]]]:
    """`count` nested bodies (each in a fresh child scope of `s`) of total
    size `n`; yields the bodies, the state after them (outer scope) and the
    inner states at each body's end."""
    if count == 0:
        if n == 0:
            yield (), s, []
        return
    for k in range(n + 1):
        for body, inner in _ops_of_size(a, replace(s, depth=s.depth + 1), k, False, canonical):
            after = inner.inner(s)
            for rest, s2, ends in _regions(a, after, n - k, count - 1, canonical):
                yield (body, *rest), s2, [inner, *ends]


def _op_of_size(a: Alphabet, s: State, k: int, top: bool, canonical: bool) -> Iterator[tuple[Op, State]]:
    """Every single op of size exactly `k` in state `s` (region ops for k > 1)."""
    if k == 1:
        yield from _leaf_ops(a, s, canonical)
    if k >= 1 and (a.max_depth is None or s.depth < a.max_depth):
        yield from _region_ops(a, s, k, top, canonical)


def _leaf_ops(a: Alphabet, s: State, canonical: bool) -> Iterator[tuple[Op, State]]:
    for kind in a.gpu:
        if kind == "alloc":
            for asy, deps, s1 in _async_forms(a, s, canonical):
                m, s2 = s1.fresh("m")
                res: tuple[str, ...] = (m,)
                if asy:
                    t, s2 = s2.fresh("t")
                    res = (m, t)
                    s2 = replace(s2, gtoks=(*s2.gtoks, t))
                idx = int(m[2:])
                yield Op("alloc", (("m", idx),), deps, asy, res), replace(s2, allocs=(*s2.allocs, idx))
            continue
        nbufs = 2 if kind == "memcpy" else 1
        for bufs, s1 in _buffer_tuples(a, s, nbufs, canonical):
            for asy, deps, s2 in _async_forms(a, s1, canonical):
                if asy:
                    t, s3 = s2.fresh("t")
                    yield Op(kind, bufs, deps, True, (t,)), replace(s3, gtoks=(*s3.gtoks, t))
                else:
                    yield Op(kind, bufs), s2
    for kind in a.host:
        for bufs, s1 in _buffer_tuples(a, s, 1, canonical):
            if kind == "load":
                v, s2 = s1.fresh("v")
                yield Op(kind, bufs, result=(v,)), s2
            else:
                yield Op(kind, bufs), s1
    if a.waits:
        for deps, s1 in _dep_choices(a, s, canonical):
            yield Op("wait", deps=deps), s1
            if a.user_tokens:
                t, s2 = s1.fresh("t")
                yield Op("wait", deps=deps, asy=True, result=(t,)), replace(s2, gtoks=(*s2.gtoks, t))
    if a.execute:
        for e in s.atoks:
            yield Op("await", operand=e), s
        for name, ty in s.avals:
            v, s1 = s.fresh("t" if ty == "token" else "v")
            s1 = replace(s1, gtoks=(*s1.gtoks, v)) if ty == "token" else s1
            yield Op("await", operand=name, value_type=ty, result=(v,)), s1


def _buffer_tuples(
    a: Alphabet, s: State, n: int, canonical: bool
) -> Iterator[tuple[tuple[tuple[str, int], ...], State]]:
    if n == 0:
        yield (), s
        return
    for b, s1 in _buffer_choices(a, s, canonical):
        for rest, s2 in _buffer_tuples(a, s1, n - 1, canonical):
            yield (b, *rest), s2


def _subsets(items: tuple[str, ...], canonical: bool) -> Iterator[tuple[str, ...]]:
    for k in range(len(items) + 1):
        yield from (itertools.combinations(items, k) if canonical else itertools.permutations(items, k))


def _region_ops(a: Alphabet, s: State, k: int, top: bool, canonical: bool) -> Iterator[tuple[Op, State]]:
    n = k - 1
    if a.scf_if or (a.cf and top):
        kinds = (["if"] if a.scf_if else []) + (["cond_br"] if a.cf and top else [])
        for kind in kinds:
            for cond, s1 in _cond_choices(a, s, canonical):
                for bodies, s2, _ in _regions(a, s1, n, 2, canonical):
                    if canonical and not bodies[0] and bodies[1]:
                        continue
                    yield Op(kind, operand=cond, regions=bodies), s2
    for kind, on in (("for", a.scf_for), ("parallel", a.scf_parallel)):
        if on:
            for bodies, s2, _ in _regions(a, replace(s, counter=s.counter + 1), n, 1, canonical):
                yield Op(kind, result=(f"%i{s.counter}",), regions=bodies), s2
    if a.scf_while:
        for cond, s1 in _cond_choices(a, s, canonical):
            for bodies, s2, _ in _regions(a, s1, n, 2, canonical):
                yield Op("while", operand=cond, regions=bodies), s2
    if a.execute:
        for deps in _subsets(s.atoks, canonical):
            e, s1 = s.fresh("e")
            for bodies, s2, ends in _regions(a, s1, n, 1, canonical):
                for ty, yielded in _value_results(a, ends[0]):
                    s3 = replace(s2, atoks=(*s2.atoks, e))
                    result: tuple[str, ...] = (e,)
                    if ty:
                        v, s3 = s3.fresh("ev")
                        s3 = replace(s3, avals=(*s3.avals, (v, ty)))
                        result = (e, v)
                    yield Op("execute", deps=deps, result=result, operand=yielded, value_type=ty, regions=bodies), s3


def _value_results(a: Alphabet, end: State) -> Iterator[tuple[str, str]]:
    """An execute's value result choices, given the state at its body's
    end: none, a token of the body's scope, or `%x` as f32."""
    yield "", ""
    if "token" in a.values:
        for t in end.gtoks:
            yield "token", t
    if "f32" in a.values:
        yield "f32", "%x"


def _endings(a: Alphabet, s: State, canonical: bool) -> Iterator[tuple[str, State]]:
    """How the function ends: `return`, or (one op more) returning a token."""
    yield "", s
    if a.return_token:
        for t in (["%a0"] if a.token_arg else []) + list(s.gtoks):
            yield t, (replace(s, targ=True) if t == "%a0" else s)


def _bodies(a: Alphabet, size: int, canonical: bool) -> Iterator[tuple[tuple[Op, ...], str, State]]:
    for body, s in _ops_of_size(a, State(), size, True, canonical):
        yield body, "", s
    if a.return_token and size >= 1:
        for body, s in _ops_of_size(a, State(), size - 1, True, canonical):
            for ret, s2 in _endings(a, s, canonical):
                if ret:
                    yield body, ret, s2


def programs(a: Alphabet, size: int) -> Iterator[Program]:
    """Every program of exactly `size` ops over `a`, once up to renaming, in
    a fixed order (ids `SIZE-0`, `SIZE-1`, ...)."""
    for i, (body, ret, s) in enumerate(_bodies(a, size, True)):
        yield Program(
            f"{size}-{i}", size, body, render(body, ret, s.nbuf, s.ncond, s.targ), ret, (s.nbuf, s.ncond, s.targ)
        )


def programs_up_to(a: Alphabet, max_size: int, min_size: int = 1) -> Iterator[Program]:
    """`programs` for every size from `min_size` to `max_size`."""
    for n in range(min_size, max_size + 1):
        yield from programs(a, n)


def batched(items: Iterable[Program], size: int) -> Iterator[list[Program]]:
    """`items` in lists of `size` (the last may be shorter), as runners take them."""
    batch: list[Program] = []
    for p in items:
        batch.append(p)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def counts(a: Alphabet, max_size: int) -> dict[int, int]:
    """Programs per size, 1..max_size."""
    return {n: sum(1 for _ in _bodies(a, n, True)) for n in range(1, max_size + 1)}


# ---------------------------------------------------------------- brute force


def canonical(body: tuple[Op, ...], ret: str) -> tuple[tuple[Op, ...], str]:
    """The canonical form of a naively generated body: buffers and
    conditions renamed in order of first use, dependency sets sorted
    (token argument first, then definition order), an empty first region
    swapped with the second."""
    bufs: dict[int, int] = {}
    conds: dict[str, str] = {}

    def dep_key(d: str) -> tuple[int, int]:
        return (0, 0) if d == "%a0" else (1, int("".join(ch for ch in d if ch.isdigit())))

    def walk(ops: tuple[Op, ...]) -> tuple[Op, ...]:
        out = []
        for op in ops:
            nb = []
            for kind, j in op.bufs:
                if kind == "b":
                    j = bufs.setdefault(j, len(bufs))
                nb.append((kind, j))
            operand = op.operand
            if op.kind in ("if", "cond_br", "while"):
                operand = conds.setdefault(operand, f"%p{len(conds)}")
            regions = op.regions
            if op.kind in ("if", "cond_br") and not regions[0] and regions[1]:
                regions = (regions[1], regions[0])
            new_regions = tuple(walk(r) for r in regions)
            deps = tuple(sorted(op.deps, key=dep_key))
            out.append(replace(op, bufs=tuple(nb), operand=operand, deps=deps, regions=new_regions))
        return tuple(out)

    return walk(body), ret


def brute_force(a: Alphabet, size: int) -> set[str]:
    """The distinct canonical programs of `size` ops, generated naively
    (every argument, ordered dependency lists, any regions), canonicalised
    and deduplicated: the independent count `programs` is tested against."""
    seen: set[str] = set()
    for body, ret, _ in _bodies(a, size, False):
        cbody, cret = canonical(body, ret)
        nbuf, ncond, targ = _used(cbody, cret)
        seen.add(render(cbody, cret, nbuf, ncond, targ))
    return seen


def _used(body: tuple[Op, ...], ret: str) -> tuple[int, int, bool]:
    nbuf, ncond, targ = 0, 0, ret == "%a0"
    for op in walk_ops(body):
        for kind, j in op.bufs:
            if kind == "b":
                nbuf = max(nbuf, j + 1)
        if op.kind in ("if", "cond_br", "while"):
            ncond = max(ncond, int(op.operand[2:]) + 1)
        targ = targ or "%a0" in op.deps
    return nbuf, ncond, targ


def walk_ops(ops: tuple[Op, ...]) -> Iterator[Op]:
    for op in ops:
        yield op
        for r in op.regions:
            yield from walk_ops(r)


# ---------------------------------------------------------------- printing


def _buf(ref: tuple[str, int]) -> str:
    kind, j = ref
    return f"%b{j}" if kind == "b" else f"%m{j}"


def _async_text(op: Op) -> tuple[str, str]:
    if not op.asy:
        return "", ""
    deps = f" [{', '.join(op.deps)}]" if op.deps else ""
    return f"{op.result[-1]} = ", f" async{deps}"


def _lines(ops: tuple[Op, ...], ind: str, labels: list[int]) -> list[str]:
    out: list[str] = []
    for op in ops:
        out.extend(_op_lines(op, ind, labels))
    return out


def _op_lines(op: Op, ind: str, labels: list[int]) -> list[str]:  # noqa: C901 - one case per alphabet op
    inner = ind + "  "
    k = op.kind
    if k in ("launch", "memcpy", "memset", "dealloc"):
        assign, asy = _async_text(op)
        b = [_buf(r) for r in op.bufs]
        if k == "launch":
            text = f"gpu.launch_func{asy} @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args({b[0]} : {BUF})"
        elif k == "memcpy":
            text = f"gpu.memcpy{asy} {b[0]}, {b[1]} : {BUF}, {BUF}"
        elif k == "memset":
            text = f"gpu.memset{asy} {b[0]}, %x : {BUF}, f32"
        else:
            text = f"gpu.dealloc{asy} {b[0]} : {BUF}"
        return [f"{ind}{assign}{text}"]
    if k == "alloc":
        _, asy = _async_text(op)
        return [f"{ind}{', '.join(op.result)} = gpu.alloc{asy} () : {BUF}"]
    if k == "load":
        return [f"{ind}{op.result[0]} = memref.load {_buf(op.bufs[0])}[%c0] : {BUF}"]
    if k == "store":
        return [f"{ind}memref.store %x, {_buf(op.bufs[0])}[%c0] : {BUF}"]
    if k == "call":
        return [f"{ind}func.call @use({_buf(op.bufs[0])}) : ({BUF}) -> ()"]
    if k == "wait":
        deps = f" [{', '.join(op.deps)}]" if op.deps else ""
        if op.asy:
            return [f"{ind}{op.result[0]} = gpu.wait async{deps}"]
        return [f"{ind}gpu.wait{deps}"]
    if k == "await":
        if not op.value_type:
            return [f"{ind}async.await {op.operand} : !async.token"]
        ty = GTOK if op.value_type == "token" else "f32"
        return [f"{ind}{op.result[0]} = async.await {op.operand} : !async.value<{ty}>"]
    if k == "if":
        out = [f"{ind}scf.if {op.operand} {{", *_lines(op.regions[0], inner, labels)]
        if op.regions[1]:
            out += [f"{ind}}} else {{", *_lines(op.regions[1], inner, labels)]
        return [*out, f"{ind}}}"]
    if k == "for":
        return [
            f"{ind}scf.for {op.result[0]} = %c0 to %n step %c1 {{",
            *_lines(op.regions[0], inner, labels),
            f"{ind}}}",
        ]
    if k == "parallel":
        head = f"{ind}scf.parallel ({op.result[0]}) = (%c0) to (%n) step (%c1) {{"
        return [head, *_lines(op.regions[0], inner, labels), f"{ind}}}"]
    if k == "while":
        return [
            f"{ind}scf.while : () -> () {{", *_lines(op.regions[0], inner, labels), f"{inner}scf.condition({op.operand})",
            f"{ind}}} do {{", *_lines(op.regions[1], inner, labels), f"{inner}scf.yield", f"{ind}}}",
        ]  # fmt: skip
    if k == "execute":
        deps = f" [{', '.join(op.deps)}]" if op.deps else ""
        if op.value_type:
            ty = GTOK if op.value_type == "token" else "f32"
            head = f"{ind}{op.result[0]}, {op.result[1]} = async.execute{deps} -> !async.value<{ty}> {{"
            end = f"{inner}async.yield {op.operand} : {ty}"
        else:
            head = f"{ind}{op.result[0]} = async.execute{deps} {{"
            end = f"{inner}async.yield"
        return [head, *_lines(op.regions[0], inner, labels), end, f"{ind}}}"]
    if k == "cond_br":
        t, e, j = labels[0], labels[0] + 1, labels[0] + 2
        labels[0] += 3
        return [
            f"{ind}cf.cond_br {op.operand}, ^bb{t}, ^bb{e}",
            f"  ^bb{t}:", *_lines(op.regions[0], ind, labels), f"{ind}cf.br ^bb{j}",
            f"  ^bb{e}:", *_lines(op.regions[1], ind, labels), f"{ind}cf.br ^bb{j}",
            f"  ^bb{j}:",
        ]  # fmt: skip
    raise ValueError(f"unknown op kind {k}")


def render(body: tuple[Op, ...], ret: str, nbuf: int, ncond: int, targ: bool) -> str:
    """The module text of one body: `HEADER`, then `func.func @f` with the
    arguments used (buffers, the token argument, conditions, `%n`, `%x`)."""
    args = [f"%b{j}: {BUF}" for j in range(nbuf)]
    args += [f"%a0: {GTOK}"] if targ else []
    args += [f"%p{j}: i1" for j in range(ncond)]
    args += ["%n: index", "%x: f32"]
    result = f" -> {GTOK}" if ret else ""
    ind = "    "
    lines = [
        f"  func.func @f({', '.join(args)}){result} {{",
        f"{ind}%c0 = arith.constant 0 : index",
        f"{ind}%c1 = arith.constant 1 : index",
        *_lines(body, ind, [1]),
        f"{ind}return {ret} : {GTOK}" if ret else f"{ind}return",
        "  }",
    ]
    return HEADER + "\n".join(lines) + "\n}\n"


def main() -> None:
    """`python -m verifier.programs.enumeration [ALPHABET] [MAX_SIZE]`: counts per size."""
    import sys

    a = ALPHABETS[sys.argv[1] if len(sys.argv) > 1 else "full"]
    k = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print(a.describe())
    for n, c in counts(a, k).items():
        print(f"size {n}: {c}")


if __name__ == "__main__":
    main()
