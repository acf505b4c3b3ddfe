func.func @f(%a: i32, %b: i32, %m: memref<4xi32>) {
  %c0 = arith.constant 0 : i32
  %nz = arith.cmpi ne, %b, %c0 : i32
  cf.assert %nz, "b is zero"
  %q = arith.divsi %a, %b : i32
  %w = gpu.wait async
  gpu.wait [%w]
  %i = arith.constant 0 : index
  memref.store %q, %m[%i] : memref<4xi32>
  return
}
