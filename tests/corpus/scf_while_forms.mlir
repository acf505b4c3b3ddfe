// scf.while: one and several carried values, different before/after types.
func.func @whiles(%n: index, %f: f32) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.while (%i = %c0) : (index) -> index {
    %cond = arith.cmpi slt, %i, %n : index
    scf.condition(%cond) %i : index
  } do {
  ^bb0(%i2: index):
    %next = arith.addi %i2, %c1 : index
    scf.yield %next : index
  }
  %a, %b = scf.while (%i = %c0, %acc = %f) : (index, f32) -> (index, f32) {
    %cond = arith.cmpi ult, %i, %n : index
    scf.condition(%cond) %i, %acc : index, f32
  } do {
  ^bb0(%j: index, %s: f32):
    %j1 = arith.addi %j, %c1 : index
    %s1 = arith.addf %s, %s : f32
    scf.yield %j1, %s1 : index, f32
  }
  %z = scf.while (%x = %f) : (f32) -> i1 {
    %p = arith.cmpf ogt, %x, %x : f32
    scf.condition(%p) %p : i1
  } do {
  ^bb0(%p2: i1):
    scf.yield %f : f32
  }
  scf.while : () -> () {
    %false = arith.constant false
    scf.condition(%false)
  } do {
    scf.yield
  }
  return %r : index
}
