"""Hypothesis strategies for small programs that reach the function's edges.

`verifier.programs.generators` draws the bulk of the subset (host effects, GPU ops
with user tokens, `scf`, `async.execute`/`await`); this module adds what a
rewrite can get wrong at the boundary and in token plumbing, for the
semantic judge (`tests/semantics/test_semantic_judge.py`, `bench/judge.py`):

- token arguments (`%tin: !gpu.async.token`, `%ain: !async.token`) used by a
  blocking `gpu.wait`, as a `[dep]`, or not at all;
- returned tokens (`-> !gpu.async.token`, `-> !async.token`) and tokens
  passed to a call (`@take`);
- `arith.select` on GPU tokens;
- `async.execute` with token and value results, awaited or not, its body
  ending in a GPU op (synchronous, or async with the token yielded);
- rotating loop-carried tokens (`scf.for ... iter_args(%a = .., %b = ..)`
  with `scf.yield %b, %x`), `scf.if` yielding a token;
- async groups (`async.create_group`, `async.add_to_group`, `async.await_all`)
  of a size equal to their adds or not, with an `await_all` in a body issued
  before the adds;
- an integer division guarded by a `cf.assert`;
- `scf.index_switch` on `%n` with two cases and a default holding GPU work
  and host effects, yielding a GPU token or nothing (`index_switch`);
- `memref.alloca_scope` holding host effects and GPU ops (`alloca_scope`);
- `affine.for` with constant bounds (`0 to 2`, step 1 or 2), with or without
  `iter_args` carrying a `!gpu.async.token` into an async launch, and
  `affine.if` on `%n` (a dim or a symbol of a small integer set) with an
  `else` or not, holding GPU work (`affine`);
- incoming values: `%vin: !async.value<f32>`, `%vt: !async.value<!gpu.async.token>`
  and `%ain: !async.token`
  arguments (the latter also with `token_args`), awaited by `await` ops or
  not (`async_args`);
- function shapes: one block; a `cf.cond_br` with token block arguments on
  both successors joining in a block with a token argument; the same plus an
  unreachable block branching into the join; a `cf.switch` on an `i32`
  (the `%k` argument, or `%n` cast to `i32`) with a default and one or two
  cases, with token block arguments or without (the branches then use the
  entry block's tokens), joining in a block with a token argument
  (`switch`).

Every construct can be switched off (`Options`), so a test can leave out a
construct whose verifier hole is known and still open.

Shrinking: each op is one `_op` draw the shrinker can delete whole, after an
"another op?" draw that shrinks toward no; op kinds are sampled from a list
whose first entries are the simplest (host effects, then GPU ops, then the
token plumbing, then region and async ops), GPU ops shrink toward
synchronous and deps toward none, signature options (token arguments,
returned tokens, incoming values) shrink toward absent, the function shape
toward one block; the new region ops are sampled after the older kinds (so
they shrink toward those), an `index_switch` toward no result, an
`affine.for` toward no `iter_args`, an `affine.if` toward no `else`, a
`cf.switch` toward one case and toward switching on `%n`.
Programs are valid by construction (names unique, every use dominated, the
types right); buffers are `memref<4xf32>` so exhaustive exploration stays
small.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from hypothesis import strategies as st

BUF = "memref<4xf32>"
GTOK = "!gpu.async.token"
ATOK = "!async.token"

HEADER = f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k0(%arg0: {BUF}) kernel {{
      gpu.return
    }}
  }}
  func.func private @use({BUF})
  func.func private @take({GTOK})
"""


@dataclass(frozen=True)
class Options:
    """Which constructs programs may hold (all on by default)."""

    token_args: bool = True
    """`%tin: !gpu.async.token` and `%ain: !async.token` arguments."""
    returned_tokens: bool = True
    """Token results of the function, tokens passed to `@take`."""
    select: bool = True
    """`arith.select` on GPU tokens."""
    execute: bool = True
    """`async.execute` (tokens and values, awaited or not) and `async.await`."""
    unawaited_execute: bool = True
    """Executes whose body does GPU work that nobody awaits."""
    loops: bool = True
    """`scf.for` with rotating loop-carried tokens, `scf.if` yielding a token."""
    groups: bool = True
    """`async.create_group`, `async.add_to_group`, `async.await_all`."""
    cf: bool = True
    """`cf.cond_br` with token block arguments, unreachable blocks."""
    guards: bool = True
    """An integer division by `%n` guarded by a `cf.assert` that `%n` is
    not zero (a rewrite may not run the division before its guard)."""
    index_switch: bool = True
    """`scf.index_switch` on `%n` with GPU work and host effects in its
    cases, yielding a GPU token or not."""
    alloca_scope: bool = True
    """`memref.alloca_scope` holding host effects and GPU ops."""
    affine: bool = True
    """`affine.for` (constant bounds, `iter_args` with a GPU token or not)
    and `affine.if` (an integer set on `%n`, `else` or not)."""
    switch: bool = True
    """A `cf.switch` function shape (on `%k: i32` or `%n` cast to `i32`),
    with token block arguments or not."""
    async_args: bool = True
    """Incoming values: `%vin: !async.value<f32>`, `%vt: !async.value<!gpu.async.token>`
    and `%ain: !async.token`
    arguments (their caller work can begin only after the return in the
    judge's blocking vectors)."""
    user_tokens: bool = True
    """GPU ops written `async` with `[deps]`, user `gpu.wait`s."""
    max_ops: int = 3
    """Ops per block (halved per nesting level)."""

    def without(self, *names: str) -> Options:
        return replace(self, **{n: False for n in names})


ALL = Options()
OPTION_NAMES = [f.name for f in fields(Options) if f.type in ("bool", bool)]


class _Scope:
    def __init__(self, bufs: list[str], gtoks: list[str], atoks: list[str], avals: list[tuple[str, str]]) -> None:
        self.bufs = bufs
        self.gtoks = gtoks
        self.atoks = atoks
        self.avals = avals

    def child(self) -> _Scope:
        return _Scope(list(self.bufs), list(self.gtoks), list(self.atoks), list(self.avals))


class _Names:
    def __init__(self) -> None:
        self.n = 0

    def __call__(self, stem: str) -> str:
        self.n += 1
        return f"%{stem}{self.n}"


def _kinds(o: Options, depth: int) -> list[str]:
    kinds = ["load", "store", "call", "launch", "memcpy", "memset"]
    if o.user_tokens:
        kinds += ["wait", "join"]
    if o.select:
        kinds += ["select"]
    if o.returned_tokens:
        kinds += ["take"]
    if o.guards:
        kinds += ["guarded-div"]
    if depth < 1:
        if o.execute:
            kinds += ["execute", "await"]
        if o.loops:
            kinds += ["rotate", "if"]
        if o.groups and o.execute:
            kinds += ["group"]
        if o.index_switch:
            kinds += ["index-switch"]
        if o.alloca_scope:
            kinds += ["alloca-scope"]
        if o.affine:
            kinds += ["affine-for", "affine-if"]
    return kinds


def _deps(draw: st.DrawFn, scope: _Scope) -> list[str]:
    if not scope.gtoks:
        return []
    return draw(st.lists(st.sampled_from(scope.gtoks), max_size=2, unique=True))


def _launch(buf: str, asy: str) -> str:
    return (
        f"gpu.launch_func{asy} @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args({buf} : {BUF})"
    )


def _gpu_line(kind: str, buf: str, asy: str, src: str = "") -> str:
    """A `launch`, `memcpy` (from `src`) or `memset` of `buf`; `asy` is
    empty or ` async [deps]`."""
    if kind == "launch":
        return _launch(buf, asy)
    if kind == "memcpy":
        return f"gpu.memcpy{asy} {buf}, {src} : {BUF}, {BUF}"
    return f"gpu.memset{asy} {buf}, %x : {BUF}, f32"


def _gpu(draw: st.DrawFn, o: Options, new: _Names, scope: _Scope, kind: str, ind: str) -> list[str]:
    is_async = o.user_tokens and draw(st.booleans())
    asy = ""
    tok = ""
    if is_async:
        deps = _deps(draw, scope)
        asy = " async" + (f" [{', '.join(deps)}]" if deps else "")
        tok = new("t")
    buf = draw(st.sampled_from(scope.bufs))
    src = draw(st.sampled_from(scope.bufs)) if kind == "memcpy" else buf
    line = _gpu_line(kind, buf, asy, src)
    if tok:
        scope.gtoks.append(tok)
        line = f"{tok} = {line}"
    return [ind + line]


def _token(draw: st.DrawFn, new: _Names, scope: _Scope, lines: list[str], ind: str) -> str:
    """A GPU token of `scope` (a fresh `gpu.wait async` if there is none)."""
    if scope.gtoks:
        return draw(st.sampled_from(scope.gtoks))
    t = new("t")
    lines.append(f"{ind}{t} = gpu.wait async")
    scope.gtoks.append(t)
    return t


def _body_ops(draw: st.DrawFn, o: Options, new: _Names, scope: _Scope, depth: int, ind: str) -> list[str]:
    lines: list[str] = []
    for _ in range(max(1, o.max_ops >> depth)):
        if not draw(st.sampled_from([False, True, True])):
            break
        lines += draw(_op(o, new, scope, depth, ind))
    return lines


@st.composite
def _op(draw: st.DrawFn, o: Options, new: _Names, scope: _Scope, depth: int, ind: str) -> list[str]:  # noqa: C901 - one case per program construct
    kind = draw(st.sampled_from(_kinds(o, depth)))
    inner = ind + "  "
    if kind == "load":
        return [f"{ind}{new('v')} = memref.load {draw(st.sampled_from(scope.bufs))}[%c0] : {BUF}"]
    if kind == "store":
        return [f"{ind}memref.store %x, {draw(st.sampled_from(scope.bufs))}[%c0] : {BUF}"]
    if kind == "call":
        return [f"{ind}func.call @use({draw(st.sampled_from(scope.bufs))}) : ({BUF}) -> ()"]
    if kind in ("launch", "memcpy", "memset"):
        return _gpu(draw, o, new, scope, kind, ind)
    if kind == "wait":
        deps = _deps(draw, scope)
        return [f"{ind}gpu.wait [{', '.join(deps)}]"] if deps else []
    if kind == "join":
        deps = _deps(draw, scope)
        t = new("t")
        scope.gtoks.append(t)
        return [f"{ind}{t} = gpu.wait async" + (f" [{', '.join(deps)}]" if deps else "")]
    if kind == "select":
        if len(scope.gtoks) < 2:
            return []
        a, b = draw(st.lists(st.sampled_from(scope.gtoks), min_size=2, max_size=2, unique=True))
        s = new("s")
        scope.gtoks.append(s)
        return [f"{ind}{s} = arith.select %p, {a}, {b} : {GTOK}"]
    if kind == "take":
        if not scope.gtoks:
            return []
        return [f"{ind}func.call @take({draw(st.sampled_from(scope.gtoks))}) : ({GTOK}) -> ()"]
    if kind == "execute":
        return _execute(draw, o, new, scope, ind, depth)
    if kind == "await":
        choices: list[tuple[str, Any]] = [("tok", t) for t in scope.atoks] + [("val", v) for v in scope.avals]
        if not choices:
            return []
        which, item = draw(st.sampled_from(choices))
        if which == "tok":
            return [f"{ind}async.await {item} : {ATOK}"]
        name, ty = item
        r = new("w")
        if ty == GTOK:
            scope.gtoks.append(r)
        return [f"{ind}{r} = async.await {name} : !async.value<{ty}>"]
    if kind == "rotate":
        lines: list[str] = []
        t1 = _token(draw, new, scope, lines, ind)
        t2 = draw(st.sampled_from(scope.gtoks))
        r, a, b, i, x = new("r"), new("a"), new("b"), new("i"), new("t")
        body_scope = scope.child()
        body_scope.gtoks += [a, b]
        body = _body_ops(draw, o, new, body_scope, depth + 1, inner)
        buf = draw(st.sampled_from(scope.bufs))
        dep = draw(st.sampled_from([a, b]))
        body.append(f"{inner}{x} = {_launch(buf, f' async [{dep}]')}")
        y = draw(st.sampled_from([f"{b}, {x}", f"{x}, {a}", f"{b}, {a}"]))
        scope.gtoks += [f"{r}#0", f"{r}#1"]
        return [
            *lines,
            f"{ind}{r}:2 = scf.for {i} = %c0 to %n step %c1 iter_args({a} = {t1}, {b} = {t2}) -> ({GTOK}, {GTOK}) {{",
            *body,
            f"{inner}scf.yield {y} : {GTOK}, {GTOK}",
            f"{ind}}}",
        ]
    if kind == "if":
        r = new("r")
        ts, es = scope.child(), scope.child()
        then_body = _body_ops(draw, o, new, ts, depth + 1, inner)
        else_body = _body_ops(draw, o, new, es, depth + 1, inner)
        ty = _token(draw, new, ts, then_body, inner)
        ey = _token(draw, new, es, else_body, inner)
        scope.gtoks.append(r)
        return [
            f"{ind}{r} = scf.if %p -> ({GTOK}) {{",
            *then_body,
            f"{inner}scf.yield {ty} : {GTOK}",
            f"{ind}}} else {{",
            *else_body,
            f"{inner}scf.yield {ey} : {GTOK}",
            f"{ind}}}",
        ]
    if kind == "index-switch":
        yields = draw(st.booleans())
        r = new("r")
        cases = draw(st.lists(st.sampled_from([0, 2, 1, 3]), min_size=1, max_size=2, unique=True))
        lines = [f"{ind}{r} = scf.index_switch %n -> {GTOK}" if yields else f"{ind}scf.index_switch %n"]
        for label in [*(f"case {c}" for c in cases), "default"]:
            sc = scope.child()
            body = _body_ops(draw, o, new, sc, depth + 1, inner)
            if yields:
                y = _token(draw, new, sc, body, inner)
                body.append(f"{inner}scf.yield {y} : {GTOK}")
            else:
                body.append(f"{inner}scf.yield")
            lines += [f"{ind}{label} {{", *body, f"{ind}}}"]
        if yields:
            scope.gtoks.append(r)
        return lines
    if kind == "alloca-scope":
        sc = scope.child()
        body = _body_ops(draw, o, new, sc, depth + 1, inner)
        if not body:
            body = _gpu(draw, o, new, sc, "launch", inner)
        return [f"{ind}memref.alloca_scope {{", *body, f"{ind}}}"]
    if kind == "affine-for":
        carried = o.user_tokens and draw(st.booleans())
        step = draw(st.sampled_from([1, 2]))
        i = new("i")
        step_text = f" step {step}" if step != 1 else ""
        sc = scope.child()
        if not carried:
            body = _body_ops(draw, o, new, sc, depth + 1, inner)
            if not body:
                body = _gpu(draw, o, new, sc, "launch", inner)
            return [f"{ind}affine.for {i} = 0 to 2{step_text} {{", *body, f"{ind}}}"]
        lines = []
        t0 = _token(draw, new, scope, lines, ind)
        r, a, x = new("r"), new("a"), new("t")
        sc = scope.child()
        sc.gtoks.append(a)
        body = _body_ops(draw, o, new, sc, depth + 1, inner)
        dep = draw(st.sampled_from(sc.gtoks))
        body.append(f"{inner}{x} = {_launch(draw(st.sampled_from(scope.bufs)), f' async [{dep}]')}")
        scope.gtoks.append(r)
        return [
            *lines,
            f"{ind}{r} = affine.for {i} = 0 to 2{step_text} iter_args({a} = {t0}) -> ({GTOK}) {{",
            *body,
            f"{inner}affine.yield {x} : {GTOK}",
            f"{ind}}}",
        ]
    if kind == "affine-if":
        cond = draw(
            st.sampled_from(
                [
                    "affine_set<(d0) : (d0 - 1 >= 0)>(%n)",
                    "affine_set<(d0) : (d0 == 0)>(%n)",
                    "affine_set<()[s0] : (s0 - 2 >= 0, -s0 + 3 >= 0)>()[%n]",
                ]
            )
        )
        ts = scope.child()
        then_body = _body_ops(draw, o, new, ts, depth + 1, inner) or _gpu(draw, o, new, ts, "launch", inner)
        lines = [f"{ind}affine.if {cond} {{", *then_body]
        if draw(st.booleans()):
            es = scope.child()
            lines += [f"{ind}}} else {{", *_body_ops(draw, o, new, es, depth + 1, inner)]
        return [*lines, f"{ind}}}"]
    if kind == "guarded-div":
        nz, q = new("nz"), new("q")
        return [
            f"{ind}{nz} = arith.cmpi ne, %n, %c0 : index",
            f'{ind}cf.assert {nz}, "n is zero"',
            f"{ind}{q} = arith.divui %c2, %n : index",
            f"{ind}memref.store %x, {draw(st.sampled_from(scope.bufs))}[{q}] : {BUF}",
        ]
    # group: executes added to a group, awaited together (or not); its size
    # the number of adds or not, and an `await_all` in a body issued before
    # the adds (it waits for tokens added after it); an added execute may be
    # one GPU op on the stored buffer that the body waits for (the shape a
    # rewrite breaks by handing that wait to the host: the group's token is
    # then set before the GPU work is done)
    g = new("g")
    adds = draw(st.integers(1, 2))
    size = draw(st.sampled_from([adds, 1, 2, 3]))
    lines = [f"{ind}{g} = async.create_group %c{size} : !async.group"]
    buf = draw(st.sampled_from(scope.bufs))
    if draw(st.booleans()):
        e = new("e")
        lines += [
            f"{ind}{e} = async.execute {{",
            f"{ind}  async.await_all {g}",
            f"{ind}  memref.store %x, {buf}[%c0] : {BUF}",
            f"{ind}  async.yield",
            f"{ind}}}",
        ]
        scope.atoks.append(e)
    for _ in range(adds):
        if o.user_tokens and draw(st.booleans()):
            e, w, t = new("e"), new("w"), new("t")
            lines += [
                f"{ind}{e} = async.execute {{",
                f"{ind}  {w} = gpu.wait async",
                f"{ind}  {t} = {_gpu_line('memset', buf, f' async [{w}]')}",
                f"{ind}  gpu.wait [{t}]",
                f"{ind}  async.yield",
                f"{ind}}}",
            ]
            scope.atoks.append(e)
        else:
            lines += _execute(draw, o, new, scope, ind, depth)
        e = scope.atoks[-1]
        lines.append(f"{ind}{new('k')} = async.add_to_group {e}, {g} : {ATOK}")
    if draw(st.booleans()):
        lines.append(f"{ind}async.await_all {g}")
    return lines


def _execute(draw: st.DrawFn, o: Options, new: _Names, scope: _Scope, ind: str, depth: int) -> list[str]:
    inner = ind + "  "
    deps = draw(st.lists(st.sampled_from(scope.atoks), max_size=1)) if scope.atoks else []
    body_scope = _Scope(list(scope.bufs), list(scope.gtoks), [], [])
    body = _body_ops(draw, o, new, body_scope, depth + 1, inner)
    buf = draw(st.sampled_from(scope.bufs))
    ends_async = o.user_tokens and draw(st.booleans())
    results: list[tuple[str, str]] = []
    if ends_async:
        t = new("t")
        body.append(f"{inner}{t} = {_launch(buf, ' async')}")
        if draw(st.booleans()):
            results.append((t, GTOK))
        else:
            body.append(f"{inner}gpu.wait [{t}]")
    else:
        body.append(f"{inner}{_launch(buf, '')}")
    if draw(st.booleans()):
        results.append(("%x", "f32"))
    e = new("e")
    head = e
    arrow = ""
    if results:
        v = new("ev")
        if len(results) == 1:
            head += f", {v}"
            names = [v]
            arrow = f" -> !async.value<{results[0][1]}>"
        else:
            head += f", {v}:{len(results)}"
            names = [f"{v}#{k}" for k in range(len(results))]
            arrow = " -> (" + ", ".join(f"!async.value<{ty}>" for _, ty in results) + ")"
        scope.avals += [(n, ty) for n, (_, ty) in zip(names, results)]
        y = f"{inner}async.yield {', '.join(n for n, _ in results)} : {', '.join(ty for _, ty in results)}"
    else:
        y = f"{inner}async.yield"
    scope.atoks.append(e)
    dep_text = f" [{', '.join(deps)}]" if deps else ""
    out = [f"{ind}{head} = async.execute{dep_text}{arrow} {{", *body, y, f"{ind}}}"]
    if not o.unawaited_execute:
        out.append(f"{ind}async.await {e} : {ATOK}")
    return out


@st.composite
def boundary_functions(draw: st.DrawFn, options: Options = ALL, name: str = "f") -> str:
    """One function: signature options first (token arguments, token
    results; shrinking toward none), then the shape (one block, a token
    diamond, a diamond with an unreachable block; shrinking toward one
    block), then the ops."""
    o = options
    new = _Names()
    args = [f"%b0: {BUF}", f"%b1: {BUF}", "%p: i1", "%n: index", "%x: f32"]
    scope = _Scope(["%b0", "%b1"], [], [], [])
    if o.token_args and draw(st.booleans()):
        args.append(f"%tin: {GTOK}")
        scope.gtoks.append("%tin")
    if o.token_args and o.execute and draw(st.booleans()):
        args.append(f"%ain: {ATOK}")
        scope.atoks.append("%ain")
    if o.async_args and o.execute:
        if draw(st.booleans()):
            args.append("%vin: !async.value<f32>")
            scope.avals.append(("%vin", "f32"))
        if draw(st.booleans()):
            # A GPU token the caller hands over inside a value: the shape
            # whose await the pass itself adds (so the correspondence lets a
            # rewrite add one, and only the progress check can refuse it).
            args.append(f"%vt: !async.value<{GTOK}>")
            scope.avals.append(("%vt", GTOK))
        if "%ain" not in scope.atoks and draw(st.booleans()):
            args.append(f"%ain: {ATOK}")
            scope.atoks.append("%ain")
    results: list[str] = []
    if o.returned_tokens:
        results = draw(st.lists(st.sampled_from([GTOK, ATOK] if o.execute else [GTOK]), max_size=2))
    ind = "    "
    shape = draw(
        st.sampled_from(["single", *(["diamond", "unreachable"] if o.cf else []), *(["switch"] if o.switch else [])])
    )
    on_k = shape == "switch" and draw(st.booleans())
    if on_k:
        args.append("%k: i32")
    head = [
        f"  func.func @{name}({', '.join(args)})" + (f" -> ({', '.join(results)})" if results else "") + " {",
        f"{ind}%c0 = arith.constant 0 : index",
        f"{ind}%c1 = arith.constant 1 : index",
        f"{ind}%c2 = arith.constant 2 : index",
        f"{ind}%c3 = arith.constant 3 : index",
    ]
    body = _body_ops(draw, o, new, scope, 0, ind)

    def ret(lines: list[str], sc: _Scope) -> list[str]:
        vals = []
        for ty in results:
            if ty == GTOK:
                vals.append(_token(draw, new, sc, lines, ind))
            else:
                if not sc.atoks:
                    e = new("e")
                    lines.append(f"{ind}{e} = async.execute {{")
                    lines.append(f"{ind}  async.yield")
                    lines.append(f"{ind}}}")
                    sc.atoks.append(e)
                vals.append(draw(st.sampled_from(sc.atoks)))
        if not vals:
            return [*lines, f"{ind}return"]
        return [*lines, f"{ind}return {', '.join(vals)} : {', '.join(results)}"]

    if shape == "single":
        return "\n".join([*head, *ret(body, scope), "  }"]) + "\n"
    if shape == "switch":
        return "\n".join(_switch(draw, o, new, scope, head, body, on_k, ret)) + "\n"
    # a diamond passing GPU tokens as block arguments into a join block
    pre: list[str] = []
    t_left = _token(draw, new, scope, pre, ind)
    t_right = draw(st.sampled_from(scope.gtoks))
    base = _Scope(list(scope.bufs), [], list(scope.atoks), list(scope.avals))
    lines = [*head, *body, *pre, f"{ind}cf.cond_br %p, ^bb1({t_left} : {GTOK}), ^bb2({t_right} : {GTOK})"]
    for label in ("^bb1", "^bb2"):
        arg = new("j")
        sc = base.child()
        sc.gtoks.append(arg)
        ops = _body_ops(draw, o, new, sc, 0, ind)
        out_tok = _token(draw, new, sc, ops, ind)
        lines += [f"  {label}({arg}: {GTOK}):", *ops, f"{ind}cf.br ^bb3({out_tok} : {GTOK})"]
    if shape == "unreachable":
        sc = base.child()
        ops = _body_ops(draw, o, new, sc, 0, ind)
        out_tok = _token(draw, new, sc, ops, ind)
        lines += ["  ^bb4:", *ops, f"{ind}cf.br ^bb3({out_tok} : {GTOK})"]
    j = new("j")
    sc = base.child()
    sc.gtoks.append(j)
    join = _body_ops(draw, o, new, sc, 0, ind)
    lines += [f"  ^bb3({j}: {GTOK}):", *ret(join, sc), "  }"]
    return "\n".join(lines) + "\n"


def _switch(
    draw: st.DrawFn, o: Options, new: _Names, scope: _Scope, head: list[str], body: list[str], on_k: bool, ret: Any
) -> list[str]:
    """A `cf.switch` on `%k` (or `%n` cast to `i32`): a default and one or
    two cases into two blocks, with token block arguments or not, joining in
    a block with a token argument."""
    ind = "    "
    pre: list[str] = []
    flag = "%k"
    if not on_k:
        flag = new("sw")
        pre.append(f"{ind}{flag} = arith.index_cast %n : index to i32")
    tok_args = draw(st.booleans())
    cases = draw(st.lists(st.sampled_from([2, 0, 1]), min_size=1, max_size=2, unique=True))
    targets = ["^bb2", *(draw(st.sampled_from(["^bb1", "^bb2"])) for _ in cases[1:])]
    if tok_args:
        t_default = _token(draw, new, scope, pre, ind)
        base = _Scope(list(scope.bufs), [], list(scope.atoks), list(scope.avals))

        def succ(label: str) -> str:
            return f"{label}({draw(st.sampled_from(scope.gtoks))} : {GTOK})"

        arms = [f"default: ^bb1({t_default} : {GTOK})", *(f"{c}: {succ(t)}" for c, t in zip(cases, targets))]
    else:
        base = _Scope(list(scope.bufs), list(scope.gtoks), list(scope.atoks), list(scope.avals))
        arms = ["default: ^bb1", *(f"{c}: {t}" for c, t in zip(cases, targets))]
    lines = [
        *head,
        *body,
        *pre,
        f"{ind}cf.switch {flag} : i32, [",
        *(f"{ind}  {a}," for a in arms[:-1]),
        f"{ind}  {arms[-1]}",
        f"{ind}]",
    ]
    for label in ("^bb1", "^bb2"):
        sc = base.child()
        if tok_args:
            arg = new("j")
            sc.gtoks.append(arg)
            lines.append(f"  {label}({arg}: {GTOK}):")
        else:
            lines.append(f"  {label}:")
        ops = _body_ops(draw, o, new, sc, 0, ind)
        out_tok = _token(draw, new, sc, ops, ind)
        lines += [*ops, f"{ind}cf.br ^bb3({out_tok} : {GTOK})"]
    j = new("j")
    sc = base.child()
    sc.gtoks.append(j)
    join = _body_ops(draw, o, new, sc, 0, ind)
    return [*lines, f"  ^bb3({j}: {GTOK}):", *ret(join, sc), "  }"]


@st.composite
def boundary_programs(draw: st.DrawFn, options: Options = ALL) -> str:
    """A module of one function (`boundary_functions`)."""
    return HEADER + draw(boundary_functions(options)) + "}\n"
