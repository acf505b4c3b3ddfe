// scf.execute_region with one and several blocks, with and without results.
func.func @regions(%p: i1, %x: index) -> index {
  %c0 = arith.constant 0 : index
  scf.execute_region {
    "test.effect"() : () -> ()
    scf.yield
  }
  %r = scf.execute_region -> index {
    cf.cond_br %p, ^bb1, ^bb2
  ^bb1:
    scf.yield %c0 : index
  ^bb2:
    scf.yield %x : index
  }
  %a, %b = scf.execute_region -> (index, i1) {
    scf.yield %r, %p : index, i1
  }
  return %a : index
}
