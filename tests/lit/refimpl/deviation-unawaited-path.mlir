// DEVIATION (reference vs mlir19): phase 2 defers an execute body's wait
// only when a user of the execute's token runs on every path past it (one
// sits in the execute's own block). Here the await is on one successor
// only: upstream hands the launch to that await, so on the other path the
// kernel may outlive the program; the reference keeps the wait in the body.
// The verifier refutes upstream's output and verifies the reference's.
// RUN: %python -m refimpl %s | filecheck %s --check-prefix=REF
// RUN: %python -m refimpl --mode mlir19 %s | filecheck %s --check-prefix=M19
// RUN: %python -m verifier check %s | filecheck %s --check-prefix=OK
// RUN: %python -m refimpl --mode mlir19 %s > %t.mlir
// RUN: not %python -m verifier check %s --after %t.mlir | filecheck %s --check-prefix=BAD

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k1() kernel {
      gpu.return
    }
  }
  func.func @f0(%b0: memref<16xf32>, %cond: i1, %n: index) {
    %c1 = arith.constant 1 : index
    %e = async.execute {
      gpu.launch_func @kernels::@k1 blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
      async.yield
    }
    cf.cond_br %cond, ^bb1, ^bb2
  ^bb1:
    cf.br ^bb3
  ^bb2:
    async.await %e : !async.token
    cf.br ^bb3
  ^bb3:
    return
  }
}

// REF: %token = async.execute {
// REF: gpu.launch_func async
// REF-NEXT: gpu.wait [%{{.*}}]
// REF-NEXT: async.yield
// M19: %token, %bodyResults = async.execute -> !async.value<!gpu.async.token>
// OK: @f0: verified
// BAD: error: the program may end before 'gpu.launch_func'
// BAD: path: cf.cond_br at {{.*}} goes to its true successor
// BAD: @f0: refuted
