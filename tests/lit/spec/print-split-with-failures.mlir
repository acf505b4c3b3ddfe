// RUN: not %python -m spec print %s --split-input-file 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=ERR < %t.err
// RUN: not %python -m refimpl %s --split-input-file 2>%t.pass.err | filecheck %s --check-prefix=PASS
// RUN: filecheck %s --check-prefix=ERR < %t.pass.err

// As mlir-opt-19: a chunk that fails does not stop the others. Every chunk
// that parsed is printed, the failed one leaves only its separator, the
// exit code is 1, and the diagnostic names the chunk's first line and the
// line and column within it.

// CHECK: func.func @first()
// CHECK-NEXT: return
// CHECK: {{^// -{5}$}}
// CHECK-NEXT: {{^// -{5}$}}
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @third(%arg0: index)
// PASS: func.func @first()
// PASS: {{^// -{5}$}}
// PASS-NEXT: {{^// -{5}$}}
// PASS-NEXT: module {
// PASS-NEXT: func.func @third(%arg0: index)
// PASS: gpu.alloc async [%{{.*}}] (%arg0) : memref<?xf32>
func.func @first() {
  return
}

// -----

// ERR: within split at {{.*}}print-split-with-failures.mlir:[[# @LINE - 2]] offset :6:10: error: use of undeclared SSA value name
// ERR-NEXT: {{^}}  return %x : i32
func.func @second() {
  return %x : i32
}

// -----

func.func @third(%n: index) {
  %m = gpu.alloc (%n) : memref<?xf32>
  return
}
