// RUN: %python -m spec print %s --split-input-file | filecheck %s
// RUN: printf '' | %python -m spec print - | filecheck %s --check-prefix=EMPTY

// Each split is its own module, numbered on its own; outputs are joined
// by marker lines. An empty input is an empty module.

// CHECK: module {
// CHECK-NEXT: func.func @first(%arg0: index) -> index {
// CHECK-NEXT: return %arg0 : index
func.func @first(%x: index) -> index {
  return %x : index
}

// -----

// CHECK: {{^// -{5}$}}
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @second(%arg0: f32) {
func.func @second(%y: f32) {
  return
}

// EMPTY: module {
// EMPTY-NEXT: }
