// RUN: not %python -m spec print %s --split-input-file 2>&1 | filecheck %s
// RUN: not %python -m refimpl %s --split-input-file 2>&1 | filecheck %s

// mlir-opt-19's host-side op verifiers: each chunk is refused with its
// message (and the `see current operation` note), never rewritten.

// CHECK: error: 'gpu.launch_func' op expected the closest surrounding module to have the 'gpu.container_module' attribute
func.func @no_container() {
  %c1 = arith.constant 1 : index
  gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
  return
}

// -----

// CHECK: error: 'gpu.launch_func' op kernel function '@m::@missing' is undefined
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @f() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@missing blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// CHECK: error: 'gpu.launch_func' op kernel function is missing the 'gpu.kernel' attribute
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @helper() {
      gpu.return
    }
  }
  func.func @f() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@helper blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// CHECK: error: 'gpu.alloc' op dimension operand count does not equal memref dynamic dimension count
// CHECK-NEXT: gpu.alloc
// CHECK-NEXT: ^
// CHECK-NEXT: note: see current operation: %0 = "gpu.alloc"(%arg0) <{operandSegmentSizes = array<i32: 0, 1, 0>}> : (index) -> memref<8xf32>
func.func @sizes(%n: index) {
  %m = gpu.alloc (%n) : memref<8xf32>
  return
}

// -----

// CHECK: error: custom op 'gpu.host_register' invalid kind of type specified
func.func @ranked(%m: memref<8xf32>) {
  gpu.host_register %m : memref<8xf32>
  return
}

// -----

// CHECK: error: expected integer value
func.func @typed_pointer(%p: !llvm.ptr<f32>) {
  return
}
