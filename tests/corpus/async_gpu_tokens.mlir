// GPU tokens crossing async.execute: as dependencies' payload values, as
// body operands and as results awaited on the host.
func.func @mixed(%m: memref<16xf32>, %h: memref<16xf32>, %v: f32) {
  %t0 = gpu.wait async
  %a, %tv = async.execute -> !async.value<!gpu.async.token> {
    %g = gpu.memset async [%t0] %m, %v : memref<16xf32>, f32
    async.yield %g : !gpu.async.token
  }
  %b = async.execute [%a] (%tv as %g: !async.value<!gpu.async.token>) {
    %g2 = gpu.memcpy async [%g] %h, %m : memref<16xf32>, memref<16xf32>
    gpu.wait [%g2]
    async.yield
  }
  async.await %b : !async.token
  %g3 = async.await %tv : !async.value<!gpu.async.token>
  gpu.wait [%g3]
  return
}
