"""Shared timers (leekha.server.timers) on a fake clock."""

from __future__ import annotations

from twisted.internet.task import Clock

from leekha.server.timers import SLICES, FixedDelay, Sweep


def test_fixed_delay_calls_each_at_its_own_time_with_one_clock_timer() -> None:
    clock = Clock()
    delays = FixedDelay(clock, 5.0)
    fired: list[tuple[str, float]] = []
    for name in "abc":
        delays.call(lambda n: fired.append((n, clock.seconds())), name)
        clock.advance(1.0)
    assert len(clock.getDelayedCalls()) == 1 and len(delays) == 3
    clock.advance(1.9)  # t = 4.9
    assert fired == []
    clock.advance(0.1)
    assert fired == [("a", 5.0)]
    clock.advance(1.0)
    clock.advance(1.0)
    assert fired == [("a", 5.0), ("b", 6.0), ("c", 7.0)]
    assert clock.getDelayedCalls() == [] and len(delays) == 0


def test_a_cancelled_call_never_runs_and_the_last_cancel_frees_the_clock() -> None:
    clock = Clock()
    delays = FixedDelay(clock, 5.0)
    fired: list[int] = []
    first = delays.call(fired.append, 1)
    second = delays.call(fired.append, 2)
    first.cancel()
    assert not first.active() and second.active()
    clock.advance(5.0)
    assert fired == [2] and not second.active()
    third = delays.call(fired.append, 3)
    third.cancel()
    assert clock.getDelayedCalls() == []
    clock.advance(10.0)
    assert fired == [2]


def test_a_call_may_schedule_another() -> None:
    clock = Clock()
    delays = FixedDelay(clock, 2.0)
    fired: list[float] = []

    def again() -> None:
        fired.append(clock.seconds())
        if len(fired) < 3:
            delays.call(again)

    delays.call(again)
    for _ in range(10):
        clock.advance(1.0)
    assert fired == [2.0, 4.0, 6.0]


def test_sweep_visits_every_member_once_per_period_and_stops_when_empty() -> None:
    clock = Clock()
    seen: list[tuple[int, float]] = []
    sweep: Sweep[int] = Sweep(clock, 16.0, lambda m, now: seen.append((m, now)))
    for m in range(40):
        sweep.add(m)
        clock.advance(0.25)  # members join over 10 s
    seen.clear()
    for _ in range(2 * SLICES):
        clock.advance(1.0)
    counts = {m: sum(1 for x, _ in seen if x == m) for m in range(40)}
    assert set(counts.values()) == {2}  # two periods, two visits each
    for m in range(40):
        a, b = (t for x, t in seen if x == m)
        assert b - a == 16.0
    for m in range(40):
        sweep.discard(m)
    clock.advance(1.0)
    assert clock.getDelayedCalls() == []


def test_a_visit_may_discard_members_of_the_same_slice() -> None:
    clock = Clock()
    visited: list[int] = []

    def visit(m: int, now: float) -> None:
        visited.append(m)
        sweep.discard(1)

    sweep: Sweep[int] = Sweep(clock, 16.0, visit)
    sweep.add(0)
    sweep.add(1)  # same slice
    for _ in range(SLICES):
        clock.advance(1.0)
    assert visited == [0] and len(sweep) == 1
