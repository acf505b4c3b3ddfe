// RUN: not %python -m spec print %s --split-input-file 2>&1 | filecheck %s

// Known ops written generically are checked against their operand counts;
// in a split run the location is mlir-opt-19's: the line the chunk starts
// on (that of the marker before it), then the line and column within it.

func.func @ok(%a: i32) {
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i32
  return
}

// -----

func.func @bad(%a: i32) {
  // CHECK: within split at {{.*}}diag-generic-operands.mlir:[[# @LINE - 3]] offset :5:8: error: 'arith.addi' op expected 2 operands, but found 1
  %0 = "arith.addi"(%a) : (i32) -> i32
  return
}
