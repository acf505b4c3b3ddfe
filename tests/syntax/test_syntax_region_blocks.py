"""Single-block regions: `scf.for`'s body, `scf.if`'s branches and
`scf.while`'s two regions hold one block (an `scf.if` may have no else), as
MLIR's verifier demands; the refimpl and the verifier walk them as one block,
so a file with more, or none, is refused with mlir-opt-19's message, in the
custom form and the generic one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.mlir_tools import MLIR_OPT_19

ROOT = Path(__file__).resolve().parents[2]

CASES = {
    "while-before-two-blocks": (
        "  scf.while : () -> () {\n    cf.br ^bb1\n  ^bb1:\n    scf.condition(%p)\n  } do {\n    scf.yield\n  }\n",
        "4:3: error: 'scf.while' op expects region #0 to have 0 or 1 blocks",
    ),
    "while-after-two-blocks": (
        "  scf.while : () -> () {\n    scf.condition(%p)\n  } do {\n    cf.br ^bb1\n  ^bb1:\n    scf.yield\n  }\n",
        "4:3: error: 'scf.while' op expects region #1 to have 0 or 1 blocks",
    ),
    "while-generic-no-before": (
        '  "scf.while"() ({\n  }, {\n    scf.yield\n  }) : () -> ()\n',
        "4:3: error: 'scf.while' op region #0 ('before') failed to verify constraint: region with 1 blocks",
    ),
    "for-two-blocks": (
        "  scf.for %i = %c0 to %n step %c1 {\n    cf.br ^bb1\n  ^bb1:\n    scf.yield\n  }\n",
        "4:3: error: 'scf.for' op expects region #0 to have 0 or 1 blocks",
    ),
    "for-generic-no-body": (
        '  "scf.for"(%c0, %n, %c1) ({\n  }) : (index, index, index) -> ()\n',
        "4:3: error: 'scf.for' op region #0 ('region') failed to verify constraint: region with 1 blocks",
    ),
    "if-then-two-blocks": (
        "  scf.if %p {\n    cf.br ^bb1\n  ^bb1:\n    scf.yield\n  }\n",
        "4:3: error: 'scf.if' op expects region #0 to have 0 or 1 blocks",
    ),
    "if-else-two-blocks": (
        "  scf.if %p {\n  } else {\n    cf.br ^bb1\n  ^bb1:\n    scf.yield\n  }\n",
        "4:3: error: 'scf.if' op expects region #1 to have 0 or 1 blocks",
    ),
    "if-generic-no-then": (
        '  "scf.if"(%p) ({\n  }, {\n  }) : (i1) -> ()\n',
        "4:3: error: 'scf.if' op region #0 ('thenRegion') failed to verify constraint: region with 1 blocks",
    ),
}

VALID = {
    "if-generic-no-else": '  "scf.if"(%p) ({\n    scf.yield\n  }, {\n  }) : (i1) -> ()\n',
    "while-one-block-each": "  scf.while : () -> () {\n    scf.condition(%p)\n  } do {\n    scf.yield\n  }\n",
}


def _program(body: str) -> str:
    """`body` as the function's fourth line on."""
    head = "func.func @f(%p: i1, %n: index) {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
    return head + body + "  return\n}\n"


def _run(tool: list[str], path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*tool, str(path)], capture_output=True, text=True, timeout=120, cwd=ROOT)


@pytest.mark.parametrize("name", sorted(CASES))
def test_wrong_block_count_is_refused_with_19s_message(name: str, tmp_path: Path) -> None:
    body, expected = CASES[name]
    path = tmp_path / "in.mlir"
    path.write_text(_program(body))
    ours = _run([sys.executable, "-m", "refimpl"], path)
    assert ours.returncode == 1 and ours.stdout == "", ours
    first = ours.stderr.splitlines()[0]
    assert first == f"{path}:{expected}", ours.stderr
    if MLIR_OPT_19 is not None:
        ref = _run([MLIR_OPT_19], path)
        assert ref.returncode == 1 and ref.stderr.splitlines()[0] == first, ref.stderr


@pytest.mark.parametrize("name", sorted(VALID))
def test_one_block_or_an_empty_else_is_accepted(name: str, tmp_path: Path) -> None:
    path = tmp_path / "in.mlir"
    path.write_text(_program(VALID[name]))
    ours = _run([sys.executable, "-m", "refimpl"], path)
    assert ours.returncode == 0, ours.stderr
    if MLIR_OPT_19 is not None:
        assert _run([MLIR_OPT_19], path).returncode == 0
