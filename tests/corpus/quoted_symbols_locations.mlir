// Symbols that need quoting, and source locations on ops and arguments
// (recorded, not printed by default).
module @"my module" {
  func.func private @"decl with spaces"(i32)
  func.func @"f.dotted"(%a: i32 loc("args.mlir":1:2)) {
    call @"decl with spaces"(%a) : (i32) -> () loc("here.mlir":3:4)
    %c = arith.constant 1 : i32 loc(unknown)
    "test.op"(%c) : (i32) -> () loc(fused["a.mlir":1:1, "b.mlir":2:2])
    return loc(callsite("callee.mlir":1:1 at "caller.mlir":2:2))
  }
  func.func @"$odd_start"() {
    return
  }
}
