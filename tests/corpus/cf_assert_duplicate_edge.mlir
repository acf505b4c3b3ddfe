// cf.assert messages (with escapes); a cond_br whose two edges reach one block.
func.func @checks(%p: i1, %x: i32) {
  cf.assert %p, "must hold"
  cf.assert %p, "quote \" and backslash \\ and tab \t and newline \n"
  cf.assert %p, ""
  cf.cond_br %p, ^bb1(%x : i32), ^bb1(%x : i32)
^bb1(%y: i32):
  cf.br ^bb2
^bb2:
  return
}
