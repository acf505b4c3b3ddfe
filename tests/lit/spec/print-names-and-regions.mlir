// RUN: %python -m spec print %s | filecheck %s
// RUN: %python -m spec print %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// Name hints with their shared counter, block labels with predecessor
// comments, `call` at function level and `func.call` inside a region (a
// bare `call` there is an error: `scf.if` has no default dialect).

// CHECK-LABEL: func.func @names(%arg0: index, %arg1: i1)
func.func private @ext()
func.func @names(%n: index, %p: i1) {
  // CHECK-NEXT: %c0 = arith.constant 0 : index
  // CHECK-NEXT: %c0_0 = arith.constant 0 : index
  // CHECK-NEXT: %memref, %asyncToken = gpu.alloc async (%arg0) : memref<?xf32>
  // CHECK-NEXT: %memref_1, %asyncToken_2 = gpu.alloc async [%asyncToken] (%c0) : memref<?xf32>
  %a = arith.constant 0 : index
  %b = arith.constant 0 : index
  %m, %t = gpu.alloc async (%n) : memref<?xf32>
  %m2, %t2 = gpu.alloc async [%t] (%a) : memref<?xf32>
  // CHECK-NEXT: call @ext() : () -> ()
  call @ext() : () -> ()
  // CHECK-NEXT: scf.if %arg1 {
  // CHECK-NEXT: func.call @ext() : () -> ()
  scf.if %p {
    func.call @ext() : () -> ()
  }
  // CHECK: cf.cond_br %arg1, ^bb1, ^bb2
  cf.cond_br %p, ^x, ^y
  // CHECK-NEXT: ^bb1:  // pred: ^bb0
^x:
  cf.br ^y
  // CHECK: ^bb2:  // 2 preds: ^bb0, ^bb1
^y:
  gpu.wait [%t2]
  return
}
// GENERIC: "func.func"() <{function_type = (index, i1) -> (), sym_name = "names"}> ({
// GENERIC: %{{[0-9]+}}:2 = "gpu.alloc"(%arg0) <{operandSegmentSizes = array<i32: 0, 1, 0>}> : (index) -> (memref<?xf32>, !gpu.async.token)
// GENERIC: "cf.cond_br"(%arg1)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i1) -> ()
