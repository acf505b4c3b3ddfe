// SpGEMM with its descriptor, the work estimate and compute phases in a
// loop, the result's size read back, and SDDMM / 2:4 SpMM on the side.
func.func @spgemm(%a: !gpu.sparse.spmat_handle, %b: !gpu.sparse.spmat_handle, %c: !gpu.sparse.spmat_handle,
                  %buf: memref<?xi8>, %pos: memref<?xi32>, %crd: memref<?xi32>, %val: memref<?xf32>,
                  %dense: memref<?x?xf16>, %n: index, %flag: i1) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d = gpu.spgemm_create_descr
  %last = scf.for %i = %c0 to %c2 step %c1 iter_args(%s = %c0) -> (index) {
    %s1 = gpu.spgemm_work_estimation_or_compute {WORK_ESTIMATION} %a, %b{TRANSPOSE}, %c, %d, %s, %buf : f32 into memref<?xi8>
    %s2 = gpu.spgemm_work_estimation_or_compute {COMPUTE} %a, %b, %c, %d, %s1, %buf : f32 into memref<?xi8>
    scf.yield %s2 : index
  }
  %r, %k, %nz = gpu.spmat_get_size %c
  gpu.set_csr_pointers %c, %pos, %crd, %val : memref<?xi32>, memref<?xi32>, memref<?xf32>
  gpu.spgemm_copy %a, %b, %c, %d : f32
  gpu.spgemm_destroy_descr %d
  scf.if %flag {
    %m = gpu.create_2to4_spmat {PRUNE_ONLY} %n, %n, %dense : memref<?x?xf16>
    %dd = gpu.create_dn_tensor %dense, %n, %n : index, index into memref<?x?xf16>
    %bs = gpu.sddmm_buffer_size %dd{TRANSPOSE}, %dd, %m into f16
    gpu.sddmm %dd, %dd{TRANSPOSE}, %m, %buf : memref<?xi8> into f16
    %b2:3 = gpu.spmm_buffer_size %m, %dd, %dd : index, index, index into f16
    gpu.spmm %m, %dd, %dd, %buf, %buf, %buf : memref<?xi8>, memref<?xi8>, memref<?xi8> into f16
    gpu.destroy_dn_tensor %dd
    gpu.destroy_sp_mat %m
  }
  %coo = gpu.create_coo_aos %n, %n, %nz, %pos, %val : memref<?xi32>, memref<?xf32>
  %csc = gpu.create_csc %n, %n, %nz, %pos, %crd, %val : memref<?xi32>, memref<?xi32>, memref<?xf32>
  %bsr = gpu.create_bsr %n, %n, %nz, %c2, %c2, %pos, %crd, %val : memref<?xi32>, memref<?xi32>, memref<?xf32>
  gpu.destroy_sp_mat %coo
  gpu.destroy_sp_mat %csc
  gpu.destroy_sp_mat %bsr
  %out = arith.addi %last, %nz : index
  return %out : index
}
