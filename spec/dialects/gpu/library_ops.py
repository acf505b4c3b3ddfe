"""The `gpu` dialect's sparse library ops (cuSPARSE / cuSPARSELt calls), all
GPU async. MLIR 19 declares no memory effects for them (effects `None`):
they read and write memory only through the handles, which alias their
memrefs.

They share one custom form, which each op's `LibraryForm` describes (its
operands' kinds, results, enum properties and trailing types); their
operand layout and inherent attributes follow from it. The syntax that
reads and prints the form is `spec.dialects.gpu.syntax`.
"""

from __future__ import annotations

from typing import Any

from spec.attributes import OpaqueAttr
from spec.op_info import Inherent, LibraryForm, OpInfo, op, opt, req

HANDLE_TYPES = {
    "spmat": "!gpu.sparse.spmat_handle",
    "dntensor": "!gpu.sparse.dntensor_handle",
    "spgemm": "!gpu.sparse.spgemmop_handle",
}
"""The `!gpu.sparse.*` handle types of `LibraryForm` operand kinds."""

_MODES = {
    "modeA": OpaqueAttr("#gpu<mat_transpose_mode NON_TRANSPOSE>"),
    "modeB": OpaqueAttr("#gpu<mat_transpose_mode NON_TRANSPOSE>"),
}
"""The transpose modes' properties and their default."""
_INDEX3 = ("index", "index", "index")


def _library(name: str, form: LibraryForm, segments: tuple[str, ...] = (), **facts: Any) -> OpInfo:
    """A GPU library op's entry: its operand layout and inherent attributes
    follow from its custom form (modes, the lead enum, a compute type)."""
    fixed = sum(1 for k in form.operands if not k.endswith("*"))
    layout: dict[str, Any] = {"segments": segments, "deps_segment": 0} if segments else {"fixed_trailing": fixed}
    inherent: dict[str, Inherent] = {}
    if form.modes:
        facts["default_properties"] = {k: _MODES[k] for k in list(_MODES)[: len(form.modes)]}
        inherent.update({k: opt("mat_transpose_mode") for k in list(_MODES)[: len(form.modes)]})
    if form.lead == "pruneFlag":
        # 19's `pruneFlag` has a default (PRUNE_AND_CHECK): optional, and
        # set when missing; the custom form prints it all the same.
        inherent[form.lead] = opt(form.lead_enum)
        facts["default_properties"] = {"pruneFlag": OpaqueAttr("#gpu<prune_2to4_spmat_flag PRUNE_AND_CHECK>")}
    elif form.lead:
        inherent[form.lead] = req(form.lead_enum)
    if "compute" in (form.colon, form.into):
        inherent["computeType"] = req("type")
    return op(name, effects=None, gpu_async=True, library_form=form, inherent=inherent, **layout, **facts)


OPS: tuple[OpInfo, ...] = (
    # dense tensors
    _library(
        "gpu.create_dn_tensor",
        LibraryForm(("memref", "index*"), (("dnTensor", "dntensor"),), colon="dims", into="memref"),
        segments=("asyncDependencies", "memref", "dims"),
    ),
    _library("gpu.destroy_dn_tensor", LibraryForm(("dntensor",))),
    # sparse matrices
    _library(
        "gpu.create_coo", LibraryForm((*_INDEX3, "memref", "memref", "memref"), (("spmat", "spmat"),), colon="memrefs")
    ),
    _library("gpu.create_coo_aos", LibraryForm((*_INDEX3, "memref", "memref"), (("spmat", "spmat"),), colon="memrefs")),
    _library(
        "gpu.create_csr", LibraryForm((*_INDEX3, "memref", "memref", "memref"), (("spmat", "spmat"),), colon="memrefs")
    ),
    _library(
        "gpu.create_csc", LibraryForm((*_INDEX3, "memref", "memref", "memref"), (("spmat", "spmat"),), colon="memrefs")
    ),
    _library(
        "gpu.create_bsr",
        LibraryForm((*_INDEX3, "index", "index", "memref", "memref", "memref"), (("spmat", "spmat"),), colon="memrefs"),
    ),
    _library(
        "gpu.create_2to4_spmat",
        LibraryForm(
            ("index", "index", "memref"),
            (("spMat", "spmat"),),
            lead="pruneFlag",
            lead_enum="prune_2to4_spmat_flag",
            colon="memrefs",
        ),
    ),
    _library("gpu.destroy_sp_mat", LibraryForm(("spmat",))),
    # products: matrix-vector, matrix-matrix, sampled dense-dense
    _library(
        "gpu.spmv_buffer_size",
        LibraryForm(("spmat", "dntensor", "dntensor"), (("bufferSz", "index"),), modes=(0,), into="compute"),
    ),
    _library(
        "gpu.spmv",
        LibraryForm(("spmat", "dntensor", "dntensor", "memref"), modes=(0,), colon="memrefs", into="compute"),
    ),
    _library(
        "gpu.spmm_buffer_size",
        LibraryForm(
            ("spmat", "dntensor", "dntensor"), (("bufferSzs", "index*"),), modes=(0, 1), colon="results", into="compute"
        ),
        result_segments=True,
    ),
    _library(
        "gpu.spmm",
        LibraryForm(("spmat", "dntensor", "dntensor", "memref*"), modes=(0, 1), colon="memrefs", into="compute"),
        segments=("asyncDependencies", "spmatA", "dnmatB", "dnmatC", "buffers"),
    ),
    _library(
        "gpu.sddmm_buffer_size",
        LibraryForm(("dntensor", "dntensor", "spmat"), (("bufferSz", "index"),), modes=(0, 1), into="compute"),
    ),
    _library(
        "gpu.sddmm",
        LibraryForm(("dntensor", "dntensor", "spmat", "memref"), modes=(0, 1), colon="memrefs", into="compute"),
    ),
    # sparse-sparse products
    _library("gpu.spgemm_create_descr", LibraryForm((), (("desc", "spgemm"),))),
    _library("gpu.spgemm_destroy_descr", LibraryForm(("spgemm",))),
    _library(
        "gpu.spgemm_work_estimation_or_compute",
        LibraryForm(
            ("spmat", "spmat", "spmat", "spgemm", "index", "memref"),
            (("bufferSzNew", "index"),),
            lead="kind",
            lead_enum="spgemm_work_estimation_or_compute_kind",
            modes=(0, 1),
            colon="compute",
            into="memref",
            order=(1, 2, 3, 0, 4, 5),
        ),
    ),
    _library(
        "gpu.spgemm_copy",
        LibraryForm(("spmat", "spmat", "spmat", "spgemm"), modes=(0, 1), colon="compute", order=(1, 2, 3, 0)),
    ),
    # a sparse matrix's size and pointers
    _library("gpu.spmat_get_size", LibraryForm(("spmat",), (("rows", "index"), ("cols", "index"), ("nnz", "index")))),
    _library("gpu.set_csr_pointers", LibraryForm(("spmat", "memref", "memref", "memref"), colon="memrefs")),
)
