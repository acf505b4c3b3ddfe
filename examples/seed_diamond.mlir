// The 2020 seed on a diamond: a GPU op, then an scf.if holding a host effect.
// Its single shared token puts the wait inside the branch only.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<16xf32>) kernel { gpu.return }
  }
  func.func private @use(memref<16xf32>)
  func.func @diamond(%m: memref<16xf32>, %p: i1) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32>)
    scf.if %p {
      func.call @use(%m) : (memref<16xf32>) -> ()
    }
    call @use(%m) : (memref<16xf32>) -> ()
    return
  }
}
