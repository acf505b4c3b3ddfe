"""The `async` dialect: threads, tokens, groups and coroutine functions.
(The package is `async_`: `async` is a Python keyword.)

`ops` states what each op is and does, `syntax` how it is written, and
`verifiers` the checks of its own that `async.func` and its return get.
"""
