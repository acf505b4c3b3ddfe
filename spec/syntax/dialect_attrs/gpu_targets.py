"""GPU target attributes (`#nvvm.target<...>`, `#rocdl.target<...>`,
`#spirv.target_env<...>` with its `#spirv.vce<...>` and
`#spirv.resource_limits<...>`) and the offloading handler
`#gpu.select_object<...>`, spelled as mlir-opt-19 prints them, wherever
they are written; and the attribute names of the `gpu`, `nvvm`, `rocdl` and
`spirv` dialects, the others being an error there.

The grammar reads any `#dialect.name<...>` attribute as one opaque token
(`HASH_ATTR`, quoted strings inside skipped) kept by its text. These are
the ones a `gpu.module` carries (its `targets` and `offloadingHandler`), and
mlir-opt-19 does not print them as written:

- a target's parameters come back in declaration order with those equal to
  their defaults left out (`#nvvm.target<chip = "sm_50">` prints
  `#nvvm.target`); `#spirv.resource_limits` likewise, but keeps its `<>`;
- an untyped object index gets `: i64` (`#gpu.select_object<1>` prints
  `#gpu.select_object<1 : i64>`);
- `#spirv.target_env<vce, [api=A,] [vendor[:device[:id]],] limits>` drops
  an `Unknown` client API, vendor or device type (and an unknown name reads
  as `Unknown`), prints `api=A` without blanks and the device id in decimal
  (wrapped to 32 bits); `#spirv.vce<version, [capabilities], [extensions]>`
  keeps its lists as written (order and repeats).

So their text is parsed here and rebuilt canonically; malformed ones get
mlir-opt-19's message at its column (an offset into the token): a missing
punctuation mark is reported just past the token before it, anything else
where it starts. An attribute name these four dialects do not have is
mlir-opt-19's error at the name (`DIALECT_ATTRS`, probed from it). Any
dialect attribute whose body does not nest its `<>`, `[]`, `()`, `{}` is
mlir-opt-19's `unbalanced` error (the token only balances `<>`).

Not modelled: the other attributes of these dialects (`#gpu.address_space`,
`#nvvm.shfl_kind`, ...) keep their text; so do the dialect-only spellings
(`#nvvm<target<O = 3>>`, which mlir-opt-19 prints `#nvvm.target<O = 3>`),
but for their name's check. An unknown client API, vendor or device type in
a `#spirv.target_env`: mlir-opt-19 reports it (`unknown vendor: X`) and
goes on, printing the output and exiting 0 if nothing else fails; here it
is silent (no such diagnostic exists) unless the same attribute then fails,
where it is the error reported, as the first line there. Nested `#spirv`
attributes other than the `vce` and resource limits (an alias, the
dialect-only spelling) are an invalid kind here. Inside a token, a string
with an unknown escape (`"\\q"`) is accepted and an unterminated one splits
the token (mlir-opt-19 rejects both); a name is checked when its token is
reduced, so a syntax error just after it comes first here. mlir-opt-22's defaults
differ (its `#rocdl.target` `abi` default is "600", 19's "500").

The SPIR-V syntaxes are read in `spec.syntax.dialect_attrs.spirv`; reading any of
these texts (parameter lists, nested attributes, located errors) in
`spec.syntax.dialect_attrs.text`. A nested attribute is read by the
parser's attribute grammar, handed in as `parse_value`
(`spec.syntax.parser.parse_attr_value`).
"""

from __future__ import annotations

import re
from typing import Any

from spec.attributes import Attr, IntegerAttr, OpaqueAttr
from spec.syntax.affine import AffineError, parse_map
from spec.syntax.build_base import TokenError
from spec.syntax.dialect_attrs.spirv import (
    SPIRV_ENTRY_POINT_ABI,
    SPIRV_ENTRY_POINT_ABI_NAME,
    SPIRV_LIMITS,
    SPIRV_LIMITS_NAME,
    SPIRV_TARGET,
    SPIRV_VCE,
    target_env,
    vce,
)
from spec.syntax.dialect_attrs.text import (
    INT,
    KEYWORD,
    STRAY,
    AttrTextError,
    Param,
    ValueParser,
    param_list,
    read_struct,
    skip_blanks,
    split_top,
    to_int,
    unbalanced,
)
from spec.syntax.string_literals import quote, unescape

TARGET_PARAMS: dict[str, tuple[Param, ...]] = {
    "#nvvm.target": (
        Param("O", "int", "2"),
        Param("triple", "str", '"nvptx64-nvidia-cuda"'),
        Param("chip", "str", '"sm_50"'),
        Param("features", "str", '"+ptx60"'),
        Param("flags", "dict", None),
        Param("link", "array", None),
    ),
    "#rocdl.target": (
        Param("O", "int", "2"),
        Param("triple", "str", '"amdgcn-amd-amdhsa"'),
        Param("chip", "str", '"gfx900"'),
        Param("features", "str", '""'),
        Param("abi", "str", '"500"'),
        Param("flags", "dict", None),
        Param("link", "array", None),
    ),
}
"""mlir-opt-19's target attributes with their parameters in printing order
(checked against it): `O` an i32, the strings, `flags` a dictionary and
`link` an array."""


HANDLER = "#gpu.select_object"
OBJECT = "#gpu.object"
"""A compiled object of a `gpu.binary`: `#gpu.object<TARGET, [properties =
DICT,] [FORMAT =] "BYTES">`, printed with its target and properties
canonical and the default format (`fatbin`) left out."""

DIALECT_ATTRS: dict[str, frozenset[str]] = {
    "gpu": frozenset(
        "address_space all_reduce_op block dim loop_dim_map mat_transpose_mode memory_space mma_element_wise object "
        "prune_2to4_spmat_flag select_object shuffle_mode spgemm_work_estimation_or_compute_kind thread warp warpgroup".split()
    ),
    "nvvm": frozenset(
        "action load_cache_modifier mma_b1op mma_frag mma_int_overflow mma_layout mma_type proxy_kind redux_kind shape "
        "shared_space shfl_kind target wgmma_scale_in wgmma_scale_out wgmma_type".split()
    ),
    "rocdl": frozenset({"target"}),
    "spirv": frozenset(
        "addressing_model built_in capability client_api coop_matrix_layout_khr coop_matrix_props_khr coop_matrix_props_nv "
        "coop_matrix_use_khr cooperative_matrix_operands_khr decoration device_type dim entry_point_abi execution_mode "
        "execution_model ext fastmath_mode function_control group_operation image_arrayed_info image_depth_info image_format "
        "image_operands image_sampler_use_info image_sampling_info interface_var_abi joint_matrix_props linkage_attributes "
        "linkage_type loop_control memory_access memory_model memory_semantics opcode packed_vector_format resource_limits "
        "scope selection_control storage_class target_env vce vendor version".split()
    ),
}
"""The attribute names mlir-opt-19 knows in these dialects (probed: every
other name is its `unknown attribute` error)."""


_TARGET = re.compile(r"#(?:nvvm\.target|rocdl\.target)(?:<.*>)?|#spirv\.target_env<.*>", re.S)
_HANDLER = re.compile(r"#gpu\.select_object(?:<.*>)?", re.S)


def is_gpu_target(attr: Attr) -> bool:
    """An attribute mlir-opt-19 takes as a GPU target (`targets` of a
    `gpu.module`, the object a `#gpu.select_object` picks)."""
    return isinstance(attr, OpaqueAttr) and _TARGET.fullmatch(attr.text) is not None


def is_offloading_handler(attr: Attr) -> bool:
    """An attribute with mlir-opt-19's `OffloadingTranslationAttrTrait`: of
    its dialects, only `#gpu.select_object`."""
    return isinstance(attr, OpaqueAttr) and _HANDLER.fullmatch(attr.text) is not None


_NAMED = re.compile(r"#(gpu|nvvm|rocdl|spirv)([.<])")


def gpu_attr_token_text(tok: Any, parse_value: ValueParser) -> str | None:
    """The canonical text of a `HASH_ATTR` token that is a target or handler
    attribute, else `None`; a malformed one, or a name its dialect does not
    have, raises `TokenError` (located in the token). The hook of the
    attribute builder (`opaque_attr`)."""
    text = str(tok)
    broken = unbalanced(text)
    if broken is not None:
        raise TokenError(tok, broken.offset, broken.message)
    if not _NAMED.match(text):
        return None
    try:
        return canonical_gpu_attr(text, parse_value)
    except AttrTextError as exc:
        raise TokenError(tok, exc.offset, exc.message) from None


LOOP_DIM_MAP = "#gpu.loop_dim_map"
_LOOP_DIM_MAP = re.compile(
    r"#gpu\.loop_dim_map<\s*processor\s*=\s*(\w+)\s*,\s*map\s*=\s*(.*?)\s*,\s*bound\s*=\s*(.*?)\s*>", re.S
)


def _loop_dim_map(text: str) -> str | None:
    """`#gpu.loop_dim_map<processor = P, map = M, bound = B>` as mlir-opt-19
    prints it: one blank around each `=`, the maps canonical and bare; None
    (the generic canonical text) for any other spelling."""
    m = _LOOP_DIM_MAP.fullmatch(text)
    if m is None:
        return None
    try:
        maps = [parse_map(body) for body in (m.group(2), m.group(3))]
    except AffineError:
        return None
    return f"{LOOP_DIM_MAP}<processor = {m.group(1)}, map = {maps[0]}, bound = {maps[1]}>"


def canonical_gpu_attr(text: str, parse_value: ValueParser) -> str | None:
    """The canonical text of a target or handler attribute written `text`
    (one `HASH_ATTR` token), or `None` for any other attribute. Raises
    `AttrTextError` for a malformed one or for a name that the `gpu`,
    `nvvm`, `rocdl` or `spirv` dialect does not have."""
    named = _NAMED.match(text)
    if named is None:
        return None
    dialect, dotted = named.group(1), named.group(2) == "."
    at = named.end() if dotted else skip_blanks(text, named.end())
    _check_name(dialect, text, at)
    if not dotted:
        # `#nvvm<target<...>>`: known, but not rebuilt (see the module doc).
        return None
    name, _, _ = text.partition("<")
    if name in TARGET_PARAMS:
        return read_struct(name, text, TARGET_PARAMS[name], bare=True, parse_value=parse_value)
    if name == SPIRV_LIMITS_NAME:
        return read_struct(name, text, SPIRV_LIMITS, bare=False, parse_value=parse_value)
    if name == SPIRV_ENTRY_POINT_ABI_NAME:
        return read_struct(name, text, SPIRV_ENTRY_POINT_ABI, bare=False, parse_value=parse_value)
    if name == LOOP_DIM_MAP:
        return _loop_dim_map(text)
    if name == HANDLER:
        return _handler(text, parse_value)
    if name == OBJECT:
        return _object(text, parse_value)
    if name == SPIRV_TARGET:
        return target_env(text, parse_value)
    if name == SPIRV_VCE:
        return vce(text)
    return None


def _check_name(dialect: str, text: str, at: int) -> None:
    """The attribute's name, starting `at`, must be one its dialect has:
    mlir-opt-19 reads it as a keyword and reports an unknown one there."""
    m = KEYWORD.match(text, at)
    if m is None:
        ch = text[at : at + 1]
        if ch and ch in STRAY:
            raise AttrTextError(at, "unexpected character")
        if ch == "." and not text.startswith("...", at):
            raise AttrTextError(at + 1, "expected three consecutive dots for an ellipsis")
        raise AttrTextError(at, "expected valid keyword")
    name = m.group()
    if name not in DIALECT_ATTRS[dialect]:
        if dialect == "spirv":
            raise AttrTextError(at, f"unknown SPIR-V attribute kind: {name}")
        raise AttrTextError(at, f"unknown attribute `{name}` in dialect `{dialect}`")


def _handler(text: str, parse_value: ValueParser) -> str:
    """`#gpu.select_object<...>`: an object index (an integer, `i64` unless
    typed, not negative) or a GPU target attribute; or nothing."""
    body = param_list(HANDLER, text)
    if body is None:
        return HANDLER
    inner, base = body
    open_at = base - 1
    i = skip_blanks(inner, 0)
    if i == len(inner):
        raise AttrTextError(base + i, "expected attribute value")
    m = INT.match(inner, i)
    if m is not None:
        rest = inner[m.end() :].strip()
        if rest and not rest.startswith(":"):
            raise AttrTextError(base + m.end(), "expected '>'")
        if not rest:
            if to_int(m.group()) < 0:
                raise AttrTextError(open_at, "the object index must be positive")
            return f"{HANDLER}<{to_int(m.group())} : i64>"
    value = inner[i:].rstrip()
    inner_attr = parse_value(value, base + i)
    if isinstance(inner_attr, IntegerAttr):
        # A typed index (`<1 : i32>`), its type checked by the parse; its
        # bits read as signed (`true`, `255 : ui8` are negative).
        if _signed(inner_attr) < 0:
            raise AttrTextError(open_at, "the object index must be positive")
        return f"{HANDLER}<{inner_attr}>"
    if not is_gpu_target(inner_attr):
        raise AttrTextError(open_at, "the target attribute must be a GPU Target attribute")
    return f"{HANDLER}<{inner_attr}>"


def _object(text: str, parse_value: ValueParser) -> str:
    """`#gpu.object<...>` (see `OBJECT`); a part it cannot read is kept as
    written, stripped."""
    body = param_list(OBJECT, text)
    if body is None:
        return text
    inner, base = body
    parts: list[str] = []
    for start, end in split_top(inner):
        raw = inner[start:end]
        lead = len(raw) - len(raw.lstrip())
        key, eq, value = raw.strip().partition("=")
        if not parts:
            parts.append(str(parse_value(raw.strip(), base + start + lead)))
        elif eq and key.strip() == "properties":
            at = base + start + len(key) + 1 + len(value) - len(value.lstrip())
            parts.append(f"properties = {parse_value(value.strip(), at)}")
        elif eq and not key.strip().startswith('"'):
            fmt = key.strip()
            blob = _literal(value.strip())
            parts.append(blob if fmt == "fatbin" else f"{fmt} = {blob}")
        else:
            parts.append(_literal(raw.strip()))
    return f"{OBJECT}<{', '.join(parts)}>"


def _literal(text: str) -> str:
    """An object's bytes as mlir-opt-19 prints them (`\\XX` for every byte
    that is not printable ASCII); any other text as written."""
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return quote(unescape(text))
    return text


def _signed(attr: IntegerAttr) -> int:
    """The integer's bits as a signed number of its width (`index`: 64)."""
    m = re.fullmatch(r"[su]?i([0-9]+)", attr.type.text)
    width = int(m.group(1)) if m else 64
    bits = attr.value % (1 << width)
    return bits - (1 << width) if bits >> (width - 1) else bits
