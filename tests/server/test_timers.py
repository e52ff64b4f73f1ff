"""Shared timers (leekha.server.domain.timers) on a fake clock."""

from __future__ import annotations

import random

from helpers.server import Harness
from twisted.internet.task import Clock

from leekha.protocol import catalogue as M
from leekha.server.domain.timers import BATCH, SLOT_S, Deadlines, FixedDelay, Watch


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


def test_a_watch_looks_at_each_member_at_its_own_deadline_and_stops_when_empty() -> None:
    clock = Clock()
    seen: list[tuple[int, float]] = []

    def look(m: int, now: float) -> float | None:
        seen.append((m, now))
        return now + 10.0 if now < 10.0 else None

    watch: Watch[int] = Watch(clock, look)
    for m in range(3):
        watch.add(m, 1.0 + m * 0.5)  # deadlines 1.0, 1.5, 2.0
    for _ in range(100):
        clock.advance(0.25)
    # Each at its deadline (exact on a slot boundary), then ten seconds after; then let go.
    assert seen == [(0, 1.0), (1, 1.5), (2, 2.0), (0, 11.0), (1, 11.5), (2, 12.0)]
    assert len(watch) == 0
    watch.add(0, 40.0)
    watch.add(1, 41.0)
    for m in range(3):
        watch.discard(m)
    clock.advance(30.0)
    assert clock.getDelayedCalls() == [] and len(watch) == 0


def test_a_watch_is_at_most_a_slot_late_and_never_early() -> None:
    clock = Clock()
    seen: list[float] = []
    watch: Watch[str] = Watch(clock, lambda m, now: seen.append(now))  # type: ignore[func-returns-value]
    watch.add("a", 3.01)
    while not seen:
        clock.advance(0.01)
    assert 3.01 <= seen[0] <= 3.01 + SLOT_S


def test_a_look_may_discard_other_members_of_its_slot() -> None:
    clock = Clock()
    looked: list[int] = []

    def look(m: int, now: float) -> None:
        looked.append(m)
        watch.discard(1)

    watch: Watch[int] = Watch(clock, look)
    watch.add(0, 1.0)
    watch.add(1, 1.0)  # same slot
    clock.advance(2.0)
    assert looked == [0] and len(watch) == 0


def test_a_crowd_due_at_once_is_looked_at_in_batches() -> None:
    """Thousands of connections opened together are not all pinged in one callback."""
    clock = Clock()
    looked: list[float] = []
    watch: Watch[int] = Watch(clock, lambda m, now: looked.append(now))  # type: ignore[func-returns-value]
    for m in range(BATCH * 2 + 1):
        watch.add(m, 1.0)
    clock.rightNow = 1.0
    batches = []
    while clock.calls:  # one callback at a time, as a reactor runs them between reads
        call = clock.calls.pop(0)
        assert call.getTime() <= 1.0  # the rest are due at once
        call.func(*call.args)
        batches.append(len(looked))
    assert batches == [BATCH, 2 * BATCH, 2 * BATCH + 1] and len(watch) == 0


def test_deadlines_call_each_at_its_own_time_with_one_clock_timer() -> None:
    """Against the clock's own timers, in one random mix of delays and cancels: the same
    calls in the same clock step, in deadline order, with one clock timer at most."""
    clock = Clock()
    shared = Deadlines(clock)
    rng = random.Random(3)
    fired: list[tuple[int, float]] = []
    reference: list[tuple[int, float]] = []
    ours = []
    cancelled: set[int] = set()

    def heard(n: int) -> None:
        if n not in cancelled:
            reference.append((n, clock.seconds()))

    for n in range(400):
        delay = rng.choice([0.5, 1.0, 30.0, rng.uniform(0, 60)])
        ours.append((n, shared.callLater(delay, lambda n: fired.append((n, clock.seconds())), n)))
        clock.callLater(delay, heard, n)
        if rng.random() < 0.5:
            clock.advance(rng.uniform(0, 0.3))
        for m, timer in rng.sample(ours, min(3, len(ours))):
            if timer.active() and rng.random() < 0.5:
                timer.cancel()
                cancelled.add(m)
                assert not timer.active()
    while clock.getDelayedCalls():
        clock.advance(0.05)
    assert len(fired) > 100 and sorted(fired) == sorted(reference)
    assert [at for _, at in fired] == sorted(at for _, at in fired)
    assert not shared


def test_deadlines_fire_exactly_on_time_and_survive_a_failing_call() -> None:
    clock = Clock()
    shared = Deadlines(clock)
    fired: list[str] = []

    def boom() -> None:
        raise RuntimeError("a broken call")

    shared.callLater(30.0, fired.append, "late")
    shared.callLater(10.0, boom)
    shared.callLater(10.0, fired.append, "on time")
    first = shared.callLater(5.0, fired.append, "cancelled")
    first.cancel()
    clock.advance(9.999)
    assert fired == []
    clock.advance(0.001)  # exactly 10 s: due, although the timer was armed for 5 s first
    assert fired == ["on time"] and len(shared) == 1
    clock.advance(20.0)
    assert fired == ["on time", "late"] and clock.getDelayedCalls() == []


def test_an_earlier_deadline_rearms_and_a_call_may_schedule_another() -> None:
    clock = Clock()
    shared = Deadlines(clock)
    fired: list[float] = []
    shared.callLater(30.0, lambda: fired.append(clock.seconds()))

    def again() -> None:
        fired.append(clock.seconds())
        shared.callLater(40.0, lambda: fired.append(clock.seconds()))

    shared.callLater(2.0, again)
    clock.advance(2.0)
    assert fired == [2.0]
    clock.advance(28.0)
    assert fired == [2.0, 30.0]
    clock.advance(12.0)
    assert fired == [2.0, 30.0, 42.0] and not shared


def test_every_table_on_a_server_shares_one_clock_timer_for_its_turn_timers() -> None:
    """Tables made while no turn timer runs (an empty `Deadlines` has length 0) still
    take the lobby's shared timers, not one reactor timer per seat and move."""
    h = Harness()
    for n in range(3):
        host = h.player(f"host{n}")
        h.table_with_bots(host, pass_timer_s=60, turn_timer_s=60)
        assert isinstance(host.request(M.Start(id=host.rid())), M.Ok)
    turn_timers = [c for c in h.clock.getDelayedCalls() if "Turns" in c.func.__qualname__]
    shared = h.lobby.options.turn_timers
    assert turn_timers == [] and isinstance(shared, Deadlines) and len(shared) == 3
    h.stop()
