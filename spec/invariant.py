"""Internal errors: a condition the code relies on that does not hold.

Such a condition is checked explicitly, never with `assert`: under
`python -O` an `assert` vanishes, and a check that vanishes may turn a bug
into a wrong answer (a verdict, a rewrite) instead of a failure. A broken
invariant raises `InternalError`; the command-line tools report any
exception they did not expect as one line, `error: internal error:
InternalError: ...`, with exit code 2 (`spec.tool.run_tool`), never a
traceback and never an exit code that means a verdict.
"""

from __future__ import annotations


class InternalError(Exception):
    """A bug of this project, not of the user's input: a condition the code
    relies on does not hold. The message names the condition and where."""
