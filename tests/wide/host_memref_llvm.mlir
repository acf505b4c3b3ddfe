// Host code with globals, reshapes and LLVM declarations around GPU copies.

memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>

func.func @use_global() {
  %g = memref.get_global @table : memref<4xf32>
  %d = gpu.alloc () : memref<4xf32>
  gpu.memcpy %d, %g : memref<4xf32>, memref<4xf32>
  gpu.dealloc %d : memref<4xf32>
  return
}

// -----

func.func @reshape(%m: memref<2x3xf32>) {
  %flat = memref.collapse_shape %m [[0, 1]] : memref<2x3xf32> into memref<6xf32>
  %back = memref.expand_shape %flat [[0, 1]] output_shape [3, 2] : memref<6xf32> into memref<3x2xf32>
  %d = gpu.alloc () : memref<6xf32>
  gpu.memcpy %d, %flat : memref<6xf32>, memref<6xf32>
  gpu.dealloc %d : memref<6xf32>
  return
}

// -----

func.func @reinterpret(%m: memref<?xf32>) {
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<?xf32> to memref<4x4xf32>
  %d = gpu.alloc () : memref<4x4xf32>
  gpu.memcpy %d, %r : memref<4x4xf32>, memref<4x4xf32>
  gpu.dealloc %d : memref<4x4xf32>
  return
}

// -----

llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @report(%m: memref<4xf32>) {
  %d = gpu.alloc () : memref<4xf32>
  gpu.memcpy %m, %d : memref<4xf32>, memref<4xf32>
  gpu.dealloc %d : memref<4xf32>
  return
}

// -----

llvm.mlir.global internal constant @msg("done\0A\00") {addr_space = 0 : i32}
llvm.func @puts(!llvm.ptr) -> i32

func.func @announce() {
  %p = llvm.mlir.addressof @msg : !llvm.ptr
  %r = llvm.call @puts(%p) : (!llvm.ptr) -> i32
  %t = gpu.wait async
  gpu.wait [%t]
  return
}

// -----

func.func @select_copy(%m: memref<8xf32>, %k: i32) {
  %d = gpu.alloc () : memref<8xf32>
  cf.switch %k : i32, [
    default: ^bb1,
    0: ^bb2
  ]
^bb1:
  gpu.memcpy %d, %m : memref<8xf32>, memref<8xf32>
  cf.br ^bb3
^bb2:
  gpu.memcpy %m, %d : memref<8xf32>, memref<8xf32>
  cf.br ^bb3
^bb3:
  gpu.dealloc %d : memref<8xf32>
  return
}

// -----

func.func @view(%n: index) {
  %c0 = arith.constant 0 : index
  %raw = memref.alloc() : memref<64xi8>
  %v = memref.view %raw[%c0][] : memref<64xi8> to memref<16xf32>
  %d = gpu.alloc () : memref<16xf32>
  gpu.memcpy %d, %v : memref<16xf32>, memref<16xf32>
  return
}
