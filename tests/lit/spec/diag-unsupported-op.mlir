// RUN: not %python -m spec print %s --split-input-file 2>&1 | filecheck %s
// RUN: not %python -m refimpl %s --split-input-file 2>&1 | filecheck %s

// An op mlir-opt-19 has but this tool's subset does not read is named and
// called unsupported; one nobody has is unknown, as 19 says.

func.func @shuffle(%v: vector<4xf32>) {
  // CHECK: error: custom op 'vector.shuffle' is unsupported: mlir-opt-19's vector dialect has it, this tool's subset does not (docs/subset.md)
  %0 = vector.shuffle %v, %v [0, 5] : vector<4xf32>, vector<4xf32>
  return
}

// -----

func.func @runtime() {
  // CHECK: error: custom op 'async.runtime.create' is unsupported: mlir-opt-19's async dialect has it
  %0 = async.runtime.create : !async.token
  return
}

// -----

// CHECK: error: custom op 'llvm.func' is unsupported in this form (at '%arg0'): this tool reads it only as a declaration (argument types, no names, no body) (docs/subset.md)
llvm.func @body(%arg0: i32) -> i32 {
  llvm.return %arg0 : i32
}

// -----

func.func @nobody(%v: vector<4xf32>) {
  // CHECK: error: custom op 'vector.frobnicate' is unknown
  %0 = vector.frobnicate %v : vector<4xf32>
  return
}
