// RUN: %python -m spec print %s | filecheck %s
// RUN: %python -m refimpl %s | filecheck %s
// RUN: %python -m spec print %s | %python -m spec print - | filecheck %s

// String attributes are byte strings: bytes that are not UTF-8 (a blob of
// a compiled kernel) are kept exactly and printed as mlir-opt-19 prints
// them: printable ASCII as is but `"` (\22) and `\` (\\), every other byte
// as \XX, UTF-8 text too. No replacement character is ever printed.

// CHECK-NOT: {{\xEF\xBF\xBD}}
// CHECK: gpu.binary @blob [#gpu.object<#nvvm.target, "\03\02#\07\FF\FE\00\80\22\\x">]
// CHECK: func.func @f() attributes {quoted = "say \22hi\22\0A\09", text = "caf\C3\A9", wg = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>}
module attributes {gpu.container_module} {
  gpu.binary @blob [#gpu.object<#nvvm.target, "\03\02\23\07\ff\FE\00\80\"\\\78">]
  func.func @f() attributes {text = "café", quoted = "say \"hi\"\n\t", wg = #spirv.entry_point_abi<workgroup_size = [1,1,  1]>} {
    return
  }
}
