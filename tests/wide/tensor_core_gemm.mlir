// A half-precision GEMM on tensor cores after gpu-kernel-outlining: each
// subgroup loads 16x16 tiles with the subgroup MMA ops, accumulates, applies
// a ReLU-like epilogue with elementwise ops and stores the tile back. The
// host picks the device, copies the operands in and the result out.

module attributes {gpu.container_module} {
  gpu.module @gemm_kernels {
    gpu.func @wmma_tile(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>, %k_tiles: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row = arith.muli %by, %c16 : index
      %col = arith.muli %bx, %c16 : index
      %zero = arith.constant 0.0 : f32
      %acc0 = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      %acc = scf.for %kt = %c0 to %k_tiles step %c1 iter_args(%acc_it = %acc0) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
        %k = arith.muli %kt, %c16 : index
        %ta = gpu.subgroup_mma_load_matrix %a[%row, %k] {leadDimension = 64 : index} : memref<64x64xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
        %tb = gpu.subgroup_mma_load_matrix %b[%k, %col] {leadDimension = 64 : index} : memref<64x64xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
        %next = gpu.subgroup_mma_compute %ta, %tb, %acc_it : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
        scf.yield %next : !gpu.mma_matrix<16x16xf32, "COp">
      }
      %floor = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      %relu = gpu.subgroup_mma_elementwise maxf %acc, %floor : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %relu, %c[%row, %col] {leadDimension = 64 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<64x64xf32>
      gpu.return
    }
    gpu.func @transpose_tile(%src: memref<64x64xf16>, %dst: memref<64x64xf16>) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.subgroup_mma_load_matrix %src[%c0, %c0] {leadDimension = 64 : index, transpose} : memref<64x64xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      %neg = gpu.subgroup_mma_elementwise negatef %t : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %neg, %dst[%c0, %c0] {leadDimension = 64 : index, transpose} : !gpu.mma_matrix<16x16xf16, "COp">, memref<64x64xf16>
      gpu.return
    }
  }

  func.func @gemm(%device: i32, %ha: memref<64x64xf16>, %hb: memref<64x64xf16>, %hc: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    gpu.set_default_device %device
    %da = gpu.alloc () : memref<64x64xf16>
    %db = gpu.alloc () : memref<64x64xf16>
    %dc = gpu.alloc () : memref<64x64xf32>
    gpu.memcpy %da, %ha : memref<64x64xf16>, memref<64x64xf16>
    gpu.memcpy %db, %hb : memref<64x64xf16>, memref<64x64xf16>
    gpu.launch_func @gemm_kernels::@wmma_tile blocks in (%c4, %c4, %c1) threads in (%c32, %c1, %c1) args(%da : memref<64x64xf16>, %db : memref<64x64xf16>, %dc : memref<64x64xf32>, %c4 : index)
    gpu.memcpy %hc, %dc : memref<64x64xf32>, memref<64x64xf32>
    gpu.dealloc %da : memref<64x64xf16>
    gpu.dealloc %db : memref<64x64xf16>
    gpu.dealloc %dc : memref<64x64xf32>
    return
  }
}

// -----

// Kernels already compiled into a gpu.binary (two targets, the first one
// picked), launched from the host; the cluster ops and the dynamic shared
// memory of the source kernel are gone, the host keeps its index arithmetic.

module attributes {gpu.container_module} {
  gpu.binary @reduce_bin <#gpu.select_object<0>> [#gpu.object<#nvvm.target<chip = "sm_90">, "PTX-or-cubin-bytes">, #gpu.object<#nvvm.target<chip = "sm_80">, bin = "cubin-bytes">]
  func.func @reduce_all(%buf: memref<1024xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c256 = index.constant 256
    %blocks = index.ceildivu %n, %c256
    %fits = index.cmp ule(%n, %c256)
    %d = gpu.alloc () : memref<1024xf32>
    gpu.memcpy %d, %buf : memref<1024xf32>, memref<1024xf32>
    gpu.launch_func @reduce_bin::@reduce blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1) args(%d : memref<1024xf32>, %n : index)
    gpu.memcpy %buf, %d : memref<1024xf32>, memref<1024xf32>
    gpu.dealloc %d : memref<1024xf32>
    return
  }
}

// -----

// The source of that binary: a cluster-aware block reduction staging
// partial sums in dynamic shared memory.

gpu.module @reduce_src {
  gpu.func @reduce(%buf: memref<1024xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    %cb = gpu.cluster_block_id x
    %cbz = gpu.cluster_block_id z upper_bound 2
    %blocks_in_cluster = gpu.cluster_dim_blocks x
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %view = memref.view %smem[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %slot = arith.addi %cb, %cbz : index
    %base = arith.muli %slot, %blocks_in_cluster : index
    %i = arith.addi %base, %tid : index
    %v = memref.load %buf[%i] : memref<1024xf32>
    memref.store %v, %view[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %s = gpu.all_reduce add %v {} : (f32) -> (f32)
    memref.store %s, %buf[%base] : memref<1024xf32>
    gpu.return
  }
}
