"""`spec.tool.run_tool`, the way every `python -m` tool ends: the exit code
is `main`'s, buffered output is flushed before the process leaves without
teardown, and the cyclic collector is off while `main` runs."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def _run(body: str) -> subprocess.CompletedProcess[str]:
    code = "import gc, sys\nfrom spec.tool import run_tool\n" + textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_exit_code_and_buffered_output_survive_the_fast_exit() -> None:
    # Written without a newline or flush: lost if the exit skipped the flush.
    proc = _run(
        """
        def main():
            sys.stdout.write("out")
            sys.stderr.write("err")
            return 3
        run_tool(main)
        """
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (3, "out", "err")


def test_collector_is_off_while_main_runs() -> None:
    proc = _run(
        """
        run_tool(lambda: 0 if not gc.isenabled() else 5)
        """
    )
    assert proc.returncode == 0, proc.stderr


def test_a_reader_that_went_away_gives_exit_1_without_traceback() -> None:
    # The child writes only after its stdin closes, and that happens after
    # the read end of its stdout is closed: the flush meets a broken pipe.
    code = textwrap.dedent(
        """
        import sys
        from spec.tool import run_tool
        def main():
            sys.stdin.read()
            sys.stdout.write("x" * 100)
            return 0
        run_tool(main)
        """
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    proc.stdin.close()
    stderr = proc.stderr.read()
    assert proc.wait(timeout=60) == 1
    assert "Traceback" not in stderr
