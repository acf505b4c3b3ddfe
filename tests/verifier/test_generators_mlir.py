"""The program generator against real MLIR (skipped without mlir-opt-19).

- `mlir-opt-19` accepts every generated program (so the generator is valid
  by construction, not just by our own parser's standards);
- `python -m refimpl --mode mlir19` prints exactly what
  `mlir-opt-19 -gpu-async-region` prints, byte for byte, on generated
  programs (its in-process equivalent, `verifier.harness.gate.RefimplImpl`).
"""

from __future__ import annotations

import subprocess

from hypothesis import HealthCheck, given, settings

from tests.mlir_tools import MLIR_OPT_19, needs_mlir19
from tests.support.profiles import examples
from verifier.harness.gate import ImplFailed, RefimplImpl
from verifier.programs.generators import Features, programs

SETTINGS = settings(
    max_examples=examples(40),
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _mlir_opt(*args: str, text: str) -> subprocess.CompletedProcess[str]:
    assert MLIR_OPT_19 is not None
    return subprocess.run([MLIR_OPT_19, *args, "-"], input=text, capture_output=True, text=True, timeout=60)


@needs_mlir19
@SETTINGS
@given(program=programs(Features()))
def test_mlir_opt_19_accepts_generated_programs(program) -> None:
    proc = _mlir_opt(text=program.text)
    assert proc.returncode == 0, f"mlir-opt-19 rejects a generated program:\n{program.text}\n{proc.stderr}"


@needs_mlir19
@SETTINGS
@given(program=programs(Features()))
def test_refimpl_mlir19_mode_is_byte_identical_to_mlir_opt_19(program) -> None:
    proc = _mlir_opt("-gpu-async-region", text=program.text)
    try:
        ours = RefimplImpl("mlir19")(program.text)
    except ImplFailed as exc:
        ours = f"<refimpl failed: {exc}>"
    if proc.returncode != 0:
        # mlir-opt rejects its own output (e.g. a dominance error): the refimpl
        # must fail too rather than print something.
        assert ours.startswith("<refimpl failed"), (
            f"mlir-opt-19 fails, the refimpl does not:\n{program.text}\n{proc.stderr}"
        )
        return  # checked: both fail
    assert ours == proc.stdout, (
        f"refimpl --mode mlir19 differs from mlir-opt-19 -gpu-async-region on:\n{program.text}\n"
        f"===== mlir-opt-19 =====\n{proc.stdout}===== refimpl =====\n{ours}"
    )
