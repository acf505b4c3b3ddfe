"""The `cf` dialect: unstructured control flow: the branches and `assert`.

`ops` states what each op is and does, `syntax` how it is written.
"""
