"""Example counts from the selected Hypothesis profile, not from ad-hoc
environment variables: a test states its count for the quick profiles, and
a larger profile (`--hypothesis-profile thorough`) scales it."""

from __future__ import annotations

from hypothesis import settings

QUICK = 100
"""Profiles with at most this many examples (`ci`: 25, `dev`: 60) run each
test's own count; larger ones scale it by their count over this."""


def examples(base: int) -> int:
    """`base` under a quick profile; `base * max_examples / QUICK` under a
    larger one (`thorough`: 2000, so 20x)."""
    current = settings.default.max_examples
    return base if current <= QUICK else base * current // QUICK
