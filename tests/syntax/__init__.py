"""The MLIR subset as text: parsing, printing byte for byte as mlir-opt-19 does, and its op verifiers."""
