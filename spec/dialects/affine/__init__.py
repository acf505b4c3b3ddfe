"""The `affine` dialect: the affine maps' ops: `apply`, `load`, `store`, `for`, `if` and `yield`.

`ops` states what each op is and does, `syntax` how it is written.
"""
