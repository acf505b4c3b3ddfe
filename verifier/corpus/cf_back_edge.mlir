// A loop in cf with a back edge: GPU work in the loop body, a host effect
// in the header, and a user token carried around the back edge.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @loop(%a: memref<16xf32>, %n: index, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    cf.br ^header(%c0, %t0 : index, !gpu.async.token)
  ^header(%i: index, %t: !gpu.async.token):
    %x = memref.load %a[%c0] : memref<16xf32>
    %more = arith.cmpi slt, %i, %n : index
    cf.cond_br %more, ^body, ^exit
  ^body:
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    %t1 = gpu.memset async [%t] %a, %v : memref<16xf32>, f32
    %next = arith.addi %i, %c1 : index
    cf.br ^header(%next, %t1 : index, !gpu.async.token)
  ^exit:
    gpu.wait [%t]
    func.call @use(%a) : (memref<16xf32>) -> ()
    return
  }
}
