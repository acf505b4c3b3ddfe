// builtin.module nested at several depths, named and with attributes.
module @top attributes {test.top} {
  module @inner {
    func.func @f() {
      return
    }
    module attributes {test.deep = 1 : i32} {
    }
  }
  builtin.module @explicit {
  }
  func.func @g() {
    "test.region"() ({
      builtin.module @in_region {
      }
      "test.end"() : () -> ()
    }) : () -> ()
    return
  }
}
