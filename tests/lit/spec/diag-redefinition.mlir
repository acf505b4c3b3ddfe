// RUN: not %python -m spec print %s 2>&1 | filecheck %s

func.func @f(%a: i32) {
  %x = arith.addi %a, %a : i32
  // CHECK: diag-redefinition.mlir:[[# @LINE + 2]]:3: error: redefinition of SSA value '%x'
  // CHECK: diag-redefinition.mlir:[[# @LINE - 2]]:3: note: previously defined here
  %x = arith.muli %a, %a : i32
  return
}
