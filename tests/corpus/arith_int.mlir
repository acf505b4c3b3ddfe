// Integer arithmetic: every binary op, overflow flags, negative and hex
// constants, i1, widths from i1 to i64, index.
func.func @ints(%a: i32, %b: i32, %x: index, %y: index, %p: i1, %q: i1) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.subi %a, %b : i32
  %2 = arith.muli %a, %b : i32
  %3 = arith.shli %a, %b : i32
  %4 = arith.divsi %a, %b : i32
  %5 = arith.divui %a, %b : i32
  %6 = arith.remsi %a, %b : i32
  %7 = arith.remui %a, %b : i32
  %8 = arith.andi %a, %b : i32
  %9 = arith.ori %a, %b : i32
  %10 = arith.xori %a, %b : i32
  %11 = arith.maxsi %a, %b : i32
  %12 = arith.minsi %a, %b : i32
  %13 = arith.maxui %a, %b : i32
  %14 = arith.minui %a, %b : i32
  %15 = arith.shrsi %a, %b : i32
  %16 = arith.shrui %a, %b : i32
  %17 = arith.ceildivsi %a, %b : i32
  %18 = arith.floordivsi %a, %b : i32
  %19 = arith.addi %x, %y overflow<nsw> : index
  %20 = arith.subi %x, %y overflow<nuw> : index
  %21 = arith.muli %x, %y overflow<nsw, nuw> : index
  %22 = arith.shli %a, %b overflow<nuw, nsw> : i32
  %23 = arith.andi %p, %q : i1
  %24 = arith.xori %p, %q : i1
  %m1 = arith.constant -1 : i32
  %m2 = arith.constant -2147483648 : i32
  %big = arith.constant 9223372036854775807 : i64
  %neg = arith.constant -42 : i64
  %h = arith.constant 0xFF : i16
  %b8 = arith.constant 255 : i8
  %t = arith.constant true
  %f = arith.constant false
  %c5 = arith.constant 5 : index
  %cm5 = arith.constant -5 : index
  %i1c = arith.constant 1 : i1
  %small = arith.constant 3 : i2
  return
}
