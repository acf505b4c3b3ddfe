"""`--gpu-async-region` at LLVM head (`iree-opt`, the `[upstream]` extra)
on the project's corpora, against mlir-opt-19 and through the verifier.

The tables below are what head does today (`python bench/upstream_head.py
--details` prints them in full); a change at head makes a test here fail,
and the table is then updated with what head does instead. Skipped without
iree-opt (and, for the comparisons, without mlir-opt-19).
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests import mlir_tools
from tests.mlir_tools import IREE_OPT, MLIR_OPT_19, needs_iree, needs_mlir19

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("upstream_head", ROOT / "bench" / "upstream_head.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["upstream_head"] = module
    spec.loader.exec_module(module)
    return module


# Inputs head rejects although mlir-opt-19 runs the pass on them, with the
# first error. iree-opt registers no `async` and no `index` dialect, so no
# program with `async.execute` reaches head's pass from this binary: the
# deferral of waits out of `async.execute` (phase 2) is not exercised here.
REJECTED_AT_HEAD = {
    **{
        f"tests/corpus/{n}.mlir": "Dialect `async' not found for custom op 'async.execute' "
        for n in ("async_execute_tokens", "async_gpu_tokens", "host_ops_in_regions", "name_hints")
    },
    "tests/corpus/async_groups.mlir": "Dialect `async' not found for custom op 'async.create_group' ",
    **{
        f"verifier/corpus/{n}.mlir": "Dialect `async' not found for custom op 'async.execute' "
        for n in (
            "async_execute_await",
            "async_execute_deps",
            "async_not_deferred",
            "async_token_awaited_twice",
            "async_two_users",
            "async_value_consumers",
            "async_values",
            "gpu_then_async",
            "gpu_then_await_token",
            "nested_execute_in_scf",
            "noop_wait_in_execute",
        )
    },
    "tests/wide/affine_vector.mlir:52": "Dialect `index' not found for custom op 'index.add' ",
    "tests/wide/scalar_dispatch.mlir": "Dialect `index' not found for custom op 'index.constant' ",
    "tests/wide/tensor_core_gemm.mlir:58": "Dialect `index' not found for custom op 'index.constant' ",
    # inherent attributes (properties) are no longer read from the attribute dict
    **{
        label: f"custom op '{op}' inherent attribute '{attr}' cannot be parsed from attr-dict when strict properties in assembly format is enabled"
        for label, op, attr in (
            ("tests/corpus/defaults_and_attr_dicts.mlir", "memref.load", "nontemporal"),
            ("tests/corpus/gpu_module_targets.mlir:49", "gpu.module", "targets"),
            ("tests/corpus/memref_basic.mlir", "memref.alloc", "alignment"),
            ("tests/corpus/module_attrs_floats.mlir", "memref.alloc", "alignment"),
            ("tests/wide/more_forms.mlir:1", "memref.global", "alignment"),
        )
    },
    # head writes gpu.thread_id's dimension `#gpu.dim<x>`, and does not read `#gpu<dim x>`
    "tests/corpus/generic_gpu_module_end.mlir": "expected '<'",
    # a dependency list on a synchronous launch_func (no `async`) is an error
    "tests/corpus/launch_func_forms.mlir": "'gpu.launch_func' op dependency operands require the dependency-based async model i.e. returning a token",
    "tests/wide/affine_vector.mlir:16": "custom op 'vector.splat' is unknown",
    # gpu.printf wants a comma after its format string (`"value %d\n", %x : i32`)
    "tests/wide/kernels_outlined.mlir:75": "expected integer number of results",
    # `leadDimension 64` is a keyword in the assembly, no longer an attribute dict entry
    "tests/wide/tensor_core_gemm.mlir:1": "custom op 'gpu.subgroup_mma_load_matrix' expected 'leadDimension'",
}

# Inputs head accepts only with --allow-unregistered-dialect: ops of the
# `test` dialect, which mlir-opt-19 registers (and allows unknown ops of).
UNREGISTERED_AT_HEAD = {
    "tests/corpus/attributes_forms.mlir",
    "tests/corpus/nested_modules.mlir",
    "tests/corpus/nested_region_numbering.mlir",
    "tests/corpus/quoted_symbols_locations.mlir",
    "tests/corpus/scf_execute_region.mlir",
    "tests/corpus/split_many.mlir:18",
    "tests/corpus/types_forms.mlir",
}

# Where both accept and the bytes differ, it is printing only: one tool reads
# the other's output to the same bytes (bench/upstream_head.py, same_ir).
# What head prints differently: one blank, not two, after gpu.thread_id,
# block_id, block_dim, grid_dim, global_id, cluster_* and before
# gpu.all_reduce's / gpu.shuffle's / gpu.subgroup_reduce's operation, and
# after a gpu.module's target list; no blank between a gpu.module's name and
# its `<handler>`; `#nvvm.target<chip = "sm_50">` keeps the chip (no longer
# the default); memref.assume_alignment has a result (`%assume_align = ...`).
PRINTING_ONLY = {
    "tests/corpus/gpu_module_kernels.mlir",
    "tests/corpus/gpu_module_targets.mlir:1",
    "tests/corpus/gpu_module_targets.mlir:58",
    "tests/corpus/mixed_ops.mlir",
    "tests/wide/host_register_pipeline.mlir:1",
    "tests/wide/host_register_pipeline.mlir:32",
    "tests/wide/kernels_outlined.mlir:1",
    "tests/wide/kernels_outlined.mlir:26",
    "tests/wide/kernels_outlined.mlir:51",
    "tests/wide/kernels_outlined.mlir:91",
    "tests/wide/memref_host_more.mlir:1",
    "tests/wide/memref_host_more.mlir:40",
    "tests/wide/outlined_multi_kernel.mlir:1",
    "tests/wide/tensor_core_gemm.mlir:80",
}

# Head's outputs our parser does not read, with its first error.
UNREAD_BY_OUR_PARSER = {
    # `%assume_align = memref.assume_alignment %arg0, 64 : memref<256xf32>`:
    # at head the op returns the aligned memref; in 19 it has no result
    "tests/wide/memref_host_more.mlir:1": "7:5: operation defines 0 results but was provided 1 to bind",
}

# The verifier's verdict on head's rewrite where it is not `verified`; on
# every other input head accepts it is `verified`. None is refuted.
NOT_VERIFIED_AT_HEAD = {
    "tests/corpus/cf_loop_back_edge.mlir": "bounded",
    "verifier/corpus/cf_back_edge.mlir": "bounded",
    "tests/corpus/nested_modules.mlir": "unknown",
    "tests/corpus/nested_region_numbering.mlir": "unknown",
    "tests/corpus/scf_parallel_reduce.mlir": "unknown",
    "tests/corpus/unregistered_ops.mlir": "unknown",
    # head's output does not parse (UNREAD_BY_OUR_PARSER); 19's rewrite is unknown
    "tests/wide/memref_host_more.mlir:1": "error (exit 2)",
}


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return _bench()


@pytest.fixture(scope="module")
def rows(bench: ModuleType) -> dict[str, object]:
    assert IREE_OPT is not None
    return {r.label: r for r in bench.measure(IREE_OPT, MLIR_OPT_19, verify=False)}


@pytest.fixture(scope="module")
def verdict_rows(bench: ModuleType, rows: dict[str, object]) -> dict[str, object]:
    bench.add_verdicts(list(rows.values()))
    return rows


def test_find_iree_opt_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """IREE_OPT wins when it names an executable; a wrong one is not found
    (no fallback that would hide the mistake); without it, PATH, then the
    interpreter's own bin/."""
    tool = tmp_path / "iree-opt"
    tool.write_text("#!/bin/sh\n")
    tool.chmod(0o755)
    monkeypatch.setenv("IREE_OPT", str(tool))
    assert mlir_tools.find_iree_opt() == str(tool)
    monkeypatch.setenv("IREE_OPT", str(tmp_path / "absent"))
    assert mlir_tools.find_iree_opt() is None
    monkeypatch.delenv("IREE_OPT")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert mlir_tools.find_iree_opt() == str(tool)
    monkeypatch.setenv("PATH", "")
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    assert mlir_tools.find_iree_opt() == str(tool)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "elsewhere" / "python"))
    assert mlir_tools.find_iree_opt() is None


@needs_iree
def test_head_runs_the_pass() -> None:
    """The binary found has the pass and says its LLVM version."""
    assert IREE_OPT is not None
    out = subprocess.run([IREE_OPT, "--help"], capture_output=True, text=True, check=True).stdout
    assert "--gpu-async-region" in out
    assert "LLVM version" in subprocess.run([IREE_OPT, "--version"], capture_output=True, text=True).stdout


@needs_iree
@needs_mlir19
def test_what_head_rejects(rows: dict) -> None:
    assert {k: r.error_head for k, r in rows.items() if r.accepted19 and not r.accepted_head} == REJECTED_AT_HEAD
    assert {k for k, r in rows.items() if r.accepted_head and r.flags_head != r.flags19} == UNREGISTERED_AT_HEAD
    # what 19 rejects, head rejects too
    assert not [k for k, r in rows.items() if r.accepted_head and not r.accepted19]


@needs_iree
@needs_mlir19
def test_head_rewrites_as_19(rows: dict) -> None:
    """Wherever both run the pass, head's rewrite is 19's: the bytes are equal
    or differ in printing only; no input differs in the rewrite."""
    both = {k: r for k, r in rows.items() if r.accepted19 and r.accepted_head}
    assert len(both) == 80
    assert {k for k, r in both.items() if r.compare == "rewrite"} == set()
    assert {k for k, r in both.items() if r.compare == "printing only"} == PRINTING_ONLY
    assert sum(r.compare == "identical" for r in both.values()) == 80 - len(PRINTING_ONLY)


@needs_iree
@needs_mlir19
def test_same_ir_tells_a_rewrite_apart(bench: ModuleType, rows: dict) -> None:
    """The printing-only test is not vacuous: head's output with one wait
    dropped is a different rewrite."""
    assert IREE_OPT is not None and MLIR_OPT_19 is not None
    r = rows["tests/wide/kernels_outlined.mlir:1"]
    assert r.compare == "printing only"
    lines = r.out_head.splitlines(keepends=True)
    waits = [i for i, ln in enumerate(lines) if ln.strip().startswith("gpu.wait [")]
    assert waits
    dropped = "".join(ln for i, ln in enumerate(lines) if i != waits[-1])
    assert not bench.same_ir(IREE_OPT, MLIR_OPT_19, r.out19, dropped, r.flags_head, r.flags19)
    assert bench.same_ir(IREE_OPT, MLIR_OPT_19, r.out19, r.out_head, r.flags_head, r.flags19)


@needs_iree
def test_our_parser_reads_heads_output(rows: dict) -> None:
    """Every output of head's pass parses with our parser, except the ones
    listed (a change of an op at head that our 19-subset does not read)."""
    assert {k: r.parse_head for k, r in rows.items() if r.accepted_head and r.parse_head} == UNREAD_BY_OUR_PARSER


@needs_iree
@needs_mlir19
@pytest.mark.slow
def test_verdicts_on_heads_rewrite(verdict_rows: dict) -> None:
    accepted = {k: r for k, r in verdict_rows.items() if r.accepted_head}
    assert {k: r.verdict_head for k, r in accepted.items() if r.verdict_head != "verified"} == NOT_VERIFIED_AT_HEAD
    assert not [k for k, r in accepted.items() if r.verdict_head == "refuted"]
    # the verdict on head's rewrite is 19's, except where our parser cannot read head's output
    changed = {k: (r.verdict19, r.verdict_head) for k, r in accepted.items() if r.verdict19 != r.verdict_head}
    assert changed == {"tests/wide/memref_host_more.mlir:1": ("verified", "error (exit 2)")}


@needs_iree
@needs_mlir19
def test_assume_alignment_result_changes_the_verdict(bench: ModuleType, rows: dict) -> None:
    """The one input whose verdict differs: not a change of the rewrite (the
    waits are where 19 puts them) but of `memref.assume_alignment`, which
    returns the aligned memref at head. Our parser (the 19 subset) rejects
    `%assume_align = memref.assume_alignment ...`, so the verifier stops at
    head's output (exit 2) where on 19's rewrite it says verified."""
    r = rows["tests/wide/memref_host_more.mlir:1"]
    assert "    %assume_align = memref.assume_alignment %arg0, 64 : memref<256xf32>\n" in r.out_head
    assert "    memref.assume_alignment %arg0, 64 : memref<256xf32>\n" in r.out19
    # the same rewrite: removing the result and re-reading gives 19's bytes
    fixed = r.out_head.replace("%assume_align = memref.assume_alignment", "memref.assume_alignment")
    assert MLIR_OPT_19 is not None
    assert subprocess.run([MLIR_OPT_19, "-"], input=fixed, capture_output=True, text=True).stdout == r.out19
    word, message = bench.verdict(r.text, r.out_head, r.flags19)
    assert (word, message) == ("error (exit 2)", "out.mlir: error: the output does not parse")
    assert bench.verdict(r.text, r.out19, r.flags19)[0] == "verified"


@needs_iree
def test_bench_table_stamp(
    bench: ModuleType, rows: dict, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The markdown table names the command, the date and head's LLVM version."""
    monkeypatch.setattr(bench, "measure", lambda iree, mlir19, verify=True: list(rows.values()))
    assert bench.main(["--no-verify"]) == 0
    out = capsys.readouterr().out
    assert IREE_OPT is not None
    version = bench.iree_version(IREE_OPT)
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", version), version
    assert re.match(
        r"`python bench/upstream_head\.py --no-verify`, \d{4}-\d\d-\d\d, iree-opt LLVM "
        + re.escape(version)
        + " against",
        out,
    )
    assert "| inputs | 19 accepts | head accepts |" in out
