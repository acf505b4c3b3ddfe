// memref.subview with static and dynamic offsets, sizes and strides, and the
// strided layouts they produce.
func.func @views(%m: memref<8x16xf32>, %o: index, %s: index, %st: index, %d: memref<?x?xf32>) {
  %a = memref.subview %m[0, 0] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1]>>
  %b = memref.subview %m[2, 3] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 35>>
  %c = memref.subview %m[%o, 0] [4, %s] [1, %st] : memref<8x16xf32> to memref<4x?xf32, strided<[16, ?], offset: ?>>
  %e = memref.subview %d[%o, %o] [%s, %s] [%st, %st] : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %f = memref.subview %m[1, 0] [1, 16] [1, 1] : memref<8x16xf32> to memref<16xf32, strided<[1], offset: 16>>
  %g = memref.subview %a[1, 1] [2, 2] [2, 2] : memref<4x4xf32, strided<[16, 1]>> to memref<2x2xf32, strided<[32, 2], offset: 17>>
  %c0 = arith.constant 0 : index
  %v = memref.load %c[%c0, %c0] : memref<4x?xf32, strided<[16, ?], offset: ?>>
  memref.store %v, %g[%c0, %c0] : memref<2x2xf32, strided<[32, 2], offset: 17>>
  return
}
