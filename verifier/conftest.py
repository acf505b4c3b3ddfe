"""Hypothesis profiles and fixtures of the conformance gate.

Profiles (`deadline=None` in all: one example runs an implementation and Z3):

- `ci`: Hypothesis' built-in `ci` profile (derandomized, no example
  database) re-registered with a bounded number of examples, so the whole
  gate takes a few minutes on 2 cores;
- `dev` (the default outside CI): a few more examples, random, with the
  example database so failures replay;
- `thorough`: many examples, for a nightly run or a new implementation.

Select with `--hypothesis-profile NAME` (Hypothesis' own pytest option) or
the `HYPOTHESIS_PROFILE` environment variable; with neither, `ci` when `CI`
is set (as Hypothesis itself does), else `dev`. The `--impl` and
`--expect-output-of` options are declared in the repository root
`conftest.py` so `pytest --impl X` works from the root too.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from verifier.gate import Implementation, default_impl

_SLOW_DATA = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile(
    "ci",
    parent=settings.get_profile("ci"),
    max_examples=25,
    deadline=None,
    suppress_health_check=_SLOW_DATA,
)
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=_SLOW_DATA)
settings.register_profile("thorough", max_examples=2000, deadline=None, suppress_health_check=_SLOW_DATA)



def pytest_configure(config: pytest.Config) -> None:
    # `--hypothesis-profile` (handled by Hypothesis' plugin) wins; else the
    # environment decides.
    if config.getoption("--hypothesis-profile", None) is None:
        settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(scope="session")
def impl(request: pytest.FixtureRequest) -> Implementation:
    """The implementation under test (`--impl CMD`, default the refimpl)."""
    return default_impl(request.config.getoption("--impl"))


@pytest.fixture(scope="session")
def expect_output_of(request: pytest.FixtureRequest) -> str | None:
    """`--expect-output-of MODE`: also require the refimpl's output in MODE."""
    return request.config.getoption("--expect-output-of")
