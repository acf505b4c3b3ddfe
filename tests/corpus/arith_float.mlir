// Float arithmetic and constants in several spellings and widths, fastmath.
func.func @floats(%a: f32, %b: f32, %d: f64, %h: f16) -> f32 {
  %0 = arith.addf %a, %b : f32
  %1 = arith.subf %a, %b : f32
  %2 = arith.mulf %a, %b : f32
  %3 = arith.divf %a, %b : f32
  %4 = arith.remf %a, %b : f32
  %5 = arith.maximumf %a, %b : f32
  %6 = arith.minimumf %a, %b : f32
  %7 = arith.maxnumf %a, %b : f32
  %8 = arith.minnumf %a, %b : f32
  %9 = arith.negf %a : f32
  %10 = arith.addf %a, %b fastmath<fast> : f32
  %11 = arith.mulf %d, %d fastmath<nnan,ninf> : f64
  %12 = arith.negf %h fastmath<contract> : f16
  %13 = arith.addf %a, %b fastmath<none> : f32
  %c0 = arith.constant 0.0 : f32
  %c1 = arith.constant 1.0 : f32
  %cm = arith.constant -2.5 : f32
  %ce = arith.constant 1.0e10 : f64
  %cs = arith.constant 1.5e-7 : f64
  %cp = arith.constant 0.1 : f64
  %cp32 = arith.constant 0.1 : f32
  %third = arith.constant 0.333333343 : f32
  %nz = arith.constant -0.0 : f64
  %inf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %nan = arith.constant 0x7FC00000 : f32
  %half = arith.constant 0.5 : f16
  %hmax = arith.constant 65504.0 : f16
  %pi = arith.constant 3.14159265358979 : f64
  %huge = arith.constant 1.0e300 : f64
  %bf = arith.constant 1.5 : bf16
  %int_like = arith.constant 100.0 : f32
  %s = arith.addf %0, %cm : f32
  return %s : f32
}
