// A user-written no-op `gpu.wait` (no deps, no async) last in an
// async.execute body, whose token is awaited and used as a dependency:
// upstream (and the refimpl) defer it like one of their own waits, moving
// it out of the body to after the await and into the dependent execute.
// Harmless for ordering (rule 4: such a wait does nothing).
module {
  func.func @noop_wait() {
    %e1 = async.execute {
      gpu.wait
      async.yield
    }
    %e2 = async.execute [%e1] {
      async.yield
    }
    async.await %e1 : !async.token
    return
  }
}
