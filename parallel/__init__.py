"""Work shared with a forked copy of the process, for the tools' large runs.

The parser and the verifier are single-threaded Python; on a machine with
an idle core a large job hands part of its work to a copy of itself made by
`os.fork` and carries on with the rest. Everything about that lives here:
`fork` starts the child, sends its result back pickled and shares work out
in the two shapes the callers need (`beside`: one piece of work in the
child while another runs here; `halves`: a map whose second half is made
by the child); `jobs` decides whether to fork at all (`Jobs`, a tool's
`--jobs`, against the size of the work and the load of the machine).

A result never depends on whether a child was used: a child that fails or
sends nothing leaves its work to the caller. This package imports only the
standard library; the callers (`spec.syntax.parse_many`,
`verifier.proof.second_process`) say what may run apart and how large it
must be.
"""

from __future__ import annotations

from parallel.fork import Forked, beside, halves, live_children
from parallel.jobs import DEFAULT_JOBS, IN_ONE_PROCESS, Jobs, can_fork

__all__ = ["DEFAULT_JOBS", "IN_ONE_PROCESS", "Forked", "Jobs", "beside", "can_fork", "halves", "live_children"]
