"""Repository-wide pytest set-up: the Hypothesis profile of every suite here.

The gate's options (`--impl`, `--expect-output-of`) and fixtures are not
declared here but in `verifier/pytest_plugin.py`, a plugin registered through
the `pytest11` entry point so that an installed copy of the gate has them
too. Naming it in `pytest_plugins` below loads it when entry points are not
(`PYTEST_DISABLE_PLUGIN_AUTOLOAD`, or a checkout on `PYTHONPATH` that was
never installed); when the entry point already loaded it, pytest skips it,
as the entry point has the module's name.

Unlike the plugin, which applies the gate's profiles to the gate's tests
only (a project that installs the gate keeps its own Hypothesis settings),
this repository's suites all follow the selected profile: it is registered
under its name (`ci` replacing Hypothesis' built-in one) and loaded as the
default, `--hypothesis-profile NAME`, else `HYPOTHESIS_PROFILE`, else `ci`
under CI and `dev` otherwise.

A run that leaves a file in the repository fails (`tests/tree_guard.py`):
tests write to temporary directories.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest_plugins = ["verifier.pytest_plugin"]

ROOT = Path(__file__).resolve().parent
_TREE_BEFORE = pytest.StashKey[set[str]]()


def pytest_sessionstart(session: pytest.Session) -> None:
    """List the repository's files (on the controller only, under xdist)."""
    if not hasattr(session.config, "workerinput"):
        from tests.tree_guard import files

        session.config.stash[_TREE_BEFORE] = files(ROOT)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run if a test left a file in the repository."""
    before = session.config.stash.get(_TREE_BEFORE, None)
    if before is None:
        return
    from tests.tree_guard import left_behind

    left = left_behind(before, ROOT)
    if left:
        shown = "\n  ".join(left[:20]) + ("\n  ..." if len(left) > 20 else "")
        message = f"error: the tests left {len(left)} file(s) in the repository (write to tmp_path instead):\n  {shown}"
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_line(message, red=True)
        else:
            print(message, file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Register the profiles before Hypothesis' plugin loads the one named by
    `--hypothesis-profile`; with no option, load the environment's. The
    plugin is imported here, not at the top, so that when entry points are
    off it is first imported through `pytest_plugins` (and its asserts
    rewritten)."""
    from hypothesis import settings

    from verifier.pytest_plugin import GATE_PROFILES, profile_settings, select_profile

    for name in GATE_PROFILES:
        settings.register_profile(name, profile_settings(name))
    if config.getoption("--hypothesis-profile", None) is None:
        settings.load_profile(select_profile(None))
