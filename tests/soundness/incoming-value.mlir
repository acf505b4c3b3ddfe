func.func private @consume(memref<4xf32>)
func.func @f(%m: memref<4xf32>, %v: !async.value<!gpu.async.token>) {
  call @consume(%m) : (memref<4xf32>) -> ()
  return
}
