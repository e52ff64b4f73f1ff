"""Timers shared by many connections or sessions, so that thousands of them cost the
reactor a handful of clock timers instead of one (or a rescheduled one) each.

- `FixedDelay`: many one-shot calls that all wait the same delay (hello timeout, close
  grace, session expiry). They run in the order they were asked for, so a FIFO with one
  clock timer armed for its head is exact, and a cancel is O(1).
- `Watch`: each member looked at when its own deadline comes, deadlines grouped in
  quarter-second slots with one clock timer for the earliest (keepalive pings and the
  dead-peer check), instead of a LoopingCall per connection. It runs only while it has
  members.

Both run on the injected clock, so tests drive them with a MemoryReactorClock.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from leekha.server.clock import Clock, Timer

T = TypeVar("T")


def _nothing(*_args: object) -> None:
    return None


@dataclass(slots=True, eq=False)
class Pending:
    """One call waiting in a FixedDelay; satisfies the `Timer` protocol."""

    _owner: FixedDelay
    when: float
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


class FixedDelay:
    """Calls `func(*args)` `delay` seconds after each `call`, with one clock timer at most."""

    def __init__(self, clock: Clock, delay: float) -> None:
        self.clock = clock
        self.delay = delay
        self._queue: deque[Pending] = deque()
        self._live = 0  # active calls in the queue
        self._timer: Timer | None = None

    def call(self, func: Callable[..., object], *args: object) -> Pending:
        pending = Pending(self, self.clock.seconds() + self.delay, func, args)
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
