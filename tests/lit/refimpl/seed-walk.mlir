// The seed's walk: one post-order walk over all ops with one shared token,
// its 2020 effect test (region ops with the recursive-effects trait count as
// effect free whatever they hold) and its four errors.
// RUN: %python -m refimpl --mode seed --split-input-file --verify-diagnostics %s | filecheck %s --check-prefix=SEED

func.func private @host()

// SEED-LABEL: func.func @shared_token
func.func @shared_token(%m: memref<4xf32>, %c: f32, %n: index) {
  %c0 = arith.constant 0 : index
  // SEED: %[[T0:.*]] = gpu.wait async
  // SEED-NEXT: %[[A:.*]] = gpu.memset async [%[[T0]]]
  // The loop is effect free for the seed: no wait before it, and the
  // outer token flows into its body.
  // SEED-NEXT: scf.for
  // SEED-NEXT: %[[B:.*]] = gpu.memset async [%[[A]]]
  // SEED-NEXT: gpu.wait [%[[B]]]
  // SEED-NEXT: }
  gpu.memset %m, %c : memref<4xf32>, f32
  scf.for %i = %c0 to %n step %n {
    gpu.memset %m, %c : memref<4xf32>, f32
  }
  return
}

// -----

func.func @wait(%m: memref<4xf32>) {
  // expected-error@+1 {{'gpu.wait' op unexpected pre-existing gpu.wait}}
  gpu.wait
  return
}

// -----

func.func @already(%m: memref<4xf32>, %c: f32) {
  // expected-error@+1 {{'gpu.memset' op is already async}}
  %t = gpu.memset async %m, %c : memref<4xf32>, f32
  return
}

// -----

func.func @launch(%n: index) {
  // expected-error@+1 {{replace with gpu.launch_func first}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %n, %y = %n, %z = %n) threads(%tx, %ty, %tz) in (%a = %n, %b = %n, %c2 = %n) {
    gpu.terminator
  }
  return
}

// -----

// INVALID-UPSTREAM: today's verifier rejects a gpu.dealloc with a region;
// the 2020 pass had to handle such ops (no differential test here).
func.func @regions(%m: memref<4xf32>) {
  // expected-error@+1 {{'gpu.dealloc' op regions are not supported}}
  "gpu.dealloc"(%m) ({
    "test.inner"() : () -> ()
  }) : (memref<4xf32>) -> ()
  return
}
