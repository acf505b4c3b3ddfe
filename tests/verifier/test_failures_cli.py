"""Issue 19: every failure of a command-line tool is a diagnostic with the
right exit code. For the verifier an exit code is a verdict (0 verified, 1
refuted, 2 bad input/usage/internal failure, 3 unknown), so a crash or a
drained stdin must never read as `refuted`; for `spec print` and the refimpl
the conventions are mlir-opt's. Each test runs the tools as a user would, in
a subprocess."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from tests.mlir_tools import MLIR_OPT_19

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "demo.mlir"
SEED_DIAMOND = ROOT / "examples" / "seed_diamond.mlir"


def run(
    module: str, *args: str, stdin: str | bytes | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    proc = subprocess.run(
        [sys.executable, "-m", module, *args], input=data, capture_output=True, cwd=ROOT, timeout=timeout
    )
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace")
    )


def no_traceback(r: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout, r.stderr


# -- class 3: a cancelled Z3 query is `unknown`, never a proof -----------------------


def test_rlimit_1_on_a_refuted_program_is_unknown_not_inconsistent() -> None:
    # The seed's output of the diamond is refuted with enough resources;
    # with --rlimit 1 every query is cancelled. Before: `inconsistent: Z3
    # proved every path` (the sampled cross-check took `unknown` for `proved`).
    r = run("verifier", "check", str(SEED_DIAMOND), "--mode", "seed", "--rlimit", "1")
    assert r.returncode == 3, r.stdout + r.stderr
    assert "verdict: unknown" in r.stdout and "inconsistent" not in r.stdout
    assert "canceled" in r.stdout
    no_traceback(r)
    assert run("verifier", "check", str(SEED_DIAMOND), "--mode", "seed").returncode == 1


# -- class 1: INPUT or OUTPUT on stdin ---------------------------------------------


def _rewrite_of_demo(tmp_path: Path) -> Path:
    out = tmp_path / "demo_out.mlir"
    r = run("refimpl", str(DEMO), "-o", str(out))
    assert r.returncode == 0, r.stderr
    return out


def test_input_on_stdin_with_the_refimpl_impl_and_after(tmp_path: Path) -> None:
    # Before: the implementation got `-` and a drained stdin, and the verdict
    # was `refuted` ("function @demo is missing from the output").
    text = DEMO.read_text()
    out = _rewrite_of_demo(tmp_path)
    identity = f'{sys.executable} -c "import sys; sys.stdout.write(open(sys.argv[1]).read())"'
    before = set(Path(tempfile.gettempdir()).glob("verifier-stdin-*"))
    for extra in ([], ["--impl", identity], ["--after", str(out)]):
        r = run("verifier", "check", "-", *extra, stdin=text)
        assert r.returncode == 0, (extra, r.stdout, r.stderr)
        assert "verdict: verified" in r.stdout
    # The copy of stdin handed to the implementation is removed.
    assert set(Path(tempfile.gettempdir()).glob("verifier-stdin-*")) == before


def test_output_on_stdin(tmp_path: Path) -> None:
    out = _rewrite_of_demo(tmp_path)
    r = run("verifier", "check", str(DEMO), "--after", "-", stdin=out.read_text())
    assert r.returncode == 0 and "verdict: verified" in r.stdout, r.stdout + r.stderr
    # An empty OUTPUT is not a rewrite that deleted every function.
    r = run("verifier", "check", str(DEMO), "--after", "-", stdin="")
    assert r.returncode == 2 and "the output is empty" in r.stderr and r.stdout == ""


def test_input_and_output_both_on_stdin_is_a_usage_error() -> None:
    r = run("verifier", "check", "-", "--after", "-", stdin=DEMO.read_text())
    assert r.returncode == 2 and "cannot both be read from stdin" in r.stderr and r.stdout == ""


# -- class 2: internal failures are exit 2 (never 1, the code for "refuted") -----------


def test_dot_into_a_missing_directory(tmp_path: Path) -> None:
    dot = tmp_path / "no" / "such" / "dir" / "g.dot"
    r = run("verifier", "check", str(DEMO), "--dot", str(dot))
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"error: cannot open output file '{dot}': No such file or directory" in r.stderr
    assert r.stdout == ""
    no_traceback(r)


def test_implementation_printing_invalid_utf8(tmp_path: Path) -> None:
    # MLIR text is bytes: a byte that is not UTF-8 outside a string literal
    # is mlir-opt-19's `unexpected character`, at that byte.
    impl = tmp_path / "impl.sh"
    impl.write_text("#!/bin/sh\nprintf 'module {\\377}\\n'\n")
    impl.chmod(0o755)
    r = run("verifier", "check", str(DEMO), "--impl", str(impl))
    assert r.returncode == 2, r.stdout + r.stderr
    assert "<impl output>:1:9: error: unexpected character\n" in r.stderr
    no_traceback(r)


def test_impl_with_unbalanced_quotes_is_a_usage_error() -> None:
    r = run("verifier", "check", str(DEMO), "--impl", "mlir-opt-19 'unbalanced")
    assert r.returncode == 2 and "--impl: cannot split the command: No closing quotation" in r.stderr
    no_traceback(r)


def test_impl_without_a_shebang(tmp_path: Path) -> None:
    impl = tmp_path / "impl"
    impl.write_text('cat "$1"\n')
    impl.chmod(0o755)
    r = run("verifier", "check", str(DEMO), "--impl", str(impl))
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"cannot run implementation '{impl}': Exec format error" in r.stderr
    no_traceback(r)


def test_an_unexpected_exception_is_one_line_exit_2() -> None:
    # `run_tool`'s last resort, for every tool.
    code = "from spec.tool import run_tool\ndef main():\n    raise KeyError('boom')\nrun_tool(main)\n"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr == "error: internal error: KeyError: 'boom'\n"


def _deep_if(depth: int) -> str:
    lines = ["func.func @f(%c: i1, %m: memref<4xf32>) {"]
    lines += ["  " * (i + 1) + "scf.if %c {" for i in range(depth)]
    pad = "  " * (depth + 1)
    lines += [pad + "%t = gpu.alloc () : memref<4xf32>", pad + "gpu.memcpy %t, %m : memref<4xf32>, memref<4xf32>"]
    lines += ["  " * (i + 1) + "}" for i in reversed(range(depth))]
    return "\n".join([*lines, "  return", "}", ""])


def test_deep_nesting_gives_a_verdict_not_a_recursion_error(tmp_path: Path) -> None:
    # Before: `verifier check` died with RecursionError in the event builder,
    # a traceback and exit 1 ("refuted").
    src = tmp_path / "deep.mlir"
    src.write_text(_deep_if(250))
    printed = run("spec", "print", str(src))
    assert printed.returncode == 0, printed.stderr[-2000:]
    rewritten = run("refimpl", str(src))
    assert rewritten.returncode == 0, rewritten.stderr[-2000:]
    assert "gpu.wait async" in rewritten.stdout
    r = run("verifier", "check", str(src), timeout=600)
    no_traceback(r)
    assert r.returncode in (0, 3), r.stdout[-2000:] + r.stderr[-2000:]
    assert "verdict: verified" in r.stdout or "unknown:" in r.stdout


# -- class 4: the implementation's limits -------------------------------------------


def _sleeps(seconds: int) -> str:
    return subprocess.run(["pgrep", "-f", f"^sleep {seconds}$"], capture_output=True, text=True).stdout.strip()


def test_impl_timeout_kills_a_child_that_keeps_stdout_open() -> None:
    # Before: the timeout killed `sh` only, then waited for the end of a
    # stdout that the `sleep`s still held: the verifier hung forever.
    seconds = 1000 + os.getpid() % 1000  # names this test's sleeps
    t0 = time.monotonic()
    r = run(
        "verifier",
        "check",
        str(DEMO),
        "--impl",
        f"sh -c 'sleep {seconds} & sleep {seconds}; true'",
        "--impl-timeout",
        "1",
        timeout=60,
    )
    assert time.monotonic() - t0 < 30
    assert r.returncode == 2 and "implementation timed out after 1 s" in r.stderr, r.stderr
    time.sleep(0.2)
    assert _sleeps(seconds) == ""


def test_impl_output_with_a_nul_byte(tmp_path: Path) -> None:
    impl = tmp_path / "impl.sh"
    impl.write_text("#!/bin/sh\nprintf 'module {\\000}\\n'\n")
    impl.chmod(0o755)
    r = run("verifier", "check", str(DEMO), "--impl", str(impl))
    assert r.returncode == 2 and "unexpected NUL character" in r.stderr, r.stderr


def test_impl_output_over_the_size_limit(tmp_path: Path) -> None:
    # An endless output is cut at 64 MiB and the implementation killed.
    r = run("verifier", "check", str(DEMO), "--impl", "sh -c 'yes // padding'", timeout=120)
    assert r.returncode == 2 and "implementation printed more than 67108864 bytes" in r.stderr, r.stderr


def test_impl_that_prints_nothing_is_a_failure() -> None:
    # Before: an empty module, so `refuted` (every function "missing").
    r = run("verifier", "check", str(DEMO), "--impl", "true")
    assert r.returncode == 2 and "implementation exited 0 but printed nothing" in r.stderr and r.stdout == ""


# -- class 5: -o and --dot onto devices, FIFOs, links, and places that cannot be written ---

TOOLS = [("refimpl",), ("spec", "print")]


@pytest.mark.parametrize("tool", TOOLS)
def test_output_onto_dev_null_writes_through(tool: tuple[str, ...]) -> None:
    # Before: temp file + rename replaced /dev/null by a regular file (as root).
    r = run(*tool, str(DEMO), "-o", "/dev/null")
    assert r.returncode == 0, r.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.parametrize("tool", TOOLS)
def test_output_onto_a_fifo_writes_through(tool: tuple[str, ...], tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    r = run(*tool, str(DEMO), "-o", str(fifo))
    reader.join(timeout=60)
    assert r.returncode == 0, r.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and got[0].startswith(b"module")


@pytest.mark.parametrize("tool", TOOLS)
def test_output_onto_a_symlink_writes_its_target(tool: tuple[str, ...], tmp_path: Path) -> None:
    target = tmp_path / "target.mlir"
    target.write_text("old\n")
    link = tmp_path / "link.mlir"
    link.symlink_to(target)
    dangling = tmp_path / "dangling.mlir"
    dangling.symlink_to(tmp_path / "new.mlir")
    for path in (link, dangling):
        r = run(*tool, str(DEMO), "-o", str(path))
        assert r.returncode == 0, r.stderr
        assert path.is_symlink()
    assert target.read_text().startswith("module")
    assert (tmp_path / "new.mlir").read_text().startswith("module")


@pytest.mark.parametrize("tool", TOOLS)
def test_output_into_a_missing_directory_or_onto_a_directory(tool: tuple[str, ...], tmp_path: Path) -> None:
    # mlir-opt-19: `cannot open output file 'X': No such file or directory`, exit 1.
    missing = tmp_path / "no" / "out.mlir"
    r = run(*tool, str(DEMO), "-o", str(missing))
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == f"error: cannot open output file '{missing}': No such file or directory\n"
    r = run(*tool, str(DEMO), "-o", str(tmp_path))
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == f"error: cannot open output file '{tmp_path}': Is a directory\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only directory")
@pytest.mark.parametrize("tool", TOOLS)
def test_output_into_a_read_only_directory(tool: tuple[str, ...], tmp_path: Path) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        r = run(*tool, str(DEMO), "-o", str(ro / "out.mlir"))
    finally:
        ro.chmod(0o755)
    assert r.returncode == 1 and "cannot open output file" in r.stderr and "Permission denied" in r.stderr
    assert list(ro.iterdir()) == []


def test_dot_onto_a_directory_and_through_a_symlink(tmp_path: Path) -> None:
    r = run("verifier", "check", str(DEMO), "--dot", str(tmp_path))
    assert r.returncode == 2 and f"cannot open output file '{tmp_path}': Is a directory" in r.stderr
    target = tmp_path / "g.dot"
    link = tmp_path / "link.dot"
    link.symlink_to(target)
    r = run("verifier", "check", str(DEMO), "--dot", str(link))
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and target.read_text().startswith("digraph")


# -- class 6: closed or full standard streams -----------------------------------------


def _sh(command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["sh", "-c", command], capture_output=True, text=True, cwd=ROOT, timeout=120)


@pytest.mark.parametrize(("tool", "code"), [("refimpl", 1), ("spec print", 1), ("verifier check", 2)])
def test_full_or_closed_stdout_and_closed_stdin(tool: str, code: int) -> None:
    # Before: tracebacks (OSError at the flush, AttributeError on a None
    # sys.stdin). The verifier says 2: its 1 means "refuted".
    py = f"{sys.executable} -m {tool}"
    r = _sh(f"{py} {DEMO} > /dev/full")
    assert (r.returncode, r.stderr) == (code, "error: cannot write to standard output: No space left on device\n")
    r = _sh(f"{py} {DEMO} >&-")
    assert (r.returncode, r.stderr) == (code, "error: cannot write to standard output: Bad file descriptor\n")
    r = _sh(f"{py} - <&-")
    assert r.returncode in (1, 2) and "could not open input file: Bad file descriptor" in r.stderr
    assert len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr


# -- class 7: signals ---------------------------------------------------------------


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_signal_ends_the_verifier_and_its_implementation(sig: int, code: int) -> None:
    # Before: SIGTERM left the implementation running; SIGINT printed a
    # KeyboardInterrupt traceback.
    seconds = 2000 + os.getpid() % 1000 + (sig == signal.SIGINT)
    proc = subprocess.Popen(
        [sys.executable, "-m", "verifier", "check", str(DEMO), "--impl", f"sh -c 'sleep {seconds}; true'"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    deadline = time.monotonic() + 30
    while not _sleeps(seconds) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _sleeps(seconds), "the implementation did not start"
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == code
    assert "Traceback" not in err and out == ""
    time.sleep(0.2)
    assert _sleeps(seconds) == ""


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_signal_leaves_no_partial_output(sig: int, code: int, tmp_path: Path) -> None:
    body = "".join("    gpu.memcpy %a, %b : memref<4xf32>, memref<4xf32>\n" for _ in range(150_000))
    src = tmp_path / "big.mlir"
    src.write_text(f"func.func @f(%a: memref<4xf32>, %b: memref<4xf32>) {{\n{body}    return\n}}\n")
    out = tmp_path / "out.mlir"
    proc = subprocess.Popen(
        [sys.executable, "-m", "refimpl", str(src), "-o", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    time.sleep(1.5)
    assert proc.poll() is None, "finished before the signal: make the input larger"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.mlir"]


# -- class 8: async.execute with an empty body ------------------------------------------

EMPTY_BODY = """\
func.func @f(%m: memref<4xf32>, %c: f32) {
  %t = async.execute {
    gpu.memset %m, %c : memref<4xf32>, f32
    async.yield
  }
  %t2 = async.execute [%t] {
  }
  async.await %t2 : !async.token
  return
}
"""
EMPTY_BODY_MESSAGE = (
    "6:9: error: 'async.execute' op region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks"
)


@pytest.mark.parametrize("tool", TOOLS)
def test_async_execute_with_an_empty_body_is_a_diagnostic(tool: tuple[str, ...], tmp_path: Path) -> None:
    # Before: the refimpl died with IndexError in refimpl/defer.py.
    src = tmp_path / "empty.mlir"
    src.write_text(EMPTY_BODY)
    r = run(*tool, str(src))
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith(f"{src}:{EMPTY_BODY_MESSAGE}\n"), r.stderr
    no_traceback(r)
    if MLIR_OPT_19 is not None:
        ref = subprocess.run([MLIR_OPT_19, "-gpu-async-region", str(src)], capture_output=True, text=True)
        assert ref.returncode == 1 and ref.stderr.splitlines()[0] == r.stderr.splitlines()[0]
