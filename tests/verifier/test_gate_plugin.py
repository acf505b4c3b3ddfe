"""The gate's pytest plugin (`verifier/pytest_plugin.py`): which profile the
gate runs with, and that installing the plugin leaves a project's own
Hypothesis tests alone.

An entry-point plugin is loaded in every pytest run of an environment that
has the distribution, so the second point is what keeps the gate from
quietly cutting another project's Hypothesis tests to 25 examples.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import settings

from verifier import test_conformance
from verifier.pytest_plugin import GATE_PROFILES, profile_settings, select_profile


def test_profile_choice_order() -> None:
    assert select_profile("thorough", {"HYPOTHESIS_PROFILE": "dev", "CI": "1"}) == "thorough"
    assert select_profile(None, {"HYPOTHESIS_PROFILE": "thorough", "CI": "1"}) == "thorough"
    assert select_profile(None, {"CI": "true"}) == "ci"
    assert select_profile(None, {}) == "dev"


def test_gate_profiles() -> None:
    ci = profile_settings("ci")
    assert (ci.max_examples, ci.derandomize, ci.database, ci.deadline) == (25, True, None, None)
    assert profile_settings("dev").max_examples == 60
    assert profile_settings("thorough").max_examples == 2000
    assert all(profile_settings(name).deadline is None for name in GATE_PROFILES)


def test_a_users_own_profile_keeps_its_values_but_no_deadline() -> None:
    settings.register_profile("gate-plugin-test-user", max_examples=7, deadline=200)
    chosen = profile_settings("gate-plugin-test-user")
    assert (chosen.max_examples, chosen.deadline) == (7, None)


def test_the_gate_tests_carry_the_gate_settings() -> None:
    """The generated-program tests have the selected gate profile on
    themselves (this run's `--hypothesis-profile`, else the environment)."""
    for test in (test_conformance.test_generated_programs, test_conformance.test_generated_straight_line):
        own = test._hypothesis_internal_use_settings
        assert own.deadline is None
        assert own.max_examples in {v["max_examples"] for v in GATE_PROFILES.values()}


USER_PROJECT = """
    from hypothesis import given, settings, strategies as st

    def test_default_profile_untouched():
        assert settings.get_current_profile_name() == "default"
        assert settings.default.max_examples == 100

    @given(st.integers())
    def test_runs(x):
        pass
"""


def test_a_project_with_the_plugin_keeps_its_hypothesis_settings(tmp_path: Path) -> None:
    """pytest in a directory of someone else's tests, this environment's
    plugin loaded through its entry point: their default profile is
    untouched, and the gate's options are there."""
    (tmp_path / "test_user.py").write_text(textwrap.dedent(USER_PROJECT))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "HYPOTHESIS_")) and k != "CI"}
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"]
    proc = subprocess.run([*args, "test_user.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = subprocess.run([*args, "--help"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert "--impl=CMD" in proc.stdout and "--expect-output-of" in proc.stdout


@pytest.mark.parametrize("profile", ["dev", "thorough"])
def test_gate_profile_names_are_loadable_on_request(tmp_path: Path, profile: str) -> None:
    """`--hypothesis-profile dev` in a project that never registered `dev`:
    the plugin registers it before Hypothesis' plugin loads it."""
    (tmp_path / "test_user.py").write_text(
        "from hypothesis import settings\n\n"
        "def test_profile():\n"
        f"    assert settings.get_current_profile_name() == {profile!r}\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "HYPOTHESIS_")) and k != "CI"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "--hypothesis-profile",
            profile,
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
