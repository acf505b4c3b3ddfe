"""The files of a directory tree, to tell what a test run left in the
repository: tests write to temporary directories, never into the tree
(a file left under `build/` or `tests/` may be collected by the next run,
or shipped).

`conftest.py` lists the tree when the session starts and again when it
ends, and fails the run if files appeared. Caches that tools keep on
purpose (`__pycache__`, `.pytest_cache`, Hypothesis' example database) and
the virtual environment are not listed.
"""

from __future__ import annotations

import os
from pathlib import Path

NOT_LISTED = frozenset({".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis", ".ruff_cache", ".mypy_cache"})
"""Directory names whose contents are not the tree's."""


def files(root: Path) -> set[str]:
    """Every file under `root` (relative, `/`-separated), outside `NOT_LISTED`."""
    found: set[str] = set()
    for here, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in NOT_LISTED]
        rel = Path(here).relative_to(root)
        found.update((rel / n).as_posix() for n in names)
    return found


def left_behind(before: set[str], root: Path) -> list[str]:
    """The files under `root` now that were not in `before`, sorted."""
    return sorted(files(root) - before)
