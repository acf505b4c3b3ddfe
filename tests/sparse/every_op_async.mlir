func.func @f(%t0: !gpu.async.token, %mem: memref<?xf64>, %idx: memref<?xindex>, %i32: memref<?xi32>, %buf: memref<?xi8>, %n: index, %m2: memref<?x?xf64>) {
  %h, %t1 = gpu.create_dn_tensor async [%t0] %mem, %n : index into memref<?xf64>
  %h2, %t1b = gpu.create_dn_tensor async [%t0] %m2, %n, %n : index, index into memref<?x?xf64>
  %s, %t2 = gpu.create_coo async [%t1] %n, %n, %n, %idx, %idx, %mem : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %s2, %t3 = gpu.create_coo_aos async [%t2] %n, %n, %n, %idx, %mem : memref<?xindex>, memref<?xf64>
  %s3, %t4 = gpu.create_csr async [%t3] %n, %n, %n, %idx, %idx, %mem : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %s4, %t5 = gpu.create_csc async [%t4] %n, %n, %n, %idx, %idx, %mem : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %s5, %t6 = gpu.create_bsr async [%t5] %n, %n, %n, %n, %n, %idx, %idx, %mem : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %s6, %t7 = gpu.create_2to4_spmat async [%t6] {PRUNE_AND_CHECK} %n, %n, %m2 : memref<?x?xf64>
  %s7, %t7b = gpu.create_2to4_spmat async [%t6] {NONE} %n, %n, %m2 : memref<?x?xf64>
  %sz, %t8 = gpu.spmv_buffer_size async [%t7] %s, %h, %h into f64
  %sz2, %t8b = gpu.spmv_buffer_size async [%t7] %s {TRANSPOSE}, %h, %h into f64
  %t9 = gpu.spmv async [%t8] %s, %h, %h, %buf : memref<?xi8> into f64
  %szs, %t10 = gpu.spmm_buffer_size async [%t9] %s, %h2, %h2 : index into f64
  %szs2:2, %t10b = gpu.spmm_buffer_size async [%t9] %s{TRANSPOSE}, %h2{TRANSPOSE}, %h2 : index, index into f64
  %t11 = gpu.spmm async [%t10] %s, %h2, %h2, %buf : memref<?xi8> into f64
  %t11b = gpu.spmm async [%t10] %s, %h2, %h2, %buf, %buf : memref<?xi8>, memref<?xi8> into f64
  %sz3, %t12 = gpu.sddmm_buffer_size async [%t11] %h2, %h2, %s into f64
  %t13 = gpu.sddmm async [%t12] %h2, %h2, %s, %buf : memref<?xi8> into f64
  %d, %t14 = gpu.spgemm_create_descr async [%t13]
  %nsz, %t15 = gpu.spgemm_work_estimation_or_compute async [%t14] {WORK_ESTIMATION} %s, %s, %s, %d, %n, %buf : f64 into memref<?xi8>
  %t16 = gpu.spgemm_copy async [%t15] %s, %s, %s, %d : f64
  %r, %c, %z, %t17 = gpu.spmat_get_size async [%t16] %s
  %t18 = gpu.set_csr_pointers async [%t17] %s, %idx, %idx, %mem : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %t19 = gpu.spgemm_destroy_descr async [%t18] %d
  %t20 = gpu.destroy_sp_mat async [%t19] %s
  %t21 = gpu.destroy_dn_tensor async [%t20] %h
  gpu.wait [%t21]
  return
}
