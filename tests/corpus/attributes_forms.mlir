// Attribute forms on unregistered ops: unit, bool, integers of several
// types, floats, strings with escapes, symbol refs (nested), arrays, nested
// dictionaries, types, dense elements and dense arrays, quoted keys.
func.func @attrs() {
  "test.unit"() {flag} : () -> ()
  "test.bools"() {no = false, yes = true} : () -> ()
  "test.ints"() {a = 1, b = -7 : i32, c = 0 : index, d = 255 : ui8, e = -1 : si16, f = 1 : i1} : () -> ()
  "test.floats"() {a = 1.0 : f32, b = -3.25 : f64, c = 1.0e-3 : f16, d = 2.0} : () -> ()
  "test.strings"() {s = "plain", t = "tab\tnewline\nquote\"back\\slash", u = "", v = "caf\C3\A9"} : () -> ()
  "test.symbols"() {f = @func, g = @outer::@inner, h = @a::@b::@c, q = @"quoted sym"} : () -> ()
  "test.arrays"() {a = [], b = [1, 2, 3], c = ["x", @y, unit, [4 : i8]]} : () -> ()
  "test.dicts"() {d = {}, e = {x = 1 : i32, a = "z"}, f = {inner = {deep}}} : () -> ()
  "test.types"() {a = i32, b = memref<4xf32>, c = !gpu.async.token, d = (i32) -> f32, e = index} : () -> ()
  "test.dense"() {a = dense<[1, 2, 3]> : tensor<3xi32>, b = dense<1.5> : tensor<2x2xf32>, c = dense<true> : vector<4xi1>} : () -> ()
  "test.dense_arrays"() {a = array<i32: 1, 2, 3>, b = array<i64>, c = array<i8: -1>, d = array<i1: true, false>, e = array<f32: 1.0, 2.5>} : () -> ()
  "test.keys"() {"quoted key" = 1 : i32, "a.b" = 2 : i32, _under = 3 : i32} : () -> ()
  return
}
