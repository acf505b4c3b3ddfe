"""Dialect attributes whose text mlir-opt-19 rebuilds: GPU targets
(`#nvvm.target`, `#rocdl.target`, `#spirv.target_env` with its `#spirv.vce`
and `#spirv.resource_limits`) and the offloading handler
`#gpu.select_object`, plus the attribute-name and bracket checks of the
`gpu`, `nvvm`, `rocdl` and `spirv` dialects; the `vector` dialect's enum
attributes (`vector_enums`: `#vector.kind<add>`, `#vector.iterator_type<...>`).

The grammar keeps any `#dialect.name<...>` attribute as one opaque token;
this package reads the token's text again and returns it as mlir-opt-19
prints it (`gpu_targets`: which attributes and their parameters; `spirv`:
the hand-written SPIR-V syntaxes; `text`: reading parameter lists and
reporting errors at an offset into the token).

This is the package's public entry point. It depends on no parser: a
nested attribute is read by the `ValueParser` its caller hands in (the
parser passes `spec.syntax.parser.parse_attr_value`), so the parser may
call it without an import cycle.
"""

from spec.syntax.dialect_attrs.gpu_targets import (
    canonical_gpu_attr,
    gpu_attr_token_text,
    is_gpu_target,
    is_offloading_handler,
)
from spec.syntax.dialect_attrs.text import AttrTextError, ValueParser
from spec.syntax.dialect_attrs.vector_enums import vector_enum_text

__all__ = [
    "AttrTextError",
    "ValueParser",
    "canonical_gpu_attr",
    "gpu_attr_token_text",
    "is_gpu_target",
    "is_offloading_handler",
    "vector_enum_text",
]
