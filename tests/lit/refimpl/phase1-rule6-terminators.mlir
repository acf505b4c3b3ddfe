// Phase 1, rule 6: a block whose chain is open ends with gpu.wait right
// before its terminator (after trailing pure ops), whatever the terminator.
// RUN: %python -m refimpl %s | filecheck %s
// RUN: %python -m refimpl --mode mlir19 %s | filecheck %s

// CHECK-LABEL: func.func @branches
func.func @branches(%m: memref<4xf32>, %c: f32, %b: i1) {
  // CHECK: %[[A:.*]] = gpu.memset async
  // CHECK-NEXT: arith.addf
  // CHECK-NEXT: gpu.wait [%[[A]]]
  // CHECK-NEXT: cf.cond_br
  gpu.memset %m, %c : memref<4xf32>, f32
  %x = arith.addf %c, %c : f32
  cf.cond_br %b, ^bb1, ^bb2
^bb1:
  // CHECK: ^bb1:
  // CHECK-NEXT: %[[T:.*]] = gpu.wait async
  // CHECK-NEXT: %[[B:.*]] = gpu.memset async [%[[T]]]
  // CHECK-NEXT: gpu.wait [%[[B]]]
  // CHECK-NEXT: cf.br ^bb2
  gpu.memset %m, %x : memref<4xf32>, f32
  cf.br ^bb2
^bb2:
  // CHECK: ^bb2:
  // CHECK-NOT: gpu.wait
  // CHECK: return
  return
}

// CHECK-LABEL: func.func @loop_yield
func.func @loop_yield(%m: memref<4xf32>, %c: f32, %n: index) -> f32 {
  // CHECK: scf.for
  // CHECK-NEXT: %[[T:.*]] = gpu.wait async
  // CHECK-NEXT: %[[A:.*]] = gpu.memset async [%[[T]]]
  // CHECK-NEXT: arith.addf
  // CHECK-NEXT: gpu.wait [%[[A]]]
  // CHECK-NEXT: scf.yield
  %c0 = arith.constant 0 : index
  %r = scf.for %i = %c0 to %n step %n iter_args(%acc = %c) -> (f32) {
    gpu.memset %m, %acc : memref<4xf32>, f32
    %y = arith.addf %acc, %acc : f32
    scf.yield %y : f32
  }
  return %r : f32
}
