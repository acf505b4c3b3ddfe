// async groups: create, add tokens, await all.
func.func @groups(%n: index) {
  %c2 = arith.constant 2 : index
  %g = async.create_group %c2 : !async.group
  %t0 = async.execute {
    async.yield
  }
  %t1 = async.execute {
    async.yield
  }
  %i0 = async.add_to_group %t0, %g : !async.token
  %i1 = async.add_to_group %t1, %g : !async.token
  async.await_all %g
  %g2 = async.create_group %n : !async.group
  async.await_all %g2
  return
}
