"""The `llvm` dialect: the LLVM ops found around kernels: declarations, globals, calls.

`ops` states what each op is and does, `syntax` how it is written.
"""
