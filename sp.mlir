func.func @f(%t: !gpu.async.token, %a: !gpu.sparse.spmat_handle, %b: !gpu.sparse.dntensor_handle, %c: !gpu.sparse.dntensor_handle, %m: memref<?xf64>, %i: index, %g: !gpu.sparse.spgemmop_handle) {
  %0, %1 = "gpu.create_dn_tensor"(%t, %m, %i) <{operandSegmentSizes = array<i32: 1, 1, 3>}> : (!gpu.async.token, memref<?xf64>, index) -> (!gpu.sparse.dntensor_handle, !gpu.async.token)
  return
}
