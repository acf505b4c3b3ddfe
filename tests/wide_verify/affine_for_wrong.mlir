func.func @f(%m: memref<16xf32>, %h: memref<16xf32>) {
  %0 = gpu.wait async
  %1 = gpu.memcpy async [%0] %m, %h : memref<16xf32>, memref<16xf32>
  affine.for %i = 0 to 16 {
    %x = affine.load %m[%i] : memref<16xf32>
    affine.store %x, %h[%i] : memref<16xf32>
  }
  gpu.wait [%1]
  return
}
