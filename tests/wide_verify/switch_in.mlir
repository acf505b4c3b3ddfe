func.func @f(%m: memref<8xf32>, %h: memref<8xf32>, %k: i32) {
  gpu.memcpy %m, %h : memref<8xf32>, memref<8xf32>
  cf.switch %k : i32, [
    default: ^a,
    1: ^b
  ]
^a:
  %c0 = arith.constant 0 : index
  %x = memref.load %m[%c0] : memref<8xf32>
  return
^b:
  return
}
