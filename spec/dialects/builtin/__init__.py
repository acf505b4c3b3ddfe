"""The `builtin` dialect: `builtin.module`.

`ops` states what each op is and does, `syntax` how it is written.
"""
