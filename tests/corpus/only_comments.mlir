// This file has nothing but comments: it is an empty module.
// (mlir-opt prints `module {` / `}`.)
