// memref ops: alloc/alloca (dynamic sizes, symbols, alignment), load/store
// in several ranks, dim, cast, copy, dealloc.
func.func @memrefs(%n: index, %k: index, %v: f32) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4x4xf32>
  %b = memref.alloc(%n) : memref<?x4xf32>
  %c = memref.alloc(%n, %k) : memref<?x?xf32>
  %d = memref.alloca() : memref<2xi32>
  %e = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
  %f = memref.alloca(%n) : memref<?xf16>
  %s = memref.alloc()[%k, %n] : memref<4xf32, strided<[?], offset: ?>>
  %z = memref.alloc() : memref<f32>
  %x = memref.load %a[%c0, %c1] : memref<4x4xf32>
  memref.store %x, %c[%n, %k] : memref<?x?xf32>
  memref.store %v, %z[] : memref<f32>
  %w = memref.load %z[] : memref<f32>
  %dim0 = memref.dim %b, %c0 : memref<?x4xf32>
  %dim1 = memref.dim %c, %c1 : memref<?x?xf32>
  %cast = memref.cast %a : memref<4x4xf32> to memref<?x?xf32>
  %cast2 = memref.cast %b : memref<?x4xf32> to memref<4x4xf32>
  memref.copy %a, %cast2 : memref<4x4xf32> to memref<4x4xf32>
  memref.copy %cast, %c : memref<?x?xf32> to memref<?x?xf32>
  memref.dealloc %a : memref<4x4xf32>
  memref.dealloc %b : memref<?x4xf32>
  memref.dealloc %c : memref<?x?xf32>
  memref.dealloc %e : memref<8xf32>
  memref.dealloc %s : memref<4xf32, strided<[?], offset: ?>>
  %u = memref.alloc() : memref<2x3xf32, 1>
  memref.dealloc %u : memref<2x3xf32, 1>
  return %dim1 : index
}
