// RUN: %python -m spec print %s | filecheck %s
// RUN: %python -m refimpl %s | filecheck %s --check-prefix=PASS

// Blanks inside `<...>` and `[...]` may be newlines, as in mlir-opt-19:
// each body is printed on one line, canonical.

// CHECK: module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>} {
module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<
    #spirv.vce<v1.0, [Shader], []>,
    #spirv.resource_limits<>>} {
  // CHECK: func.func @f(%arg0: memref<?x4xf32>, %arg1: index) attributes {d = dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>} {
  func.func @f(%m: memref<?x
      4xf32>, %n: index) attributes {d = dense<[[1.0, 2.0],
                                               [3.0, 4.0]]> : tensor<2x2xf32>} {
    // CHECK: %memref = gpu.alloc  (%arg1) : memref<?x4xf32>
    // PASS: %memref, %{{.*}} = gpu.alloc async [%{{.*}}] (%arg1) : memref<?x4xf32>
    %b = gpu.alloc (%n) : memref<
        ?x4xf32>
    return
  }
}
