// Casts between integers, indices and floats; arith.select.
func.func @casts(%i: i32, %x: index, %f: f32, %d: f64, %p: i1, %h: f16) -> i64 {
  %0 = arith.index_cast %i : i32 to index
  %1 = arith.index_cast %x : index to i64
  %2 = arith.index_castui %x : index to i32
  %3 = arith.sitofp %i : i32 to f32
  %4 = arith.uitofp %i : i32 to f64
  %5 = arith.fptosi %f : f32 to i32
  %6 = arith.fptoui %d : f64 to i64
  %7 = arith.extsi %i : i32 to i64
  %8 = arith.extui %p : i1 to i32
  %9 = arith.trunci %i : i32 to i8
  %10 = arith.extf %f : f32 to f64
  %11 = arith.truncf %d : f64 to f32
  %12 = arith.bitcast %f : f32 to i32
  %13 = arith.bitcast %h : f16 to i16
  %14 = arith.select %p, %i, %5 : i32
  %15 = arith.select %p, %f, %3 : f32
  %16 = arith.select %p, %x, %0 : index
  return %7 : i64
}
