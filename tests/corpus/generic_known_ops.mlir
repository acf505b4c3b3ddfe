// Known ops written in the generic form: properties, operand segments,
// regions with block arguments, successors.
"builtin.module"() <{sym_name = "generic"}> ({
  "func.func"() <{function_type = (index, i1, !gpu.async.token) -> index, sym_name = "g"}> ({
  ^bb0(%n: index, %p: i1, %t: !gpu.async.token):
    %c1 = "arith.constant"() <{value = 1 : index}> : () -> index
    %s = "arith.addi"(%n, %c1) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
    %m, %t1 = "gpu.alloc"(%t, %n) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (!gpu.async.token, index) -> (memref<?xf32>, !gpu.async.token)
    %t2 = "gpu.dealloc"(%t1, %m) : (!gpu.async.token, memref<?xf32>) -> !gpu.async.token
    "gpu.wait"(%t2) : (!gpu.async.token) -> ()
    %r = "scf.for"(%c1, %n, %c1, %s) ({
    ^bb0(%i: index, %acc: index):
      %x = "arith.addi"(%acc, %i) <{overflowFlags = #arith.overflow<nsw>}> : (index, index) -> index
      "scf.yield"(%x) : (index) -> ()
    }) : (index, index, index, index) -> index
    "cf.cond_br"(%p, %r, %s) [^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (i1, index, index) -> ()
  ^bb1(%a: index):
    "func.return"(%a) : (index) -> ()
  ^bb2(%b: index):
    "cf.br"(%b) [^bb1] : (index) -> ()
  }) : () -> ()
}) : () -> ()
