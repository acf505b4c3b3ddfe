// A rewrite without the blocking wait before the host call: refuted, with
// both locations, a schedule, and the race replayed in the semantics.
// RUN: not %python -m verifier check %s --after %S/Inputs/deleted-wait-out.mlir | filecheck %s
// RUN: not %python -m verifier check %s --after %S/Inputs/deleted-wait-out.mlir --format json | filecheck %s --check-prefix=JSON
// RUN: %python -m verifier check %s --after %s | filecheck %s --check-prefix=IDENTITY

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func private @consume(memref<4xf32>)
  func.func @f(%m: memref<4xf32>, %h: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.memcpy %h, %m : memref<4xf32>, memref<4xf32>
    call @consume(%h) : (memref<4xf32>) -> ()
    return
  }
}
// CHECK: deleted-wait-out.mlir:13:5: error: 'func.call' op may run before 'gpu.memcpy' ({{.*}}deleted-wait.mlir:17:5) has finished
// CHECK: deleted-wait-out.mlir:12:10: note: 'gpu.memcpy' op is here; a schedule from the Z3 model (time, point):
// CHECK: note: replayed in the executable semantics: the output's outcome differs from the input's
// CHECK: @f: refuted (1 violation of 4 obligations)
// JSON: "verdict": "refuted"
// JSON: "kind": "gpu-before-host"
// JSON: "outcome_differs": true
// IDENTITY: @f: verified (4 obligations proved by Z3, reachability agrees)
