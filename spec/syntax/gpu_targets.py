"""GPU target attributes (`#nvvm.target<...>`, `#rocdl.target<...>`,
`#spirv.target_env<...>` with its `#spirv.vce<...>` and
`#spirv.resource_limits<...>`) and the offloading handler
`#gpu.select_object<...>`, spelled as mlir-opt-19 prints them, wherever
they are written; and the attribute names of the `gpu`, `nvvm`, `rocdl` and
`spirv` dialects, the others being an error there.

The grammar reads any `#dialect.name<...>` attribute as one opaque token
(`HASH_ATTR`, quoted strings inside skipped) kept by its text. These are
the ones a `gpu.module` carries (its `targets` and `offloadingHandler`), and
mlir-opt-19 does not print them as written:

- a target's parameters come back in declaration order with those equal to
  their defaults left out (`#nvvm.target<chip = "sm_50">` prints
  `#nvvm.target`); `#spirv.resource_limits` likewise, but keeps its `<>`;
- an untyped object index gets `: i64` (`#gpu.select_object<1>` prints
  `#gpu.select_object<1 : i64>`);
- `#spirv.target_env<vce, [api=A,] [vendor[:device[:id]],] limits>` drops
  an `Unknown` client API, vendor or device type (and an unknown name reads
  as `Unknown`), prints `api=A` without blanks and the device id in decimal
  (wrapped to 32 bits); `#spirv.vce<version, [capabilities], [extensions]>`
  keeps its lists as written (order and repeats).

So their text is parsed here and rebuilt canonically; malformed ones get
mlir-opt-19's message at its column (an offset into the token): a missing
punctuation mark is reported just past the token before it, anything else
where it starts. An attribute name these four dialects do not have is
mlir-opt-19's error at the name (`DIALECT_ATTRS`, probed from it). Any
dialect attribute whose body does not nest its `<>`, `[]`, `()`, `{}` is
mlir-opt-19's `unbalanced` error (the token only balances `<>`).

Not modelled: the other attributes of these dialects (`#gpu.address_space`,
`#nvvm.shfl_kind`, ...) keep their text; so do the dialect-only spellings
(`#nvvm<target<O = 3>>`, which mlir-opt-19 prints `#nvvm.target<O = 3>`),
but for their name's check. An unknown client API, vendor or device type in
a `#spirv.target_env`: mlir-opt-19 reports it (`unknown vendor: X`) and
goes on, printing the output and exiting 0 if nothing else fails; here it
is silent (no such diagnostic exists) unless the same attribute then fails,
where it is the error reported, as the first line there. Nested `#spirv`
attributes other than the `vce` and resource limits (an alias, the
dialect-only spelling) are an invalid kind here. Inside a token, a string
with an unknown escape (`"\\q"`) is accepted and an unterminated one splits
the token (mlir-opt-19 rejects both); a name is checked when its token is
reduced, so a syntax error just after it comes first here. mlir-opt-22's defaults
differ (its `#rocdl.target` `abi` default is "600", 19's "500").
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from spec.attributes import ArrayAttr, Attr, DictAttr, IntegerAttr, OpaqueAttr, quote_string
from spec.diagnostics import DiagnosticError
from spec.syntax.build_base import TokenError, _unescape


class AttrTextError(Exception):
    """A malformed attribute: mlir-opt-19's `message`, `offset` characters
    into the attribute's text."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset, self.message = offset, message


@dataclass(frozen=True)
class _Param:
    """A parameter of a target attribute: its kind (`int`, `str`, `dict`,
    `array`) and its default as printed (`None`: absent unless written)."""

    name: str
    kind: str
    default: str | None


TARGET_PARAMS: dict[str, tuple[_Param, ...]] = {
    "#nvvm.target": (
        _Param("O", "int", "2"),
        _Param("triple", "str", '"nvptx64-nvidia-cuda"'),
        _Param("chip", "str", '"sm_50"'),
        _Param("features", "str", '"+ptx60"'),
        _Param("flags", "dict", None),
        _Param("link", "array", None),
    ),
    "#rocdl.target": (
        _Param("O", "int", "2"),
        _Param("triple", "str", '"amdgcn-amd-amdhsa"'),
        _Param("chip", "str", '"gfx900"'),
        _Param("features", "str", '""'),
        _Param("abi", "str", '"500"'),
        _Param("flags", "dict", None),
        _Param("link", "array", None),
    ),
}
"""mlir-opt-19's target attributes with their parameters in printing order
(checked against it): `O` an i32, the strings, `flags` a dictionary and
`link` an array."""

SPIRV_LIMITS: tuple[_Param, ...] = (
    _Param("max_compute_shared_memory_size", "int", "16384"),
    _Param("max_compute_workgroup_invocations", "int", "128"),
    _Param("max_compute_workgroup_size", "array", "[128 : i32, 128 : i32, 64 : i32]"),
    _Param("subgroup_size", "int", "32"),
    _Param("min_subgroup_size", "int", None),
    _Param("max_subgroup_size", "int", None),
    _Param("cooperative_matrix_properties_khr", "array", None),
    _Param("cooperative_matrix_properties_nv", "array", None),
)
"""`#spirv.resource_limits`'s parameters in mlir-opt-19's printing order, with
the defaults it leaves out (its integers are i32 as a target's `O`)."""

HANDLER = "#gpu.select_object"
SPIRV_TARGET = "#spirv.target_env"
SPIRV_VCE = "#spirv.vce"
SPIRV_LIMITS_NAME = "#spirv.resource_limits"

DIALECT_ATTRS: dict[str, frozenset[str]] = {
    "gpu": frozenset(
        "address_space all_reduce_op block dim loop_dim_map mat_transpose_mode memory_space mma_element_wise object "
        "prune_2to4_spmat_flag select_object shuffle_mode spgemm_work_estimation_or_compute_kind thread warp warpgroup".split()
    ),
    "nvvm": frozenset(
        "action load_cache_modifier mma_b1op mma_frag mma_int_overflow mma_layout mma_type proxy_kind redux_kind shape "
        "shared_space shfl_kind target wgmma_scale_in wgmma_scale_out wgmma_type".split()
    ),
    "rocdl": frozenset({"target"}),
    "spirv": frozenset(
        "addressing_model built_in capability client_api coop_matrix_layout_khr coop_matrix_props_khr coop_matrix_props_nv "
        "coop_matrix_use_khr cooperative_matrix_operands_khr decoration device_type dim entry_point_abi execution_mode "
        "execution_model ext fastmath_mode function_control group_operation image_arrayed_info image_depth_info image_format "
        "image_operands image_sampler_use_info image_sampling_info interface_var_abi joint_matrix_props linkage_attributes "
        "linkage_type loop_control memory_access memory_model memory_semantics opcode packed_vector_format resource_limits "
        "scope selection_control storage_class target_env vce vendor version".split()
    ),
}
"""The attribute names mlir-opt-19 knows in these dialects (probed: every
other name is its `unknown attribute` error)."""

SPIRV_VERSIONS = frozenset(f"v1.{i}" for i in range(7))
SPIRV_CLIENT_APIS = frozenset("Unknown Metal OpenCL Vulkan WebGPU".split())
SPIRV_VENDORS = frozenset("AMD Apple ARM Imagination Intel NVIDIA Qualcomm SwiftShader Unknown".split())
SPIRV_DEVICE_TYPES = frozenset("Unknown CPU DiscreteGPU IntegratedGPU Other".split())
SPIRV_CAPABILITIES = frozenset(
    """Addresses ArbitraryPrecisionFixedPointINTEL ArbitraryPrecisionFloatingPointINTEL ArbitraryPrecisionIntegersINTEL
    AsmINTEL AtomicFloat16AddEXT AtomicFloat16MinMaxEXT AtomicFloat32AddEXT AtomicFloat32MinMaxEXT AtomicFloat64AddEXT
    AtomicFloat64MinMaxEXT AtomicStorage AtomicStorageOps Bfloat16ConversionINTEL BindlessTextureNV BitInstructions
    BlockingPipesINTEL ClipDistance ComputeDerivativeGroupLinearNV ComputeDerivativeGroupQuadsNV CooperativeMatrixKHR
    CullDistance DebugInfoModuleINTEL DemoteToHelperInvocation DenormFlushToZero DenormPreserve DerivativeControl
    DeviceEnqueue DeviceGroup DotProduct DotProductInput4x8Bit DotProductInput4x8BitPacked DotProductInputAll
    DrawParameters ExpectAssumeKHR FPFastMathModeINTEL FPGABufferLocationINTEL FPGAClusterAttributesINTEL
    FPGAKernelAttributesINTEL FPGALoopControlsINTEL FPGAMemoryAccessesINTEL FPGAMemoryAttributesINTEL FPGARegINTEL
    Float16 Float16Buffer Float16ImageAMD Float64 FloatingPointModeINTEL FragmentBarycentricKHR FragmentDensityEXT
    FragmentFullyCoveredEXT FragmentMaskAMD FragmentShaderPixelInterlockEXT FragmentShaderSampleInterlockEXT
    FragmentShaderShadingRateInterlockEXT FragmentShadingRateKHR FunctionFloatControlINTEL FunctionPointersINTEL
    GenericPointer Geometry GeometryPointSize GeometryShaderPassthroughNV GeometryStreams GroupNonUniform
    GroupNonUniformArithmetic GroupNonUniformBallot GroupNonUniformClustered GroupNonUniformPartitionedNV
    GroupNonUniformQuad GroupNonUniformRotateKHR GroupNonUniformShuffle GroupNonUniformShuffleRelative
    GroupNonUniformVote GroupUniformArithmeticKHR Groups IOPipesINTEL Image1D ImageBasic ImageBuffer ImageCubeArray
    ImageFootprintNV ImageGatherBiasLodAMD ImageGatherExtended ImageMSArray ImageMipmap ImageQuery ImageReadWrite
    ImageReadWriteLodAMD ImageRect IndirectReferencesINTEL InputAttachment InputAttachmentArrayDynamicIndexing
    InputAttachmentArrayNonUniformIndexing Int16 Int64 Int64Atomics Int64ImageEXT Int8 IntegerFunctions2INTEL
    InterpolationFunction JointMatrixINTEL Kernel KernelAttributesINTEL Linkage LiteralSampler
    LongConstantCompositeINTEL LoopFuseINTEL Matrix MemoryAccessAliasingINTEL MeshShadingNV MinLod MultiView
    MultiViewport NamedBarrier OptNoneINTEL PerViewAttributesNV PhysicalStorageBufferAddresses PipeStorage Pipes
    RayCullMaskKHR RayQueryKHR RayQueryProvisionalKHR RayTracingKHR RayTracingMotionBlurNV RayTracingNV
    RayTracingProvisionalKHR RayTraversalPrimitiveCullingKHR RoundToInfinityINTEL RoundingModeRTE RoundingModeRTZ
    RuntimeDescriptorArray SampleMaskOverrideCoverageNV SampleMaskPostDepthCoverage SampleRateShading Sampled1D
    SampledBuffer SampledCubeArray SampledImageArrayDynamicIndexing SampledImageArrayNonUniformIndexing SampledRect
    Shader ShaderClockKHR ShaderLayer ShaderNonUniform ShaderSMBuiltinsNV ShaderStereoViewNV ShaderViewportIndex
    ShaderViewportIndexLayerEXT ShaderViewportMaskNV SignedZeroInfNanPreserve SparseResidency SplitBarrierINTEL
    StencilExportEXT StorageBuffer16BitAccess StorageBuffer8BitAccess StorageBufferArrayDynamicIndexing
    StorageBufferArrayNonUniformIndexing StorageImageArrayDynamicIndexing StorageImageArrayNonUniformIndexing
    StorageImageExtendedFormats StorageImageMultisample StorageImageReadWithoutFormat StorageImageWriteWithoutFormat
    StorageInputOutput16 StoragePushConstant16 StoragePushConstant8 StorageTexelBufferArrayDynamicIndexing
    StorageTexelBufferArrayNonUniformIndexing StorageUniform16 SubgroupAvcMotionEstimationChromaINTEL
    SubgroupAvcMotionEstimationINTEL SubgroupAvcMotionEstimationIntraINTEL SubgroupBallotKHR
    SubgroupBufferBlockIOINTEL SubgroupDispatch SubgroupImageBlockIOINTEL SubgroupImageMediaBlockIOINTEL
    SubgroupShuffleINTEL SubgroupVoteKHR Tessellation TessellationPointSize TransformFeedback USMStorageClassesINTEL
    UniformAndStorageBuffer8BitAccess UniformBufferArrayDynamicIndexing UniformBufferArrayNonUniformIndexing
    UniformDecoration UniformTexelBufferArrayDynamicIndexing UniformTexelBufferArrayNonUniformIndexing
    UnstructuredLoopControlsINTEL VariableLengthArrayINTEL VariablePointers VariablePointersStorageBuffer Vector16
    VectorAnyINTEL VectorComputeINTEL VulkanMemoryModel VulkanMemoryModelDeviceScope
    WorkgroupMemoryExplicitLayout16BitAccessKHR WorkgroupMemoryExplicitLayout8BitAccessKHR
    WorkgroupMemoryExplicitLayoutKHR""".split()
)
SPIRV_EXTENSIONS = frozenset(
    """SPV_AMD_gpu_shader_half_float_fetch SPV_AMD_shader_ballot SPV_AMD_shader_early_and_late_fragment_tests
    SPV_AMD_shader_explicit_vertex_parameter SPV_AMD_shader_fragment_mask SPV_AMD_shader_image_load_store_lod
    SPV_AMD_texture_gather_bias_lod SPV_EXT_demote_to_helper_invocation SPV_EXT_descriptor_indexing
    SPV_EXT_fragment_fully_covered SPV_EXT_fragment_invocation_density SPV_EXT_fragment_shader_interlock
    SPV_EXT_physical_storage_buffer SPV_EXT_shader_atomic_float16_add SPV_EXT_shader_atomic_float_add
    SPV_EXT_shader_atomic_float_min_max SPV_EXT_shader_image_int64 SPV_EXT_shader_stencil_export
    SPV_EXT_shader_viewport_index_layer SPV_GOOGLE_decorate_string SPV_GOOGLE_hlsl_functionality1 SPV_GOOGLE_user_type
    SPV_INTEL_arbitrary_precision_fixed_point SPV_INTEL_arbitrary_precision_floating_point
    SPV_INTEL_arbitrary_precision_integers SPV_INTEL_bfloat16_conversion SPV_INTEL_blocking_pipes
    SPV_INTEL_debug_module SPV_INTEL_device_side_avc_motion_estimation SPV_INTEL_float_controls2
    SPV_INTEL_fp_fast_math_mode SPV_INTEL_fpga_buffer_location SPV_INTEL_fpga_cluster_attributes
    SPV_INTEL_fpga_loop_controls SPV_INTEL_fpga_memory_accesses SPV_INTEL_fpga_memory_attributes SPV_INTEL_fpga_reg
    SPV_INTEL_function_pointers SPV_INTEL_inline_assembly SPV_INTEL_io_pipes SPV_INTEL_joint_matrix
    SPV_INTEL_kernel_attributes SPV_INTEL_long_constant_composite SPV_INTEL_loop_fuse SPV_INTEL_media_block_io
    SPV_INTEL_memory_access_aliasing SPV_INTEL_optnone SPV_INTEL_shader_integer_functions2 SPV_INTEL_split_barrier
    SPV_INTEL_subgroups SPV_INTEL_unstructured_loop_controls SPV_INTEL_usm_storage_classes
    SPV_INTEL_variable_length_array SPV_INTEL_vector_compute SPV_KHR_16bit_storage SPV_KHR_8bit_storage
    SPV_KHR_bit_instructions SPV_KHR_cooperative_matrix SPV_KHR_device_group SPV_KHR_expect_assume
    SPV_KHR_float_controls SPV_KHR_fragment_shader_barycentric SPV_KHR_fragment_shading_rate
    SPV_KHR_integer_dot_product SPV_KHR_linkonce_odr SPV_KHR_multiview SPV_KHR_no_integer_wrap_decoration
    SPV_KHR_non_semantic_info SPV_KHR_physical_storage_buffer SPV_KHR_post_depth_coverage SPV_KHR_ray_cull_mask
    SPV_KHR_ray_query SPV_KHR_ray_tracing SPV_KHR_shader_atomic_counter_ops SPV_KHR_shader_ballot
    SPV_KHR_shader_clock SPV_KHR_shader_draw_parameters SPV_KHR_storage_buffer_storage_class SPV_KHR_subgroup_rotate
    SPV_KHR_subgroup_uniform_control_flow SPV_KHR_subgroup_vote SPV_KHR_terminate_invocation
    SPV_KHR_uniform_group_instructions SPV_KHR_variable_pointers SPV_KHR_vulkan_memory_model
    SPV_KHR_workgroup_memory_explicit_layout SPV_NVX_multiview_per_view_attributes SPV_NV_bindless_texture
    SPV_NV_compute_shader_derivatives SPV_NV_cooperative_matrix SPV_NV_fragment_shader_barycentric
    SPV_NV_geometry_shader_passthrough SPV_NV_mesh_shader SPV_NV_ray_tracing SPV_NV_ray_tracing_motion_blur
    SPV_NV_sample_mask_override_coverage SPV_NV_shader_image_footprint SPV_NV_shader_sm_builtins
    SPV_NV_shader_subgroup_partitioned SPV_NV_shading_rate SPV_NV_stereo_view_rendering SPV_NV_viewport_array2""".split()
)
"""The names mlir-opt-19's `#spirv.vce` and `#spirv.target_env` accept
(probed: any other is its `unknown ...` error)."""

_TARGET = re.compile(r"#(?:nvvm\.target|rocdl\.target)(?:<.*>)?|#spirv\.target_env<.*>", re.S)
_HANDLER = re.compile(r"#gpu\.select_object(?:<.*>)?", re.S)
_INT = re.compile(r"-?(?:0x[0-9a-fA-F]+|[0-9]+)")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_KEY = re.compile(r"[A-Za-z_][\w$.]*")
_OPEN, _CLOSE = "<[{(", ">]})"


def is_gpu_target(attr: Attr) -> bool:
    """An attribute mlir-opt-19 takes as a GPU target (`targets` of a
    `gpu.module`, the object a `#gpu.select_object` picks)."""
    return isinstance(attr, OpaqueAttr) and _TARGET.fullmatch(attr.text) is not None


def is_offloading_handler(attr: Attr) -> bool:
    """An attribute with mlir-opt-19's `OffloadingTranslationAttrTrait`: of
    its dialects, only `#gpu.select_object`."""
    return isinstance(attr, OpaqueAttr) and _HANDLER.fullmatch(attr.text) is not None


_NAMED = re.compile(r"#(gpu|nvvm|rocdl|spirv)([.<])")
_STRAY = frozenset("\\$'`~&;")
"""Characters that start no MLIR token."""
_KEYWORD = re.compile(r"[A-Za-z_][\w$.]*")
_QUOTED = r'"(?:[^"\\\n]|\\.)*"'
_HASH = re.compile(
    r"#[A-Za-z_][\w$.]*(?:<"
    + functools.reduce(lambda inner, _: rf'(?:->|{_QUOTED}|[^<>\n"]|<{inner}>)*', range(3), rf'(?:->|{_QUOTED}|[^<>\n"])*')
    + r">)?"
)
"""The grammar's `HASH_ATTR`: where a nested dialect attribute ends."""


def gpu_attr_token_text(tok: Any) -> str | None:
    """The canonical text of a `HASH_ATTR` token that is a target or handler
    attribute, else `None`; a malformed one, or a name its dialect does not
    have, raises `TokenError` (located in the token). The hook of the
    attribute builder (`opaque_attr`)."""
    text = str(tok)
    unbalanced = _unbalanced(text)
    if unbalanced is not None:
        raise TokenError(tok, unbalanced.offset, unbalanced.message)
    if not _NAMED.match(text):
        return None
    try:
        return canonical_gpu_attr(text)
    except AttrTextError as exc:
        raise TokenError(tok, exc.offset, exc.message) from None


_CLOSES = {">": "<", "]": "[", ")": "(", "}": "{"}


def _unbalanced(text: str) -> AttrTextError | None:
    """mlir-opt-19's error for a dialect attribute (any dialect) whose body
    does not nest its `<>`, `[]`, `()` and `{}`: the grammar's token only
    balances `<>`. Strings are skipped, `->` is no bracket; the error is at
    the last string read, else at the opening `<` (where its reader was)."""
    where = text.find("<")
    if where < 0:
        return None
    stack: list[str] = []
    i = where
    while i < len(text):
        ch = text[i]
        if ch == '"':
            m = _STRING.match(text, i)
            where, i = i, (m.end() if m else len(text))
            continue
        if text.startswith("->", i):
            i += 2
            continue
        if ch in "<[({":
            stack.append(ch)
        elif ch in _CLOSES:
            if not stack or stack[-1] != _CLOSES[ch]:
                top = stack[-1] if stack else "<"
                return AttrTextError(where, f"unbalanced '{top}' character in pretty dialect name")
            stack.pop()
        i += 1
    return None


def canonical_gpu_attr(text: str) -> str | None:
    """The canonical text of a target or handler attribute written `text`
    (one `HASH_ATTR` token), or `None` for any other attribute. Raises
    `AttrTextError` for a malformed one or for a name that the `gpu`,
    `nvvm`, `rocdl` or `spirv` dialect does not have."""
    named = _NAMED.match(text)
    if named is None:
        return None
    dialect, dotted = named.group(1), named.group(2) == "."
    at = named.end() if dotted else _skip_blanks(text, named.end())
    _check_name(dialect, text, at)
    if not dotted:
        # `#nvvm<target<...>>`: known, but not rebuilt (see the module doc).
        return None
    name, _, _ = text.partition("<")
    if name in TARGET_PARAMS:
        return _struct(name, text, TARGET_PARAMS[name], bare=True)
    if name == SPIRV_LIMITS_NAME:
        return _struct(name, text, SPIRV_LIMITS, bare=False)
    if name == HANDLER:
        return _handler(text)
    if name == SPIRV_TARGET:
        return _target_env(text)
    if name == SPIRV_VCE:
        return _vce(text)
    return None


def _check_name(dialect: str, text: str, at: int) -> None:
    """The attribute's name, starting `at`, must be one its dialect has:
    mlir-opt-19 reads it as a keyword and reports an unknown one there."""
    m = _KEYWORD.match(text, at)
    if m is None:
        ch = text[at : at + 1]
        if ch and ch in _STRAY:
            raise AttrTextError(at, "unexpected character")
        if ch == "." and not text.startswith("...", at):
            raise AttrTextError(at + 1, "expected three consecutive dots for an ellipsis")
        raise AttrTextError(at, "expected valid keyword")
    name = m.group()
    if name not in DIALECT_ATTRS[dialect]:
        if dialect == "spirv":
            raise AttrTextError(at, f"unknown SPIR-V attribute kind: {name}")
        raise AttrTextError(at, f"unknown attribute `{name}` in dialect `{dialect}`")


def _body(name: str, text: str) -> tuple[str, int] | None:
    """The text between the attribute's outer `<` and `>` and its offset,
    or `None` when it has no parameter list."""
    if len(text) == len(name):
        return None
    return text[len(name) + 1 : -1], len(name) + 1


def _skip_blanks(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t":
        i += 1
    return i


def _split_top(body: str) -> list[tuple[int, int]]:
    """The (start, end) spans of `body` between top-level commas (outside
    strings and brackets)."""
    spans: list[tuple[int, int]] = []
    depth, start, i = 0, 0, 0
    while i < len(body):
        ch = body[i]
        if ch == '"':
            m = _STRING.match(body, i)
            i = m.end() if m else len(body)
            continue
        if ch == "-" and body.startswith("->", i):
            i += 2
            continue
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
        elif ch == "," and depth == 0:
            spans.append((start, i))
            start = i + 1
        i += 1
    spans.append((start, len(body)))
    return spans


def _struct(name: str, text: str, declared: tuple[_Param, ...], bare: bool) -> str:
    """`#nvvm.target<...>`, `#rocdl.target<...>`, `#spirv.resource_limits<...>`:
    a struct of named parameters in any order, printed in declaration order
    without defaults; a target may leave out its `<...>` (`bare`) and
    prints none when empty, the resource limits need and keep it."""
    params = {p.name: p for p in declared}
    values: dict[str, str] = {}
    body = _body(name, text)
    if body is None and not bare:
        raise AttrTextError(len(name), "expected '<'")
    if body is not None and body[0].strip():
        inner, base = body
        spans = _split_top(inner)
        for start, end in spans:
            i = _skip_blanks(inner, start)
            key = _KEY.match(inner, i)
            if key is None and start == 0:
                # No parameter list after all: `>` wanted just past `<`.
                raise AttrTextError(base, "expected '>'")
            if key is None:
                # An empty entry (`<O = 1,>`): the token after the comma.
                raise AttrTextError(base + i, "expected valid keyword")
            j = _skip_blanks(inner, key.end())
            if j >= end or inner[j] != "=":
                raise AttrTextError(base + key.end(), "expected '='")
            v = _skip_blanks(inner, j + 1)
            param = params.get(key.group())
            if param is None or param.name in values:
                raise AttrTextError(base + v, f"duplicate or unknown struct parameter name: {key.group()}")
            values[param.name] = _param_value(param, inner[v:end], base + v)
    shown = [f"{p.name} = {values[p.name]}" for p in declared if p.name in values and values[p.name] != p.default]
    return f"{name}<{', '.join(shown)}>" if shown or not bare else name


def _after(value: str, used: int, offset: int) -> None:
    """Anything after a parameter's value is where mlir-opt-19 wanted the
    closing `>`: reported just past the value."""
    if value[used:].strip():
        raise AttrTextError(offset + used, "expected '>'")


def _param_value(param: _Param, value: str, offset: int) -> str:
    """One parameter's value, canonical; `offset` is where it starts."""
    if param.kind == "int":
        word = value.strip()
        if word in ("true", "false"):
            # An i1 sign-extended, as mlir-opt-19 reads it.
            return "-1" if word == "true" else "0"
        m = _INT.match(value)
        if m is None:
            raise AttrTextError(offset, "expected integer value")
        _after(value, m.end(), offset)
        number = _int(m.group())
        if not -(2**31) <= number < 2**31:
            raise AttrTextError(offset, "integer value too large")
        return str(number)
    if param.kind == "str":
        m = _STRING.match(value)
        if m is None:
            raise AttrTextError(offset, "unexpected character" if value[:1] == "'" else "expected string")
        _after(value, m.end(), offset)
        return quote_string(_unescape(m.group()))
    attr = parse_attr_value(value.rstrip(), offset)
    if not isinstance(attr, DictAttr if param.kind == "dict" else ArrayAttr):
        raise AttrTextError(offset, "invalid kind of attribute specified")
    return str(attr)


def _int(text: str) -> int:
    """An MLIR integer literal: decimal (leading zeros allowed) or hex."""
    negative = text.startswith("-")
    digits = text.lstrip("-")
    number = int(digits, 16) if digits.startswith("0x") else int(digits, 10)
    return -number if negative else number


def _handler(text: str) -> str:
    """`#gpu.select_object<...>`: an object index (an integer, `i64` unless
    typed, not negative) or a GPU target attribute; or nothing."""
    body = _body(HANDLER, text)
    if body is None:
        return HANDLER
    inner, base = body
    open_at = base - 1
    i = _skip_blanks(inner, 0)
    if i == len(inner):
        raise AttrTextError(base + i, "expected attribute value")
    m = _INT.match(inner, i)
    if m is not None:
        rest = inner[m.end() :].strip()
        if rest and not rest.startswith(":"):
            raise AttrTextError(base + m.end(), "expected '>'")
        if not rest:
            if _int(m.group()) < 0:
                raise AttrTextError(open_at, "the object index must be positive")
            return f"{HANDLER}<{_int(m.group())} : i64>"
    value = inner[i:].rstrip()
    inner_attr = parse_attr_value(value, base + i)
    if isinstance(inner_attr, IntegerAttr):
        # A typed index (`<1 : i32>`), its type checked by the parse; its
        # bits read as signed (`true`, `255 : ui8` are negative).
        if _signed(inner_attr) < 0:
            raise AttrTextError(open_at, "the object index must be positive")
        return f"{HANDLER}<{inner_attr}>"
    if not is_gpu_target(inner_attr):
        raise AttrTextError(open_at, "the target attribute must be a GPU Target attribute")
    return f"{HANDLER}<{inner_attr}>"


def _signed(attr: IntegerAttr) -> int:
    """The integer's bits as a signed number of its width (`index`: 64)."""
    m = re.fullmatch(r"[su]?i([0-9]+)", attr.type.text)
    width = int(m.group(1)) if m else 64
    bits = attr.value % (1 << width)
    return bits - (1 << width) if bits >> (width - 1) else bits


class _Cursor:
    """A reading position in an attribute's body (`text`, `base` characters
    into the token), for the hand-written `#spirv` syntaxes. A missing
    punctuation mark is reported just past the token before it (`prev`),
    as mlir-opt-19 does; a missing keyword, number or attribute where it
    was wanted."""

    def __init__(self, text: str, base: int) -> None:
        self.text, self.base, self.pos, self.prev = text, base, 0, 0

    def peek(self) -> str:
        """The next character; one that starts no token is mlir-opt-19's
        lexer error, met as soon as the token before is read (so each read
        peeks past itself)."""
        self.pos = _skip_blanks(self.text, self.pos)
        ch = self.text[self.pos : self.pos + 1]
        if ch and ch in _STRAY:
            raise AttrTextError(self.base + self.pos, "unexpected character")
        if ch == "#" and not re.match(r"[\w$.]", self.text[self.pos + 1 : self.pos + 2]):
            raise AttrTextError(self.base + self.pos, "invalid attribute name")
        return ch

    def punct(self, mark: str) -> None:
        if self.peek() != mark:
            raise AttrTextError(self.base + self.prev, f"expected '{mark}'")
        self.pos = self.prev = self.pos + 1
        self.peek()

    def keyword(self) -> tuple[str, int]:
        """A bare keyword and where it starts (offset into the token)."""
        self.peek()
        m = _KEYWORD.match(self.text, self.pos)
        if m is None:
            raise AttrTextError(self.base + self.pos, "expected valid keyword")
        start, self.pos = self.base + self.pos, m.end()
        self.prev = self.pos
        self.peek()
        return m.group(), start

    def integer(self) -> int:
        self.peek()
        m = _INT.match(self.text, self.pos)
        if m is None:
            raise AttrTextError(self.base + self.pos, "expected integer value")
        number = _int(m.group())
        if not -(2**32) < number < 2**32:
            raise AttrTextError(self.base + self.pos, "integer value too large")
        self.pos = self.prev = m.end()
        self.peek()
        return number % 2**32

    def attribute(self, want: str) -> str:
        """A nested attribute that must be a `want` (`#spirv.vce`, ...), as
        mlir-opt-19 parses it: any attribute, then its kind checked."""
        start = self.pos = _skip_blanks(self.text, self.pos)
        m = _HASH.match(self.text, start)
        if m is not None:
            end = m.end()
        else:
            spans = _split_top(self.text[start:])
            end = start + len(self.text[start : start + spans[0][1]].rstrip())
        value = self.text[start:end]
        # Nothing, or a bare word (`api=...` where the limits belong), is no
        # attribute value: reported as a missing mark (lark says more).
        if not value:
            raise AttrTextError(self.base + self.prev, "expected attribute value")
        try:
            attr = parse_attr_value(value, self.base + start)
        except AttrTextError:
            if _KEYWORD.match(value):
                raise AttrTextError(self.base + self.prev, "expected attribute value") from None
            raise
        if not (isinstance(attr, OpaqueAttr) and attr.text.startswith(want + "<")):
            raise AttrTextError(self.base + start, "invalid kind of attribute specified")
        self.pos = self.prev = end
        return attr.text


def _target_env(text: str) -> str:
    """`#spirv.target_env<vce, [api=A,] [vendor[:device[:id]],] limits>`.
    An unknown client API, vendor or device type reads as `Unknown`; its
    error (which mlir-opt-19 prints without failing) is raised only if the
    attribute then fails, where mlir-opt-19's first line is that one."""
    body = _body(SPIRV_TARGET, text)
    if body is None:
        raise AttrTextError(len(SPIRV_TARGET), "expected '<'")
    pending: list[AttrTextError] = []
    try:
        return _target_env_body(_Cursor(*body), pending)
    except AttrTextError:
        if pending:
            raise pending[0] from None
        raise


def _target_env_body(cur: _Cursor, pending: list[AttrTextError]) -> str:
    parts = [cur.attribute(SPIRV_VCE)]
    cur.punct(",")
    if re.match(r"api(?![\w$.])", cur.text[_skip_blanks(cur.text, cur.pos) :]):
        cur.keyword()
        cur.punct("=")
        api = _enum(cur, SPIRV_CLIENT_APIS, "client API", pending)
        if api != "Unknown":
            parts.append(f"api={api}")
        cur.punct(",")
    if re.match(r"[A-Za-z_]", cur.peek()):
        vendor = _enum(cur, SPIRV_VENDORS, "vendor", pending)
        device, device_id = "Unknown", None
        if cur.peek() == ":":
            cur.punct(":")
            device = _enum(cur, SPIRV_DEVICE_TYPES, "device type", pending)
            if cur.peek() == ":":
                cur.punct(":")
                device_id = cur.integer()
        if vendor != "Unknown":
            # The id goes with the device type: neither is shown without it.
            if device == "Unknown":
                parts.append(vendor)
            else:
                parts.append(f"{vendor}:{device}" + ("" if device_id is None else f":{device_id}"))
        cur.punct(",")
    parts.append(cur.attribute(SPIRV_LIMITS_NAME))
    if cur.peek():
        raise AttrTextError(cur.base + cur.prev, "expected '>'")
    return f"{SPIRV_TARGET}<{', '.join(parts)}>"


def _enum(cur: _Cursor, known: frozenset[str], what: str, pending: list[AttrTextError]) -> str:
    word, at = cur.keyword()
    if word in known:
        return word
    pending.append(AttrTextError(at, f"unknown {what}: {word}"))
    return "Unknown"


def _vce(text: str) -> str:
    """`#spirv.vce<version, [capabilities], [extensions]>`: checked names,
    the lists kept as written."""
    body = _body(SPIRV_VCE, text)
    if body is None:
        raise AttrTextError(len(SPIRV_VCE), "expected '<'")
    cur = _Cursor(*body)
    version, at = cur.keyword()
    lists = []
    for known, what in ((SPIRV_CAPABILITIES, "capability"), (SPIRV_EXTENSIONS, "extension")):
        cur.punct(",")
        if version not in SPIRV_VERSIONS:
            # Checked once its comma is read (a name in a list, at once).
            raise AttrTextError(at, f"unknown version: {version}")
        cur.punct("[")
        names: list[str] = []
        if cur.peek() == "]":
            cur.punct("]")
        else:
            while True:
                word, at = cur.keyword()
                if word not in known:
                    raise AttrTextError(at, f"unknown {what}: {word}")
                names.append(word)
                if cur.peek() != ",":
                    cur.punct("]")
                    break
                cur.punct(",")
        lists.append(f"[{', '.join(names)}]")
    if cur.peek():
        raise AttrTextError(cur.base + cur.prev, "expected '>'")
    return f"{SPIRV_VCE}<{version}, {', '.join(lists)}>"


_VALUE_HEAD = '"v.v"() {v = '


@functools.lru_cache(maxsize=1)
def _value_parser() -> object:
    """A parser of its own (the main one may be mid-parse when this runs),
    made on first use: only a target with `flags` or `link`, or a handler
    naming a target, needs it."""
    from spec.syntax.parser import _make_lark

    return _make_lark(fast=True)[0]


def parse_attr_value(value: str, offset: int) -> Attr:
    """`value`, the text of one attribute inside a bigger one, as the
    attribute grammar reads it; an error is reported `offset` characters
    further into the enclosing token."""
    from lark.exceptions import UnexpectedInput

    from spec.syntax.syntax_errors import _syntax_error

    if "\n" in value:
        raise AttrTextError(offset, "expected attribute value")
    parser = _value_parser()
    source = f"{_VALUE_HEAD}{value}}} : () -> ()"
    try:
        ops = parser.parse(source)  # type: ignore[attr-defined]
    except UnexpectedInput as exc:
        diag = _syntax_error(exc, "<attr>", 0, source, parser.terminals).diagnostics[0]  # type: ignore[attr-defined]
        raise AttrTextError(offset + max(diag.loc.col - 1 - len(_VALUE_HEAD), 0), diag.message) from None
    except DiagnosticError as exc:
        diag = exc.diagnostics[0]
        raise AttrTextError(offset + max(diag.loc.col - 1 - len(_VALUE_HEAD), 0), diag.message) from None
    if len(ops) != 1 or set(ops[0].attributes) != {"v"}:
        # The text closed the wrapper early (`[1]} ...`): not one attribute.
        raise AttrTextError(offset, "expected attribute value")
    return ops[0].attributes["v"]
