// RUN: not %python -m spec print %s --split-input-file --allow-unregistered-dialect 2>&1 | filecheck %s

// mlir-opt-19's lexer takes \n \t \" \\ and \XX in a string literal and
// no other escape, inside a dialect attribute's <...> too.

func.func @f() attributes {a = "ab\rc"} {
  // CHECK: {{.*}}:35: error: unknown escape in string literal
  // CHECK-NEXT: {{^}}func.func @f() attributes {a = "ab\rc"} {
  // CHECK-NEXT: {{^}}                                  ^
  return
}

// -----

func.func @g() attributes {a = #foo<"x\1">} {
  // CHECK: {{.*}}:39: error: unknown escape in string literal
  return
}

// -----

func.func @h() {
  // CHECK: {{.*}}:10: error: unexpected character{{$}}
  return ~
}
