// The 2020 seed on a loop: a GPU op before an scf.for that launches again.
// The wait lands inside the body only; zero trips leave the first launch unwaited.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<16xf32>) kernel { gpu.return }
  }
  func.func private @use(memref<16xf32>)
  func.func @loop(%m: memref<16xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32>)
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32>)
    }
    call @use(%m) : (memref<16xf32>) -> ()
    return
  }
}
