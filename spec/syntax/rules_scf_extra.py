"""Builder rules of the rest of mlir-opt-19's `scf` dialect (issue 16,
part 3): `scf.index_switch`, a switch on an index with one region per case
value and a default region, each ending in `scf.yield`.

As in `rules_wide`: one grammar rule per shape (`fx_*_op`), its keyword rule
listing the ops written that way; the builder makes MLIR's generic model as
mlir-opt-19 does: the default region first, then the cases in order, their
values in the `cases` property; the default region gets its implicit
`scf.yield` when it has none, a case region does not (19's verifier then
reports a case region without its block). Facts in `spec.registry`,
printers in `custom_scf_extra`. The parser takes these rules through
`rules_more`.
"""

from __future__ import annotations

from typing import Any

from spec.attributes import I64, INDEX, DenseArrayAttr, Type
from spec.diagnostics import DiagnosticError, error
from spec.ir import Region
from spec.syntax.build_base import BuilderBase, PartialOp

FX_RULES = frozenset({"fx_switch_op"})
"""Rules whose first child is the keyword token naming the op."""

FX_KEYWORDS = {rule.removesuffix("_op") + "_kw": rule.removesuffix("_op").upper() + "_KW" for rule in FX_RULES}
"""Keyword rules (string literals) and the token type each hands on."""


class ScfExtraRules(BuilderBase):
    """The `fx_*` rules."""

    def switch_case_region(self, meta: Any, items: list) -> tuple[int, Region]:
        return int(str(items[0]), 0), items[1]

    def fx_switch_op(self, meta: Any, items: list) -> PartialOp:
        """`scf.index_switch %i [attr-dict] [-> types] (case N {...})* default {...}`."""
        name = "scf.index_switch"
        attrs = next((i for i in items if isinstance(i, dict)), None)
        results: list[Type] = next((i for i in items[2:] if isinstance(i, list)), [])
        cases = [i for i in items if isinstance(i, tuple)]
        default: Region = items[-1]
        self._ensure_terminator(default, "scf.yield", self.loc(meta))
        for k, (_, region) in enumerate(cases):
            if not region.blocks:
                raise DiagnosticError(error(self.loc(meta), f"'{name}' op region #{k + 1} ('caseRegions') failed to verify constraint: region with 1 blocks"))
        props, attrs = self.split_attrs(name, attrs, {"cases": DenseArrayAttr(I64, tuple(v for v, _ in cases))})
        regions = [default, *(r for _, r in cases)]
        return self.op(name, meta, [self.typed(items[1], INDEX)], results, properties=props, attributes=attrs, regions=regions)
