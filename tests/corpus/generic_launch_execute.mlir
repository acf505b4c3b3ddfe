// gpu.launch_func, gpu.launch and async.execute in the generic form.
"builtin.module"() ({
  gpu.module @k {
    gpu.func @f(%x: f32) kernel {
      gpu.return
    }
  }
  "func.func"() <{function_type = (index, f32, i32) -> (), sym_name = "host"}> ({
  ^bb0(%n: index, %v: f32, %shm: i32):
    %t0 = "gpu.wait"() : () -> !gpu.async.token
    %t1 = "gpu.launch_func"(%t0, %n, %n, %n, %n, %n, %n, %shm, %v) <{kernel = @k::@f, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0>}> : (!gpu.async.token, index, index, index, index, index, index, i32, f32) -> !gpu.async.token
    "gpu.launch"(%n, %n, %n, %n, %n, %n) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({
    ^bb0(%a0: index, %a1: index, %a2: index, %a3: index, %a4: index, %a5: index, %a6: index, %a7: index, %a8: index, %a9: index, %a10: index, %a11: index):
      "gpu.terminator"() : () -> ()
    }) {workgroup_attributions = 0 : i64} : (index, index, index, index, index, index) -> ()
    %tok, %val = "async.execute"() <{operandSegmentSizes = array<i32: 0, 0>}> ({
      "async.yield"(%v) : (f32) -> ()
    }) : () -> (!async.token, !async.value<f32>)
    %w = "async.await"(%val) : (!async.value<f32>) -> f32
    "gpu.wait"(%t1) : (!gpu.async.token) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) {gpu.container_module} : () -> ()
