"""The `scf` dialect: structured control flow (loops, branches, regions run
once, and their terminators).

`ops` states what each op is and does, `syntax` how it is written, and
`verifiers` the checks of its own that `scf.forall` and its terminator get.
"""
