"""`verifier.proof.budget.Watchdog`: one thread calls every budget's deadline
functions, in deadline order, and forgets cancelled ones at once."""

from __future__ import annotations

import threading

from verifier.proof.budget import Budget, Watchdog


def test_calls_in_deadline_order_and_not_the_cancelled() -> None:
    w = Watchdog()
    order: list[str] = []
    done = threading.Event()
    w.call_at(0.2, lambda: (order.append("late"), done.set()))
    w.call_at(0.0, lambda: order.append("first"))
    k = w.call_at(0.1, lambda: order.append("cancelled"))
    w.call_at(0.1, lambda: order.append("middle"))
    w.cancel(k)
    assert done.wait(10)
    assert order == ["first", "middle", "late"]


def test_cancelled_calls_are_not_kept() -> None:
    w = Watchdog()
    keys = [w.call_at(3600, lambda: None) for _ in range(1000)]
    for k in keys:
        w.cancel(k)
    w.call_at(3600, lambda: None)
    assert len(w._calls) == 1
    assert len(w._heap) <= 2 * 64


def test_a_budget_expires_and_a_closed_one_does_not() -> None:
    b = Budget(0.05).watch()
    for _ in range(400):
        if b.expired_at is not None:
            break
        threading.Event().wait(0.025)
    assert b.expired_at is not None
    b.close()
    c = Budget(0.05).watch()
    c.close()
    threading.Event().wait(0.2)
    assert c.expired_at is None
