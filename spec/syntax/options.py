"""How a parse reads its text: the options `parse_module` takes.

MLIR keeps such settings on the `MLIRContext` a parse is given
(`allowUnregisteredDialects`); here they are one frozen `ParseOptions`,
given to `spec.syntax.parser.parse_module` (or `parse_ops`) and carried by
the builder for that parse, so that what a parse accepts depends only on
its arguments, never on an earlier call or a setting of the process.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ParseOptions:
    """The settings of one parse."""

    allow_unregistered: bool = False
    """`-allow-unregistered-dialect`: ops, types and attributes of dialects
    mlir-opt-19 does not register are opaque, not errors."""
    fast_path: bool = True
    """Read the common op shapes whole (`spec.syntax.fast_path`); False
    leaves every op to the LALR loop (the tests' reference, and benchmarks
    of the loop alone). The IR and diagnostics are the same either way."""


DEFAULT_OPTIONS = ParseOptions()
"""What a parse reads when it is given no options (as `mlir-opt-19` with no
flags)."""
