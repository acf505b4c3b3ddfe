// Phase 1, rule 4: a user-written gpu.wait joins the chain: the current
// token is prepended (once); `gpu.wait async` becomes current, a blocking
// wait ends the chain. A wait with no current token is left alone.
// RUN: %python -m refimpl %s | filecheck %s
// RUN: %python -m refimpl --mode mlir19 %s | filecheck %s

// CHECK-LABEL: func.func @waits
func.func @waits(%m: memref<4xf32>, %c: f32) {
  // CHECK-NEXT: %[[U:.*]] = gpu.wait async{{$}}
  %u = gpu.wait async
  // The user's token is current: no fresh chain, no duplicate dependency.
  // CHECK-NEXT: %[[A:.*]] = gpu.memset async [%[[U]]] %arg0
  gpu.memset [%u] %m, %c : memref<4xf32>, f32
  // The async wait continues the chain with the current token in front.
  // CHECK-NEXT: %[[V:.*]] = gpu.wait async [%[[A]], %[[U]]]
  %v = gpu.wait async [%u]
  // CHECK-NEXT: %[[B:.*]] = gpu.memset async [%[[V]]]
  gpu.memset %m, %c : memref<4xf32>, f32
  // A blocking wait ends it: no second wait is inserted before the return.
  // CHECK-NEXT: gpu.wait [%[[B]], %[[V]]]
  // CHECK-NEXT: return
  gpu.wait [%v]
  return
}
