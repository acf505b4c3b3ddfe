// gpu.memcpy and gpu.memset, with and without async and dependencies.
func.func @copies(%dst: memref<16xf32>, %src: memref<16xf32>, %dyn: memref<?xi32>, %v: f32, %i: i32) {
  gpu.memcpy %dst, %src : memref<16xf32>, memref<16xf32>
  %t0 = gpu.wait async
  %t1 = gpu.memcpy async [%t0] %dst, %src : memref<16xf32>, memref<16xf32>
  %t2 = gpu.memcpy async %src, %dst : memref<16xf32>, memref<16xf32>
  gpu.memcpy [%t1, %t2] %dst, %src : memref<16xf32>, memref<16xf32>
  gpu.memset %dst, %v : memref<16xf32>, f32
  %t3 = gpu.memset async [%t2] %dyn, %i : memref<?xi32>, i32
  %t4 = gpu.memset async %dst, %v : memref<16xf32>, f32
  gpu.memset [%t3] %dyn, %i : memref<?xi32>, i32
  gpu.wait [%t3, %t4]
  return
}
