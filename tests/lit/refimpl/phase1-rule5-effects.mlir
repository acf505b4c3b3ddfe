// Phase 1, rule 5: while a chain is open, an op that is not free of memory
// effects (or may be a terminator) gets a blocking gpu.wait in front; pure
// ops, and region ops whose regions are pure, keep the chain open.
// RUN: %python -m refimpl --allow-unregistered-dialect %s | filecheck %s
// RUN: %python -m refimpl --mode mlir19 %s | filecheck %s

func.func private @host(memref<4xf32>)

// CHECK-LABEL: func.func @pure_keeps_chain
func.func @pure_keeps_chain(%m: memref<4xf32>, %c: f32, %n: index) {
  // CHECK: %[[A:.*]] = gpu.memset async
  gpu.memset %m, %c : memref<4xf32>, f32
  // CHECK-NEXT: arith.constant
  // CHECK-NEXT: memref.dim
  // CHECK-NEXT: scf.for
  // CHECK-NEXT: arith.addi
  // CHECK-NEXT: }
  // CHECK-NEXT: gpu.memset async [%[[A]]]
  %c0 = arith.constant 0 : index
  %d = memref.dim %m, %c0 : memref<4xf32>
  scf.for %i = %c0 to %d step %n {
    %x = arith.addi %i, %i : index
  }
  gpu.memset %m, %c : memref<4xf32>, f32
  return
}

// CHECK-LABEL: func.func @effects_close_chain
func.func @effects_close_chain(%m: memref<4xf32>, %c: f32, %n: index) {
  // CHECK: %[[A:.*]] = gpu.memset async
  // CHECK-NEXT: gpu.wait [%[[A]]]
  // CHECK-NEXT: call @host
  gpu.memset %m, %c : memref<4xf32>, f32
  call @host(%m) : (memref<4xf32>) -> ()
  // CHECK: %[[B:.*]] = gpu.memset async
  // CHECK-NEXT: gpu.wait [%[[B]]]
  // CHECK-NEXT: memref.load
  %c0 = arith.constant 0 : index
  gpu.memset %m, %c : memref<4xf32>, f32
  %v = memref.load %m[%c0] : memref<4xf32>
  // A loop whose body stores is effectful as a whole.
  // CHECK: %[[C:.*]] = gpu.memset async
  // CHECK-NEXT: gpu.wait [%[[C]]]
  // CHECK-NEXT: scf.for
  gpu.memset %m, %c : memref<4xf32>, f32
  scf.for %i = %c0 to %n step %n {
    memref.store %c, %m[%i] : memref<4xf32>
  }
  // Unregistered ops have unknown effects.
  // CHECK: %[[D:.*]] = gpu.memset async
  // CHECK-NEXT: gpu.wait [%[[D]]]
  // CHECK-NEXT: "test.op"
  gpu.memset %m, %c : memref<4xf32>, f32
  "test.op"() : () -> ()
  return
}
