"""The `arith` dialect: integer and float arithmetic, comparisons, casts, constants and `select`.

`ops` states what each op is and does, `syntax` how it is written.
"""
