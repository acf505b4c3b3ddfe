// Host code of a CUDA-runner style test: buffers registered with the GPU,
// a kernel launch per stage, the result printed. Chunks are independent.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%buf: memref<?xf32>, %f: f32) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %buf[%tid] : memref<?xf32>
      %w = arith.mulf %v, %f : f32
      memref.store %w, %buf[%tid] : memref<?xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %f = arith.constant 2.0 : f32
    %h = memref.alloc() : memref<8xf32>
    %u = memref.cast %h : memref<8xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    %d = memref.cast %h : memref<8xf32> to memref<?xf32>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%d : memref<?xf32>, %f : f32)
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.host_unregister %u : memref<*xf32>
    memref.dealloc %h : memref<8xf32>
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @inc(%buf: memref<16xi32>) kernel {
      %tid = gpu.thread_id x
      %one = arith.constant 1 : i32
      %old = memref.atomic_rmw addi %one, %buf[%tid] : (i32, memref<16xi32>) -> i32
      gpu.return
    }
  }
  func.func @run(%h: memref<16xi32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<16xi32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<16xi32>, memref<16xi32>
    %t3 = gpu.launch_func async [%t2] @kernels::@inc blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%d : memref<16xi32>)
    %t4 = gpu.memcpy async [%t3] %h, %d : memref<16xi32>, memref<16xi32>
    %t5 = gpu.dealloc async [%t4] %d : memref<16xi32>
    gpu.wait [%t5]
    return
  }
}

// -----

func.func @print_vector(%m: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %m[%c0] : memref<4xf32>, vector<4xf32>
  vector.print %v : vector<4xf32>
  %g = gpu.alloc () : memref<4xf32>
  gpu.memcpy %g, %m : memref<4xf32>, memref<4xf32>
  gpu.dealloc %g : memref<4xf32>
  return
}

// -----

func.func @sum_rows(%m: memref<4x8xf32>, %out: memref<4xf32>) {
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 4 {
    %s = affine.for %j = 0 to 8 iter_args(%acc = %z) -> (f32) {
      %x = affine.load %m[%i, %j] : memref<4x8xf32>
      %y = arith.addf %acc, %x : f32
      affine.yield %y : f32
    }
    affine.store %s, %out[%i] : memref<4xf32>
  }
  %g = gpu.alloc () : memref<4xf32>
  gpu.memcpy %g, %out : memref<4xf32>, memref<4xf32>
  return
}

// -----

func.func @sqrt_all(%m: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %m[%i] : memref<?xf32>
    %y = math.sqrt %x : f32
    %z = math.exp %y : f32
    memref.store %z, %m[%i] : memref<?xf32>
  }
  %t = gpu.wait async
  %zf = arith.constant 0.0 : f32
  %t1 = gpu.memset async [%t] %m, %zf : memref<?xf32>, f32
  gpu.wait [%t1]
  return
}
