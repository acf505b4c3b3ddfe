func.func private @consume(memref<4xf32>)
func.func @f(%m: memref<4xf32>, %v: !async.value<!gpu.async.token>) {
  %t = async.await %v : !async.value<!gpu.async.token>
  gpu.wait [%t]
  call @consume(%m) : (memref<4xf32>) -> ()
  return
}
