"""Round-trip properties of parse and print over generated programs.

Programs come from `bench/gen_programs.generate` (valid by construction, any
size and seed) and from the corpus split into modules. For each, in custom
and generic form: printing is a fixed point (`print(parse(print(x)))` is
`print(x)`), and parsing what we printed gives back the same IR up to value
identity and locations (`structurally_equal`). Float printing, the part of
the printer with the most arithmetic, is checked against mlir-opt-19 on
random values when the binary is installed.
"""

from __future__ import annotations

import math
import struct
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spec.attributes import Type, format_float, round_to_type
from spec.ir import structurally_equal
from spec.syntax.parser import parse_module
from spec.syntax.printing import print_op
from tests.mlir_tools import MLIR_OPT_19, needs_mlir19

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from gen_programs import generate

_SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _round_trips(text: str) -> None:
    ir = parse_module(text)
    for generic in (False, True):
        printed = print_op(ir, generic)
        again = parse_module(printed)
        assert structurally_equal(ir, again), f"generic={generic}"
        assert print_op(again, generic) == printed, f"generic={generic}"
        # And across forms: the custom text of the generic reparse is ours.
        assert print_op(again, False) == print_op(ir, False)


@_SETTINGS
@given(n=st.integers(min_value=0, max_value=60), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_generated_programs_round_trip(n: int, seed: int) -> None:
    """Shrinks toward fewer GPU ops and seed 0."""
    _round_trips(generate(n, seed))


def test_generator_is_deterministic_and_sized() -> None:
    assert generate(20, 7) == generate(20, 7)
    assert generate(20, 7) != generate(20, 8)
    body = parse_module(generate(25, 3)).regions[0].blocks[0].ops[-1].regions[0].blocks[0]
    gpu = [op for op in body.ops if op.name.startswith("gpu.")]
    assert len(gpu) == 25


@needs_mlir19
def test_generated_program_matches_mlir_opt_19(tmp_path: Path) -> None:
    assert MLIR_OPT_19 is not None
    text = generate(300, 11)
    path = tmp_path / "gen.mlir"
    path.write_text(text)
    for flags in ([], ["--mlir-print-op-generic"]):
        theirs = subprocess.run([MLIR_OPT_19, str(path), *flags], capture_output=True, text=True, timeout=120)
        assert theirs.returncode == 0, theirs.stderr
        assert print_op(parse_module(text), bool(flags)) + "\n" == theirs.stdout


_FLOAT_TYPES = ["f16", "bf16", "f32", "f64"]


def _finite(type_name: str) -> st.SearchStrategy[float]:
    """Finite floats of the type, from its bit patterns (so every exponent
    and mantissa is reachable); shrinks toward small bit patterns."""
    if type_name == "f64":
        return st.floats(allow_nan=False, allow_infinity=False)
    if type_name == "f32":
        return st.floats(allow_nan=False, allow_infinity=False, width=32)
    if type_name == "f16":
        return st.floats(allow_nan=False, allow_infinity=False, width=16)
    # bf16: the top half of an f32.
    return (
        st.integers(0, 0xFFFF).map(lambda b: struct.unpack("<f", struct.pack("<I", b << 16))[0]).filter(math.isfinite)
    )


@st.composite
def _float_batches(draw: st.DrawFn) -> list[tuple[str, float]]:
    return [(t, v) for t in _FLOAT_TYPES for v in draw(st.lists(_finite(t), min_size=1, max_size=25))]


@needs_mlir19
@settings(deadline=None, max_examples=10)
@given(_float_batches())
def test_float_attributes_print_as_mlir_opt_19(batch: list[tuple[str, float]]) -> None:
    """One mlir-opt run per batch: every value written in hex (exact), read
    back and printed by both; our spelling must be mlir-opt's."""
    assert MLIR_OPT_19 is not None
    attrs = []
    for i, (t, v) in enumerate(batch):
        bits = struct.unpack("<I", struct.pack("<f", v))[0] >> 16 if t == "bf16" else None
        hex_text = {
            "f16": lambda x: f"0x{struct.unpack('<H', struct.pack('<e', x))[0]:04X}",
            "f32": lambda x: f"0x{struct.unpack('<I', struct.pack('<f', x))[0]:08X}",
            "f64": lambda x: f"0x{struct.unpack('<Q', struct.pack('<d', x))[0]:016X}",
            "bf16": lambda x: f"0x{bits:04X}",
        }[t](v)
        attrs.append(f"a{i} = {hex_text} : {t}")
    text = '"test.floats"() {' + ", ".join(attrs) + "} : () -> ()\n"
    theirs = subprocess.run(
        [MLIR_OPT_19, "--allow-unregistered-dialect", "-"], input=text, capture_output=True, text=True, timeout=60
    )
    assert theirs.returncode == 0, theirs.stderr
    assert print_op(parse_module(text)) + "\n" == theirs.stdout
    # And our own spelling reads back to the same value.
    for t, v in batch:
        ty = Type(t)
        spelled = format_float(round_to_type(v, ty), ty)
        if not spelled.startswith("0x"):
            assert round_to_type(float(spelled), ty) == round_to_type(v, ty)
