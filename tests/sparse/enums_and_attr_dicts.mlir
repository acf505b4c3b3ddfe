func.func @f(%mem: memref<?xf64>, %buf: memref<?xi8>, %n: index, %m2: memref<?x?xf64>, %s: !gpu.sparse.spmat_handle, %h: !gpu.sparse.dntensor_handle, %d: !gpu.sparse.spgemmop_handle) {
  %s6 = gpu.create_2to4_spmat {PRUNE_ONLY} %n, %n, %m2 {a = 1} : memref<?x?xf64>
  %nsz = gpu.spgemm_work_estimation_or_compute {COMPUTE} %s{TRANSPOSE}, %s, %s, %d, %n, %buf {b} : f64 into memref<?xi8>
  %d2 = gpu.spgemm_create_descr {c}
  %d3 = gpu.spgemm_create_descr
  gpu.spgemm_destroy_descr %d {e}
  %sz = gpu.spmv_buffer_size %s{TRANSPOSE}, %h, %h {f} into f64
  %r:3 = gpu.spmat_get_size %s {g}
  gpu.spgemm_copy %s, %s{TRANSPOSE}, %s, %d : f32
  %h5 = gpu.create_dn_tensor %mem, %n {q} : index into memref<?xf64>
  %t = gpu.wait async
  %d4, %t2 = gpu.spgemm_create_descr async [%t] {c}
  return
}
