"""What every rule of the IR builder shares: operand placeholders, the
partial op a rule returns, and the small conversions from tokens.

The builder (`spec.syntax.parser._Builder`) is one lark transformer made of
mixins: `rules_core` (ops, regions, values, attributes, the generic form)
and one per dialect (`spec.dialects.<dialect>.syntax`); each builds on `BuilderBase`
here, which also holds the helpers several dialects share (function-like
ops, attr-dict splitting, enum errors, splitting type text at top-level
commas).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lark import Token, Transformer

from spec import registry
from spec.attributes import (
    I32,
    I64,
    INDEX,
    ArrayAttr,
    Attr,
    DenseArrayAttr,
    DictAttr,
    FunctionType,
    StringAttr,
    SymbolRefAttr,
    Type,
    TypeAttr,
    canonical_type_text,
    shared_type,
)
from spec.diagnostics import DiagnosticError, error
from spec.ir import EMPTY_DICT, EMPTY_LIST, Block, Location, Operation, Region, Value
from spec.syntax import affine
from spec.syntax.options import DEFAULT_OPTIONS, ParseOptions
from spec.syntax.string_literals import unescape

if TYPE_CHECKING:
    from spec.syntax.resolve import VerifyLater

K_DYNAMIC = -9223372036854775808
"""`ShapedType::kDynamic`: a dynamic offset, size or stride in a static list."""
CMPI_PREDICATES = "eq ne slt sle sgt sge ult ule ugt uge".split()
CMPF_PREDICATES = "false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true".split()
SPLIT_MARKER = "// -----"


@dataclass(slots=True)
class UseRef:
    """An operand before name resolution."""

    name: str
    number: int
    loc: Location
    type: Type | None = None


@dataclass(slots=True)
class PartialOp:
    """An op body before its results are bound to the names on the left."""

    op: Operation
    result_types: list[Type]
    async_kw: Token | None = None
    """The `async` keyword of a GPU op in custom form (its result must be named)."""


@functools.lru_cache(maxsize=1024)
def segment_sizes(*sizes: int) -> DenseArrayAttr:
    # Attributes are immutable: ops with the same segment sizes share one
    # (fewer objects to build, and to pickle when a forked parse sends them).
    return DenseArrayAttr(I32, tuple(sizes))


@functools.lru_cache(maxsize=4096)
def symbol_ref_attr(root: str, nested: tuple[str, ...] = ()) -> SymbolRefAttr:
    """`@root::@nested...`, one shared attribute per reference (a program
    names a few kernels and callees many times)."""
    return SymbolRefAttr(root, nested)


class TokenError(Exception):
    """An error at `offset` characters into token `tok`: the builder's
    wrapper turns it into a diagnostic there (the token knows its line and
    column, not its file)."""

    def __init__(
        self, tok: Any, offset: int, message: str, *also: str, later: tuple[tuple[int, str], ...] = ()
    ) -> None:
        super().__init__(message)
        self.tok, self.offset, self.message = tok, offset, message
        self.also = also
        """Further errors mlir-opt-19 reports at the same place."""
        self.later = later
        """Further errors it reports further into the token: (offset, message)
        each (an enum attribute's unknown case, then the failed parameter at
        the `>` after it)."""


DIALECT_TYPES = {
    "gpu": frozenset(
        "async.token mma_matrix sparse.dntensor_handle sparse.spmat_handle sparse.spgemmop_handle".split()
    ),
    "async": frozenset("token group value coro.id coro.handle coro.state".split()),
}
"""The types mlir-opt-19's `gpu` and `async` dialects parse (checked against
it): any other `!gpu.x` or `!async.x` is an error there, not an opaque type."""
_DIALECT_TYPE = re.compile(r"!(gpu|async)\.([A-Za-z_][\w$.]*)")


_UNREGISTERED_HINT = (
    "created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() "
    "on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used"
)
_DIALECT_REF = re.compile(r"([!#])([A-Za-z_][\w$]*)([.<])")
_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def _angle_end(text: str, start: int) -> int:
    """The index past the `>` closing the `<` at `start` (`->` is no close)."""
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if c == "<":
            depth += 1
        elif c == ">" and text[i - 1] != "-":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


@functools.lru_cache(maxsize=4096)
def unregistered_dialect_use(text: str) -> tuple[int, str] | None:
    """The first type or attribute of a dialect mlir-opt-19 does not register
    in the text of a type or attribute token: (offset it points at,
    mlir-opt-19's message). It prints the offender in its opaque form
    (`!"foo"<"t">`) and points at the body after the dot, or at the sigil for
    `!foo<...>`. A dotless `!x`/`#x` is an alias, never a dialect."""
    scan = _QUOTED.sub(lambda m: " " * len(m.group(0)), text)
    for m in _DIALECT_REF.finditer(scan):
        sigil, dialect, sep = m.groups()
        if dialect in registry.REGISTERED_DIALECTS:
            continue
        if sep == ".":
            start = m.end()
            end = start
            while end < len(text) and (text[end].isalnum() or text[end] in "_$."):
                end += 1
            if end < len(text) and text[end] == "<":
                end = _angle_end(text, end)
            offset, body = start, text[start:end]
        else:
            offset, body = m.start(), text[m.end() : _angle_end(text, m.end() - 1) - 1]
        printed = f'{sigil}"{dialect}"<"{body}">'
        if sigil == "!":
            return offset, f"`{printed}` type {_UNREGISTERED_HINT}"
        return offset, f"{printed} : 'none' attribute {_UNREGISTERED_HINT}"
    return None


def check_dialects(tok: Any, allow_unregistered: bool) -> None:
    """Reject a type or attribute token of an unregistered dialect, unless
    the parse allows them (as mlir-opt-19 does while parsing)."""
    if allow_unregistered:
        return
    text = str(tok)
    if "!" in text or "#" in text:
        found = unregistered_dialect_use(text)
        if found is not None:
            raise TokenError(tok, *found)


def type_with_affine(tok: Any, text: str, of_text: Any, aliases: affine.AliasTable) -> Type | FunctionType:
    """A type token whose text has alias uses or affine maps (a memref
    layout): aliases resolved (from the parse's `aliases`), maps canonical,
    an identity layout dropped; the rest canonicalised by `of_text`
    (`build_base._type_of_text`)."""
    try:
        text = affine.substitute(text, aliases)
    except affine.AffineError as exc:
        raise TokenError(tok, exc.offset, exc.message) from None
    maps: list[str] = []
    out, pos = [], 0
    for m in affine._AFFINE_START.finditer(text):
        if m.start() < pos:
            continue
        end = affine._close(text, m.end())
        try:
            maps.append(affine.canonical(m.group(1), text[m.end() : end - 1]))
        except affine.AffineError as exc:
            raise TokenError(tok, m.end() + exc.offset, exc.message) from None
        out.append(text[pos : m.start()] + f"#__affine{len(maps) - 1}")
        pos = end
    out.append(text[pos:])
    t = of_text("".join(out))
    if isinstance(t, tuple):
        raise TokenError(tok, *t)
    result = re.sub(r"#__affine(\d+)", lambda m: maps[int(m.group(1))], t.text)
    if result.startswith("memref<"):
        result = affine._drop_identity_layout(result)
    return Type(result)


_LITERAL_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*')


def _blank_comment(m: re.Match[str]) -> str:
    text = m.group()
    return " " * len(text) if text.startswith("//") else text


def without_comments(tok: Any) -> Any:
    """A bracketed token (`dense<`, `#spirv.target_env<`, `tuple<` ...) that
    spans lines with its `//` comments blanked, as mlir-opt-19 skips them
    there: blanks of the same length, so offsets into it stay right."""
    text = str(tok)
    if "//" not in text or "\n" not in text:
        return tok
    blanked = _LITERAL_OR_COMMENT.sub(_blank_comment, text)
    return Token.new_borrow_pos(tok.type, blanked, tok) if isinstance(tok, Token) else blanked


def read_type(tok: Any, allow_unregistered: bool, aliases: affine.AliasTable) -> Type | FunctionType:
    """The type token `tok` spells, in a parse that allows unregistered
    dialects or not and has defined `aliases` (`BuilderBase.read_type`
    passes its parse's)."""
    if isinstance(tok, (Type, FunctionType)):
        return tok
    tok = without_comments(tok)
    text = str(tok)
    if "#" in text or "affine_" in text:
        # Alias uses and affine map layouts (`spec.syntax.affine`).
        if "affine_" in text or re.search(r"#[A-Za-z_][\w$]*(?![\w$.<])", text):
            check_dialects(tok, allow_unregistered)
            return type_with_affine(tok, text, _type_of_text, aliases)
    t = _type_of_text(text)
    if isinstance(t, tuple):
        raise TokenError(tok, *t)
    check_dialects(tok, allow_unregistered)
    return t


@functools.lru_cache(maxsize=4096)
def _type_of_text(text: str) -> Type | tuple[int, str] | tuple[int, str, str]:
    """The type `text` spells, canonical; or, for an unknown `gpu` or
    `async` type in it, (offset of its name, mlir-opt-19's message).
    Programs repeat a handful of types many times: each is read once."""
    if "!gpu." in text or "!async." in text:
        for m in _DIALECT_TYPE.finditer(text):
            dialect, name = m.group(1), m.group(2)
            if name not in DIALECT_TYPES[dialect]:
                if dialect == "gpu":
                    return m.start(2), f"unknown gpu type: {name}"
                return m.start(2), f"unknown  type `{name}` in dialect `{dialect}`"
            if name == "mma_matrix":
                refused = _mma_matrix_error(text, m.end())
                if refused is not None:
                    return (m.start(2) if refused[0] is None else refused[0]), refused[1]
    if text.startswith("!") and not registry.registered_dialect(text[1:].split("<", 1)[0]):
        # A type of a dialect mlir-opt-19 does not know is kept as written
        # (`!bb9.memref<4 x f32>` prints so); only its outer blanks go.
        return Type(text.strip())
    if "!llvm" in text:
        refused = _llvm_type_keyword_error(text)
        if refused is not None:
            return refused
    if "!llvm." in text and "ptr" in text:
        typed = _typed_llvm_pointer(text)
        if typed is not None:
            return (
                typed,
                "expected integer value",
                "failed to parse LLVMPointerType parameter 'addressSpace' which is to be a `unsigned`",
            )
    if "vector<" in text:
        for m in _VECTOR_DIMS.finditer(text):
            if any(int(d) == 0 for d in re.findall(r"\d+", m.group(1))):
                # 19 reads the dims, then refuses at the element type.
                return m.end(), "vector types must have positive constant sizes"
    if "strided<" in text:
        for m in re.finditer(r"strided<", text):
            bad = _strided_error(text, m.end())
            if bad is not None:
                return bad, "expected '>'"
    return shared_type(Type(canonical_type_text(text)))


_VECTOR_DIMS = re.compile(r"(?:^|(?<=[<(,:\s])|(?<=[\d?\]]x))vector<\s*((?:\[?\s*\d+\s*\]?\s*x\s*)+)")
"""A builtin vector type's dims (`vector<2x[4]x`), up to its element type."""

_MMA_NO_ROLE = re.compile(r"<\s*(?:\d+\s*x\s*)*[^,<>?]+(?:<[^>]*>)?\s*>")
_MMA_MATRIX = re.compile(r'<\s*((?:\d+\s*x\s*)*)([^,<>]+(?:<[^>]*>)?)\s*,\s*"([^"]*)"\s*>')


def _mma_matrix_error(text: str, pos: int) -> tuple[int | None, str] | None:
    """Where (None: at the type's name) and why mlir-opt-19 refuses the
    `!gpu.mma_matrix<...>` whose parameters start at `pos`, or None: a
    static shape (`expected static shape`, at the `?`), then
    `MMAMatrixType::verify`: a role of AOp, BOp or COp, two dimensions, an
    si8, ui8, i32, f16 or f32 element."""
    m = _MMA_MATRIX.match(text, pos)
    if m is None:
        bare = _MMA_NO_ROLE.match(text, pos)
        return (bare.end() - 1, "expected ','") if bare is not None else None
    if m.group(2).lstrip().startswith("?"):
        return m.start(2) + m.group(2).index("?"), "expected static shape"
    if m.group(3) not in ("AOp", "BOp", "COp"):
        return None, "operand expected to be one of AOp, BOp or COp"
    if m.group(1).count("x") != 2:
        return None, "MMAMatrixType must have exactly two dimensions"
    if m.group(2).strip() not in ("si8", "ui8", "i32", "f16", "f32"):
        return None, "MMAMatrixType elements must be SI8, UI8, I32, F16, or F32"
    return None


_LLVM_TYPE = re.compile(r"!llvm(?:\.|<\s*)")
_LLVM_KEYWORDS = frozenset(
    "void ppc_fp128 x86_mmx x86_amx token label metadata func ptr vec array struct target".split()
)
"""The keywords that start an LLVM dialect type in mlir-opt-19."""
_BUILTIN_SCALAR = re.compile(r"(?:[su]?i\d+|f16|f32|f64|f80|f128|bf16|tf32|index|none|f8E\w+)(?![\w$.])")
_WORD = re.compile(r"[A-Za-z_][\w$]*")


def _llvm_type_keyword_error(text: str) -> tuple[int, str] | None:
    """(offset, mlir-opt-19's message) for an LLVM dialect type in `text`
    that does not start with one of its keywords: a builtin type there
    (`!llvm.i64`, the pre-2021 spelling) is `unexpected type, expected
    keyword`, another word `unknown LLVM type: W`, anything else
    (`!llvm<"float*">`) `expected valid keyword`."""
    for m in _LLVM_TYPE.finditer(text):
        if m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_$."):
            continue
        at = m.end()
        if _BUILTIN_SCALAR.match(text, at):
            return at, "unexpected type, expected keyword"
        word = _WORD.match(text, at)
        if word is None:
            return at, "expected valid keyword"
        if word.group() not in _LLVM_KEYWORDS:
            return at, f"unknown LLVM type: {word.group()}"
    return None


_LLVM_PTR = re.compile(r"(?<![\w$.])(?:!llvm\.)?ptr\s*<\s*")
_ADDRESS_SPACE = re.compile(r"[0-9]+\s*>")


def _typed_llvm_pointer(text: str) -> int | None:
    """Where a typed LLVM pointer (`!llvm.ptr<f32>`, or `ptr<i8>` inside an
    LLVM type) puts its pointee, or None: mlir-opt-19's pointers are opaque,
    `<...>` holds only an address space (`expected integer value` there)."""
    for m in _LLVM_PTR.finditer(text):
        if m.group().startswith("ptr") and "!llvm." not in text[: m.start()]:
            continue
        if not _ADDRESS_SPACE.match(text, m.end()):
            return m.end()
    return None


_STRIDE = r"\s*(?:-?\d+|\?)\s*"
_STRIDED_LIST = re.compile(rf"\s*\[(?:{_STRIDE}(?:,{_STRIDE})*)?\]")
_STRIDED_OFFSET = re.compile(rf"\s*,\s*offset\s*:{_STRIDE}")


def _strided_error(text: str, pos: int) -> int | None:
    """Where a `strided<[s, ...], offset: o>` layout starting at `pos` (after
    `strided<`) goes wrong, or None: mlir-opt-19 reads the list and the
    optional offset, then wants `>` (a malformed list is reported there
    too, with another message; the verdict is the same)."""
    m = _STRIDED_LIST.match(text, pos)
    if m is None:
        return pos
    pos = m.end()
    m = _STRIDED_OFFSET.match(text, pos)
    if m is not None:
        pos = m.end()
    if text[pos:].lstrip().startswith(">"):
        return None
    # mlir-opt-19 points just after what it read, before any blank.
    return len(text[:pos].rstrip())


def symbol_name(tok: str) -> str:
    body = tok[1:]
    return unescape(body) if body.startswith('"') else body


_MEMREF_DIMS = re.compile(r"memref<(?:(?:\d+|\?)x)*")
_OPENS, _CLOSES = frozenset("<([{"), frozenset(">)]}")


def memref_element(text: str) -> str:
    """The element type of the memref type `text`: what follows the dims, up
    to a `,` or the closing `>` outside any bracket (`vector<2x4xi32>` in
    `memref<vector<2x4xi32>>`); `text` itself if it is not a memref."""
    m = _MEMREF_DIMS.match(text)
    if m is None:
        return text
    depth = 0
    for i in range(m.end(), len(text)):
        c = text[i]
        if c in _OPENS:
            depth += 1
        elif c in _CLOSES or (c == "," and depth == 0):
            if depth == 0:
                return text[m.end() : i].strip()
            depth -= 1
    return text


_new_location = tuple.__new__


def enum_error(tok: Token, op: str, attr: str, values: tuple[str, ...] | list[str], loc: Any) -> DiagnosticError:
    return DiagnosticError(
        error(
            loc,
            f"custom op '{op}' expected string or keyword containing one of the following enum values for attribute '{attr}' [{', '.join(values)}]",
        )
    )


def split_top(text: str) -> list[str]:
    """`text` split at the commas outside brackets, each part stripped."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<([{":
            depth += 1
        elif c in ">)]}" and not (c == ">" and i and text[i - 1] == "-"):
            depth -= 1
        elif c == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        out.append(text[start:].strip())
    return out


def symbol_text(tok: Token) -> str:
    text = str(tok)[1:]
    return unescape(text) if text.startswith('"') else text


def raw_rule(fn: Any) -> Any:
    """Mark a rule callback that lark calls with its children alone, without
    the wrapper that gives the others `(meta, items)` and a located
    diagnostic for any failure: for hot rules that cannot fail, or fail
    only with a located diagnostic of their own. (Besides `value_use`, seven
    rules are raw: they run about 85,000 times in the 10k benchmark's
    output, whose parse took 6% less without their wrapper.)"""
    fn.raw_rule = True
    return fn


class BuilderBase(Transformer):
    """State and helpers of the builder: the file being read and how to
    make a located op from a rule's children."""

    def mixed_sizes(self, entries: list, props_key: str, props: dict[str, Attr], base: int = 0) -> list[UseRef]:
        """A list of static integers (read in `base`) and SSA values, as MLIR's
        mixed static/dynamic lists: `props[props_key]` gets the statics with
        `K_DYNAMIC` for each value, the values (typed `index`) are returned."""
        statics: list[int] = []
        dyn: list[UseRef] = []
        for e in entries:
            if isinstance(e, UseRef):
                statics.append(K_DYNAMIC)
                dyn.append(self.typed(e, INDEX))
            else:
                statics.append(int(str(e), base))
        props[props_key] = DenseArrayAttr(I64, tuple(statics))
        return dyn

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
        self.file = "<stdin>"
        self.line_offset = 0
        self.options: ParseOptions = DEFAULT_OPTIONS
        """The settings of the parse under way (`parser.parse_ops` sets them
        with the file, before `start_parse`)."""
        self.start_parse()

    def start_parse(self) -> None:
        """Forget what the previous parse recorded for the checks after it."""
        self.aliases = affine.AliasTable()
        """The `#name = value` aliases this parse has defined so far."""
        self.bare_names: list[tuple[Operation, Location, str]] = []
        """Ops written with a name without a dialect (`call`, `return`,
        `module`): the op, where its name is, the name as written. Which
        dialect such a name belongs to depends on the ops around it
        (`resolve.check_default_dialects`)."""
        self.generic_ops: set[int] = set()
        """Ops (with regions) written in the generic form, by `id`: they
        leave the default dialect of their regions as it was."""
        self.verify_later: dict[int, VerifyLater] = {}
        """What ops failed of MLIR's verifier while they were built, by op
        `id`: reported by `resolve.verify` once the whole text is parsed, in
        the verifier's order."""
        self.empty_regions: dict[int, Location] = {}
        """Regions written `{}` (no block), by `id`: where their `{` is, for
        the custom forms that reject them (`func.func @f() {}`)."""
        self.deferred_ops: list[Operation] = []
        """The ops `verify_later` names, kept alive: an op the builder drops
        again (a generic `gpu.module_end`) must not lend its `id` to a later
        op."""

    def read_type(self, tok: Any) -> Type | FunctionType:
        """The type token `tok` spells, as this parse reads it (its
        unregistered-dialect setting, its aliases)."""
        return read_type(tok, self.options.allow_unregistered, self.aliases)

    def read_value_type(self, tok: Any) -> Type:
        """`read_type` where the grammar's place holds the type of a value: a
        function type written there is an error at the token, not a value of
        the wrong kind for the builder."""
        t = self.read_type(tok)
        if isinstance(t, FunctionType):
            raise TokenError(tok, 0, "invalid kind of type specified")
        return t

    def value_type(self, tok: Any) -> Type:
        """The type of a value written `tok`: a function type that types a
        value (a block argument, `func.constant`'s result, `func.call_indirect`'s
        callee) is kept as a type of its text, so that every use and definition
        of the value compare equal and every tool reads it as a type."""
        t = tok if isinstance(tok, FunctionType) else self.read_type(tok)
        return Type(str(t)) if isinstance(t, FunctionType) else t

    def check_dialects(self, tok: Any) -> None:
        """`check_dialects` with this parse's unregistered-dialect setting."""
        check_dialects(tok, self.options.allow_unregistered)

    def bare_name(self, partial: PartialOp, kw: Token) -> PartialOp:
        """Record `partial`'s op if its keyword `kw` has no dialect prefix."""
        if "." not in kw:
            self.bare_names.append((partial.op, self.tok_loc(kw), str(kw)))
        return partial

    def loc(self, meta: Any) -> Location:
        """`meta` is the op's keyword token (or `None` for inner rules)."""
        if isinstance(meta, Token):
            return self.tok_loc(meta)
        return Location(self.file, 0, 0)

    def tok_loc(self, tok: Token) -> Location:
        # `Location(...)` runs the named tuple's `__new__`, a Python function:
        # the parse makes one location per op, result and operand.
        return _new_location(Location, (self.file, (tok.line or 0) + self.line_offset, tok.column or 0))

    def use(self, tok: Token, type: Type | None = None) -> UseRef:
        # One per operand of the file: `tok_loc` inlined.
        return self.use_at(tok.value, tok.line or 0, tok.column or 0, type)

    def use_at(self, text: str, line: int, column: int, type: Type | None = None) -> UseRef:
        """The operand `text` (a `VALUE_ID`) written at `line`:`column` of the
        text being parsed: `use` of its token, for the fast path
        (`spec.syntax.fast_path`), which builds no token for it."""
        loc = _new_location(Location, (self.file, line + self.line_offset, column))
        if "#" in text:
            name, _, num = text.partition("#")
            return UseRef(name, int(num), loc, type)
        return UseRef(text, 0, loc, type)

    def typed(self, use: UseRef, type: Type) -> UseRef:
        use.type = type
        return use

    def op(
        self,
        name: str,
        meta: Any,
        operands: list[UseRef] | None = None,
        result_types: list[Type] | None = None,
        properties: dict[str, Attr] | None = None,
        attributes: dict[str, Attr] | None = None,
        regions: list[Region] | None = None,
        successors: list | None = None,
    ) -> PartialOp:
        op = Operation(
            name,
            operands=list(operands) if operands else [],  # type: ignore[arg-type]  # UseRefs until spec.syntax.resolve puts the values in
            properties=dict(properties) if properties else EMPTY_DICT,
            attributes=dict(attributes) if attributes else EMPTY_DICT,
            successors=successors or EMPTY_LIST,
            loc=self.loc(meta),
        )
        if regions:
            for region in regions:
                op.add_region(region)
        return PartialOp(op, list(result_types) if result_types else [])

    def op_with_flags(
        self,
        name: str,
        meta: Any,
        operands: list,
        results: list[Type],
        rest: list,
        props: dict[str, Attr] | None = None,
    ) -> PartialOp:
        """The op of a custom form whose trailing parts (`rest`) are flags
        read as `(name, attr)` tuples (fast-math, overflow) and at most one
        attr-dict: the flags join `props`, the attr-dict is split into
        inherent and discardable attributes as MLIR does."""
        props = dict(props or {})
        attrs = None
        for it in rest:
            if isinstance(it, tuple):
                props[it[0]] = it[1]
            elif isinstance(it, dict):
                attrs = it
        props, attrs = self.split_attrs(name, attrs, props)
        return self.op(name, meta, operands, results, properties=props, attributes=attrs)

    def split_attrs(self, name: str, attrs: dict[str, Attr] | None, props: dict[str, Attr]) -> tuple[dict, dict]:
        """Move inherent attributes written in an attr-dict into properties,
        as MLIR does, and add the op's default properties."""
        info = registry.lookup(name)
        props = {**info.default_properties, **props}
        rest = {}
        for k, v in (attrs or {}).items():
            if k in info.properties:
                props[k] = v
            else:
                rest[k] = v
        return props, rest

    def _typed_list(self, uses: list[UseRef] | None, types: list[Type] | None, meta: Any) -> list[UseRef]:
        uses = uses or []
        types = types or []
        if len(uses) != len(types):
            raise DiagnosticError(error(self.loc(meta), f"{len(uses)} operands present, but expected {len(types)}"))
        return [self.typed(u, t) for u, t in zip(uses, types)]

    def _async_kw(self, kw: Token | None, partial: PartialOp) -> PartialOp:
        partial.async_kw = kw
        return partial

    def _ensure_terminator(self, region: Region, name: str, loc: Location) -> None:
        if not region.blocks:
            region.append(Block())
        block = region.blocks[-1]
        if not block.ops or not registry.lookup(block.ops[-1].name).terminator:
            block.append(Operation(name, loc=loc))

    def _entry_args(self, region: Region, args: list[tuple[Token, Type]]) -> None:
        if not region.blocks:
            region.append(Block())
        entry = region.blocks[0]
        if args and entry.label:
            # The op names the entry block's arguments; a label there would
            # name them again (mlir-opt rejects it the same way).
            raise DiagnosticError(error(entry.loc, "invalid block name in region with named arguments"))
        for i, (tok, t) in enumerate(args):
            entry.args.insert(i, Value(t, entry, i, str(tok), self.tok_loc(tok)))
        for i, v in enumerate(entry.args):
            v.index = i

    def _function_parts(self, items: list) -> dict[str, Any]:
        parts: dict[str, Any] = {
            "vis": None,
            "sym": "",
            "args": [],
            "results": [],
            "attrs": {},
            "region": Region(),
            "attribs": [],
            "kernel": False,
        }
        for it in items:
            if isinstance(it, Token) and it.type == "VISIBILITY":
                parts["vis"] = str(it)
            elif isinstance(it, Token) and it.type == "SYMBOL":
                parts["sym"] = symbol_name(str(it))
            elif isinstance(it, Token) and it.type == "KERNEL_KW":
                parts["kernel"] = True
            elif isinstance(it, tuple) and it[0] in ("args", "results"):
                parts[it[0]] = it[1]
            elif isinstance(it, tuple) and it[0] == "attrib":
                parts["attribs"].append(it)
            elif isinstance(it, dict):
                parts["attrs"] = it
            elif isinstance(it, Region):
                parts["region"] = it
        return parts

    def _function_like(self, meta: Any, items: list) -> tuple[dict, dict, Region, FunctionType]:
        p = self._function_parts(items)
        args, results, region = p["args"], p["results"], p["region"]
        fn = FunctionType(tuple(a[2] for a in args), tuple(r[2] for r in results))
        props: dict[str, Attr] = {"sym_name": StringAttr(p["sym"]), "function_type": TypeAttr(fn)}
        if p["vis"]:
            props["sym_visibility"] = StringAttr(p["vis"])
        if any(a[3] for a in args):
            props["arg_attrs"] = ArrayAttr(tuple(DictAttr(tuple(sorted((a[3] or {}).items()))) for a in args))
        if any(r[3] for r in results):
            props["res_attrs"] = ArrayAttr(tuple(DictAttr(tuple(sorted((r[3] or {}).items()))) for r in results))
        if not region.blocks and id(region) in self.empty_regions:
            # A body written `{}`: mlir-opt-19's function parser refuses it.
            where = self.empty_regions[id(region)]
            raise DiagnosticError(error(where, "custom op 'func.func' expected non-empty function body"))
        if region.blocks:
            if any(a[0] != "named" for a in args):
                raise DiagnosticError(error(self.loc(meta), "expected SSA identifier"))
            self._entry_args(region, [(a[1], a[2]) for a in args])
        return props, p["attrs"], region, fn

    def _rest(self, items: list) -> tuple[dict[str, Attr] | None, list]:
        """The attr-dict among `items` (or None) and the other non-None items."""
        attrs = next((i for i in items if isinstance(i, dict)), None)
        return attrs, [i for i in items if i is not None and not isinstance(i, dict)]

    def _attrs(self, items: list) -> dict[str, Attr] | None:
        return next((i for i in items if isinstance(i, dict)), None)

    def _custom_op(
        self,
        name: str,
        meta: Any,
        operands: list[UseRef],
        results: list[Type],
        attrs: dict | None,
        props: dict[str, Attr] | None = None,
        **kw: Any,
    ) -> PartialOp:
        """The op `name` of a custom form: `attrs` (its attr-dict) split into
        properties, joining `props`, and discardable attributes."""
        props, attrs = self.split_attrs(name, attrs, props or {})
        return self.op(name, meta, operands, results, properties=props, attributes=attrs, **kw)
