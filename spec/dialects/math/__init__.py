"""The `math` dialect: the math functions.

`ops` states what each op is and does, `syntax` how it is written.
"""
