// A host program as it looks after gpu-kernel-outlining: two kernels in one
// gpu.module (a block-wide sum with gpu.all_reduce, a scaled copy), a
// constant table in a memref.global, a reshaped staging buffer, an llvm
// printf declaration, and a switch choosing the kernel.

module attributes {gpu.container_module} {
  memref.global "private" constant @scale : memref<4xf32> = dense<[0.5, 1.0, 2.0, 4.0]>
  llvm.mlir.global internal constant @fmt("sum %f\0A\00") {addr_space = 0 : i32}
  llvm.func @printf(!llvm.ptr, ...) -> i32

  gpu.module @kernels {
    gpu.func @block_sum(%in: memref<256xf32>, %out: memref<1xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<256xf32>
      %s = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        memref.store %s, %out[%c0] : memref<1xf32>
      }
      gpu.return
    }
    gpu.func @scaled_copy(%in: memref<256xf32>, %out: memref<256xf32>, %k: f32) kernel {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<256xf32>
      %m = gpu.all_reduce %v {
      ^bb0(%a: f32, %b: f32):
        %mx = arith.maximumf %a, %b : f32
        gpu.yield %mx : f32
      } : (f32) -> (f32)
      %r = arith.divf %v, %m : f32
      %w = arith.mulf %r, %k : f32
      memref.store %w, %out[%t] : memref<256xf32>
      gpu.return
    }
  }

  func.func @run(%host: memref<16x16xf32>, %which: i32) -> f32 {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %flat = memref.collapse_shape %host [[0, 1]] : memref<16x16xf32> into memref<256xf32>
    %in = gpu.alloc () : memref<256xf32>
    %out = gpu.alloc () : memref<256xf32>
    %sum = gpu.alloc () : memref<1xf32>
    gpu.memcpy %in, %flat : memref<256xf32>, memref<256xf32>
    %table = memref.get_global @scale : memref<4xf32>
    %k = memref.load %table[%c1] : memref<4xf32>
    cf.switch %which : i32, [
      default: ^sum,
      1: ^scale(%k : f32)
    ]
  ^sum:
    gpu.launch_func @kernels::@block_sum blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%in : memref<256xf32>, %sum : memref<1xf32>)
    cf.br ^done
  ^scale(%f: f32):
    gpu.launch_func @kernels::@scaled_copy blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%in : memref<256xf32>, %out : memref<256xf32>, %f : f32)
    gpu.memcpy %flat, %out : memref<256xf32>, memref<256xf32>
    cf.br ^done
  ^done:
    %host_sum = memref.alloc() : memref<1xf32>
    gpu.memcpy %host_sum, %sum : memref<1xf32>, memref<1xf32>
    %c0 = arith.constant 0 : index
    %s = memref.load %host_sum[%c0] : memref<1xf32>
    %p = llvm.mlir.addressof @fmt : !llvm.ptr
    %d = arith.extf %s : f32 to f64
    %n = llvm.call @printf(%p, %d) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, f64) -> i32
    gpu.dealloc %in : memref<256xf32>
    gpu.dealloc %out : memref<256xf32>
    gpu.dealloc %sum : memref<1xf32>
    return %s : f32
  }
}

// -----

// Vectors around a launch: a staging buffer viewed from raw bytes, lanes
// extracted and inserted on the host, a reinterpreted 2-D view.

func.func @stage(%raw: memref<1024xi8>, %v: vector<4xf32>, %x: f32) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %buf = memref.view %raw[%c0][] : memref<1024xi8> to memref<256xf32>
  %grid = memref.reinterpret_cast %buf to offset: [0], sizes: [16, 16], strides: [16, 1] : memref<256xf32> to memref<16x16xf32>
  %dev = gpu.alloc () : memref<16x16xf32>
  gpu.memcpy %dev, %grid : memref<16x16xf32>, memref<16x16xf32>
  %e = vector.extract %v[%c2] : f32 from vector<4xf32>
  %y = arith.addf %e, %x : f32
  %w = vector.insert %y, %v [0] : f32 into vector<4xf32>
  %back = memref.expand_shape %buf [[0, 1]] output_shape [16, 16] : memref<256xf32> into memref<16x16xf32>
  gpu.memcpy %back, %dev : memref<16x16xf32>, memref<16x16xf32>
  gpu.dealloc %dev : memref<16x16xf32>
  return %w : vector<4xf32>
}
