"""The wide corpus against mlir-opt-19's pasted outputs: `cf.switch`, `memref.global`, reshapes,
`reinterpret_cast`, `view`, `gpu.all_reduce`/`gpu.yield`,
`vector.extract`/`insert`/`transfer_read`/`transfer_write`, the llvm
declarations and calls, and the `affine` ops, maps, sets and
`#alias = ...` definitions (each read and printed by its dialect's module
in `spec/dialects/`).

Each file of `tests/wide/` named in `FILES` has mlir-opt-19's output pasted
next to it (`tests/wide/expected/NAME.19.{custom,generic,pass}.out`: its
custom and generic printouts and `-gpu-async-region`, with
`--split-input-file`), so these run without it; with it installed,
`tests/syntax/test_syntax_wide.py` compares every chunk live.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from refimpl import rewrite
from spec import effects
from spec.diagnostics import DiagnosticError
from spec.syntax.parser import parse_module, split_input
from spec.syntax.printing import join_outputs, print_op

WIDE = Path(__file__).resolve().parents[1] / "wide"
FILES = (
    "more_forms",
    "outlined_multi_kernel",
    "host_memref_llvm",
    "affine_forms",
    "affine_vector",
    "tensor_core_gemm",
    "memref_host_more",
    "scalar_dispatch",
)


def _chunks(name: str) -> list:
    text = (WIDE / f"{name}.mlir").read_text()
    return [parse_module("\n" * offset + chunk, f"{name}.mlir") for chunk, offset in split_input(text)]


def _expected(name: str, kind: str) -> str:
    return (WIDE / "expected" / f"{name}.19.{kind}.out").read_text()


@pytest.mark.parametrize("name", FILES)
def test_custom_form_is_mlir_opt_19s(name: str) -> None:
    assert join_outputs([print_op(m) for m in _chunks(name)]) == _expected(name, "custom")


@pytest.mark.parametrize("name", FILES)
def test_generic_form_is_mlir_opt_19s(name: str) -> None:
    assert join_outputs([print_op(m, True) for m in _chunks(name)]) == _expected(name, "generic")


@pytest.mark.parametrize("name", FILES)
def test_generic_form_reads_back(name: str) -> None:
    """What we print generically parses to what 19 prints in custom form."""
    generic = _expected(name, "generic")
    back = [print_op(parse_module("\n" * off + c)) for c, off in split_input(generic)]
    assert join_outputs(back) == _expected(name, "custom")


@pytest.mark.parametrize("name", FILES)
def test_pass_is_mlir_opt_19s(name: str) -> None:
    outs = []
    for module in _chunks(name):
        result = rewrite(module, "mlir19")
        assert not result.diagnostics
        outs.append(print_op(result.module))
    assert join_outputs(outs) == _expected(name, "pass")


def test_effects() -> None:
    """Which new ops keep a token chain open (effect free) and which the pass
    waits before, as mlir-opt-19's -gpu-async-region shows."""
    (module,) = _chunks("outlined_multi_kernel")[1:]
    func = module.regions[0].blocks[0].ops[0]
    free = {op.name: effects.is_memory_effect_free(op) for op in func.regions[0].blocks[0].ops}
    assert free["memref.view"] and free["memref.reinterpret_cast"] and free["memref.expand_shape"]
    assert free["vector.extract"] and free["vector.insert"]
    main = _chunks("outlined_multi_kernel")[0]
    ops = {op.name: op for op in main.walk()}
    assert not effects.is_memory_effect_free(ops["llvm.call"])
    assert not effects.is_memory_effect_free(ops["gpu.all_reduce"])
    assert effects.is_memory_effect_free(ops["llvm.mlir.addressof"])
    assert effects.is_memory_effect_free(ops["memref.collapse_shape"])


@pytest.mark.parametrize(
    "bad,message",
    [
        ("%r = gpu.all_reduce and %x {} : (f32) -> f32", "`and` reduction operation is not compatible with type 'f32'"),
        ("%r = gpu.all_reduce max %x {} : (f32) -> f32", "custom op 'gpu.all_reduce' invalid op kind"),
        (
            "%r = gpu.subgroup_reduce minnumf %i : (i32) -> i32",
            "`minnumf` reduction operation is not compatible with type 'i32'",
        ),
        ("%r = affine.apply #nowhere(%i)", "undefined symbol alias id 'nowhere'"),
    ],
)
def test_refused_as_mlir_opt_19_refuses(bad: str, message: str) -> None:
    """First lines pasted from mlir-opt-19."""
    text = f"func.func @f(%x: f32, %i: i32) {{\n  {bad}\n  return\n}}\n"
    with pytest.raises(DiagnosticError) as exc:
        parse_module(text)
    assert exc.value.diagnostics[0].message == message


def test_alias_errors_where_mlir_opt_19_puts_them() -> None:
    """Positions and first lines pasted from mlir-opt-19."""
    cases = {
        "#map = affine_map<(d0) -> (d0)>\n#map = affine_map<(d0) -> (d0)>\n": (
            2,
            1,
            "redefinition of attribute alias id 'map'",
        ),
        "func.func @f(%m: memref<4xf32, #foo>) { return }\n": (1, 36, "undefined symbol alias id 'foo'"),
        "func.func @f() attributes {a = #foo} { return }\n": (1, 36, "undefined symbol alias id 'foo'"),
    }
    for text, (line, col, message) in cases.items():
        with pytest.raises(DiagnosticError) as exc:
            parse_module(text)
        d = exc.value.diagnostics[0]
        assert (d.loc.line, d.loc.col, d.message) == (line, col, message)


def test_identity_layout_dropped_and_maps_canonical() -> None:
    text = "#id = affine_map<(i) -> (i)>\nfunc.func @f(%a: memref<4xf32, #id>, %b: memref<4xf32, affine_map<(i)[n] -> (n - i - 1 + 0)>>) { return }\n"
    assert print_op(parse_module(text)) == (
        "#map = affine_map<(d0)[s0] -> (-d0 + s0 - 1)>\n"
        "module {\n  func.func @f(%arg0: memref<4xf32>, %arg1: memref<4xf32, #map>) {\n    return\n  }\n}\n"
    )


VERIFY = Path(__file__).resolve().parents[1] / "wide_verify"


@pytest.mark.parametrize(
    "name,path_note",
    [("affine_for", "affine.for at"), ("switch", "cf.switch at")],
)
def test_verifier_follows_affine_for_and_switch(name: str, path_note: str) -> None:
    """The verifier models `affine.for` as a loop (0..K trips, the loop
    lemma), `affine.if` as a two-way decision and `cf.switch` as an n-way
    one: the reference rewrite verifies, a wait moved past a host read is
    refuted on the path that shows it."""
    import subprocess
    import sys

    src = VERIFY / f"{name}_in.mlir"
    ok = subprocess.run(
        [sys.executable, "-m", "verifier", "check", str(src), "--mode", "mlir19"], capture_output=True, text=True
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "verifier", "check", str(src), "--after", str(VERIFY / f"{name}_wrong.mlir")],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert path_note in bad.stderr + bad.stdout


_SPARSE_HEAD = (
    "func.func @f(%t: !gpu.async.token, %a: !gpu.sparse.spmat_handle, %b: !gpu.sparse.dntensor_handle, "
    "%c: !gpu.sparse.dntensor_handle, %m: memref<?xf64>, %i: index, %g: !gpu.sparse.spgemmop_handle) {\n  "
)
SPARSE_CASES = [
    (
        '%0 = "gpu.spmv"(%t, %a, %b, %c, %m) <{computeType = f64, modeA = 1}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, memref<?xf64>) -> !gpu.async.token',
        (
            2,
            8,
            "invalid properties {computeType = f64, modeA = 1 : i64} for op gpu.spmv: Invalid attribute `modeA` in property conversion: 1 : i64",
        ),
    ),
    (
        '%0 = "gpu.spmv"(%t, %a, %b, %c, %m) <{computeType = f64, modeA = #gpu<shuffle_mode xor>}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, memref<?xf64>) -> !gpu.async.token',
        (
            2,
            8,
            "invalid properties {computeType = f64, modeA = #gpu<shuffle_mode xor>} for op gpu.spmv: Invalid attribute `modeA` in property conversion: #gpu<shuffle_mode xor>",
        ),
    ),
    (
        '%0 = "gpu.spmv"(%t, %a, %b, %c, %m) {computeType = f64, modeA = 3} : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, memref<?xf64>) -> !gpu.async.token',
        (
            2,
            8,
            "'gpu.spmv' op attribute 'modeA' failed to satisfy constraint: transpose mode of sparse matrix supported by sparse tensor ops",
        ),
    ),
    (
        '%0 = "gpu.spmv"(%t, %a, %b, %c, %m) <{computeType = 1}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, memref<?xf64>) -> !gpu.async.token',
        (
            2,
            8,
            "invalid properties {computeType = 1 : i64} for op gpu.spmv: Invalid attribute `computeType` in property conversion: 1 : i64",
        ),
    ),
    (
        '%0 = "gpu.spmv"(%t, %a, %b, %c, %m) : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, memref<?xf64>) -> !gpu.async.token',
        (2, 8, "'gpu.spmv' op requires attribute 'computeType'"),
    ),
    (
        '%0 = "gpu.spmv"(%t, %a, %b, %c, %m) {computeType = "x"} : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, memref<?xf64>) -> !gpu.async.token',
        (2, 8, "'gpu.spmv' op attribute 'computeType' failed to satisfy constraint: any type attribute"),
    ),
    (
        '%0, %1 = "gpu.create_2to4_spmat"(%t, %i, %i, %m) <{pruneFlag = 1}> : (!gpu.async.token, index, index, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)',
        (
            2,
            12,
            "invalid properties {pruneFlag = 1 : i64} for op gpu.create_2to4_spmat: Invalid attribute `pruneFlag` in property conversion: 1 : i64",
        ),
    ),
    (
        '%0, %1 = "gpu.create_2to4_spmat"(%t, %i, %i, %m) {pruneFlag = #gpu<shuffle_mode xor>} : (!gpu.async.token, index, index, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)',
        (
            2,
            12,
            "'gpu.create_2to4_spmat' op attribute 'pruneFlag' failed to satisfy constraint: pruning strategy for 2:4 sparse matrix",
        ),
    ),
    (
        '%0, %1 = "gpu.create_2to4_spmat"(%t, %i, %i, %m) : (!gpu.async.token, index, index, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)',
        None,
    ),
    (
        '%0, %1 = "gpu.spgemm_work_estimation_or_compute"(%t, %g, %a, %a, %a, %i, %m) <{computeType = f64, kind = 1}> : (!gpu.async.token, !gpu.sparse.spgemmop_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, index, memref<?xf64>) -> (index, !gpu.async.token)',
        (
            2,
            12,
            "invalid properties {computeType = f64, kind = 1 : i64} for op gpu.spgemm_work_estimation_or_compute: Invalid attribute `kind` in property conversion: 1 : i64",
        ),
    ),
    (
        '%0, %1 = "gpu.spgemm_work_estimation_or_compute"(%t, %g, %a, %a, %a, %i, %m) {computeType = f64, kind = #gpu<shuffle_mode xor>} : (!gpu.async.token, !gpu.sparse.spgemmop_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, index, memref<?xf64>) -> (index, !gpu.async.token)',
        (
            2,
            12,
            "'gpu.spgemm_work_estimation_or_compute' op attribute 'kind' failed to satisfy constraint: choose whether spgemm_work_estimation_or_compute does work estimation or compute",
        ),
    ),
    (
        '%0, %1 = "gpu.create_dn_tensor"(%t, %m, %i) <{operandSegmentSizes = array<i32: 1, 1>}> : (!gpu.async.token, memref<?xf64>, index) -> (!gpu.sparse.dntensor_handle, !gpu.async.token)',
        (
            2,
            12,
            "invalid properties {operandSegmentSizes = array<i32: 1, 1>} for op gpu.create_dn_tensor: size mismatch in attribute conversion: 2 vs 3",
        ),
    ),
    (
        '%0, %1 = "gpu.create_dn_tensor"(%t, %m, %i) <{operandSegmentSizes = array<i32: 1, 1, 3>}> : (!gpu.async.token, memref<?xf64>, index) -> (!gpu.sparse.dntensor_handle, !gpu.async.token)',
        (
            2,
            12,
            "'gpu.create_dn_tensor' op operand count (3) does not match with the total size (5) specified in attribute 'operandSegmentSizes'",
        ),
    ),
    ("%0, %1 = gpu.create_2to4_spmat async [%t] %i, %i, %m : memref<?xf64>", (2, 44, "expected '{'")),
]
"""Sparse ops written with bad or missing inherent attributes: mlir-opt-19's
first error (line, column, message), pasted; None where it accepts."""


@pytest.mark.parametrize("text,expected", SPARSE_CASES)
def test_sparse_op_diagnostics_are_mlir_opt_19s(text: str, expected: tuple | None) -> None:
    src = _SPARSE_HEAD + text + "\n  return\n}\n"
    if expected is None:
        parse_module(src)
        return
    with pytest.raises(DiagnosticError) as exc:
        parse_module(src)
    d = exc.value.diagnostics[0]
    assert (d.loc.line, d.loc.col, d.message) == expected
