// RUN: not %python -m spec print %s 2>&1 | filecheck %s

func.func @f() {
  // CHECK: diag-undefined-value.mlir:[[# @LINE + 3]]:19: error: use of undeclared SSA value name
  // CHECK-NEXT: {{^}}  %0 = arith.addi %x, %x : i32
  // CHECK-NEXT: {{^}}                  ^
  %0 = arith.addi %x, %x : i32
  return
}
