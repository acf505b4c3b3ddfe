// The seed's own test (2020), restated: two launches in a row share one
// chain started by `gpu.wait async`, and the host call after them waits for
// the last one. The token is the first result of each async clone.
// RUN: %python -m refimpl --mode seed %s | filecheck %s
// RUN: %python -m refimpl --mode seed --mlir-print-op-generic %s | filecheck %s --check-prefix=GENERIC

// CHECK: module attributes {gpu.container_module}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel() kernel { gpu.return }
  }

  func.func private @foo()

  // CHECK-LABEL: func.func @async(%arg0: index)
  func.func @async(%sz: index) {
    // CHECK: %[[T0:.*]] = gpu.wait async
    // CHECK-NEXT: %[[T1:.*]] = gpu.launch_func async [%[[T0]]] @kernels::@kernel
    gpu.launch_func @kernels::@kernel blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz)
    // CHECK-NEXT: %[[T2:.*]] = gpu.launch_func async [%[[T1]]] @kernels::@kernel
    gpu.launch_func @kernels::@kernel blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz)
    // CHECK-NEXT: gpu.wait [%[[T2]]]
    // CHECK-NEXT: call @foo
    call @foo() : () -> ()
    return
  }
}

// GENERIC-LABEL: sym_name = "async"
// GENERIC: = "gpu.launch_func"({{.*}} : (!gpu.async.token, index, index, index, index, index, index) -> !gpu.async.token
