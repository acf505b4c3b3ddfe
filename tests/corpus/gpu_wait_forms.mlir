// gpu.wait in every spelling: no operands, async, deps, async with deps.
func.func @waits(%t0: !gpu.async.token, %t1: !gpu.async.token) {
  gpu.wait
  %u = gpu.wait async
  gpu.wait [%t0]
  gpu.wait [%t0, %t1]
  %a = gpu.wait async [%t0]
  %b = gpu.wait async [%a, %t1]
  %c = gpu.wait async
  gpu.wait [%b, %c, %a]
  return
}
