// An execute with GPU work whose token is awaited twice: one deferred
// token result per await (upstream phase 3), each await paired with its own.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k1() kernel {
      gpu.return
    }
  }
  func.func @f0(%n: index) {
    %c1 = arith.constant 1 : index
    %e1 = async.execute {
      gpu.launch_func @kernels::@k1 blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
      async.yield
    }
    async.await %e1 : !async.token
    async.await %e1 : !async.token
    return
  }
}
