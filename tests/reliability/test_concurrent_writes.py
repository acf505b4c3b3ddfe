"""Two processes writing the same output at once (`refimpl -o`, `check
--dot`, `--svg`): the file is one of them whole, never a mix (each writes a
temporary file next to the output and renames it over)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability.common import ROOT, SMALL, env
from tests.verifier.test_verifier_bounds import LOOP


def _both(cmds: list[list[str]]) -> None:
    procs = [
        subprocess.Popen([sys.executable, "-m", *c], env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for c in cmds
    ]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert b"Traceback" not in err


@pytest.mark.parametrize("flag", ["-o", "--dot"])
def test_one_writer_wins_whole(tmp_path: Path, flag: str) -> None:
    a, b = tmp_path / "a.mlir", tmp_path / "b.mlir"
    a.write_text(SMALL)
    b.write_text(LOOP)
    out = tmp_path / "same output"
    if flag == "-o":
        cmds = [["refimpl", str(x), "-o", str(out)] for x in (a, b)]
    else:
        cmds = [["verifier", "check", str(x), "--dot", str(out)] for x in (a, b)]
    alone = []
    for k, c in enumerate(cmds):
        single = tmp_path / f"alone{k}"
        _both([[*c[:-1], str(single)]])
        alone.append(single.read_bytes())
    assert alone[0] != alone[1]
    for _ in range(3):
        _both(cmds)
        assert out.read_bytes() in alone
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".tmp-")) == []


def test_svg_one_writer_wins_whole(tmp_path: Path) -> None:
    out = tmp_path / "t.svg"
    cmd = [
        "verifier",
        "check",
        str(ROOT / "examples/demo.mlir"),
        "--after",
        str(ROOT / "examples/demo-wrong.mlir"),
        "--svg",
        str(out),
    ]
    _both([cmd])
    alone = out.read_bytes()
    _both([cmd, cmd])
    assert out.read_bytes() == alone
