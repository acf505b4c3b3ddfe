// Phase 1, rule 7 and diagnostics: gpu.launch is an error. mlir19 reports
// only the first failing function; the reference (like mlir-opt-22) reports
// every one. Nothing is printed on stdout.
// RUN: not %python -m refimpl %s 2>&1 | filecheck %s --check-prefixes=CHECK,REF
// RUN: not %python -m refimpl --mode mlir19 %s 2>&1 | filecheck %s --check-prefixes=CHECK,M19
// RUN: not %python -m refimpl %s 2>/dev/null | filecheck %s --check-prefix=EMPTY --allow-empty
// EMPTY-NOT: {{.}}
// RUN: %python -m refimpl --verify-diagnostics %s

func.func @first(%n: index, %m: memref<4xf32>, %c: f32) {
  gpu.memset %m, %c : memref<4xf32>, f32
  // CHECK: phase1-rule7-launch.mlir:{{[0-9]+}}:3: error: 'gpu.launch' op replace with gpu.launch_func first
  // CHECK: phase1-rule7-launch.mlir:{{[0-9]+}}:3: note: see current operation: {{$}}
  // CHECK-NEXT: "gpu.launch"(%arg0, %arg0, %arg0, %arg0, %arg0, %arg0)
  // expected-error@+1 {{replace with gpu.launch_func first}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %n, %y = %n, %z = %n) threads(%tx, %ty, %tz) in (%a = %n, %b = %n, %c2 = %n) {
    gpu.terminator
  }
  return
}

func.func @second(%n: index) {
  // REF: phase1-rule7-launch.mlir:{{[0-9]+}}:3: error: 'gpu.launch' op
  // M19-NOT: error
  // expected-error@+1 {{replace with gpu.launch_func first}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %n, %y = %n, %z = %n) threads(%tx, %ty, %tz) in (%a = %n, %b = %n, %c2 = %n) {
    gpu.terminator
  }
  return
}
