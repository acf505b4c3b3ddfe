"""`gpu.module`'s offloading handler and targets (`gpu.module @k <handler>
[targets] attributes {...} {...}`): where they are stored, how they print in
the custom and generic forms (mlir-opt-19's text, pinned here and compared
with the tool when installed), the canonical spelling of the target and
handler attributes (`spec/syntax/dialect_attrs/gpu_targets.py`: `#nvvm.target`,
`#rocdl.target`, `#spirv.target_env` with its `#spirv.vce` and
`#spirv.resource_limits`, `#gpu.select_object`, quoted `<`/`>` inside
them), and located diagnostics for malformed forms and for attribute names
the `gpu`, `nvvm`, `rocdl` and `spirv` dialects do not have.

Our messages for lark's syntax errors keep the parser's own wording
(`unexpected X, expected one of: ...`) where mlir-opt-19 says `expected
attribute value` or `expected ',' or ']'`: those cases compare the location
only (`SYNTAX_CASES`); every other case compares the whole first line.
"""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spec.__main__ import main as spec_main
from spec.attributes import ArrayAttr, OpaqueAttr
from spec.diagnostics import DiagnosticError
from spec.syntax.dialect_attrs import canonical_gpu_attr, is_gpu_target, is_offloading_handler
from spec.syntax.parser import parse_attr_value, parse_module
from spec.syntax.printing import join_outputs, print_op
from tests.mlir_tools import MLIR_OPT_19, needs_mlir19

# The inputs use ops of unregistered dialects; mlir-opt-19 reads them with
# --allow-unregistered-dialect, and so does every parse here (`allow_unregistered=True`).

REPO = Path(__file__).resolve().parents[2]

_BODY = " {\n  gpu.func @f() kernel {\n    gpu.return\n  }\n}\n"

_VCE = "#spirv.vce<v1.0, [Shader], []>"
_LIMITS = "#spirv.resource_limits<>"

# Custom-form head as written -> as mlir-opt-19 prints it (checked against it).
PRINTED = {
    "handler": ("gpu.module @k <#gpu.select_object<1>>", "gpu.module @k <#gpu.select_object<1 : i64>> {"),
    "handler-typed": (
        "gpu.module @k <#gpu.select_object<3 : index>>",
        "gpu.module @k <#gpu.select_object<3 : index>> {",
    ),
    "handler-bool": ("gpu.module @k <#gpu.select_object<false>>", "gpu.module @k <#gpu.select_object<false>> {"),
    "handler-unsigned": (
        "gpu.module @k <#gpu.select_object<127 : ui8>>",
        "gpu.module @k <#gpu.select_object<127 : ui8>> {",
    ),
    "handler-bare": ("gpu.module @k <#gpu.select_object>", "gpu.module @k <#gpu.select_object> {"),
    "handler-hex": ("gpu.module @k <#gpu.select_object<0x10>>", "gpu.module @k <#gpu.select_object<16 : i64>> {"),
    "handler-target": (
        'gpu.module @k <#gpu.select_object<#nvvm.target<chip = "sm_50">>>',
        "gpu.module @k <#gpu.select_object<#nvvm.target>> {",
    ),
    "targets": ("gpu.module @k [#nvvm.target]", "gpu.module @k [#nvvm.target]  {"),
    "targets-several": (
        'gpu.module @k [#nvvm.target, #rocdl.target<chip = "gfx90a">, #nvvm.target<O=3,chip="sm_90">]',
        'gpu.module @k [#nvvm.target, #rocdl.target<chip = "gfx90a">, #nvvm.target<O = 3, chip = "sm_90">]  {',
    ),
    "both": (
        "gpu.module @k <#gpu.select_object<0>> [#rocdl.target<O = 3>]",
        "gpu.module @k <#gpu.select_object<0 : i64>> [#rocdl.target<O = 3>]  {",
    ),
    "both-attrs": (
        "gpu.module @k<#gpu.select_object<0>>[#nvvm.target]attributes{a, b = 1}",
        "gpu.module @k <#gpu.select_object<0 : i64>> [#nvvm.target]  attributes {a, b = 1 : i64} {",
    ),
    "targets-attrs": (
        "gpu.module @k [#nvvm.target] attributes {x = 1 : i32}",
        "gpu.module @k [#nvvm.target]  attributes {x = 1 : i32} {",
    ),
    "handler-attrs": (
        "gpu.module @k <#gpu.select_object<2>> attributes {x}",
        "gpu.module @k <#gpu.select_object<2 : i64>> attributes {x} {",
    ),
    "nvvm-defaults": (
        'gpu.module @k [#nvvm.target<triple = "nvptx64-nvidia-cuda", chip = "sm_50", features = "+ptx60", O = 2>, #nvvm.target<>]',
        "gpu.module @k [#nvvm.target, #nvvm.target]  {",
    ),
    "nvvm-all": (
        'gpu.module @k [#nvvm.target<link = ["a.bc", 1], flags = {z, a = 1}, features = "+ptx80", chip = "sm_90a", triple = "t", O = 0x1>]',
        'gpu.module @k [#nvvm.target<O = 1, triple = "t", chip = "sm_90a", features = "+ptx80", flags = {a = 1 : i64, z}, link = ["a.bc", 1]>]  {',
    ),
    "nvvm-empty-flags-link": (
        "gpu.module @k [#nvvm.target<flags = {}, link = []>]",
        "gpu.module @k [#nvvm.target<flags = {}, link = []>]  {",
    ),
    "nvvm-escapes": (
        'gpu.module @k [#nvvm.target<features = "a\\"b">]',
        'gpu.module @k [#nvvm.target<features = "a\\22b">]  {',
    ),
    "nvvm-bool-level": ("gpu.module @k [#nvvm.target<O = true>]", "gpu.module @k [#nvvm.target<O = -1>]  {"),
    "rocdl-all": (
        'gpu.module @k [#rocdl.target<abi = "400", features = "+xnack", chip = "gfx90a", triple = "t", O = 1, link = ["l"], flags = {f}>]',
        'gpu.module @k [#rocdl.target<O = 1, triple = "t", chip = "gfx90a", features = "+xnack", abi = "400", flags = {f}, link = ["l"]>]  {',
    ),
    "rocdl-defaults": (
        'gpu.module @k [#rocdl.target<O = 2, chip = "gfx900", abi = "500", features = "", triple = "amdgcn-amd-amdhsa">]',
        "gpu.module @k [#rocdl.target]  {",
    ),
    "spirv": (
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<max_compute_workgroup_size = [64, 1, 1]>>]",
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<max_compute_workgroup_size = [64, 1, 1]>>]  {",
    ),
    # One in the attribute dict replaces the custom-form one.
    "dict-overrides": (
        "gpu.module @k [#nvvm.target] attributes {targets = [#rocdl.target], offloadingHandler = #gpu.select_object<4>}",
        "gpu.module @k <#gpu.select_object<4 : i64>> [#rocdl.target]  {",
    ),
    # ... and a `targets` that is not an array is dropped, with the list.
    "dict-drops-targets": ("gpu.module @k [#nvvm.target] attributes {targets = 1}", "gpu.module @k {"),
    # A `<` or `>` in a quoted string inside a dialect attribute is no bracket.
    "string-angles-nvvm": (
        'gpu.module @k [#nvvm.target<flags = {s = "a>b"}, link = ["x<y", "q>>"]>]',
        'gpu.module @k [#nvvm.target<flags = {s = "a>b"}, link = ["x<y", "q>>"]>]  {',
    ),
    "string-angles-rocdl": (
        'gpu.module @k [#rocdl.target<features = "<>", chip = "a>">]',
        'gpu.module @k [#rocdl.target<chip = "a>", features = "<>">]  {',
    ),
    "string-angles-escaped": (
        'gpu.module @k [#nvvm.target<chip = "sm_<90>", features = "\\">">]',
        'gpu.module @k [#nvvm.target<chip = "sm_<90>", features = "\\22>">]  {',
    ),
    "string-angles-handler": (
        'gpu.module @k <#gpu.select_object<#nvvm.target<link = ["<<<"]>>>',
        'gpu.module @k <#gpu.select_object<#nvvm.target<link = ["<<<"]>>> {',
    ),
    "string-angles-unregistered": (
        'gpu.module @k attributes {a = #foo.bar<"a>b">, b = #foo<"<">}',
        'gpu.module @k attributes {a = #foo.bar<"a>b">, b = #foo<"<">} {',
    ),
    # `#spirv.target_env`: limits at their defaults, an `Unknown` client API,
    # vendor or device type (or an unknown name, which reads as one: the
    # `names-misread` case, where mlir-opt-19 also prints an error but exits
    # 0) are left out; `api=` without blanks, the device id in decimal.
    "spirv-full": (
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.3, [Shader, Float16, Int64], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_16bit_storage]>, api=Vulkan, NVIDIA:DiscreteGPU:0x2204, #spirv.resource_limits<max_compute_workgroup_size = [128, 128, 64], max_compute_workgroup_invocations = 128, subgroup_size = 32, max_compute_shared_memory_size = 16384, min_subgroup_size = 4, max_subgroup_size=64, cooperative_matrix_properties_khr = []>>]",
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.3, [Shader, Float16, Int64], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_16bit_storage]>, api=Vulkan, NVIDIA:DiscreteGPU:8708, #spirv.resource_limits<max_compute_workgroup_size = [128, 128, 64], min_subgroup_size = 4, max_subgroup_size = 64, cooperative_matrix_properties_khr = []>>]  {",
    ),
    "spirv-defaults": (
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Float16, Shader, Shader], [SPV_KHR_16bit_storage]>, api = OpenCL, AMD:IntegratedGPU, #spirv.resource_limits<max_compute_workgroup_invocations = 128, max_compute_workgroup_size = [128 : i32, 128 : i32, 64 : i32], subgroup_size = 32>>]",
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Float16, Shader, Shader], [SPV_KHR_16bit_storage]>, api=OpenCL, AMD:IntegratedGPU, #spirv.resource_limits<>>]  {",
    ),
    "spirv-limits-all": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, api=WebGPU, Intel:IntegratedGPU, #spirv.resource_limits<max_subgroup_size = 1, min_subgroup_size = 2, cooperative_matrix_properties_nv = [], cooperative_matrix_properties_khr = [], subgroup_size = 3, max_compute_workgroup_size = [1,2,3], max_compute_workgroup_invocations = 4, max_compute_shared_memory_size = 0x5>>]",
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, api=WebGPU, Intel:IntegratedGPU, #spirv.resource_limits<max_compute_shared_memory_size = 5, max_compute_workgroup_invocations = 4, max_compute_workgroup_size = [1, 2, 3], subgroup_size = 3, min_subgroup_size = 2, max_subgroup_size = 1, cooperative_matrix_properties_khr = [], cooperative_matrix_properties_nv = []>>]  {",
    ),
    "spirv-limits-kinds": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, #spirv.resource_limits<max_compute_shared_memory_size = true, max_compute_workgroup_size = [1.0], min_subgroup_size = 32>>]",
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<max_compute_shared_memory_size = -1, max_compute_workgroup_size = [1.000000e+00], min_subgroup_size = 32>>]  {",
    ),
    "spirv-unknown-vendor": (
        f"gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [], []>, Unknown:Other, {_LIMITS}>]",
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [], []>, #spirv.resource_limits<>>]  {",
    ),
    "spirv-unknown-api": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, api=Unknown, Unknown:DiscreteGPU:5, {_LIMITS}>]",
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>]  {",
    ),
    "spirv-unknown-device": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, NVIDIA:Unknown:7, {_LIMITS}>]",
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, NVIDIA, #spirv.resource_limits<>>]  {",
    ),
    "spirv-device-id": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, NVIDIA:CPU:-1, {_LIMITS}>, #spirv.target_env<{_VCE}, ARM:CPU:0, {_LIMITS}>]",
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, NVIDIA:CPU:4294967295, #spirv.resource_limits<>>, #spirv.target_env<#spirv.vce<v1.0, [Shader], []>, ARM:CPU:0, #spirv.resource_limits<>>]  {",
    ),
    "spirv-vendor-only": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, Qualcomm, {_LIMITS}>]",
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, Qualcomm, #spirv.resource_limits<>>]  {",
    ),
    "spirv-blanks": (
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.6 , [ Shader , Shader ] , [ ]>  ,  api  =  Metal , Apple : Other : 7 ,  #spirv.resource_limits< >  >]",
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.6, [Shader, Shader], []>, api=Metal, Apple:Other:7, #spirv.resource_limits<>>]  {",
    ),
    "spirv-handler": (
        f"gpu.module @k <#gpu.select_object<#spirv.target_env<{_VCE}, api=Vulkan, SwiftShader:CPU, {_LIMITS}>>> [#nvvm.target]",
        "gpu.module @k <#gpu.select_object<#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, api=Vulkan, SwiftShader:CPU, #spirv.resource_limits<>>>> [#nvvm.target]  {",
    ),
    "spirv-parts-anywhere": (
        "gpu.module @k attributes {v = #spirv.vce<v1.0,[],[SPV_KHR_16bit_storage]>, l = #spirv.resource_limits<subgroup_size = 32, max_subgroup_size = 32>}",
        "gpu.module @k attributes {l = #spirv.resource_limits<max_subgroup_size = 32>, v = #spirv.vce<v1.0, [], [SPV_KHR_16bit_storage]>} {",
    ),
    "spirv-names-misread": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, api=Foo, Bar:Baz:3, {_LIMITS}>]",
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>]  {",
    ),
    # Other attributes these dialects have stay as written.
    "known-dialect-attrs": (
        "gpu.module @k attributes {a = #gpu.address_space<workgroup>, b = #gpu.thread<x>, c = #rocdl.target<O = 2>}",
        "gpu.module @k attributes {a = #gpu.address_space<workgroup>, b = #gpu.thread<x>, c = #rocdl.target} {",
    ),
}


def _print(text: str, generic: bool = False) -> str:
    return print_op(parse_module(text, allow_unregistered=True), generic)


def _mlir_opt_19(text: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert MLIR_OPT_19 is not None
    path = tmp_path / "in.mlir"
    path.write_text(text)
    return subprocess.run(
        [MLIR_OPT_19, "--allow-unregistered-dialect", *args, str(path)], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("case", sorted(PRINTED))
def test_custom_form_prints_as_mlir_opt_19(case: str) -> None:
    written, printed = PRINTED[case]
    out = _print(written + _BODY)
    assert out.splitlines()[1] == "  " + printed
    assert _print(out) == out


@needs_mlir19
@pytest.mark.parametrize("case", sorted(PRINTED))
@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_both_forms_byte_identical_to_mlir_opt_19(case: str, generic: bool, tmp_path: Path) -> None:
    text = PRINTED[case][0] + _BODY
    ref = _mlir_opt_19(text, tmp_path, *(["--mlir-print-op-generic"] if generic else []))
    assert ref.returncode == 0, ref.stderr
    assert join_outputs([_print(text, generic)]) == ref.stdout


def test_handler_and_targets_are_properties() -> None:
    module = parse_module(
        'gpu.module @k <#gpu.select_object<1>> [#nvvm.target, #rocdl.target<chip = "gfx90a">] attributes {x}' + _BODY,
        allow_unregistered=True,
    )
    op = module.regions[0].blocks[0].ops[0]
    assert set(op.properties) == {"sym_name", "offloadingHandler", "targets"}
    assert set(op.attributes) == {"x"}
    assert op.properties["offloadingHandler"] == OpaqueAttr("#gpu.select_object<1 : i64>")
    assert op.properties["targets"] == ArrayAttr(
        (OpaqueAttr("#nvvm.target"), OpaqueAttr('#rocdl.target<chip = "gfx90a">'))
    )
    generic = print_op(module, generic=True)
    head = generic.splitlines()[1]
    assert head == (
        '  "gpu.module"() <{offloadingHandler = #gpu.select_object<1 : i64>, sym_name = "k", '
        'targets = [#nvvm.target, #rocdl.target<chip = "gfx90a">]}> ({'
    )
    # The generic form reads back to the same custom form.
    assert _print(generic) == _print(print_op(module))


def test_generic_form_canonicalises_the_attributes_too() -> None:
    text = (
        '"gpu.module"() <{offloadingHandler = #gpu.select_object<#rocdl.target<O = 2>>, sym_name = "k", '
        'targets = [#nvvm.target<chip = "sm_50", O = 1>]}> ({\n  "gpu.module_end"() : () -> ()\n}) : () -> ()\n'
    )
    assert (
        _print(text).splitlines()[1] == "  gpu.module @k <#gpu.select_object<#rocdl.target>> [#nvvm.target<O = 1>]  {"
    )


def test_attributes_canonical_anywhere() -> None:
    """mlir-opt-19 reads these attributes the same wherever they are."""
    out = _print(
        '"t.op"() {a = #nvvm.target<chip = "sm_50">, b = #gpu.select_object<2>, c = [#rocdl.target<O=2>]} : () -> ()\n'
    )
    assert '"t.op"() {a = #nvvm.target, b = #gpu.select_object<2 : i64>, c = [#rocdl.target]} : () -> ()' in out


def test_empty_gpu_module_generic_has_no_block_label() -> None:
    """The implicit `gpu.module_end` fills the block: no `^bb0:` label."""
    assert _print("gpu.module @k [#nvvm.target] {\n}\n", generic=True) == (
        '"builtin.module"() ({\n  "gpu.module"() <{sym_name = "k", targets = [#nvvm.target]}> ({\n'
        '    "gpu.module_end"() : () -> ()\n  }) : () -> ()\n}) : () -> ()\n'
    )


def test_target_predicates() -> None:
    assert is_gpu_target(OpaqueAttr("#nvvm.target")) and is_gpu_target(OpaqueAttr("#rocdl.target<O = 1>"))
    assert is_gpu_target(OpaqueAttr("#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>"))
    assert not is_gpu_target(OpaqueAttr("#gpu.select_object<0 : i64>")) and not is_gpu_target(
        OpaqueAttr("#nvvm.targetx")
    )
    assert is_offloading_handler(OpaqueAttr("#gpu.select_object")) and not is_offloading_handler(
        OpaqueAttr("#nvvm.target")
    )
    assert canonical_gpu_attr("#arith.fastmath<fast>", parse_attr_value) is None


# -- diagnostics ---------------------------------------------------------------

# Input head -> mlir-opt-19's first line (`LINE:COL: error: message`).
DIAGNOSED = {
    "handler-twice": ("gpu.module @k <#gpu.select_object<0>, #gpu.select_object<1>>", "1:37: error: expected '>'"),
    "targets-bad-element": (
        "gpu.module @k [#nvvm.target, 3]",
        "1:1: error: 'gpu.module' op attribute 'targets' failed to satisfy constraint: array of GPU target attributes with at least 1 elements",
    ),
    "targets-empty": (
        "gpu.module @k []",
        "1:1: error: 'gpu.module' op attribute 'targets' failed to satisfy constraint: array of GPU target attributes with at least 1 elements",
    ),
    "targets-handler": (
        "gpu.module @k [#gpu.select_object<0>]",
        "1:1: error: 'gpu.module' op attribute 'targets' failed to satisfy constraint: array of GPU target attributes with at least 1 elements",
    ),
    "handler-not-handler": (
        "gpu.module @k <#nvvm.target>",
        "1:1: error: 'gpu.module' op attribute 'offloadingHandler' failed to satisfy constraint: any attribute with the `OffloadingTranslationAttrTrait` trait.",
    ),
    "handler-int": (
        "gpu.module @k <1>",
        "1:1: error: 'gpu.module' op attribute 'offloadingHandler' failed to satisfy constraint: any attribute with the `OffloadingTranslationAttrTrait` trait.",
    ),
    "both-bad-targets-first": (
        "gpu.module @k <1> [1]",
        "1:1: error: 'gpu.module' op attribute 'targets' failed to satisfy constraint: array of GPU target attributes with at least 1 elements",
    ),
    "dict-handler-bad": (
        "gpu.module @k attributes {offloadingHandler = 1}",
        "1:1: error: 'gpu.module' op attribute 'offloadingHandler' failed to satisfy constraint: any attribute with the `OffloadingTranslationAttrTrait` trait.",
    ),
    "dict-targets-bad": (
        "gpu.module @k attributes {targets = [1]}",
        "1:1: error: 'gpu.module' op attribute 'targets' failed to satisfy constraint: array of GPU target attributes with at least 1 elements",
    ),
    "nvvm-unknown-param": (
        "gpu.module @k [#nvvm.target<bogus = 1>]",
        "1:37: error: duplicate or unknown struct parameter name: bogus",
    ),
    "nvvm-duplicate-param": (
        "gpu.module @k [#nvvm.target<O = 1, O = 2>]",
        "1:40: error: duplicate or unknown struct parameter name: O",
    ),
    "nvvm-chip-not-string": ("gpu.module @k [#nvvm.target<chip = 1>]", "1:36: error: expected string"),
    "nvvm-chip-single-quote": ("gpu.module @k [#nvvm.target<chip = 'x'>]", "1:36: error: unexpected character"),
    "nvvm-level-not-int": ('gpu.module @k [#nvvm.target<O = "x">]', "1:33: error: expected integer value"),
    "nvvm-level-missing": ("gpu.module @k [#nvvm.target<O = >]", "1:33: error: expected integer value"),
    "nvvm-level-too-large": ("gpu.module @k [#nvvm.target<O = 2147483648>]", "1:33: error: integer value too large"),
    "nvvm-level-typed": ("gpu.module @k [#nvvm.target<O = 2 : i32>]", "1:34: error: expected '>'"),
    "nvvm-level-two-values": ("gpu.module @k [#nvvm.target<O = 1 2>]", "1:34: error: expected '>'"),
    "nvvm-no-equals": ("gpu.module @k [#nvvm.target<O>]", "1:30: error: expected '='"),
    "nvvm-colon": ("gpu.module @k [#nvvm.target<O: 1>]", "1:30: error: expected '='"),
    "nvvm-trailing-comma": ("gpu.module @k [#nvvm.target<O = 1,>]", "1:35: error: expected valid keyword"),
    "nvvm-flags-not-dict": (
        "gpu.module @k [#nvvm.target<flags = 1>]",
        "1:37: error: invalid kind of attribute specified",
    ),
    "nvvm-link-not-array": (
        "gpu.module @k [#nvvm.target<link = 1>]",
        "1:36: error: invalid kind of attribute specified",
    ),
    "rocdl-unknown-param": (
        'gpu.module @k [#rocdl.target<cpu = "x">]',
        "1:36: error: duplicate or unknown struct parameter name: cpu",
    ),
    "handler-negative": ("gpu.module @k <#gpu.select_object<-1>>", "1:34: error: the object index must be positive"),
    "handler-string": (
        'gpu.module @k <#gpu.select_object<"x">>',
        "1:34: error: the target attribute must be a GPU Target attribute",
    ),
    "handler-of-handler": (
        "gpu.module @k <#gpu.select_object<#gpu.select_object<1>>>",
        "1:34: error: the target attribute must be a GPU Target attribute",
    ),
    "handler-true": ("gpu.module @k <#gpu.select_object<true>>", "1:34: error: the object index must be positive"),
    "handler-wraps-negative": (
        "gpu.module @k <#gpu.select_object<255 : ui8>>",
        "1:34: error: the object index must be positive",
    ),
    "nvvm-no-keyword": ("gpu.module @k [#nvvm.target< = 3>]", "1:29: error: expected '>'"),
    "handler-two-values": ("gpu.module @k <#gpu.select_object<0, 1>>", "1:36: error: expected '>'"),
    "handler-empty": ("gpu.module @k <#gpu.select_object<>>", "1:35: error: expected attribute value"),
    "handler-bad-target": (
        "gpu.module @k <#gpu.select_object<#nvvm.target<O = x>>>",
        "1:52: error: expected integer value",
    ),
    # A dialect attribute's body must nest its `<>`, `[]`, `()` and `{}` (strings
    # skipped): the error is at the last string read, else the opening `<`.
    "unbalanced-square": (
        "gpu.module @k [#nvvm.target<flags = {a = [1}>]",
        "1:28: error: unbalanced '[' character in pretty dialect name",
    ),
    "unbalanced-after-string": (
        'gpu.module @k [#nvvm.target<link = [">"}]>]',
        "1:37: error: unbalanced '[' character in pretty dialect name",
    ),
    "unbalanced-close": (
        'gpu.module @k [#rocdl.target<chip = "x", ]>]',
        "1:37: error: unbalanced '<' character in pretty dialect name",
    ),
    "unbalanced-before-name-check": (
        "gpu.module @k [#nvvm.foo<(>]",
        "1:25: error: unbalanced '(' character in pretty dialect name",
    ),
    "unbalanced-in-spirv": (
        "gpu.module @k [#spirv.target_env<#spirv.resource_limits<>, #spirv.vce<v1.0, Shader], []>>]",
        "1:33: error: unbalanced '<' character in pretty dialect name",
    ),
    "unbalanced-unregistered": (
        'gpu.module @k attributes {a = #foo.bar<"<" (]>}',
        "1:40: error: unbalanced '(' character in pretty dialect name",
    ),
    # A name the `gpu`, `nvvm`, `rocdl` or `spirv` dialect does not have.
    "unknown-nvvm": ("gpu.module @k [#nvvm.foo]", "1:22: error: unknown attribute `foo` in dialect `nvvm`"),
    "unknown-nvvm-params": ("gpu.module @k [#nvvm.foo<1>]", "1:22: error: unknown attribute `foo` in dialect `nvvm`"),
    "unknown-rocdl": (
        "gpu.module @k [#nvvm.target, #rocdl.targets]",
        "1:37: error: unknown attribute `targets` in dialect `rocdl`",
    ),
    "unknown-gpu-handler": ("gpu.module @k <#gpu.foo<1>>", "1:21: error: unknown attribute `foo` in dialect `gpu`"),
    "unknown-spirv": ("gpu.module @k [#spirv.foo]", "1:23: error: unknown SPIR-V attribute kind: foo"),
    "unknown-spirv-string": ('gpu.module @k [#spirv.foo<"a>b">]', "1:23: error: unknown SPIR-V attribute kind: foo"),
    "unknown-dotted-name": (
        "gpu.module @k [#nvvm.target.x]",
        "1:22: error: unknown attribute `target.x` in dialect `nvvm`",
    ),
    "unknown-dialect-form": ("gpu.module @k [#gpu<foo>]", "1:21: error: unknown attribute `foo` in dialect `gpu`"),
    "unknown-dialect-form-spirv": ("gpu.module @k [#spirv<  bar>]", "1:25: error: unknown SPIR-V attribute kind: bar"),
    "unknown-dialect-form-empty": ("gpu.module @k [#nvvm<>]", "1:22: error: expected valid keyword"),
    "unknown-no-name": ("gpu.module @k [#rocdl.]", "1:23: error: expected valid keyword"),
    "unknown-in-dict": (
        "gpu.module @k attributes {a = #gpu.address_space<workgroup>, c = #gpu.nope}",
        "1:71: error: unknown attribute `nope` in dialect `gpu`",
    ),
    "unknown-in-handler": (
        "gpu.module @k <#gpu.select_object<#nvvm.foo>>",
        "1:41: error: unknown attribute `foo` in dialect `nvvm`",
    ),
    "unknown-in-flags": (
        "gpu.module @k [#nvvm.target<flags = {a = #rocdl.bar}>]",
        "1:49: error: unknown attribute `bar` in dialect `rocdl`",
    ),
    "unknown-in-limits": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, NVIDIA, #spirv.resource_limits<cooperative_matrix_properties_khr = [#nvvm.bar]>>]",
        "1:140: error: unknown attribute `bar` in dialect `nvvm`",
    ),
    "unknown-as-limits": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, #spirv.foo<1>>]",
        "1:73: error: unknown SPIR-V attribute kind: foo",
    ),
    # `#spirv.target_env`, `#spirv.vce`, `#spirv.resource_limits`: a missing
    # mark is reported just past the token before it. An unknown client API,
    # vendor or device type is the first line when the attribute then fails.
    "spirv-api-twice": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, api=Vulkan, api=OpenCL, {_LIMITS}>]",
        "1:78: error: unknown vendor: api",
    ),
    "spirv-api-after-vendor": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, NVIDIA:CPU, api=Vulkan, {_LIMITS}>]",
        "1:77: error: expected attribute value",
    ),
    "spirv-limits-first": (
        f"gpu.module @k [#spirv.target_env<{_LIMITS}, {_VCE}>]",
        "1:34: error: invalid kind of attribute specified",
    ),
    "spirv-no-limits": (f"gpu.module @k [#spirv.target_env<{_VCE}>]", "1:64: error: expected ','"),
    "spirv-after-limits": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, {_LIMITS}, api=Vulkan>]",
        "1:90: error: expected '>'",
    ),
    "spirv-device-id-not-int": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, NVIDIA:CPU:x, {_LIMITS}>]",
        "1:77: error: expected integer value",
    ),
    "spirv-device-id-too-large": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, NVIDIA:CPU:4294967296, {_LIMITS}>]",
        "1:77: error: integer value too large",
    ),
    "spirv-empty": ("gpu.module @k [#spirv.target_env<  >]", "1:34: error: expected attribute value"),
    "spirv-not-vce": ("gpu.module @k [#spirv.target_env<1>]", "1:34: error: invalid kind of attribute specified"),
    "spirv-bare": ("gpu.module @k [#spirv.target_env]", "1:33: error: expected '<'"),
    "spirv-api-no-equals": (f"gpu.module @k [#spirv.target_env<{_VCE}, api, {_LIMITS}>]", "1:69: error: expected '='"),
    "spirv-api-no-name": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, api=, {_LIMITS}>]",
        "1:70: error: expected valid keyword",
    ),
    "spirv-vendor-no-device": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, NVIDIA:, {_LIMITS}>]",
        "1:73: error: expected valid keyword",
    ),
    "spirv-two-vendors": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, AMD:CPU, NVIDIA:CPU, {_LIMITS}>]",
        "1:74: error: expected attribute value",
    ),
    "spirv-int-as-limits": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, 1, {_LIMITS}>]",
        "1:66: error: invalid kind of attribute specified",
    ),
    "spirv-limits-twice": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, {_LIMITS}, {_LIMITS}>]",
        "1:90: error: expected '>'",
    ),
    "spirv-vendor-equals": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, NVIDIA=1, {_LIMITS}>]",
        "1:72: error: expected ','",
    ),
    "spirv-device-four-parts": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, NVIDIA:CPU:1:2, {_LIMITS}>]",
        "1:78: error: expected ','",
    ),
    "spirv-vendor-no-comma": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, NVIDIA {_LIMITS}>]",
        "1:72: error: expected ','",
    ),
    "spirv-api-no-comma": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, api=Vulkan {_LIMITS}>]",
        "1:76: error: expected ','",
    ),
    "spirv-unknown-vendor-fails": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, Foo=1, {_LIMITS}>]",
        "1:66: error: unknown vendor: Foo",
    ),
    "spirv-unknown-device-fails": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, NVIDIA:Foo:x, {_LIMITS}>]",
        "1:73: error: unknown device type: Foo",
    ),
    "spirv-unknown-api-fails": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, api=Foo, Bar {_LIMITS}>]",
        "1:70: error: unknown client API: Foo",
    ),
    "spirv-unknown-api-limits-fail": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, api=Foo, #spirv.resource_limits<x = 1>>]",
        "1:70: error: unknown client API: Foo",
    ),
    "spirv-junk-after-limits": (f"gpu.module @k [#spirv.target_env<{_VCE}, {_LIMITS} x>]", "1:90: error: expected '>'"),
    # A character that starts no token: the lexer's error, as soon as the token
    # before it is read.
    "stray-in-vce": (
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Sh'ader], []>, #spirv.resource_limits<>>]",
        "1:54: error: unexpected character",
    ),
    "stray-after-api": (
        "gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [], []>, api=Foo;, #spirv.resource_limits<>>]",
        "1:67: error: unexpected character",
    ),
    "stray-name": ("gpu.module @k [#gpu<&x>]", "1:21: error: unexpected character"),
    "vce-unknown-version": (
        f"gpu.module @k [#spirv.target_env<#spirv.vce<v1.7, [], []>, {_LIMITS}>]",
        "1:45: error: unknown version: v1.7",
    ),
    "vce-unknown-version-no-comma": (
        f"gpu.module @k [#spirv.target_env<#spirv.vce<v1.02 [Shader], []>, {_LIMITS}>]",
        "1:50: error: expected ','",
    ),
    "vce-unknown-capability-first": (
        f"gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Foo x], []>, {_LIMITS}>]",
        "1:52: error: unknown capability: Foo",
    ),
    "vce-unknown-capability": (
        f"gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Shader, Foo], []>, {_LIMITS}>]",
        "1:60: error: unknown capability: Foo",
    ),
    "vce-unknown-extension": (
        f"gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [], [Foo]>, {_LIMITS}>]",
        "1:56: error: unknown extension: Foo",
    ),
    "vce-no-extensions": (
        f"gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Shader]>, {_LIMITS}>]",
        "1:59: error: expected ','",
    ),
    "vce-version-only": (
        f"gpu.module @k [#spirv.target_env<#spirv.vce<v1.0   >, {_LIMITS}>]",
        "1:49: error: expected ','",
    ),
    "vce-version-not-keyword": (
        f"gpu.module @k [#spirv.target_env<#spirv.vce<1.0, [], []>, {_LIMITS}>]",
        "1:45: error: expected valid keyword",
    ),
    "vce-trailing-comma": (
        f"gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Shader,], []>, {_LIMITS}>]",
        "1:59: error: expected valid keyword",
    ),
    "vce-no-bracket": (
        f"gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, Shader, []>, {_LIMITS}>]",
        "1:50: error: expected '['",
    ),
    "vce-extra": (
        f"gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Shader], [] x>, {_LIMITS}>]",
        "1:63: error: expected '>'",
    ),
    "vce-missing-comma-in-list": (
        f"gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Shader x], []>, {_LIMITS}>]",
        "1:58: error: expected ']'",
    ),
    "vce-missing-comma": (
        f"gpu.module @k [#spirv.target_env<#spirv.vce<v1.0 [Shader], []>, {_LIMITS}>]",
        "1:49: error: expected ','",
    ),
    "vce-ends-early": (
        f"gpu.module @k [#spirv.target_env<#spirv.vce<v1.0, [Shader], >, {_LIMITS}>]",
        "1:60: error: expected '['",
    ),
    "vce-empty": (
        f"gpu.module @k [#spirv.target_env<#spirv.vce<  >, {_LIMITS}>]",
        "1:47: error: expected valid keyword",
    ),
    "vce-bare": (f"gpu.module @k [#spirv.target_env<#spirv.vce, {_LIMITS}>]", "1:44: error: expected '<'"),
    "limits-bare": (f"gpu.module @k [#spirv.target_env<{_VCE}, #spirv.resource_limits>]", "1:88: error: expected '<'"),
    "limits-no-keyword": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, #spirv.resource_limits< = 1>>]",
        "1:89: error: expected '>'",
    ),
    "limits-no-equals": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, #spirv.resource_limits<subgroup_size>>]",
        "1:102: error: expected '='",
    ),
    "limits-trailing-comma": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, #spirv.resource_limits<subgroup_size = 1,>>]",
        "1:107: error: expected valid keyword",
    ),
    "limits-duplicate": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, #spirv.resource_limits<subgroup_size = 1, subgroup_size = 2>>]",
        "1:124: error: duplicate or unknown struct parameter name: subgroup_size",
    ),
    "limits-typed-int": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, #spirv.resource_limits<max_compute_shared_memory_size = 5 : i32>>]",
        "1:123: error: expected '>'",
    ),
    "limits-string": (
        f'gpu.module @k [#spirv.target_env<{_VCE}, #spirv.resource_limits<max_compute_shared_memory_size = "x">>]',
        "1:122: error: expected integer value",
    ),
    "limits-too-large": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, #spirv.resource_limits<min_subgroup_size = 4294967296>>]",
        "1:109: error: integer value too large",
    ),
    "limits-size-not-array": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, #spirv.resource_limits<max_compute_workgroup_size = 1>>]",
        "1:118: error: invalid kind of attribute specified",
    ),
    "limits-coop-not-array": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, #spirv.resource_limits<cooperative_matrix_properties_nv = 1>>]",
        "1:124: error: invalid kind of attribute specified",
    ),
    "limits-unknown": (
        f"gpu.module @k [#spirv.target_env<{_VCE}, #spirv.resource_limits<bogus = 1>>]",
        "1:97: error: duplicate or unknown struct parameter name: bogus",
    ),
}

# Syntax errors: input head (or whole text, ending in a newline) ->
# mlir-opt-19's location and message; ours words the message the parser's
# way (`unexpected ...`).
SYNTAX_CASES = {
    "targets-unterminated": ("gpu.module @k [\n", "1:16", "expected attribute value"),
    "targets-unterminated-brace": ("gpu.module @k [\n}\n", "1:16", "expected attribute value"),
    "targets-unterminated-after-one": ("gpu.module @k [#nvvm.target", "1:28", "expected ',' or ']'"),
    "targets-value-use": ("gpu.module @k [%x]", "1:16", "expected attribute value"),
    "targets-op-name": ("gpu.module @k [func.func]", "1:16", "expected attribute value"),
    "targets-trailing-comma": ("gpu.module @k [#nvvm.target,]", "1:29", "expected attribute value"),
    "targets-missing-comma": ("gpu.module @k [#nvvm.target %x]", "1:28", "expected ',' or ']'"),
    "targets-blank-before-params": ("gpu.module @k [#nvvm.target  <  O = 3 >]", "1:28", "expected ',' or ']'"),
    "handler-empty": ("gpu.module @k <>", "1:16", "expected attribute value"),
    "handler-unterminated": ("gpu.module @k <#gpu.select_object<0>", "1:37", "expected '>'"),
    "targets-before-handler": (
        "gpu.module @k [#nvvm.target] <#gpu.select_object<0>>",
        "1:29",
        "expected '{' to begin a region",
    ),
    "targets-twice": ("gpu.module @k [#nvvm.target] [#rocdl.target]", "1:29", "expected '{' to begin a region"),
    "nvvm-link-value-use": ("gpu.module @k [#nvvm.target<link = [%x]>]", "1:37", "expected attribute value"),
}


def _text(head: str) -> str:
    return head if head.endswith("\n") else head + _BODY


def _ours(text: str, tmp_path: Path) -> tuple[int, str, str]:
    """`python -m spec print` in-process: exit code, stdout, first error line."""
    path = tmp_path / "in.mlir"
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = spec_main(["print", "--allow-unregistered-dialect", str(path)])
    first = next((ln for ln in err.getvalue().splitlines() if ": error: " in ln), "")
    assert "Traceback" not in err.getvalue()
    return code, out.getvalue(), first.replace(str(path) + ":", "")


@pytest.mark.parametrize("case", sorted(DIAGNOSED))
def test_diagnosed_like_mlir_opt_19(case: str, tmp_path: Path) -> None:
    head, expected = DIAGNOSED[case]
    code, out, first = _ours(head + _BODY, tmp_path)
    assert code == 1 and out == ""
    assert first == expected


@pytest.mark.parametrize("case", sorted(SYNTAX_CASES))
def test_syntax_errors_located_like_mlir_opt_19(case: str, tmp_path: Path) -> None:
    head, where, message = SYNTAX_CASES[case]
    text = _text(head)
    code, out, first = _ours(text, tmp_path)
    assert code == 1 and out == ""
    assert first.startswith(f"{where}: error: ")
    del message  # mlir-opt-19's wording, pinned by the test below
    with pytest.raises(DiagnosticError):
        parse_module(text, allow_unregistered=True)


@needs_mlir19
@pytest.mark.parametrize("case", sorted(DIAGNOSED))
def test_diagnosed_cases_pinned_from_mlir_opt_19(case: str, tmp_path: Path) -> None:
    head, expected = DIAGNOSED[case]
    ref = _mlir_opt_19(head + _BODY, tmp_path)
    assert ref.returncode == 1
    assert ref.stderr.splitlines()[0].split("in.mlir:", 1)[1] == expected


@needs_mlir19
@pytest.mark.parametrize("case", sorted(SYNTAX_CASES))
def test_syntax_cases_pinned_from_mlir_opt_19(case: str, tmp_path: Path) -> None:
    head, where, message = SYNTAX_CASES[case]
    ref = _mlir_opt_19(_text(head), tmp_path)
    assert ref.returncode == 1
    assert ref.stderr.splitlines()[0].split("in.mlir:", 1)[1] == f"{where}: error: {message}"


def test_cli_process_reports_without_traceback(tmp_path: Path) -> None:
    path = tmp_path / "in.mlir"
    path.write_text("gpu.module @k [\n")
    proc = subprocess.run(
        [sys.executable, "-m", "spec", "print", "--allow-unregistered-dialect", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert proc.returncode == 1 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: error: ", proc.stderr)


# -- the attribute terminal on hostile lines -----------------------------------

_PATHOLOGICAL = {
    "quotes": "#a<" + '"' * 100_000,
    "escapes": '#a<"' + "\\" * 100_000,
    "escaped-quotes": "#a<" + '"\\"' * 33_000,
    "arrows": "#a<" + "->" * 50_000,
    "nested-dashes": "#a<<<<" + "-" * 100_000,
    "nested-strings": "#a<<<<" + '"x"-' * 25_000,
    "unclosed-strings": '#a<#a<"' * 14_000,
}


@pytest.mark.parametrize("case", sorted(_PATHOLOGICAL))
def test_hash_attr_terminal_is_linear_on_100kb_lines(case: str) -> None:
    """`HASH_ATTR` skips quoted strings; every alternative of its body starts
    with its own character, so a 100 KB line that does not close is
    rejected in linear time (quadratic backtracking would take minutes)."""
    text = '"t.op"() {a = ' + _PATHOLOGICAL[case] + "} : () -> ()\n"
    start = time.perf_counter()
    with pytest.raises(DiagnosticError):
        parse_module(text, allow_unregistered=True)
    assert time.perf_counter() - start < 10
