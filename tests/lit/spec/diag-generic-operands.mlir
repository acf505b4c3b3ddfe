// RUN: not %python -m spec print %s --split-input-file 2>&1 | filecheck %s

// Known ops written generically are checked against their operand counts;
// the split keeps the original line numbers.

func.func @ok(%a: i32) {
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i32
  return
}

// -----

func.func @bad(%a: i32) {
  // CHECK: diag-generic-operands.mlir:[[# @LINE + 1]]:8: error: 'arith.addi' op expected 2 operands, but found 1
  %0 = "arith.addi"(%a) : (i32) -> i32
  return
}
