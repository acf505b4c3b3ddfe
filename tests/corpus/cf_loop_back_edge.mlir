// A loop in unstructured control flow: a header with two predecessors (the
// entry and the back edge), a token carried around the back edge.
func.func @loop(%n: index, %m: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  cf.br ^header(%c0, %t0 : index, !gpu.async.token)
^header(%i: index, %t: !gpu.async.token):
  %cond = arith.cmpi slt, %i, %n : index
  cf.cond_br %cond, ^body, ^exit
^body:
  %t1 = gpu.memset async [%t] %m, %v : memref<?xf32>, f32
  %next = arith.addi %i, %c1 : index
  cf.br ^header(%next, %t1 : index, !gpu.async.token)
^exit:
  gpu.wait [%t]
  return
}
func.func @self_loop(%p: i1) {
  cf.br ^bb1
^bb1:
  cf.cond_br %p, ^bb1, ^bb2
^bb2:
  return
}
func.func @three_preds(%p: i1, %q: i1) {
  cf.cond_br %p, ^bb1, ^bb2
^bb1:
  cf.cond_br %q, ^bb3, ^bb2
^bb2:
  cf.br ^bb3
^bb3:
  return
}
func.func @unreachable_block() {
  return
^bb1:
  return
}
