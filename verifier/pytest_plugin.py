"""The conformance gate's pytest plugin: `pytest --pyargs verifier --impl CMD`.

Registered through the `pytest11` entry point (`pyproject.toml`), so that a
project that *installs* this distribution, rather than cloning it, gets the
gate's options and fixtures in any directory. A conftest would not do: the
repository's root `conftest.py` is not part of the wheel, and a conftest
inside the installed `verifier/` package is only seen once pytest collects
that directory, after the command line has been parsed (and pytest would
say `unrecognized arguments: --impl`).

An entry-point plugin is loaded by *every* pytest run in an environment
where the distribution is installed, including the runs of a project's own
unrelated tests. So this module:

- imports nothing heavy at import time (no Hypothesis, no `spec`): the
  fixtures import `verifier.harness.gate` when a gate test asks for them;
- never loads a Hypothesis profile globally and never re-registers
  Hypothesis' built-in `ci` profile: the gate's profiles apply to the gate's
  own tests only, through `gate_settings()`, which `test_conformance.py`
  puts on its `@given` tests. A project's Hypothesis tests keep their own
  settings;
- registers the names `dev` and `thorough` with Hypothesis only when they
  are selected (`--hypothesis-profile dev`) and nobody registered them
  before, since Hypothesis' plugin refuses an unknown profile name.

The gate's profiles (`deadline=None` in all: one example runs an
implementation, often a separate process, and Z3):

- `ci`: Hypothesis' built-in `ci` profile (derandomized, no example
  database) with a bounded number of examples, so the whole gate takes a few
  minutes on 2 cores;
- `dev` (the default outside CI): a few more examples, random, with the
  example database (`.hypothesis/` in the current directory) so failures
  replay;
- `thorough`: many examples, for a nightly run or a new implementation.

The profile is `--hypothesis-profile NAME` (Hypothesis' own option), else
the `HYPOTHESIS_PROFILE` environment variable, else `ci` when `CI` is set
and `dev` otherwise. Any other name selects that (user-registered) profile,
with the gate's deadline and health-check relaxations on top.

The entry point is named like the module (`verifier.pytest_plugin`, as
pytest-xdist names `xdist.looponfail`), so the repository's root conftest
can name it in `pytest_plugins` too: pytest sees it is already registered
and does not register it twice. Disable it with
`-p no:verifier.pytest_plugin`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from hypothesis import settings as Settings

    from verifier.harness.gate import Implementation

LEAVABLE_DIALECTS = frozenset({"async"})
"""The dialects whose ops the gate can leave out of its programs (its
generators and alphabet make programs without them)."""

GATE_PROFILES: dict[str, dict[str, Any]] = {
    # Hypothesis' built-in `ci` spelled out, so that a project re-registering
    # `ci` for its own tests does not change the gate's.
    "ci": {"derandomize": True, "database": None, "print_blob": True, "max_examples": 25},
    "dev": {"max_examples": 60},
    "thorough": {"max_examples": 2000},
}
"""The gate's profiles, over Hypothesis' defaults."""

_selected_profile: str | None = None
"""The profile name chosen by `pytest_configure` for this process (an xdist
worker configures itself, so each worker has it)."""


def select_profile(option: str | None, environ: Mapping[str, str] = os.environ) -> str:
    """The gate's profile name: the option, the environment, then CI or not."""
    return option or environ.get("HYPOTHESIS_PROFILE") or ("ci" if environ.get("CI") else "dev")


def profile_settings(name: str) -> Settings:
    """The settings the gate's tests run with under profile `name`."""
    from hypothesis import HealthCheck, settings

    slow: dict[str, Any] = {
        "deadline": None,
        "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
    }
    if name in GATE_PROFILES:
        return settings(**slow, **GATE_PROFILES[name])
    # A profile of the user's own: theirs, but an example may take seconds.
    # Its verbosity stays, and so does `--hypothesis-verbosity` (Hypothesis
    # loads it into `settings.default`).
    return settings(settings.get_profile(name), **slow)


def gate_settings() -> Settings:
    """The settings for the gate's `@given` tests, from the selected profile
    (outside pytest, or before configuration, from the environment)."""
    from hypothesis import settings

    name = _selected_profile or select_profile(None)
    chosen = profile_settings(name)
    verbosity = settings.default.verbosity  # type: ignore[union-attr]  # typed Optional; Hypothesis sets it on import
    return settings(chosen, verbosity=verbosity) if verbosity != chosen.verbosity else chosen


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gpu-async-region", "gpu-async-region conformance gate (pytest --pyargs verifier)")
    group.addoption(
        "--impl",
        "--gpu-async-impl",
        dest="impl",
        default=None,
        metavar="CMD",
        help="implementation under test: a command that gets the input path appended and prints the rewrite "
        "(default: the refimpl in reference mode, in-process)",
    )
    group.addoption(
        "--expect-output-of",
        "--gpu-async-expect-output-of",
        dest="expect_output_of",
        default=None,
        choices=["reference", "mlir19"],
        help="also require the output to equal the refimpl's in this mode (structurally)",
    )
    group.addoption(
        "--impl-lacks",
        "--gpu-async-impl-lacks",
        dest="impl_lacks",
        action="append",
        default=None,
        choices=sorted(LEAVABLE_DIALECTS),
        metavar="DIALECT",
        help="a dialect the implementation does not register (LLVM head's iree-opt: async); the gate leaves "
        "out the programs and corpus files that use it and says how many",
    )
    # The same from a project's pytest.ini / pyproject.toml ([tool.pytest.ini_options]),
    # so a CI job need not repeat the command; the command line wins.
    parser.addini("gpu_async_impl", "the gate's implementation command (as --impl)", default="")
    parser.addini("gpu_async_expect_output_of", "as --expect-output-of: reference or mlir19", default="")
    parser.addini("gpu_async_impl_lacks", "as --impl-lacks: dialects, blank-separated", default="")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Choose the gate's profile; make `dev`/`thorough` loadable by
    Hypothesis' plugin (whose `pytest_configure` runs after this one)."""
    global _selected_profile
    option = config.getoption("--hypothesis-profile", None)
    _selected_profile = select_profile(option)
    if option in GATE_PROFILES and option != "ci":
        from hypothesis import settings

        try:
            settings.get_profile(option)
        except Exception:
            settings.register_profile(option, profile_settings(option))


@pytest.fixture(scope="session")
def impl(request: pytest.FixtureRequest) -> Implementation:
    """The implementation under test (`--impl CMD`, default the refimpl)."""
    from verifier.harness.gate import default_impl

    return default_impl(request.config.getoption("--impl") or request.config.getini("gpu_async_impl") or None)


@pytest.fixture(scope="session")
def expect_output_of(request: pytest.FixtureRequest) -> str | None:
    """`--expect-output-of MODE`: also require the refimpl's output in MODE."""
    mode = request.config.getoption("--expect-output-of") or request.config.getini("gpu_async_expect_output_of") or None
    if mode not in (None, "reference", "mlir19"):
        raise pytest.UsageError(f"gpu_async_expect_output_of = {mode!r}: expected reference or mlir19")
    return mode


@pytest.fixture(scope="session")
def impl_lacks(request: pytest.FixtureRequest) -> frozenset[str]:
    """`--impl-lacks DIALECT` (repeated), or the ini's blank-separated list:
    the dialects the gate's programs are made without."""
    named = request.config.getoption("--impl-lacks") or request.config.getini("gpu_async_impl_lacks").split()
    unknown = sorted(set(named) - LEAVABLE_DIALECTS)
    if unknown:
        raise pytest.UsageError(
            f"gpu_async_impl_lacks = {' '.join(unknown)}: the gate can leave out only {', '.join(sorted(LEAVABLE_DIALECTS))}"
        )
    return frozenset(named)
