// gpu.module with kernels and device functions: attributions, results,
// the id ops (with upper bounds), barriers.
module attributes {gpu.container_module} {
  gpu.module @device {
    gpu.func @helper(%x: f32) -> f32 {
      %y = arith.mulf %x, %x : f32
      gpu.return %y : f32
    }
    gpu.func @shared(%out: memref<32xf32>) workgroup(%tile: memref<32xf32, 3>) private(%tmp: memref<1xf32, 5>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y upper_bound 64
      %bx = gpu.block_id x
      %bz = gpu.block_id z
      %dx = gpu.block_dim x
      %gy = gpu.grid_dim y
      %v = memref.load %tile[%tx] : memref<32xf32, 3>
      gpu.barrier
      memref.store %v, %out[%tx] : memref<32xf32>
      gpu.return
    }
    gpu.func @empty() kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
  gpu.module @second attributes {tag = "two"} {
    gpu.func @k2(%a: i32, %b: index) kernel {
      gpu.return
    }
  }
}
