// The 2020 seed leaves the token of a launch before an scf.for to be
// consumed inside the loop only: when the loop runs zero times nothing waits.
// The reference mode is right on every path.
// RUN: not %python -m verifier check %s --mode seed | filecheck %s --check-prefix=SEED
// RUN: %python -m verifier check %s --mode reference | filecheck %s --check-prefix=REF

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func private @consume(memref<4xf32>)
  func.func @loop(%m: memref<4xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
      func.call @consume(%m) : (memref<4xf32>) -> ()
    }
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
}
// SEED: error: 'func.call' op may run before 'gpu.launch_func' ({{.*}}seed-zero-trip-loop.mlir:17:5) has finished
// SEED: note: path: scf.for at {{.*}}seed-zero-trip-loop.mlir:18:5 runs 0 times
// SEED: note: 'gpu.launch_func' op is here; a schedule from the Z3 model (time, point):
// SEED: @loop: refuted (1 violation of 9 obligations)
// SEED-NEXT: verdict: refuted
// REF: @loop: verified (5 obligations proved by Z3, reachability agrees; 1 region proved apart)
// REF-NEXT: verdict: verified
