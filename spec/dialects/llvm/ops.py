"""The `llvm` dialect's ops this tool reads: the symbol ops that sit
outside functions (`func`, read as a declaration only, and `mlir.global`),
`mlir.addressof` (pure) and `call`, which implements no effects interface
(a call may do anything).

mlir-opt-19 declares many inherent attributes of these ops; this tool
checks none of their values (`any`), but knows which they are and the
defaults the custom form leaves out.
"""

from __future__ import annotations

from spec.attributes import I64, IntegerAttr, OpaqueAttr
from spec.op_info import Inherent, OpInfo, op, opt, req


def _any(attribute_names: str) -> dict[str, Inherent]:
    """Optional inherent attributes of any value, by blank-separated name."""
    return {name: opt("any") for name in attribute_names.split()}


OPS: tuple[OpInfo, ...] = (
    op(
        "llvm.func",
        effects=None,
        function="llvm",
        isolated=True,
        operand_count=(0, 0),
        subset_form="a declaration (argument types, no names, no body)",
        inherent=_any(
            "sym_name sym_visibility function_type linkage dso_local CConv comdat convergent personality "
            "garbageCollector passthrough arg_attrs res_attrs function_entry_count memory_effects visibility_ "
            "arm_streaming arm_locally_streaming arm_streaming_compatible arm_new_za arm_in_za arm_out_za "
            "arm_inout_za arm_preserves_za section unnamed_addr alignment vscale_range frame_pointer target_cpu "
            "tune_cpu target_features unsafe_fp_math no_infs_fp_math no_nans_fp_math approx_func_fp_math "
            "no_signed_zeros_fp_math denormal_fp_math denormal_fp_math_f32 fp_contract no_inline always_inline "
            "no_unwind will_return optimize_none"
        ),
        default_properties={
            "CConv": OpaqueAttr("#llvm.cconv<ccc>"),
            "linkage": OpaqueAttr("#llvm.linkage<external>"),
            "unnamed_addr": IntegerAttr(0, I64),
            "visibility_": IntegerAttr(0, I64),
        },
    ),
    op(
        "llvm.mlir.global",
        effects=None,
        isolated=True,
        operand_count=(0, 0),
        inherent=_any(
            "global_type constant sym_name linkage dso_local thread_local_ externally_initialized value alignment "
            "addr_space unnamed_addr section comdat dbg_expr visibility_"
        ),
        default_properties={"unnamed_addr": IntegerAttr(0, I64), "visibility_": IntegerAttr(0, I64)},
    ),
    op("llvm.mlir.addressof", inherent={"global_name": req("flat_symbol_ref")}, operand_count=(0, 0)),
    op(
        "llvm.call",
        effects=None,
        inherent=_any(
            "callee var_callee_type CConv TailCallKind fastmathFlags branch_weights access_groups alias_scopes "
            "noalias_scopes tbaa memory_effects convergent no_unwind will_return op_bundle_sizes"
        ),
        default_properties={
            "CConv": OpaqueAttr("#llvm.cconv<ccc>"),
            "TailCallKind": OpaqueAttr("#llvm.tailcallkind<none>"),
            "fastmathFlags": OpaqueAttr("#llvm.fastmath<none>"),
        },
    ),
)
