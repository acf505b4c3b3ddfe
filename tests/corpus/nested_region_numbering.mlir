// Value and block numbering across nested regions: a nested region counts on
// from its parent, siblings restart, blocks are numbered per region, and
// arguments of entry blocks are %argN while other block arguments are %N.
func.func @numbering(%p: i1, %n: index) -> index {
  %a = arith.addi %n, %n : index
  %r = scf.if %p -> (index) {
    %b = arith.muli %a, %a : index
    %c = scf.if %p -> (index) {
      %d = arith.subi %b, %a : index
      scf.yield %d : index
    } else {
      %e = arith.addi %b, %b : index
      scf.yield %e : index
    }
    scf.yield %c : index
  } else {
    %f = scf.execute_region -> index {
      cf.br ^bb1(%a : index)
    ^bb1(%x: index):
      %g = arith.addi %x, %x : index
      cf.cond_br %p, ^bb1(%g : index), ^bb2
    ^bb2:
      scf.yield %g : index
    }
    scf.yield %f : index
  }
  %h = arith.addi %r, %a : index
  cf.br ^bb1(%h : index)
^bb1(%y: index):
  %z = "test.region"() ({
  ^bb0(%q: index):
    %w = arith.addi %q, %y : index
    "test.yield"(%w) : (index) -> ()
  }) : () -> index
  return %z : index
}
