// scf.while with GPU work in both regions, scf.parallel with GPU work
// and an effect in its body.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @loops(%a: memref<16xf32>, %n: index, %p: i1, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.while : () -> () {
      gpu.memset %a, %v : memref<16xf32>, f32
      scf.condition(%p)
    } do {
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
      scf.yield
    }
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      gpu.memset %a, %v : memref<16xf32>, f32
      %x = memref.load %a[%i] : memref<16xf32>
      scf.reduce
    }
    gpu.memcpy %a, %a : memref<16xf32>, memref<16xf32>
    return
  }
}
