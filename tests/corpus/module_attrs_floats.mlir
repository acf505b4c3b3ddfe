module @outer attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @kk() kernel { gpu.return }
  }
  func.func private @ext(i32, f32) -> (i32, f32)
  func.func @h(%n: index, %m: memref<4xf32>, %t0: !gpu.async.token) -> (i32, f32) attributes {llvm.emit_c_interface} {
    gpu.wait
    gpu.wait [%t0]
    %a = gpu.alloc () : memref<4xf32>
    %b = gpu.alloc [%t0] () : memref<4xf32>
    %t1 = gpu.memcpy async %a, %m : memref<4xf32>, memref<4xf32>
    gpu.memcpy [%t1] %a, %m : memref<4xf32>, memref<4xf32>
    %t2 = gpu.dealloc async [%t1] %a : memref<4xf32>
    gpu.launch_func [%t2] @k::@kk blocks in (%n, %n, %n) threads in (%n, %n, %n)
    %t3 = gpu.launch_func async @k::@kk blocks in (%n, %n, %n) threads in (%n, %n, %n) {foo}
    %c = arith.constant 3 : i32
    %f = arith.constant 2.0 : f32
    %r:2 = call @ext(%c, %f) : (i32, f32) -> (i32, f32)
    %c0 = arith.constant 0 : i32
    %lp = scf.for %i = %c0 to %c step %c iter_args(%x = %c) -> (i32) : i32 {
      scf.yield %x : i32
    }
    builtin.module {
      func.func @inner() { return }
    }
    %al = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
    %e1 = arith.constant 1.0e10 : f64
    %e2 = arith.constant 0.3333 : f64
    %e3 = arith.constant 1.25e-3 : f16
    %e4 = arith.constant -0.0 : f32
    %e5 = arith.constant 0x7FC00000 : f32
    %e6 = arith.constant 123456789.0 : f32
    return %r#0, %r#1 : i32, f32
  }
}
