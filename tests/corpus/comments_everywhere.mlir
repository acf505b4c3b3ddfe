// Comments before, between and after ops, at the end of lines, and in
// regions; none of them reach the output.
// A second header line.

module {  // trailing comment on the module
  // before a function
  func.func @f(%a: index) -> index {  // after the brace
    // inside
    %c = arith.constant 1 : index  // after an op
    %s = arith.addi %a, %c : index
    // between ops
    return %s : index
    // after the terminator
  }
  // after a function
}
// at the end of the file
