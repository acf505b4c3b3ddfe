// func.func: visibility, declarations, multiple results, argument and
// result attributes, function attributes, calls of every shape.
func.func private @decl()
func.func private @decl_args(i32, memref<?xf32>) -> i64
func.func private @decl_multi(index) -> (i32, f32)
func.func private @decl_arg_attrs(i32 {test.a}, f32 {test.b = 1 : i32}) -> (i32 {test.r})
func.func nested @nested_vis() {
  return
}
func.func public @public_vis() {
  return
}
func.func @attrs(%a: i32 {test.named}, %b: f32) -> (f32 {test.res = "r"}) attributes {test.fn, test.level = 2 : i32} {
  return %b : f32
}
func.func @multi(%x: index) -> (i32, f32, index) {
  %m = memref.alloc(%x) : memref<?xf32>
  %a, %b = call @decl_multi(%x) : (index) -> (i32, f32)
  %c = call @decl_args(%a, %m) : (i32, memref<?xf32>) -> i64
  call @decl() : () -> ()
  %r:2 = func.call @decl_multi(%x) : (index) -> (i32, f32)
  return %r#0, %r#1, %x : i32, f32, index
}
func.func @calls_in_regions(%p: i1, %x: index) {
  scf.if %p {
    %a, %b = func.call @decl_multi(%x) : (index) -> (i32, f32)
    func.call @decl() : () -> ()
  }
  return
}
func.func @no_results_explicit() -> () {
  return
}
