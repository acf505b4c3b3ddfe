"""Hypothesis strategies over the IR: whole modules the pass can be run on.

Programs are built as MLIR text by `@composite` strategies that track what
is in scope at every point (index, f32 and i1 values, buffers, GPU tokens,
`!async.token`s and `!async.value`s), so every generated program is valid by
construction: SSA names are unique per function, every use is dominated by
its definition (values of a nested region or of a non-dominating block are
never used outside it), types match, the module is a `gpu.container_module`
and every launched kernel is declared. The text is then parsed with
`spec.syntax.parser.parse_module`; `Program` keeps both.

What a function may hold (each kind can be switched off with `Features`):
pure arithmetic; host effects on shared buffers (`memref.load/store/copy/
alloc`, `func.call`); every GPU async op (`gpu.launch_func`, `gpu.memcpy`,
`gpu.memset`, `gpu.alloc` incl. `host_shared`, `gpu.dealloc`, `gpu.wait`),
each synchronous or with a user-written `async` token and `[deps]` drawn from
the tokens in scope; `scf.if` (also yielding a token), `scf.for` (also
carrying a token in `iter_args`), `scf.while`, `scf.parallel`; multi-block
`cf` control flow (a diamond or a loop with a back edge); `async.execute`
with dependencies on earlier executes, `!async.value` operands and results
(f32 and GPU tokens); `async.await` of tokens and values in any order.

Shrinking: each op is drawn by its own strategy (one span the shrinker can
delete whole) after a "another op?" draw that shrinks toward no; op kinds
come from lists whose first entries are the simplest (pure arithmetic, then
host effects, then GPU ops, then region ops), GPU ops shrink toward their
synchronous form, the function shape toward a single block and the number
of functions toward one. A failing program thus shrinks toward one
function, fewer ops, fewer regions and no user tokens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from spec.ir import Operation
from spec.syntax.parser import parse_module

BUF = "memref<16xf32>"
GTOK = "!gpu.async.token"
ARGS = f"%b0: {BUF}, %b1: {BUF}, %cond: i1, %n: index, %x: f32"

HEADER = f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k0(%arg0: {BUF}) kernel {{
      gpu.return
    }}
    gpu.func @k1() kernel {{
      gpu.return
    }}
  }}
  func.func private @use({BUF})
"""


@dataclass(frozen=True)
class Features:
    """Which constructs the generator may use, and size bounds."""

    scf: bool = True
    """`scf.if`, `scf.for`, `scf.while`, `scf.parallel`."""
    cf: bool = True
    """Multi-block functions (`cf.cond_br` diamonds and back edges)."""
    async_exec: bool = True
    """`async.execute` and `async.await`."""
    user_tokens: bool = True
    """GPU ops written `async` with user `[deps]`, user `gpu.wait`s."""
    max_functions: int = 2
    max_ops: int = 8
    """Ops per block at function level (nested blocks get fewer)."""
    max_depth: int = 2
    """Region nesting bound."""


SMALL = Features(max_functions=1, max_ops=5, max_depth=1)
"""Small programs (for the slower oracles)."""
STRAIGHT = Features(scf=False, cf=False, max_functions=1, max_ops=6, max_depth=1)
"""Straight-line host code with GPU ops and async.execute, no control flow."""


@dataclass
class Scope:
    """The values visible at one point, by kind (names as written)."""

    index: list[str] = field(default_factory=lambda: ["%c0", "%c1", "%n"])
    f32: list[str] = field(default_factory=lambda: ["%x"])
    i1: list[str] = field(default_factory=lambda: ["%cond"])
    bufs: list[str] = field(default_factory=lambda: ["%b0", "%b1"])
    gtoks: list[str] = field(default_factory=list)
    atoks: list[str] = field(default_factory=list)
    avals: list[tuple[str, str]] = field(default_factory=list)
    """`!async.value` names with their element type."""

    def child(self) -> Scope:
        """A nested scope: sees everything here; what it defines stays inside."""
        return Scope(*(list(getattr(self, f)) for f in ("index", "f32", "i1", "bufs", "gtoks", "atoks", "avals")))


class _Gen:
    """Per-function state: fresh names and the features in force."""

    def __init__(self, features: Features, prefix: str) -> None:
        self.features = features
        self.prefix = prefix
        self.counter = 0

    def fresh(self, stem: str = "v") -> str:
        self.counter += 1
        return f"%{self.prefix}{stem}{self.counter}"


@dataclass(frozen=True)
class Program:
    """A generated module: its text and the parsed IR."""

    text: str

    @property
    def module(self) -> Operation:
        return parse_module(self.text, "<generated>")

    def __repr__(self) -> str:
        return "Program(text=\n" + self.text + ")"


# Op kinds, simplest first so shrinking moves toward them.
HOST_KINDS = ["arith", "load", "store", "call", "alloc", "copy"]
GPU_KINDS = ["launch", "memcpy", "memset", "gpu_alloc", "gpu_dealloc", "wait"]
REGION_KINDS = ["if", "for", "while", "parallel"]
ASYNC_KINDS = ["execute", "await"]


def _kinds(f: Features, depth: int) -> list[str]:
    kinds = HOST_KINDS + GPU_KINDS
    if depth < f.max_depth:
        if f.scf:
            kinds += REGION_KINDS
        if f.async_exec:
            kinds += ["execute"]
    if f.async_exec:
        kinds += ["await"]
    return kinds


def _deps(draw: st.DrawFn, scope: Scope) -> list[str]:
    if not scope.gtoks:
        return []
    return draw(st.lists(st.sampled_from(scope.gtoks), max_size=2, unique=True))


def _async_part(draw: st.DrawFn, g: _Gen, scope: Scope) -> tuple[str, bool]:
    """The ` async [deps]` part of a GPU op, if it gets a user token (only
    when the features allow them; shrinks toward synchronous)."""
    if not g.features.user_tokens or not draw(st.booleans()):
        return "", False
    deps = _deps(draw, scope)
    dep_text = f" [{', '.join(deps)}]" if deps else ""
    return f" async{dep_text}", True


def _gpu_op(draw: st.DrawFn, g: _Gen, scope: Scope, kind: str, ind: str) -> list[str]:
    asy, is_async = _async_part(draw, g, scope)
    tok = g.fresh("t") if is_async else ""
    assign = f"{tok} = " if is_async else ""
    buf = draw(st.sampled_from(scope.bufs))
    lines: list[str]
    if kind == "launch":
        if draw(st.booleans()):
            args = f"args({buf} : {BUF})"
            kernel = "@kernels::@k0"
        else:
            args, kernel = "", "@kernels::@k1"
        lines = [
            f"{assign}gpu.launch_func{asy} {kernel} blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1) {args}".rstrip()
        ]
    elif kind == "memcpy":
        src = draw(st.sampled_from(scope.bufs))
        lines = [f"{assign}gpu.memcpy{asy} {buf}, {src} : {BUF}, {BUF}"]
    elif kind == "memset":
        val = draw(st.sampled_from(scope.f32))
        lines = [f"{assign}gpu.memset{asy} {buf}, {val} : {BUF}, f32"]
    elif kind == "gpu_alloc":
        m = g.fresh("m")
        shared = " host_shared" if draw(st.booleans()) else ""
        if is_async:
            lines = [f"{m}, {tok} = gpu.alloc{asy}{shared} () : {BUF}"]
        else:
            lines = [f"{m} = gpu.alloc{shared} () : {BUF}"]
        scope.bufs.append(m)
    elif kind == "gpu_dealloc":
        lines = [f"{assign}gpu.dealloc{asy} {buf} : {BUF}"]
    else:  # wait: blocking with deps, a fresh chain, or a join
        if not g.features.user_tokens:
            return []
        form = draw(st.sampled_from(["block", "async"]))
        deps = _deps(draw, scope)
        dep_text = f" [{', '.join(deps)}]" if deps else ""
        if form == "block":
            return [f"{ind}gpu.wait{dep_text}"]
        tok = g.fresh("t")
        scope.gtoks.append(tok)
        return [f"{ind}{tok} = gpu.wait async{dep_text}"]
    if is_async:
        scope.gtoks.append(tok)
    return [ind + line for line in lines]


def _host_op(draw: st.DrawFn, g: _Gen, scope: Scope, kind: str, ind: str) -> list[str]:
    buf = draw(st.sampled_from(scope.bufs))
    idx = draw(st.sampled_from(scope.index))
    if kind == "arith":
        form = draw(st.sampled_from(["addi", "addf", "cmpi", "const"]))
        v = g.fresh()
        if form == "addi":
            a, b = draw(st.sampled_from(scope.index)), draw(st.sampled_from(scope.index))
            scope.index.append(v)
            return [f"{ind}{v} = arith.addi {a}, {b} : index"]
        if form == "addf":
            a, b = draw(st.sampled_from(scope.f32)), draw(st.sampled_from(scope.f32))
            scope.f32.append(v)
            return [f"{ind}{v} = arith.addf {a}, {b} : f32"]
        if form == "cmpi":
            a, b = draw(st.sampled_from(scope.index)), draw(st.sampled_from(scope.index))
            scope.i1.append(v)
            return [f"{ind}{v} = arith.cmpi slt, {a}, {b} : index"]
        scope.f32.append(v)
        return [f"{ind}{v} = arith.constant 2.000000e+00 : f32"]
    if kind == "load":
        v = g.fresh()
        scope.f32.append(v)
        return [f"{ind}{v} = memref.load {buf}[{idx}] : {BUF}"]
    if kind == "store":
        val = draw(st.sampled_from(scope.f32))
        return [f"{ind}memref.store {val}, {buf}[{idx}] : {BUF}"]
    if kind == "call":
        return [f"{ind}func.call @use({buf}) : ({BUF}) -> ()"]
    if kind == "alloc":
        m = g.fresh("m")
        scope.bufs.append(m)
        return [f"{ind}{m} = memref.alloc() : {BUF}"]
    src = draw(st.sampled_from(scope.bufs))
    return [f"{ind}memref.copy {src}, {buf} : {BUF} to {BUF}"]


def _token_to_yield(g: _Gen, scope: Scope, lines: list[str], ind: str, draw: st.DrawFn) -> str:
    """A GPU token of `scope` to yield, making a fresh chain if there is none."""
    if scope.gtoks:
        return draw(st.sampled_from(scope.gtoks))
    t = g.fresh("t")
    lines.append(f"{ind}{t} = gpu.wait async")
    return t


def _region_op(draw: st.DrawFn, g: _Gen, scope: Scope, kind: str, ind: str, depth: int) -> list[str]:
    inner = ind + "  "
    f = g.features
    if kind == "if":
        cond = draw(st.sampled_from(scope.i1))
        with_else = draw(st.booleans())
        yields_token = f.user_tokens and draw(st.booleans())
        then_scope = scope.child()
        then_body = _ops(draw, g, then_scope, depth + 1, inner)
        else_scope = scope.child()
        else_body = _ops(draw, g, else_scope, depth + 1, inner) if (with_else or yields_token) else []
        if yields_token:
            r = g.fresh("t")
            ty = _token_to_yield(g, then_scope, then_body, inner, draw)
            ey = _token_to_yield(g, else_scope, else_body, inner, draw)
            scope.gtoks.append(r)
            return [
                f"{ind}{r} = scf.if {cond} -> ({GTOK}) {{",
                *then_body,
                f"{inner}scf.yield {ty} : {GTOK}",
                f"{ind}}} else {{",
                *else_body,
                f"{inner}scf.yield {ey} : {GTOK}",
                f"{ind}}}",
            ]
        out = [f"{ind}scf.if {cond} {{", *then_body]
        if with_else:
            out += [f"{ind}}} else {{", *else_body]
        return [*out, f"{ind}}}"]
    if kind == "for":
        i = g.fresh("i")
        body_scope = scope.child()
        body_scope.index.append(i)
        carries = f.user_tokens and bool(scope.gtoks) and draw(st.booleans())
        if carries:
            init = draw(st.sampled_from(scope.gtoks))
            arg, r = g.fresh("t"), g.fresh("t")
            body_scope.gtoks.append(arg)
            body = _ops(draw, g, body_scope, depth + 1, inner)
            y = _token_to_yield(g, body_scope, body, inner, draw)
            scope.gtoks.append(r)
            return [
                f"{ind}{r} = scf.for {i} = %c0 to %n step %c1 iter_args({arg} = {init}) -> ({GTOK}) {{",
                *body,
                f"{inner}scf.yield {y} : {GTOK}",
                f"{ind}}}",
            ]
        body = _ops(draw, g, body_scope, depth + 1, inner)
        return [f"{ind}scf.for {i} = %c0 to %n step %c1 {{", *body, f"{ind}}}"]
    if kind == "while":
        before_scope = scope.child()
        before = _ops(draw, g, before_scope, depth + 1, inner)
        c = draw(st.sampled_from(before_scope.i1))
        after = _ops(draw, g, scope.child(), depth + 1, inner)
        return [
            f"{ind}scf.while : () -> () {{",
            *before,
            f"{inner}scf.condition({c})",
            f"{ind}}} do {{",
            *after,
            f"{inner}scf.yield",
            f"{ind}}}",
        ]
    # parallel
    i = g.fresh("i")
    body_scope = scope.child()
    body_scope.index.append(i)
    body = _ops(draw, g, body_scope, depth + 1, inner)
    return [f"{ind}scf.parallel ({i}) = (%c0) to (%n) step (%c1) {{", *body, f"{inner}scf.reduce", f"{ind}}}"]


def _execute(draw: st.DrawFn, g: _Gen, scope: Scope, ind: str, depth: int) -> list[str]:
    inner = ind + "  "
    deps = draw(st.lists(st.sampled_from(scope.atoks), max_size=2, unique=True)) if scope.atoks else []
    operands = draw(st.lists(st.sampled_from(scope.avals), max_size=2, unique=True)) if scope.avals else []
    body_scope = scope.child()
    operand_texts = []
    for name, ty in operands:
        a = g.fresh("a")
        operand_texts.append(f"{name} as {a}: !async.value<{ty}>")
        (body_scope.gtoks if ty == GTOK else body_scope.f32).append(a)
    body = _ops(draw, g, body_scope, depth + 1, inner)
    result_types = draw(st.lists(st.sampled_from(["f32", GTOK] if g.features.user_tokens else ["f32"]), max_size=2))
    yielded = []
    for ty in result_types:
        if ty == GTOK:
            yielded.append(_token_to_yield(g, body_scope, body, inner, draw))
        else:
            yielded.append(draw(st.sampled_from(body_scope.f32)))
    tok = g.fresh("e")
    head = f"{ind}{tok}"
    if result_types:
        vals = g.fresh("ev")
        if len(result_types) == 1:
            head += f", {vals}"
            names = [vals]
            arrow = f" -> !async.value<{result_types[0]}>"
        else:
            head += f", {vals}:{len(result_types)}"
            names = [f"{vals}#{k}" for k in range(len(result_types))]
            arrow = " -> (" + ", ".join(f"!async.value<{t}>" for t in result_types) + ")"
        scope.avals.extend(zip(names, result_types))
    else:
        arrow = ""
    scope.atoks.append(tok)
    dep_text = f" [{', '.join(deps)}]" if deps else ""
    op_text = f" ({', '.join(operand_texts)})" if operand_texts else ""
    yield_text = f"async.yield {', '.join(yielded)} : {', '.join(result_types)}" if yielded else "async.yield"
    return [f"{head} = async.execute{dep_text}{op_text}{arrow} {{", *body, f"{inner}{yield_text}", f"{ind}}}"]


def _await(draw: st.DrawFn, g: _Gen, scope: Scope, ind: str) -> list[str]:
    choices: list[tuple[str, Any]] = [("tok", t) for t in scope.atoks] + [("val", v) for v in scope.avals]
    if not choices:
        return []
    which, item = draw(st.sampled_from(choices))
    if which == "tok":
        return [f"{ind}async.await {item} : !async.token"]
    name, ty = item
    r = g.fresh()
    (scope.gtoks if ty == GTOK else scope.f32).append(r)
    return [f"{ind}{r} = async.await {name} : !async.value<{ty}>"]


_MORE = st.sampled_from([False, True, True, True])
"""Another op? Shrinks toward False (fewer ops); about three ops per block."""


@st.composite
def _op(draw: st.DrawFn, g: _Gen, scope: Scope, depth: int, ind: str) -> list[str]:
    """One op (with its regions), adding what it defines to `scope`. Its own
    strategy so that each op is one span the shrinker can delete whole."""
    kind = draw(st.sampled_from(_kinds(g.features, depth)))
    if kind in HOST_KINDS:
        return _host_op(draw, g, scope, kind, ind)
    if kind in GPU_KINDS:
        return _gpu_op(draw, g, scope, kind, ind)
    if kind in REGION_KINDS:
        return _region_op(draw, g, scope, kind, ind, depth)
    if kind == "execute":
        return _execute(draw, g, scope, ind, depth)
    return _await(draw, g, scope, ind)


def _ops(draw: st.DrawFn, g: _Gen, scope: Scope, depth: int, ind: str) -> list[str]:
    """The ops of one block (without its terminator): up to `max_ops`
    (halved per nesting level), each continued by a `_MORE` draw."""
    bound = max(1, g.features.max_ops >> depth)
    lines: list[str] = []
    for _ in range(bound):
        if not draw(_MORE):
            break
        lines += draw(_op(g, scope, depth, ind))
    return lines


@st.composite
def functions(draw: st.DrawFn, name: str = "f0", features: Features = Features()) -> str:
    """One `func.func @name` with the fixed signature `ARGS`: a prologue of
    index constants, then one block, a `cf` diamond, or a `cf` loop with a
    back edge. Shrinks toward one block and fewer ops (see the module
    docstring)."""
    g = _Gen(features, "")
    ind = "    "
    head = [
        f"  func.func @{name}({ARGS}) {{",
        f"{ind}%c0 = arith.constant 0 : index",
        f"{ind}%c1 = arith.constant 1 : index",
    ]
    entry = Scope()
    shape = draw(st.sampled_from(["single", "diamond", "loop"] if features.cf else ["single"]))
    body = _ops(draw, g, entry, 0, ind)
    if shape == "single":
        return "\n".join([*head, *body, f"{ind}return", "  }"]) + "\n"
    if shape == "diamond":
        cond = draw(st.sampled_from(entry.i1))
        left = _ops(draw, g, entry.child(), 0, ind)
        right = _ops(draw, g, entry.child(), 0, ind)
        join = _ops(draw, g, entry.child(), 0, ind)
        return "\n".join([
            *head, *body,
            f"{ind}cf.cond_br {cond}, ^bb1, ^bb2",
            "  ^bb1:", *left, f"{ind}cf.br ^bb3",
            "  ^bb2:", *right, f"{ind}cf.br ^bb3",
            "  ^bb3:", *join, f"{ind}return",
            "  }",
        ]) + "\n"  # fmt: skip
    # loop: ^bb1 is the header and body, with a back edge to itself
    i = g.fresh("i")
    loop_scope = entry.child()
    loop_scope.index.append(i)
    loop = _ops(draw, g, loop_scope, 0, ind)
    nxt, more = g.fresh(), g.fresh()
    exit_ops = _ops(draw, g, loop_scope.child(), 0, ind)
    return "\n".join([
        *head, *body,
        f"{ind}cf.br ^bb1(%c0 : index)",
        f"  ^bb1({i}: index):", *loop,
        f"{ind}{nxt} = arith.addi {i}, %c1 : index",
        f"{ind}{more} = arith.cmpi slt, {nxt}, %n : index",
        f"{ind}cf.cond_br {more}, ^bb1({nxt} : index), ^bb2",
        "  ^bb2:", *exit_ops, f"{ind}return",
        "  }",
    ]) + "\n"  # fmt: skip


@st.composite
def program_texts(draw: st.DrawFn, features: Features = Features()) -> str:
    """A module: the kernel module, `@use`, and 1..max_functions functions.
    Shrinks toward one function (then as `functions` does)."""
    count = draw(st.integers(1, max(1, features.max_functions)))
    funcs = [draw(functions(f"f{k}", features)) for k in range(count)]
    return HEADER + "".join(funcs) + "}\n"


def programs(features: Features = Features()) -> st.SearchStrategy[Program]:
    """`program_texts` wrapped as `Program` (text plus lazily parsed IR)."""
    return program_texts(features).map(Program)
