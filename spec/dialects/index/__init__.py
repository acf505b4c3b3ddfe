"""The `index` dialect: arithmetic on `index` values.

`ops` states what each op is and does, `syntax` how it is written.
"""
