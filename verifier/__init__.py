"""Translation validation of `-gpu-async-region` rewrites.

`check(input_module, output_module)` proves that the output keeps every
ordering of the input, or finds a counterexample: the pipeline is
`pipeline.py` (correspondence, event graphs, obligations, Z3, cross-checks by
reachability), the verdicts are `report.py`, the command line is
`python -m verifier check`. This module only names the public API.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from verifier.output.report import FunctionReport, Report, Violation
    from verifier.proof.pipeline import CheckOptions, check, functions_of
    from verifier.smt.solver import ObligationResult, Status

_WHERE = {
    "check": "verifier.proof.pipeline",
    "CheckOptions": "verifier.proof.pipeline",
    "functions_of": "verifier.proof.pipeline",
    "Report": "verifier.output.report",
    "FunctionReport": "verifier.output.report",
    "Violation": "verifier.output.report",
    "ObligationResult": "verifier.smt.solver",
    "Status": "verifier.smt.solver",
}
"""Each public name's module. They are imported on first use (PEP 562), not
here: the gate's pytest plugin lives in this package and is loaded by every
pytest run of an environment that has the distribution, so importing the
package must not load Z3 and the whole pipeline."""

__all__ = [
    "check",
    "CheckOptions",
    "Report",
    "FunctionReport",
    "Violation",
    "ObligationResult",
    "Status",
    "functions_of",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'verifier' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # once: later lookups do not come here
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])
