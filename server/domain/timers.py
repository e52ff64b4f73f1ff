"""Timers shared by many connections or sessions, so that thousands of them cost the
reactor a handful of clock timers instead of one (or a rescheduled one) each.

- `FixedDelay`: many one-shot calls that all wait the same delay (hello timeout, close
  grace, session expiry). They run in the order they were asked for, so a FIFO with one
  clock timer armed for its head is exact, and a cancel is O(1).
- `Watch`: each member looked at when its own deadline comes, deadlines grouped in
  quarter-second slots with one clock timer for the earliest (keepalive pings and the
  dead-peer check), instead of a LoopingCall per connection. It runs only while it has
  members.

- `Deadlines`: one-shot calls at any delay (the tables' turn timers), in one heap with one
  clock timer for the earliest: a turn timer starts and stops with every card played,
  and here that costs a heap entry instead of a reactor timer made and cancelled.

All run on the injected clock, so tests drive them with a MemoryReactorClock.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from twisted.logger import Logger

from leekha.server.domain.clock import Clock, Timer

log = Logger()

T = TypeVar("T")


def _nothing(*_args: object) -> None:
    return None


class _Owner(Protocol):
    def _cancelled(self) -> None: ...


@dataclass(slots=True, eq=False)
class _Call:
    """One call waiting in a shared timer; satisfies the `Timer` protocol."""

    _owner: _Owner
    func: Callable[..., object]
    args: tuple[object, ...]
    _active: bool = True

    def active(self) -> bool:
        return self._active

    def cancel(self) -> None:
        if self._active:
            self._active = False
            self.func, self.args = _nothing, ()  # let go of what it would have been called with
            self._owner._cancelled()


@dataclass(slots=True, eq=False)
class Pending(_Call):
    """One call waiting in a FixedDelay, with the time it is due."""

    when: float = 0.0


class FixedDelay:
    """Calls `func(*args)` `delay` seconds after each `call`, with one clock timer at most."""

    def __init__(self, clock: Clock, delay: float) -> None:
        self.clock = clock
        self.delay = delay
        self._queue: deque[Pending] = deque()
        self._live = 0  # active calls in the queue
        self._timer: Timer | None = None

    def call(self, func: Callable[..., object], *args: object) -> Pending:
        pending = Pending(self, func, args, when=self.clock.seconds() + self.delay)
        self._queue.append(pending)
        self._live += 1
        if self._timer is None:
            self._timer = self.clock.callLater(self.delay, self._fire)
        return pending

    def __len__(self) -> int:
        """Calls still waiting."""
        return self._live

    def _cancelled(self) -> None:
        self._live -= 1
        if self._live == 0:  # nothing left to wait for: no timer either
            self._queue.clear()
            if self._timer is not None and self._timer.active():
                self._timer.cancel()
            self._timer = None

    def _fire(self) -> None:
        self._timer = None
        queue = self._queue
        now = self.clock.seconds()
        while queue and (not queue[0]._active or queue[0].when <= now):
            pending = queue.popleft()
            if pending._active:
                pending._active = False
                self._live -= 1
                pending.func(*pending.args)
        while queue and not queue[0]._active:
            queue.popleft()
        if queue and self._timer is None:
            self._timer = self.clock.callLater(max(0.0, queue[0].when - now), self._fire)


@dataclass(slots=True, eq=False)
class Deadline(_Call):
    """One call waiting in `Deadlines` (its time is kept in the heap)."""


#: Cancelled entries `Deadlines` keeps before it rebuilds its heap without them.
_DEAD_MIN = 256
#: Deadlines this close after the clock are due: the clock timer was armed for exactly
#: the earliest, and `(now + d) - now` may differ from `d` in the last bit.
_EPSILON_S = 1e-9


class Deadlines:
    """`callLater` for many one-shot calls at any delay, with one clock timer at most.
    A cancel only marks its entry (the heap drops the dead when they pile up); a call
    that raises is logged and the others still run, as with the reactor's own timers."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._heap: list[tuple[float, int, Deadline]] = []
        self._seq = 0
        self._live = 0
        self._timer: Timer | None = None
        self._armed_for: float | None = None

    def seconds(self) -> float:
        return self.clock.seconds()

    def callLater(self, delay: float, func: Callable[..., object], *args: object) -> Deadline:
        when = self.clock.seconds() + delay
        entry = Deadline(self, func, args)
        heapq.heappush(self._heap, (when, self._seq, entry))
        self._seq += 1
        self._live += 1
        if self._armed_for is None or when < self._armed_for:
            self._arm(when)
        return entry

    def __len__(self) -> int:
        """Calls still waiting."""
        return self._live

    def _arm(self, when: float) -> None:
        if self._timer is not None and self._timer.active():
            self._timer.cancel()
        self._armed_for = when
        self._timer = self.clock.callLater(max(0.0, when - self.clock.seconds()), self._fire)

    def _cancelled(self) -> None:
        self._live -= 1
        if self._live == 0:  # nothing left to wait for: no timer either
            self._heap.clear()
            if self._timer is not None and self._timer.active():
                self._timer.cancel()
            self._timer = self._armed_for = None
        elif len(self._heap) - self._live > max(_DEAD_MIN, self._live):
            self._heap[:] = [e for e in self._heap if e[2]._active]  # in place: _fire holds it
            heapq.heapify(self._heap)

    def _fire(self) -> None:
        self._timer = self._armed_for = None
        heap = self._heap
        due = self.clock.seconds() + _EPSILON_S
        while heap and heap[0][0] <= due:
            entry = heapq.heappop(heap)[2]
            if entry._active:
                entry._active = False
                self._live -= 1
                try:
                    entry.func(*entry.args)
                except Exception:
                    log.failure("a timed call failed")
        while heap and not heap[0][2]._active:
            heapq.heappop(heap)
        if heap and (self._armed_for is None or heap[0][0] < self._armed_for):
            self._arm(heap[0][0])  # a call made meanwhile may have armed for a later one


#: A Watch looks at a member at most this long after the time it asked for: deadlines
#: that fall in one slot share one clock timer.
SLOT_S = 0.25
#: Members looked at in one clock callback; the rest follow at once, in later callbacks,
#: so thousands of connections opened together do not make one long stall.
BATCH = 500


class Watch(Generic[T]):
    """Looks at each member when its own deadline comes (within SLOT_S after it):
    `look(member, now)` does what is due and returns the member's next deadline, or None
    to let it go. A member's deadline may move later without touching the watch (a
    connection that talks only updates when it last spoke; `look` finds that out and
    names the new deadline), so a busy member costs one look per deadline period, not one
    reschedule per message. Deadlines of one SLOT_S slot share one clock timer."""

    def __init__(self, clock: Clock, look: Callable[[T, float], float | None]) -> None:
        self.clock = clock
        self.look = look
        self._slots: dict[int, dict[T, None]] = {}
        self._where: dict[T, int] = {}
        self._heap: list[int] = []  # slot numbers that have (or had) members
        self._timer: Timer | None = None
        self._armed_for: int | None = None
        self._firing = False
        self._due = 0  # while firing: the last slot being looked at

    def add(self, member: T, when: float) -> None:
        """Look at `member` at `when` (moves it if it was watched already)."""
        self.discard(member)
        slot = max(math.ceil(when / SLOT_S - 1e-9), 0)
        if self._firing:  # never into the slot being looked at: each look makes progress
            slot = max(slot, self._due + 1)
        members = self._slots.get(slot)
        if members is None:
            members = self._slots[slot] = {}
            heapq.heappush(self._heap, slot)
        members[member] = None
        self._where[member] = slot
        if not self._firing and (self._armed_for is None or slot < self._armed_for):
            self._arm(slot)

    def discard(self, member: T) -> None:
        slot = self._where.pop(member, None)
        if slot is not None:
            members = self._slots[slot]
            del members[member]

    def __len__(self) -> int:
        return len(self._where)

    def __contains__(self, member: object) -> bool:
        return member in self._where

    def _arm(self, slot: int) -> None:
        if self._timer is not None and self._timer.active():
            self._timer.cancel()
        self._armed_for = slot
        self._timer = self.clock.callLater(
            max(0.0, slot * SLOT_S - self.clock.seconds()), self._fire
        )

    def _fire(self) -> None:
        self._timer = None
        self._armed_for = None
        now = self.clock.seconds()
        due = self._due = math.floor(now / SLOT_S + 1e-9)
        self._firing = True
        try:
            self._look_due(due, now)
        finally:
            self._firing = False
            heap, slots = self._heap, self._slots
            while heap and not slots[heap[0]]:
                del slots[heapq.heappop(heap)]
            if heap:
                self._arm(heap[0])  # at once when the batch ran out before the due ones

    def _look_due(self, due: int, now: float) -> None:
        heap, slots = self._heap, self._slots
        budget = BATCH
        while heap and heap[0] <= due and budget > 0:
            members = slots[heap[0]]
            while members and budget > 0:
                member = next(iter(members))
                del members[member]
                del self._where[member]
                budget -= 1
                after = self.look(member, now)
                if after is not None and member not in self._where:
                    self.add(member, after)
            if not members:
                del slots[heapq.heappop(heap)]

    def stop(self) -> None:
        self._slots.clear()
        self._where.clear()
        self._heap.clear()
        if self._timer is not None and self._timer.active():
            self._timer.cancel()
        self._timer = None
        self._armed_for = None
