// gpu.launch with a body that uses its block and thread ids and sizes.
func.func @inline_kernel(%n: index, %m: memref<?xf32>, %shm: i32) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i = arith.addi %bx, %tx : index
    %v = memref.load %m[%i] : memref<?xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %m[%i] : memref<?xf32>
    gpu.terminator
  }
  %t0 = gpu.wait async
  %t1 = gpu.launch async [%t0] blocks(%a, %b, %c) in (%d = %c1, %e = %c1, %f = %c1) threads(%g, %h, %i) in (%j = %n, %k = %n, %l = %n) {
    %s = arith.muli %g, %j : index
    gpu.barrier
    gpu.terminator
  }
  gpu.launch blocks(%a, %b, %c) in (%d = %c1, %e = %c1, %f = %c1) threads(%g, %h, %i) in (%j = %n, %k = %n, %l = %n) dynamic_shared_memory_size %shm {
    gpu.terminator
  }
  %t2 = gpu.launch async blocks(%a, %b, %c) in (%d = %c1, %e = %c1, %f = %c1) threads(%g, %h, %i) in (%j = %n, %k = %n, %l = %n) {
    gpu.terminator
  }
  gpu.wait [%t1, %t2]
  return
}
