"""Affine maps and integer sets as mlir-opt-19 reads and prints them, and the
`#name = ...` attribute aliases it reads and writes.

- Expressions are built the way MLIR's `AffineExpr` operators build them,
  with their simplifications (`simplifyAdd`, `simplifyMul`, the divisions):
  constants folded and moved right, a symbolic term moved right of a
  dimensional one (`s0 - d0 - 1` is `-d0 + s0 - 1`), `x + 0` and `x * 1`
  dropped, successive constants combined. Printing is `AsmPrinter`'s
  (`x * -1` as `-x`, `a + b * -1` as `a - b`, `a + -2` as `a - 2`).
- A map or set is kept as its canonical text (`affine_map<(d0) -> (d0 * 4)>`),
  an `OpaqueAttr`, also inside memref types; an identity layout is dropped
  from a memref type, as MLIR does.
- Aliases: a top-level `#map = affine_map<...>` is recorded in the parse's
  `AliasTable` (the builder's `aliases`), its uses replaced by the value. On printing, every map and
  set printed as an attribute gets an alias as mlir-opt-19 gives them:
  `#map`, `#map1`, ... and `#set`, ... numbered in the order the alias
  walk meets them (the custom form: textual order; the generic form: an op's
  regions first, then its operand and result types, then its attributes),
  maps before sets, printed before the top-level op.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from spec.invariant import InternalError

# -- expressions -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Expr:
    kind: str
    """`const`, `dim`, `sym`, or a binary `add`, `mul`, `floordiv`, `ceildiv`, `mod`."""
    value: int = 0
    """The constant, or the position of a dim or symbol."""
    lhs: Expr | None = None
    rhs: Expr | None = None

    @property
    def symbolic(self) -> bool:
        """MLIR's `isSymbolicOrConstant`: no dims inside."""
        if self.kind == "dim":
            return False
        if self.kind in ("const", "sym"):
            return True
        return self.lhs.symbolic and self.rhs.symbolic  # type: ignore[union-attr]  # not a leaf (dim, const, sym): a binary expr, whose lhs and rhs are set


def const(v: int) -> Expr:
    return Expr("const", v)


def _is_const(e: Expr, v: int | None = None) -> bool:
    return e.kind == "const" and (v is None or e.value == v)


def add(lhs: Expr, rhs: Expr) -> Expr:
    if _is_const(lhs) and _is_const(rhs):
        return const(lhs.value + rhs.value)
    if _is_const(lhs) or (lhs.symbolic and not rhs.symbolic):
        return add(rhs, lhs)
    if _is_const(rhs, 0):
        return lhs
    if lhs.kind == "add" and _is_const(rhs) and _is_const(lhs.rhs):  # type: ignore[arg-type]  # a binary expr's lhs and rhs are set
        return add(lhs.lhs, const(lhs.rhs.value + rhs.value))  # type: ignore[arg-type,union-attr]  # a binary expr's lhs and rhs are set
    # c1 * x + c2 * x -> (c1 + c2) * x
    if lhs.kind == "mul" and _is_const(lhs.rhs):  # type: ignore[arg-type]  # a binary expr's lhs and rhs are set
        c1, first = lhs.rhs.value, lhs.lhs  # type: ignore[union-attr]  # a binary expr's lhs and rhs are set
    else:
        c1, first = 1, lhs
    if rhs.kind == "mul" and _is_const(rhs.rhs):  # type: ignore[arg-type]  # a binary expr's lhs and rhs are set
        c2, second = rhs.rhs.value, rhs.lhs  # type: ignore[union-attr]  # a binary expr's lhs and rhs are set
    else:
        c2, second = 1, rhs
    if first == second:
        return mul(first, const(c1 + c2))  # type: ignore[arg-type]  # `first` is an operand of a binary expr, so an Expr
    if lhs.kind == "add" and _is_const(lhs.rhs):  # type: ignore[arg-type]  # a binary expr's lhs and rhs are set
        return add(add(lhs.lhs, rhs), lhs.rhs)  # type: ignore[arg-type]  # a binary expr's lhs and rhs are set
    return Expr("add", 0, lhs, rhs)


def mul(lhs: Expr, rhs: Expr) -> Expr:
    if _is_const(lhs) and _is_const(rhs):
        return const(lhs.value * rhs.value)
    if not lhs.symbolic and not rhs.symbolic:
        return Expr("mul", 0, lhs, rhs)
    if not rhs.symbolic or _is_const(lhs):
        return mul(rhs, lhs)
    if _is_const(rhs, 1):
        return lhs
    if _is_const(rhs, 0):
        return rhs
    if lhs.kind == "mul" and _is_const(rhs) and _is_const(lhs.rhs):  # type: ignore[arg-type]  # a binary expr's lhs and rhs are set
        return mul(lhs.lhs, const(lhs.rhs.value * rhs.value))  # type: ignore[arg-type,union-attr]  # a binary expr's lhs and rhs are set
    if lhs.kind == "mul" and _is_const(lhs.rhs):  # type: ignore[arg-type]  # a binary expr's lhs and rhs are set
        return mul(mul(lhs.lhs, rhs), lhs.rhs)  # type: ignore[arg-type]  # a binary expr's lhs and rhs are set
    return Expr("mul", 0, lhs, rhs)


def sub(lhs: Expr, rhs: Expr) -> Expr:
    return add(lhs, mul(rhs, const(-1)))


def _floordiv(a: int, b: int) -> int:
    return a // b


def _ceildiv(a: int, b: int) -> int:
    return -((-a) // b)


def div(kind: str, lhs: Expr, rhs: Expr) -> Expr:
    """`floordiv`, `ceildiv` or `mod`, folded as MLIR folds them (by a
    positive constant only; anything else is left as written)."""
    if _is_const(rhs) and rhs.value > 0:
        c = rhs.value
        if _is_const(lhs):
            return const({"floordiv": _floordiv, "ceildiv": _ceildiv, "mod": lambda a, b: a % b}[kind](lhs.value, c))
        if c == 1:
            return const(0) if kind == "mod" else lhs
        if lhs.kind == "mul" and _is_const(lhs.rhs) and lhs.rhs.value % c == 0:  # type: ignore[arg-type,union-attr]  # a binary expr's lhs and rhs are set
            return const(0) if kind == "mod" else mul(lhs.lhs, const(lhs.rhs.value // c))  # type: ignore[arg-type,union-attr]  # a binary expr's lhs and rhs are set
        if kind != "mod" and lhs.kind == kind and _is_const(lhs.rhs) and lhs.rhs.value > 0:  # type: ignore[arg-type,union-attr]  # a binary expr's lhs and rhs are set
            return div(kind, lhs.lhs, const(lhs.rhs.value * c))  # type: ignore[arg-type,union-attr]  # a binary expr's lhs and rhs are set
        if kind == "mod" and lhs.kind == "mod" and _is_const(lhs.rhs) and lhs.rhs.value % c == 0:  # type: ignore[arg-type,union-attr]  # a binary expr's lhs and rhs are set
            return div("mod", lhs.lhs, rhs)  # type: ignore[arg-type]  # a binary expr's lhs and rhs are set
    return Expr(kind, 0, lhs, rhs)


_SPELLING = {"mul": " * ", "floordiv": " floordiv ", "ceildiv": " ceildiv ", "mod": " mod "}


def expr_text(e: Expr, names: Any = None, strong: bool = False) -> str:
    """`AsmPrinter::printAffineExprInternal`. `names(kind, pos)` spells a
    dim or symbol (default `d0`, `s0`)."""
    if e.kind == "const":
        return str(e.value)
    if e.kind in ("dim", "sym"):
        return names(e.kind, e.value) if names else f"{'d' if e.kind == 'dim' else 's'}{e.value}"
    lhs, rhs = e.lhs, e.rhs
    if not (lhs is not None and rhs is not None):
        raise InternalError("spec.syntax.affine: expected lhs is not None and rhs is not None")
    if e.kind != "add":
        if e.kind == "mul" and _is_const(rhs, -1):
            text = "-" + expr_text(lhs, names, True)
        else:
            text = expr_text(lhs, names, True) + _SPELLING[e.kind] + expr_text(rhs, names, True)
        return f"({text})" if strong else text
    if rhs.kind == "mul" and _is_const(rhs.rhs):  # type: ignore[arg-type]  # a binary expr's lhs and rhs are set
        c = rhs.rhs.value  # type: ignore[union-attr]  # a binary expr's lhs and rhs are set
        if c == -1:
            inner = expr_text(rhs.lhs, names, rhs.lhs.kind == "add")  # type: ignore[arg-type,union-attr]  # a binary expr's lhs and rhs are set
            text = expr_text(lhs, names) + " - " + inner
            return f"({text})" if strong else text
        if c < -1:
            text = expr_text(lhs, names) + " - " + expr_text(rhs.lhs, names, True) + f" * {-c}"  # type: ignore[arg-type]  # a binary expr's lhs and rhs are set
            return f"({text})" if strong else text
    if _is_const(rhs) and rhs.value < 0:
        text = expr_text(lhs, names) + f" - {-rhs.value}"
    else:
        text = expr_text(lhs, names) + " + " + expr_text(rhs, names)
    return f"({text})" if strong else text


# -- parsing --------------------------------------------------------------------------

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+)|(?P<id>[A-Za-z_][\w$.]*)|(?P<ssa>%[\w$.\-]+(?:#\d+)?)|(?P<op>->|>=|<=|==|[-+*()\[\],:]))"
)


class AffineError(ValueError):
    """A malformed map, set or subscript: (offset into the text, message)."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message


class _Parser:
    """Recursive descent over MLIR's affine grammar. `ids` maps a bare name
    to its dim or symbol; `ssa` (for subscripts and bounds) turns `%x` and
    `symbol(%x)` into dims and symbols in order of first use."""

    def __init__(self, text: str, ssa: bool = False) -> None:
        self.text = text
        self.toks: list[tuple[str, str, int]] = []
        pos = 0
        while pos < len(text):
            if text[pos:].strip() == "":
                break
            m = _TOKEN.match(text, pos)
            if m is None:
                raise AffineError(pos, "expected affine expression")
            kind = m.lastgroup or "op"
            self.toks.append((kind, m.group(kind), m.start(kind)))
            pos = m.end()
        self.i = 0
        self.ids: dict[str, Expr] = {}
        self.ssa = ssa
        self.dims: list[str] = []
        self.syms: list[str] = []

    def peek(self) -> tuple[str, str, int]:
        return self.toks[self.i] if self.i < len(self.toks) else ("end", "", len(self.text))

    def take(self, text: str | None = None) -> tuple[str, str, int]:
        tok = self.peek()
        if text is not None and tok[1] != text:
            raise AffineError(tok[2], f"expected '{text}'")
        self.i += 1
        return tok

    def accept(self, text: str) -> bool:
        if self.peek()[1] == text:
            self.i += 1
            return True
        return False

    def id_list(self, kind: str, close: str) -> int:
        n = 0
        if self.accept(close):
            return 0
        while True:
            k, name, at = self.take()
            if k != "id":
                raise AffineError(at, "expected bare identifier")
            if name in self.ids:
                raise AffineError(at, f"redefinition of identifier '{name}'")
            self.ids[name] = Expr(kind, n)
            n += 1
            if self.accept(close):
                return n
            self.take(",")

    def expr(self) -> Expr:
        e = self.term()
        while self.peek()[1] in ("+", "-"):
            op = self.take()[1]
            rhs = self.term()
            e = add(e, rhs) if op == "+" else sub(e, rhs)
        return e

    def term(self) -> Expr:
        e = self.unary()
        while True:
            k, text, _ = self.peek()
            if text == "*":
                self.take()
                e = mul(e, self.unary())
            elif k == "id" and text in ("floordiv", "ceildiv", "mod"):
                self.take()
                e = div(text, e, self.unary())
            else:
                return e

    def unary(self) -> Expr:
        k, text, at = self.peek()
        if text == "-":
            self.take()
            return mul(self.unary(), const(-1))
        if text == "(":
            self.take()
            e = self.expr()
            self.take(")")
            return e
        if k == "num":
            self.take()
            return const(int(text))
        if k == "id" and text in self.ids:
            self.take()
            return self.ids[text]
        if self.ssa and k == "ssa":
            self.take()
            return self._ssa(text, False)
        if self.ssa and k == "id" and text == "symbol":
            self.take()
            self.take("(")
            k2, name, at2 = self.take()
            if k2 != "ssa":
                raise AffineError(at2, "expected SSA operand")
            self.take(")")
            return self._ssa(name, True)
        if k == "id":
            raise AffineError(at, f"use of undeclared identifier '{text}'")
        raise AffineError(at, "expected affine expression")

    def _ssa(self, name: str, symbol: bool) -> Expr:
        if name in self.dims:
            return Expr("dim", self.dims.index(name))
        if name in self.syms:
            return Expr("sym", self.syms.index(name))
        if symbol:
            self.syms.append(name)
            return Expr("sym", len(self.syms) - 1)
        self.dims.append(name)
        return Expr("dim", len(self.dims) - 1)

    def end(self) -> None:
        k, _, at = self.peek()
        if k != "end":
            raise AffineError(at, "expected end of affine text")


@dataclass(frozen=True)
class AffineMap:
    dims: int
    syms: int
    results: tuple[Expr, ...]

    def __str__(self) -> str:
        head = "(" + ", ".join(f"d{i}" for i in range(self.dims)) + ")"
        if self.syms:
            head += "[" + ", ".join(f"s{i}" for i in range(self.syms)) + "]"
        return f"{head} -> (" + ", ".join(expr_text(e) for e in self.results) + ")"

    @property
    def text(self) -> str:
        return f"affine_map<{self}>"

    def is_identity(self) -> bool:
        return self.syms == 0 and self.results == tuple(Expr("dim", i) for i in range(self.dims))


@dataclass(frozen=True)
class IntegerSet:
    dims: int
    syms: int
    constraints: tuple[tuple[Expr, bool], ...]
    """(expression, is an equality) each."""

    def __str__(self) -> str:
        head = "(" + ", ".join(f"d{i}" for i in range(self.dims)) + ")"
        if self.syms:
            head += "[" + ", ".join(f"s{i}" for i in range(self.syms)) + "]"
        body = ", ".join(f"{expr_text(e)} {'==' if eq else '>='} 0" for e, eq in self.constraints)
        return f"{head} : ({body})"

    @property
    def text(self) -> str:
        return f"affine_set<{self}>"


def _head(p: _Parser) -> tuple[int, int]:
    p.take("(")
    dims = p.id_list("dim", ")")
    syms = 0
    if p.accept("["):
        syms = p.id_list("sym", "]")
    return dims, syms


def parse_map(body: str) -> AffineMap:
    """The inside of `affine_map<...>`."""
    p = _Parser(body)
    dims, syms = _head(p)
    p.take("->")
    p.take("(")
    results: list[Expr] = []
    if not p.accept(")"):
        while True:
            results.append(p.expr())
            if p.accept(")"):
                break
            p.take(",")
    p.end()
    return AffineMap(dims, syms, tuple(results))


def parse_set(body: str) -> IntegerSet:
    """The inside of `affine_set<...>`."""
    p = _Parser(body)
    dims, syms = _head(p)
    p.take(":")
    p.take("(")
    out: list[tuple[Expr, bool]] = []
    while True:
        lhs = p.expr()
        op = p.take()[1]
        rhs = p.expr()
        if op == ">=":
            out.append((sub(lhs, rhs), False))
        elif op == "<=":
            out.append((sub(rhs, lhs), False))
        elif op == "==":
            out.append((sub(lhs, rhs), True))
        else:
            raise AffineError(0, "expected '==', '>=' or '<='")
        if p.accept(")"):
            break
        p.take(",")
    p.end()
    return IntegerSet(dims, syms, tuple(out))


def ssa_exprs_text(m: AffineMap, dims: list[str], syms: list[str]) -> str:
    """`printAffineMapOfSSAIds`: the results with dims and symbols spelled
    as their operands (`symbol(%x)` for a symbol)."""

    def names(kind: str, pos: int) -> str:
        return dims[pos] if kind == "dim" else f"symbol({syms[pos]})"

    return ", ".join(expr_text(e, names) for e in m.results)


# -- canonical text of attributes and types --------------------------------------------

_AFFINE_START = re.compile(r"affine_(map|set)<")


def _close(text: str, start: int) -> int:
    """The index past the `>` closing the `<` at `start - 1` (`->`, `>=` skipped)."""
    depth = 1
    i = start
    while i < len(text):
        c = text[i]
        if c == "<" and text[i + 1 : i + 2] != "=":
            depth += 1
        elif c == ">" and text[i - 1] != "-" and text[i + 1 : i + 2] != "=":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise AffineError(len(text), "unbalanced affine text")


def canonical(kind: str, body: str) -> str:
    """The canonical text of `affine_map<body>` or `affine_set<body>`."""
    return parse_map(body).text if kind == "map" else parse_set(body).text


def _drop_identity_layout(t: str) -> str:
    m = re.search(r",\s*affine_map<(.*?)>(?=(?:,[^<>]*)?>$)", t)
    if m is None:
        return t
    try:
        layout = parse_map(m.group(1))
    except AffineError:
        return t
    return t[: m.start()] + t[m.end() :] if layout.is_identity() else t


# -- aliases ----------------------------------------------------------------------------


class AliasTable:
    """The `#name = value` definitions of one parse (each parse has its own:
    `BuilderBase.start_parse`)."""

    def __init__(self) -> None:
        self.attrs: dict[str, str] = {}
        self.where: dict[str, int] = {}
        """Where each was defined (offset in the text)."""


_ALIAS_USE = re.compile(r"#([A-Za-z_][\w$]*)(?![\w$.<])")


def substitute(text: str, aliases: AliasTable) -> str:
    """`text` with every dotless `#name` replaced by its definition in
    `aliases`; an undefined one raises `AffineError` at its offset."""
    if "#" not in text:
        return text

    def repl(m: re.Match[str]) -> str:
        value = aliases.attrs.get(m.group(1))
        if value is None:
            raise AffineError(m.end(), f"undefined symbol alias id '{m.group(1)}'")
        return value

    return _ALIAS_USE.sub(repl, text)


def _spans(text: str) -> Iterator[tuple[int, int]]:
    """Where the affine maps and sets in `text` start and end, in order
    (quoted strings skipped)."""
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if (
            c == "a"
            and text.startswith("affine_", i)
            and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_$."))
        ):
            m = _AFFINE_START.match(text, i)
            if m is not None:
                end = _close(text, m.end())
                yield i, end
                i = end
                continue
        i += 1


def _occurrences(text: str) -> list[str]:
    """The affine maps and sets in `text`, in order (quoted strings skipped)."""
    return [text[i:j] for i, j in _spans(text)]


def _generic_order(top: Any) -> list[str]:
    """mlir-opt-19's alias walk of the generic form: an op's regions (block
    argument types, then the ops), then its operand and result types, then
    its properties and attributes."""
    out: list[str] = []

    def visit(op: Any) -> None:
        for region in op.regions:
            for block in region.blocks:
                for a in block.args:
                    out.extend(_occurrences(str(a.type)))
                for inner in block.ops:
                    visit(inner)
        for v in op.operands:
            out.extend(_occurrences(str(v.type)))
        for r in op.results:
            out.extend(_occurrences(str(r.type)))
        for _, value in sorted(op.properties.items()):
            out.extend(_occurrences(str(value)))
        for value in op.attributes.values():
            out.extend(_occurrences(str(value)))

    visit(top)
    return out


def with_aliases(text: str, top: Any, generic: bool) -> str:
    """The printed `text` of `top` with its maps and sets aliased, the
    definitions first, as mlir-opt-19 prints a module."""
    if "affine_" not in text:
        return text
    found = _occurrences(text)
    if not found:
        return text
    order = _generic_order(top) if generic else found
    seen: dict[str, None] = {}
    for t in order:
        if t in found:
            seen.setdefault(t, None)
    for t in found:
        seen.setdefault(t, None)
    names: dict[str, str] = {}
    counts = {"map": 0, "set": 0}
    for prefix in ("map", "set"):
        for t in seen:
            if t.startswith(f"affine_{prefix}<"):
                k = counts[prefix]
                names[t] = f"#{prefix}" + (str(k) if k else "")
                counts[prefix] += 1
    defs = "".join(
        f"{names[t]} = {t}\n" for t in sorted(names, key=lambda t: (t.startswith("affine_set"), list(seen).index(t)))
    )
    body = _replace(text, names)
    return defs + body


def _replace(text: str, names: dict[str, str]) -> str:
    out = []
    start = 0
    for i, end in _spans(text):
        out.append(text[start:i])
        out.append(names.get(text[i:end], text[i:end]))
        start = end
    out.append(text[start:])
    return "".join(out)
