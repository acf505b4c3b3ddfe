// Unregistered ops: results, attributes, regions (several, with blocks and
// arguments), successors, and as block terminators.
func.func @unknown(%x: i32, %p: i1) -> i32 {
  "foo.effect"() : () -> ()
  %a = "foo.make"() {value = 42 : i32} : () -> i32
  %b:3 = "foo.split"(%a) : (i32) -> (i32, i32, f32)
  %c = "foo.combine"(%b#0, %b#1, %x) : (i32, i32, i32) -> i32
  "foo.two_regions"(%c) ({
    "foo.inner"() : () -> ()
  }, {
  ^bb0(%arg: i32):
    "foo.inner_yield"(%arg) : (i32) -> ()
  }) : (i32) -> ()
  %d = "foo.multi_block"() ({
    "foo.branch"()[^bb1] : () -> ()
  ^bb1:
    %e = "foo.val"() : () -> i32
    "foo.ret"(%e) : (i32) -> ()
  }) : () -> i32
  "foo.empty_region"() ({
  }) : () -> ()
  cf.br ^bb1
^bb1:
  "foo.terminator"(%d)[^bb2, ^bb3] : (i32) -> ()
^bb2:
  return %d : i32
^bb3:
  return %x : i32
}
"top.level"() : () -> ()
%g = "top.value"() : () -> index
