// gpu.alloc (dynamic sizes, symbol operands, host_shared) and gpu.dealloc.
func.func @allocs(%n: index, %m: index) {
  %a = gpu.alloc () : memref<8xf32>
  %b = gpu.alloc (%n) : memref<?xf32>
  %c = gpu.alloc (%n, %m) : memref<?x?xf16>
  %h = gpu.alloc host_shared () : memref<4xi8>
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
  %e, %t2 = gpu.alloc async () : memref<2x2xf64>
  %f, %t3 = gpu.alloc async [%t1, %t2] host_shared (%m) : memref<?xi32>
  %g = gpu.alloc (%n)[%m] : memref<?xf32, strided<[1], offset: ?>>
  gpu.dealloc %a : memref<8xf32>
  %t4 = gpu.dealloc async [%t3] %d : memref<?xf32>
  %t5 = gpu.dealloc async %e : memref<2x2xf64>
  gpu.dealloc [%t4, %t5] %f : memref<?xi32>
  gpu.dealloc %b : memref<?xf32>
  gpu.dealloc %c : memref<?x?xf16>
  gpu.dealloc %h : memref<4xi8>
  gpu.dealloc %g : memref<?xf32, strided<[1], offset: ?>>
  return
}
