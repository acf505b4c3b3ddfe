"""The check that a test run leaves no file in the repository."""

from __future__ import annotations

from pathlib import Path

from tests.tree_guard import files, left_behind


def test_a_new_file_is_found_and_caches_are_not(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text("")
    before = files(tmp_path)
    assert before == {"tests/test_x.py"}
    (tmp_path / "build" / "lib").mkdir(parents=True)
    (tmp_path / "build" / "lib" / "test_copy.py").write_text("")
    (tmp_path / "tests" / "__pycache__").mkdir()
    (tmp_path / "tests" / "__pycache__" / "test_x.pyc").write_text("")
    (tmp_path / ".hypothesis").mkdir()
    (tmp_path / ".hypothesis" / "examples").write_text("")
    assert left_behind(before, tmp_path) == ["build/lib/test_copy.py"]
    (tmp_path / "build" / "lib" / "test_copy.py").unlink()
    assert left_behind(before, tmp_path) == []
