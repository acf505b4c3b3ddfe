"""The `vector` dialect: the vector ops found in host code around launches.

`ops` states what each op is and does, `syntax` how it is written, and
`verifiers` each op's own checks, in mlir-opt-19's words.
"""
