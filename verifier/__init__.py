"""Translation validation of `-gpu-async-region` rewrites.

`check(input_module, output_module)` proves that the output keeps every
ordering of the input, or finds a counterexample: the pipeline is
`pipeline.py` (correspondence, event graphs, obligations, Z3, cross-checks by
reachability), the verdicts are `report.py`, the command line is
`python -m verifier check`. This module only names the public API.
"""

from __future__ import annotations

from verifier.pipeline import CheckOptions, check, functions_of
from verifier.report import FunctionReport, Report, Violation
from verifier.solver import Outcome, Status

__all__ = ["check", "CheckOptions", "Report", "FunctionReport", "Violation", "Outcome", "Status", "functions_of"]
