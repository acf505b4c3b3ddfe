// gpu.module's offloading handler `<...>` and targets `[...]` after its
// name: handler only, targets only, both, several targets, with an
// attribute dict. mlir-opt-19 prints two blanks after `]`, target
// parameters in declaration order without defaults, and `: i64` on an
// untyped object index.
module attributes {gpu.container_module} {
  gpu.module @handler_only <#gpu.select_object<1>> {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @targets_only [#nvvm.target] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @both <#gpu.select_object<0 : i32>> [#nvvm.target<chip = "sm_90", O = 3>] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @several [#nvvm.target<O = 1, chip = "sm_70", features = "+ptx70">, #rocdl.target<chip = "gfx90a">, #nvvm.target<chip = "sm_50">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @with_attrs <#gpu.select_object<#rocdl.target<chip = "gfx90a", O = 2>>> [#rocdl.target<chip = "gfx90a">] attributes {my.flag, my.level = 2 : i32} {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @targets_attrs [#nvvm.target<flags = {fast, ftz = true}, link = ["libdevice.bc"]>]attributes{my.flag} {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @spirv [#spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @main(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @targets_attrs::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
}

// -----

// A target or handler in the attribute dict is the same property.
gpu.module @in_dict attributes {targets = [#nvvm.target<O = 0>], offloadingHandler = #gpu.select_object<#nvvm.target<O = 0>>} {
  gpu.func @k() kernel {
    gpu.return
  }
}

// -----

// Quoted `<` and `>` inside a target; a SPIR-V target environment with
// limits at their defaults (left out), `api = X` (printed `api=X`), a hex
// device id (printed in decimal) and an `Unknown` device type (left out).
module attributes {gpu.container_module} {
  gpu.module @quoted [#nvvm.target<flags = {note = "a<b>c"}, link = ["lib<1>.bc"]>, #rocdl.target<features = "+xnack>">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @spirv_env <#gpu.select_object<1>> [#spirv.target_env<#spirv.vce<v1.3, [Shader, Float16], [SPV_KHR_16bit_storage]>, api = Vulkan, NVIDIA:DiscreteGPU:0x2204, #spirv.resource_limits<subgroup_size = 32, max_compute_workgroup_size = [64, 1, 1], min_subgroup_size = 16, max_compute_shared_memory_size = 16384>>, #spirv.target_env<#spirv.vce<v1.0, [Shader], []>, AMD:Unknown, #spirv.resource_limits<max_compute_workgroup_invocations = 256>>] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
