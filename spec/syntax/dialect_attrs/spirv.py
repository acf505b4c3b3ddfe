"""`#spirv.target_env<...>` and its `#spirv.vce<...>`, as mlir-opt-19 prints
them (see `spec.syntax.dialect_attrs.gpu_targets` for where they are written):

- `#spirv.target_env<vce, [api=A,] [vendor[:device[:id]],] limits>` drops
  an `Unknown` client API, vendor or device type (and an unknown name reads
  as `Unknown`), prints `api=A` without blanks and the device id in decimal
  (wrapped to 32 bits);
- `#spirv.vce<version, [capabilities], [extensions]>` keeps its lists as
  written (order and repeats), each name checked against mlir-opt-19's;
- `#spirv.resource_limits<...>` is a parameter list (`SPIRV_LIMITS`, read
  by `attr_text._struct`), printed without the fields at their defaults.

A missing punctuation mark is reported just past the token before it, as
mlir-opt-19's hand-written parser does (`_Cursor`).
"""

from __future__ import annotations

import re

from spec.attributes import Attr, OpaqueAttr
from spec.syntax.dialect_attrs.text import (
    HASH,
    INT,
    KEYWORD,
    STRAY,
    AttrTextError,
    Param,
    ValueParser,
    param_list,
    skip_blanks,
    split_top,
    to_int,
)

SPIRV_LIMITS: tuple[Param, ...] = (
    Param("max_compute_shared_memory_size", "int", "16384"),
    Param("max_compute_workgroup_invocations", "int", "128"),
    Param("max_compute_workgroup_size", "array", "[128 : i32, 128 : i32, 64 : i32]"),
    Param("subgroup_size", "int", "32"),
    Param("min_subgroup_size", "int", None),
    Param("max_subgroup_size", "int", None),
    Param("cooperative_matrix_properties_khr", "array", None),
    Param("cooperative_matrix_properties_nv", "array", None),
)
"""`#spirv.resource_limits`'s parameters in mlir-opt-19's printing order, with
the defaults it leaves out (its integers are i32 as a target's `O`)."""


SPIRV_ENTRY_POINT_ABI: tuple[Param, ...] = (
    Param("workgroup_size", "i32_array", None),
    Param("subgroup_size", "int", None),
    Param("target_width", "int", None),
)
"""`#spirv.entry_point_abi<...>`'s optional parameters in mlir-opt-19's
printing order (`[4, 2, 1]` keeps its blank after `=`)."""
SPIRV_ENTRY_POINT_ABI_NAME = "#spirv.entry_point_abi"
SPIRV_TARGET = "#spirv.target_env"
SPIRV_VCE = "#spirv.vce"
SPIRV_LIMITS_NAME = "#spirv.resource_limits"


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


class _Cursor:
    """A reading position in an attribute's body (`text`, `base` characters
    into the token), for the hand-written `#spirv` syntaxes. A missing
    punctuation mark is reported just past the token before it (`prev`),
    as mlir-opt-19 does; a missing keyword, number or attribute where it
    was wanted."""

    def __init__(self, text: str, base: int, parse_value: ValueParser) -> None:
        self.text, self.base, self.pos, self.prev = text, base, 0, 0
        self.parse_value = parse_value

    def peek(self) -> str:
        """The next character; one that starts no token is mlir-opt-19's
        lexer error, met as soon as the token before is read (so each read
        peeks past itself)."""
        self.pos = skip_blanks(self.text, self.pos)
        ch = self.text[self.pos : self.pos + 1]
        if ch and ch in STRAY:
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
        m = KEYWORD.match(self.text, self.pos)
        if m is None:
            raise AttrTextError(self.base + self.pos, "expected valid keyword")
        start, self.pos = self.base + self.pos, m.end()
        self.prev = self.pos
        self.peek()
        return m.group(), start

    def integer(self) -> int:
        self.peek()
        m = INT.match(self.text, self.pos)
        if m is None:
            raise AttrTextError(self.base + self.pos, "expected integer value")
        number = to_int(m.group())
        if not -(2**32) < number < 2**32:
            raise AttrTextError(self.base + self.pos, "integer value too large")
        self.pos = self.prev = m.end()
        self.peek()
        return number % 2**32

    def attribute(self, want: str) -> str:
        """A nested attribute that must be a `want` (`#spirv.vce`, ...), as
        mlir-opt-19 parses it: any attribute, then its kind checked."""
        start = self.pos = skip_blanks(self.text, self.pos)
        m = HASH.match(self.text, start)
        if m is not None:
            end = m.end()
        else:
            spans = split_top(self.text[start:])
            end = start + len(self.text[start : start + spans[0][1]].rstrip())
        value = self.text[start:end]
        # Nothing, or a bare word (`api=...` where the limits belong), is no
        # attribute value: reported as a missing mark (lark says more).
        if not value:
            raise AttrTextError(self.base + self.prev, "expected attribute value")
        try:
            attr = self.parse_value(value, self.base + start)
        except AttrTextError:
            if KEYWORD.match(value):
                raise AttrTextError(self.base + self.prev, "expected attribute value") from None
            raise
        if not (isinstance(attr, OpaqueAttr) and attr.text.startswith(want + "<")):
            raise AttrTextError(self.base + start, "invalid kind of attribute specified")
        self.pos = self.prev = end
        return attr.text


def target_env(text: str, parse_value: ValueParser) -> str:
    """`#spirv.target_env<vce, [api=A,] [vendor[:device[:id]],] limits>`.
    An unknown client API, vendor or device type reads as `Unknown`; its
    error (which mlir-opt-19 prints without failing) is raised only if the
    attribute then fails, where mlir-opt-19's first line is that one."""
    body = param_list(SPIRV_TARGET, text)
    if body is None:
        raise AttrTextError(len(SPIRV_TARGET), "expected '<'")
    pending: list[AttrTextError] = []
    try:
        return _target_env_body(_Cursor(*body, parse_value), pending)
    except AttrTextError:
        if pending:
            raise pending[0] from None
        raise


def _target_env_body(cur: _Cursor, pending: list[AttrTextError]) -> str:
    parts = [cur.attribute(SPIRV_VCE)]
    cur.punct(",")
    if re.match(r"api(?![\w$.])", cur.text[skip_blanks(cur.text, cur.pos) :]):
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


def _no_nested_attribute(value: str, offset: int) -> Attr:
    """`#spirv.vce` holds keywords only: its reader never parses an attribute."""
    raise AssertionError(f"no attribute is read inside #spirv.vce ({value!r} at {offset})")


def vce(text: str) -> str:
    """`#spirv.vce<version, [capabilities], [extensions]>`: checked names,
    the lists kept as written."""
    body = param_list(SPIRV_VCE, text)
    if body is None:
        raise AttrTextError(len(SPIRV_VCE), "expected '<'")
    cur = _Cursor(*body, _no_nested_attribute)
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
