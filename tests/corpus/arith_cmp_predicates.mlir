// Every arith.cmpi and arith.cmpf predicate.
func.func @cmps(%a: i64, %b: i64, %x: f32, %y: f32, %i: index) {
  %0 = arith.cmpi eq, %a, %b : i64
  %1 = arith.cmpi ne, %a, %b : i64
  %2 = arith.cmpi slt, %a, %b : i64
  %3 = arith.cmpi sle, %a, %b : i64
  %4 = arith.cmpi sgt, %a, %b : i64
  %5 = arith.cmpi sge, %a, %b : i64
  %6 = arith.cmpi ult, %a, %b : i64
  %7 = arith.cmpi ule, %a, %b : i64
  %8 = arith.cmpi ugt, %a, %b : i64
  %9 = arith.cmpi uge, %a, %b : i64
  %10 = arith.cmpi eq, %i, %i : index
  %11 = arith.cmpf false, %x, %y : f32
  %12 = arith.cmpf oeq, %x, %y : f32
  %13 = arith.cmpf ogt, %x, %y : f32
  %14 = arith.cmpf oge, %x, %y : f32
  %15 = arith.cmpf olt, %x, %y : f32
  %16 = arith.cmpf ole, %x, %y : f32
  %17 = arith.cmpf one, %x, %y : f32
  %18 = arith.cmpf ord, %x, %y : f32
  %19 = arith.cmpf ueq, %x, %y : f32
  %20 = arith.cmpf ugt, %x, %y : f32
  %21 = arith.cmpf uge, %x, %y : f32
  %22 = arith.cmpf ult, %x, %y : f32
  %23 = arith.cmpf ule, %x, %y : f32
  %24 = arith.cmpf une, %x, %y : f32
  %25 = arith.cmpf uno, %x, %y : f32
  %26 = arith.cmpf true, %x, %y : f32
  %27 = arith.cmpf olt, %x, %y fastmath<fast> : f32
  return
}
