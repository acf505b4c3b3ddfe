// Discardable attributes on ops whose custom form has an attr-dict, and a
// property with a default value: `nontemporal = false` is what a load or
// store means without it, so the custom form leaves it out; the generic form
// shows it only where it was written.
func.func @defaults(%m: memref<4xf32>, %i: index) {
  %c1 = arith.constant {tag = 1 : i64} 1 : index
  %v = memref.load %m[%i] {nontemporal = false} : memref<4xf32>
  %w = memref.load %m[%i] {nontemporal = true} : memref<4xf32>
  "memref.store"(%v, %m, %i) <{nontemporal = false}> : (f32, memref<4xf32>, index) -> ()
  memref.store %w, %m[%c1] {nontemporal = true, note = "kept"} : memref<4xf32>
  return
}
