// A diamond: cond_br to two blocks with arguments that join in a third.
func.func @diamond(%p: i1, %a: index, %b: index, %m: memref<4xindex>) -> index {
  %c0 = arith.constant 0 : index
  cf.cond_br %p, ^then(%a : index), ^else(%b, %a : index, index)
^then(%x: index):
  memref.store %x, %m[%c0] : memref<4xindex>
  cf.br ^join(%x : index)
^else(%y: index, %z: index):
  %s = arith.addi %y, %z : index
  cf.br ^join(%s : index)
^join(%r: index):
  return %r : index
}
func.func @no_args(%p: i1) {
  cf.cond_br %p, ^bb1, ^bb2
^bb1:
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  return
}
