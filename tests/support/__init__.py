"""Helpers shared by the test files (which never import each other): the
hand-written rewrites of the verifier's tests and their checks
(`rewrites`), the control-flow programs several suites check
(`control_programs`), functions for the schedule explorer (`explore`),
in-process and mlir-opt runs of the pass (`refimpl_runs`), and the
corpus mutations of the hostile-input tests (`mutations`) with the
contract their answers are held to (`hostile`)."""
