"""The `func` dialect: functions, calls and returns.

`ops` states what each op is and does, `syntax` how it is written.
"""
