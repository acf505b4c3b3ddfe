// Code after gpu-kernel-outlining: the kernels use ids, barriers, shuffles
// and reductions; the host launches them. Chunks are independent.

module attributes {gpu.container_module} {
  gpu.module @main_kernel {
    gpu.func @main_kernel(%arg0: memref<64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %0 = gpu.block_id x
      %1 = gpu.thread_id x
      %2 = gpu.block_dim x
      %3 = memref.load %arg0[%1] : memref<64xf32>
      gpu.barrier
      %4 = gpu.all_reduce add %3 uniform {
      } : (f32) -> f32
      memref.store %4, %arg0[%1] : memref<64xf32>
      gpu.return
    }
  }
  func.func @host(%m: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @main_kernel::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%m : memref<64xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @shfl(%arg0: memref<32xf32>) kernel {
      %tid = gpu.thread_id x
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %v = memref.load %arg0[%tid] : memref<32xf32>
      %s, %ok = gpu.shuffle xor %v, %c1, %c32 : f32
      %r = gpu.subgroup_reduce add %s : (f32) -> f32
      memref.store %r, %arg0[%tid] : memref<32xf32>
      gpu.return
    }
  }
  func.func @host(%m: memref<32xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %t = gpu.wait async
    %t1 = gpu.launch_func async [%t] @k::@shfl blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%m : memref<32xf32>)
    gpu.wait [%t1]
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @ids(%out: memref<?xindex>) kernel {
      %g = gpu.global_id x
      %l = gpu.lane_id
      %sg = gpu.subgroup_id : index
      %n = gpu.num_subgroups : index
      %sz = gpu.subgroup_size : index
      %a = arith.addi %l, %sg : index
      %b = arith.addi %n, %sz : index
      %c = arith.addi %a, %b : index
      memref.store %c, %out[%g] : memref<?xindex>
      gpu.return
    }
  }
  func.func @host(%m: memref<?xindex>, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@ids blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xindex>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @dbg(%x: i32) kernel {
      gpu.printf "value %d\n" %x : i32
      gpu.return
    }
  }
  func.func @host(%x: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@dbg blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : i32)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @shared(%m: memref<128xf32>) workgroup(%buf: memref<128xf32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %m[%tid] : memref<128xf32>
      memref.store %v, %buf[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %buf[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
      memref.store %w, %m[%tid] : memref<128xf32>
      gpu.return
    }
  }
  func.func @host(%m: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : i32
    gpu.launch_func @k::@shared blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %c512 args(%m : memref<128xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @cl(%m: memref<8xf32>) kernel {
      gpu.return
    }
  }
  func.func @host(%m: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch_func @k::@cl clusters in (%c2, %c1, %c1) blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<8xf32>)
    return
  }
}
