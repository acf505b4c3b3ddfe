// RUN: %python -m spec print %s | filecheck %s
// RUN: %python -m spec print %s | %python -m spec print - | filecheck %s

// CHECK: module attributes {gpu.container_module}
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f() kernel { gpu.return }
  }
  // CHECK-LABEL: func.func @g(%arg0: index)
  func.func @g(%n: index) {
    // CHECK-NEXT: %[[T:.*]] = gpu.wait async
    %t = gpu.wait async
    // CHECK-NEXT: %{{.*}} = gpu.launch_func async [%[[T]]] @k::@f blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0)
    %t2 = gpu.launch_func async [%t] @k::@f blocks in (%n, %n, %n) threads in (%n, %n, %n)
    // CHECK-NEXT: return
    return
  }
}
