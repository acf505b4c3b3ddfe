// RUN: not %python -m spec print %s 2>&1 | filecheck %s
// RUN: not %python -m spec print %s 2>&1 | filecheck %s --check-prefix=NOSTDOUT --allow-empty

// A custom op nobody knows is an error; the generic form is accepted, in a
// dialect not known in full (`gpu` is: there mlir-opt-19 rejects the generic
// form too, see tests/syntax/test_syntax_placement.py).
func.func @f() {
  "test.frobnicate"() : () -> ()
  // CHECK: diag-unknown-op.mlir:[[# @LINE + 1]]:3: error: custom op 'gpu.frobnicate' is unknown
  gpu.frobnicate
  return
}
// NOSTDOUT-NOT: module
