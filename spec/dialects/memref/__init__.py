"""The `memref` dialect: buffers: allocation, access, globals, views.

`ops` states what each op is and does, `syntax` how it is written.
"""
