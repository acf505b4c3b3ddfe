"""The whole run's time budget (`--budget-s`).

`--timeout-ms` bounds one Z3 query; a run asks thousands. A budget bounds
the run: every query's timeout is cut to what is left, and once it is spent
the obligations not yet decided stay undecided, so the verdict is `unknown`
with the reason, never `verified`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class Budget:
    seconds: float | None
    """None: no budget."""
    started: float = field(default_factory=time.monotonic)

    def left(self) -> float | None:
        if self.seconds is None:
            return None
        return self.seconds - (time.monotonic() - self.started)

    def spent(self) -> bool:
        left = self.left()
        return left is not None and left <= 0

    def cap_ms(self, timeout_ms: int) -> int:
        """A query's timeout: `timeout_ms`, or less if the budget ends sooner."""
        left = self.left()
        if left is None:
            return timeout_ms
        return max(1, min(timeout_ms, int(left * 1000)))

    @property
    def reason(self) -> str:
        return f"the run's time budget of {self.seconds:g} s (--budget-s) was spent"


UNLIMITED = Budget(None)
