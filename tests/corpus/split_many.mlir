// Several modules in one file, split by marker lines, each with its own
// numbering; one split holds only blank lines.
func.func @first() {
  return
}

// -----

module attributes {gpu.container_module} {
  func.func @second(%t: !gpu.async.token) {
    gpu.wait [%t]
    return
  }
}

// -----

// -----
%0 = "test.free_value"() : () -> i32
"test.use"(%0) : (i32) -> ()

// -----
func.func private @decl_only(i32)
