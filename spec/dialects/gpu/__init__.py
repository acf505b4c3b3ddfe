"""The `gpu` dialect: kernel modules, launches, the async ops the pass
threads tokens through, the ops that run inside kernels and the sparse
library ops.

Its facts are in three tables: `ops` (the host side), `device_ops` (inside
kernels) and `library_ops` (the sparse library); its syntax in `syntax`
(the host side and the library) and `device_syntax`.
"""
