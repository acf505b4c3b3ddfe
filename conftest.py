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


@pytest.fixture
def unregistered_allowed() -> object:
    """`-allow-unregistered-dialect` for the in-process parses of one test:
    for suites whose inputs use ops of unregistered dialects (`"foo.bar"`)
    and that compare with `mlir-opt-19 --allow-unregistered-dialect`."""
    from spec.syntax.parser import allow_unregistered_dialects  # noqa: PLC0415

    allow_unregistered_dialects(True)
    yield None
    allow_unregistered_dialects(False)
