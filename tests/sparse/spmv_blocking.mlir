func.func @f(%mem: memref<?xf64>, %idx: memref<?xindex>, %buf: memref<?xi8>, %n: index, %m2: memref<?x?xf64>) {
  %h, %t1 = gpu.create_dn_tensor async [] %mem, %n : index into memref<?xf64>
  %h2 = gpu.create_dn_tensor %m2, %n, %n : index, index into memref<?x?xf64>
  %s = gpu.create_csr %n, %n, %n, %idx, %idx, %mem : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %sz = gpu.spmv_buffer_size %s, %h, %h into f64
  gpu.spmv %s, %h, %h, %buf : memref<?xi8> into f64
  gpu.spmm %s, %h2, %h2, %buf : memref<?xi8> into f64
  %r, %c, %z = gpu.spmat_get_size %s
  gpu.destroy_sp_mat %s
  gpu.destroy_dn_tensor %h
  %v = memref.load %mem[%n] : memref<?xf64>
  return
}
