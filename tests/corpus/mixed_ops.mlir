module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%a: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id y
      %d = gpu.block_dim z
      %g = gpu.grid_dim x
      gpu.barrier
      gpu.return
    }
  }
  func.func private @foo(memref<4xf32>) -> ()
  func.func @f(%sz: index, %m: memref<4xf32>, %p: i1) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c0b = arith.constant 0 : index
    %i = arith.constant -1 : i32
    %i2 = arith.constant 7 : i64
    %t = arith.constant true
    %f = arith.constant 1.5 : f32
    %f2 = arith.constant 0.1 : f32
    %s = arith.addi %c0, %c1 : index
    %s2 = arith.addf %f, %f2 : f32
    %cmp = arith.cmpi slt, %c0, %c1 : index
    %cmpf = arith.cmpf olt, %f, %f2 : f32
    %ic = arith.index_cast %i : i32 to index
    %sel = arith.select %p, %c0, %c1 : index
    gpu.launch_func @kernels::@kernel blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz) args(%m : memref<4xf32>)
    gpu.launch_func @kernels::@kernel blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz) dynamic_shared_memory_size %i args(%m : memref<4xf32>)
    %w = gpu.wait async
    %tk = gpu.launch_func async [%w] @kernels::@kernel blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz) args(%m : memref<4xf32>)
    %mm, %tk2 = gpu.alloc async [%tk] (%sz) : memref<?xf32>
    %mh = gpu.alloc host_shared () : memref<4xf32>
    gpu.memcpy %mh, %m : memref<4xf32>, memref<4xf32>
    %tk3 = gpu.memcpy async [%tk2] %mh, %m : memref<4xf32>, memref<4xf32>
    gpu.memset %mh, %f : memref<4xf32>, f32
    gpu.dealloc %mh : memref<4xf32>
    gpu.wait [%tk3, %tk]
    %a = memref.alloc() : memref<4xf32>
    %a2 = memref.alloc(%sz) : memref<?xf32>
    %aa = memref.alloca() : memref<4xf32>
    %l = memref.load %a[%c0] : memref<4xf32>
    memref.store %l, %a[%c1] : memref<4xf32>
    %dim = memref.dim %a2, %c0 : memref<?xf32>
    %cast = memref.cast %a : memref<4xf32> to memref<?xf32>
    %sv = memref.subview %a[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
    memref.copy %a, %aa : memref<4xf32> to memref<4xf32>
    memref.dealloc %a : memref<4xf32>
    call @foo(%m) : (memref<4xf32>) -> ()
    scf.for %iv = %c0 to %sz step %c1 {
      func.call @foo(%m) : (memref<4xf32>) -> ()
    }
    %r = scf.for %iv = %c0 to %sz step %c1 iter_args(%acc = %f) -> (f32) {
      %n = arith.addf %acc, %f : f32
      scf.yield %n : f32
    }
    %r2 = scf.if %p -> (f32) {
      scf.yield %f : f32
    } else {
      scf.yield %f2 : f32
    }
    scf.if %p {
      func.call @foo(%m) : (memref<4xf32>) -> ()
    }
    cf.assert %p, "oops"
    cf.cond_br %p, ^bb1(%c0 : index), ^bb2
  ^bb1(%x: index):
    cf.br ^bb2
  ^bb2:
    return %r : f32
  }
}
