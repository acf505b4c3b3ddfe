"""The default implementation under test: the project's reference pass,
called in-process.

The verifier checks any implementation of `-gpu-async-region` as a black
box (`--impl CMD`, `verifier.harness.external`); with none given it checks the
refimpl, the way a user's tool would be checked, only without a process
per program. This module is the one place in `verifier/` that imports
`refimpl` (lazily, so that `import verifier` does not load the pass):
`tests/product/test_layering.py` holds the rule. The verifier's own reasoning
never reads the pass's code or data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spec.ir import Operation

if TYPE_CHECKING:
    from refimpl import RewriteResult


def rewrite(module: Operation, mode: str = "reference") -> RewriteResult:
    """The refimpl's `rewrite` of `module` in `mode` (it rewrites in place)."""
    import refimpl

    return refimpl.rewrite(module, mode)
