"""Timers shared by many connections or sessions, so that thousands of them cost the
reactor a handful of clock timers instead of one (or a rescheduled one) each.

- `FixedDelay`: many one-shot calls that all wait the same delay (hello timeout, close
  grace, session expiry). They run in the order they were asked for, so a FIFO with one
  clock timer armed for its head is exact, and a cancel is O(1).
- `Sweep`: one repeating timer that visits each member once per `period`, a slice of the
  members per tick (keepalive pings and the dead-peer check), instead of a LoopingCall per
  connection. It runs only while it has members.

Both run on the injected clock, so tests drive them with a MemoryReactorClock.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from leekha.server.clock import Clock, Timer

T = TypeVar("T")


def _nothing(*_args: Any) -> None:
    return None


@dataclass(slots=True, eq=False)
class Pending:
    """One call waiting in a FixedDelay; satisfies the `Timer` protocol."""

    _owner: FixedDelay
    when: float
    func: Callable[..., Any]
    args: tuple[Any, ...]
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

    def call(self, func: Callable[..., Any], *args: Any) -> Pending:
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


#: Ticks per period of a Sweep: each tick visits about 1/SLICES of the members.
SLICES = 16


class Sweep(Generic[T]):
    """Visits every member once per `period` seconds (within one tick), `visit(member, now)`,
    spreading the members over SLICES ticks so no tick walks them all."""

    def __init__(self, clock: Clock, period: float, visit: Callable[[T, float], None]) -> None:
        self.clock = clock
        self.period = period
        self.tick_s = period / SLICES
        self.visit = visit
        self._slices: list[dict[T, None]] = [{} for _ in range(SLICES)]
        self._where: dict[T, int] = {}
        self._cursor = 0
        self._timer: Timer | None = None
        self._next = 0.0  # clock time of the next tick (ticks do not drift late)

    def _arm(self, now: float) -> None:
        self._timer = self.clock.callLater(max(0.0, self._next - now), self._tick)

    def add(self, member: T) -> None:
        """First visit one period from now (within a tick)."""
        if member in self._where:
            return
        # The slice just visited comes round again last.
        index = (self._cursor - 1) % SLICES
        self._slices[index][member] = None
        self._where[member] = index
        if self._timer is None:
            now = self.clock.seconds()
            self._next = now + self.tick_s
            self._arm(now)

    def discard(self, member: T) -> None:
        index = self._where.pop(member, None)
        if index is not None:
            del self._slices[index][member]

    def __len__(self) -> int:
        return len(self._where)

    def _tick(self) -> None:
        self._timer = None
        members = self._slices[self._cursor]
        self._cursor = (self._cursor + 1) % SLICES
        now = self.clock.seconds()
        for member in list(members):
            if member in members:  # a visit may drop others of the slice
                self.visit(member, now)
        if self._where and self._timer is None:
            self._next = max(self._next + self.tick_s, now)
            self._arm(now)

    def stop(self) -> None:
        self._slices = [{} for _ in range(SLICES)]
        self._where.clear()
        if self._timer is not None and self._timer.active():
            self._timer.cancel()
        self._timer = None
