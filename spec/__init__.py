"""The MLIR subset as data: IR, syntax, op registry and executable semantics."""
