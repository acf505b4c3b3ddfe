"""Repository-wide pytest options (here so `pytest --impl X` and
`pytest verifier/ --impl X` both work)."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gpu-async-region")
    group.addoption(
        "--impl",
        default=None,
        help="implementation under test: a command that gets the input path appended and prints the rewrite "
        "(default: the refimpl in reference mode)",
    )
    group.addoption(
        "--expect-output-of",
        default=None,
        choices=["reference", "mlir19"],
        help="also require the output to equal the refimpl's in this mode (structurally)",
    )
