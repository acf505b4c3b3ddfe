"""The `vector` dialect's enum attributes: `#vector.kind<add>` (a combining
kind) and `#vector.iterator_type<parallel>`, read as mlir-opt-19 reads them.

A case the enum does not have is two errors there, as 19 reports them: at
the case (`expected ::mlir::vector::CombiningKind to be one of: ...`), then
at the token after it (`failed to parse Vector_CombiningKindAttr parameter
'value' ...`). A known case is printed without the blanks around it. Other
`#vector.` attributes are left to the generic reading.
"""

from __future__ import annotations

import re

from spec.syntax.dialect_attrs.text import AttrTextError

KINDS = (
    "add",
    "mul",
    "minui",
    "minsi",
    "minnumf",
    "maxui",
    "maxsi",
    "maxnumf",
    "and",
    "or",
    "xor",
    "maximumf",
    "minimumf",
)
"""MLIR's `CombiningKind` cases, in the order 19 lists them."""
ITERATOR_TYPES = ("parallel", "reduction")

ENUMS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "kind": ("CombiningKind", "Vector_CombiningKindAttr", KINDS),
    "iterator_type": ("IteratorType", "Vector_IteratorTypeEnum", ITERATOR_TYPES),
}
"""Attribute name: (C++ enum, ODS parameter owner, its cases)."""

_ENUM_ATTR = re.compile(r"#vector\.(kind|iterator_type)<(\s*)([A-Za-z_][\w$.]*)(\s*)>")


def unknown_case(enum: str, cases: tuple[str, ...]) -> str:
    """19's message for a case an enum does not have."""
    return f"expected ::mlir::vector::{enum} to be one of: {', '.join(cases)}"


def failed_parameter(owner: str, enum: str) -> str:
    """19's message after `unknown_case`, at the next token."""
    return f"failed to parse {owner} parameter 'value' which is to be a `::mlir::vector::{enum}`"


def vector_enum_text(text: str) -> str | None:
    """The canonical text of a `#vector.kind<...>` or `#vector.iterator_type<...>`
    token (None for any other text); an unknown case raises `AttrTextError`."""
    m = _ENUM_ATTR.fullmatch(text)
    if m is None:
        return None
    name, case = m.group(1), m.group(3)
    enum, owner, cases = ENUMS[name]
    if case not in cases:
        after = m.end(3) + len(m.group(4))
        raise AttrTextError(m.start(3), unknown_case(enum, cases), ((after, failed_parameter(owner, enum)),))
    return f"#vector.{name}<{case}>"
