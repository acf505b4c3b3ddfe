// gpu.launch_func: sync/async, deps, dynamic shared memory, args, no args.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @noargs() kernel {
      gpu.return
    }
    gpu.func @two(%a: memref<?xf32>, %s: f32) kernel {
      gpu.return
    }
  }
  gpu.module @other {
    gpu.func @k(%x: i32) kernel {
      gpu.return
    }
  }
  func.func @launches(%n: index, %m: memref<?xf32>, %s: f32, %shm: i32, %x: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@noargs blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
    gpu.launch_func @kernels::@two blocks in (%n, %n, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>, %s : f32)
    gpu.launch_func @kernels::@two blocks in (%n, %n, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %shm args(%m : memref<?xf32>, %s : f32)
    gpu.launch_func @kernels::@noargs blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1) dynamic_shared_memory_size %shm
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @other::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : i32)
    %t2 = gpu.launch_func async @kernels::@noargs blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    %t3 = gpu.launch_func async [%t1, %t2] @kernels::@two blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %shm args(%m : memref<?xf32>, %s : f32)
    gpu.launch_func [%t3] @other::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : i32)
    gpu.launch_func @other::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : i32) {extra.tag = 3 : i32}
    return
  }
}
