// scf.for: GPU work in a loop body followed by host effects, a pure loop
// that keeps the chain, and a token carried in iter_args.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @fors(%a: memref<16xf32>, %n: index, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.memset %a, %v : memref<16xf32>, f32
    scf.for %i = %c0 to %n step %c1 {
      %j = arith.addi %i, %c1 : index
    }
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
      memref.store %v, %a[%i] : memref<16xf32>
    }
    %t0 = gpu.wait async
    %t = scf.for %i = %c0 to %n step %c1 iter_args(%ti = %t0) -> (!gpu.async.token) {
      %t1 = gpu.memset async [%ti] %a, %v : memref<16xf32>, f32
      scf.yield %t1 : !gpu.async.token
    }
    gpu.wait [%t]
    func.call @use(%a) : (memref<16xf32>) -> ()
    return
  }
}
