"""A read-only working directory and no writable temporary directory at
all (a mount namespace where /tmp, /var/tmp and the cwd are read-only):
`check` with the refimpl and with `--impl` (its private copy is then a
memory file), and `--dot` into the one writable directory, all work."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability.common import SMALL, env


def _sandboxed(tmp_path: Path, inner: str) -> subprocess.CompletedProcess:
    if shutil.which("unshare") is None:
        pytest.skip("no unshare")
    out = tmp_path / "out"
    out.mkdir()
    script = (
        f"mount --bind {shlex.quote(str(out))} {shlex.quote(str(out))} && "
        "mount --rbind /tmp /tmp && mount -o remount,bind,ro /tmp && "
        "mount --bind /var/tmp /var/tmp && mount -o remount,bind,ro /var/tmp && "
        f"cd {shlex.quote(str(tmp_path))} && {inner}"
    )
    p = subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        capture_output=True,
        text=True,
        env=env(TMPDIR="/nonexistent"),
        timeout=120,
    )
    if "mount:" in p.stderr and "permission denied" in p.stderr.lower():
        pytest.skip("mount namespaces are not allowed here")
    return p


@pytest.mark.parametrize("impl", [None, "cat"])
def test_read_only_cwd_and_no_temporary_directory(tmp_path: Path, impl: str | None) -> None:
    (tmp_path / "in.mlir").write_text(SMALL)
    extra = f" --impl {impl}" if impl else ""
    p = _sandboxed(
        tmp_path,
        f"{shlex.quote(sys.executable)} -m verifier check in.mlir{extra} --dot out/g.dot && touch cwd-writable",
    )
    assert "Traceback" not in p.stderr
    assert p.returncode != 0 or "verdict: verified" in p.stdout
    assert "verdict: verified" in p.stdout, p.stderr
    assert (tmp_path / "out" / "g.dot").read_text().startswith("digraph")
    assert not (tmp_path / "cwd-writable").exists()
