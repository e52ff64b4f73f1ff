"""A finished trick held on screen a moment, and the game events that wait behind it.

While a hold lasts, the events that would change the table queue up with the time they
arrived; when it ends (its time is up, or a key), they are applied in order, and one of
them may hold the next trick. A reply the player asked for never waits, and neither does
a snapshot that answers one: it states the position those events led to.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from leekha import protocol as P

#: Seconds a round summary holds the next round back (any key goes on sooner); the next
#: round's deal then closes it, since that round needs the player.
SUMMARY_HOLD_S = 4.0

#: Game events that wait while a finished trick is held on screen.
HELD = (
    P.Dealt,
    P.PassDone,
    P.PassedReceived,
    P.DoubleRevealed,
    P.CardPlayed,
    P.TrickTaken,
    P.RoundScored,
    P.GameOver,
    P.YourTurn,
    P.Turn,
    # Who sits where, in order with the play: the server frees a tournament player's seat
    # right after the game's end, which must not overtake the last trick and the result.
    P.SeatUpdate,
)


#: The sender of the server's own lines (server/tablechat.py's); they tell of game events
#: (a timer ran out and the server played, a bot took a seat), so they wait with them.
SYSTEM_SENDER = "*"


def _in_order_with_play(msg: P.Message) -> bool:
    return isinstance(msg, (*HELD, P.Snapshot)) or (
        isinstance(msg, P.ChatMessage) and msg.sender == SYSTEM_SENDER
    )


class Hold:
    def __init__(self, clock: Callable[[], float], seconds: float) -> None:
        self.clock = clock
        self.seconds = max(0.0, seconds)  # 0: no holds at all
        self.until: float | None = None  # the held trick stays on screen until then
        self._queue: deque[tuple[float, P.Message]] = deque()
        #: When the message being applied arrived (a queued one's, not now).
        self.at: float | None = None

    def trick(self) -> None:
        """A trick was taken: hold it on screen (when holds are on), unless a snapshot the
        server pushed waits behind it: the client is then behind the game (the server
        seated us, or passed for us) and plays the queued tricks out at once, or it would
        fall further behind with every trick while the seat is ours to play."""
        if self.seconds > 0 and not self._behind():
            self.until = self.clock() + self.seconds

    def _behind(self) -> bool:
        return any(isinstance(msg, P.Snapshot) for _, msg in self._queue)

    def summary(self) -> None:
        """A round ended: hold its summary a moment before the next deal closes it."""
        if self.seconds > 0:
            self.until = self.clock() + max(SUMMARY_HOLD_S, self.seconds)

    def waits(self, msg: P.Message) -> bool:
        """Whether `msg` queues behind the hold (True: it was queued)."""
        if isinstance(msg, P.Snapshot) and (msg.re is not None or self.until is None):
            self.clear()  # the snapshot states the position these events led to
            return False
        if self.until is not None and _in_order_with_play(msg):
            # A snapshot the server pushed (after it passed for a bot-played seat, a new
            # game) waits its turn, or the held round's end and summary would be lost.
            self._queue.append((self.clock(), msg))
            return True
        return False

    def release(self, apply: Callable[[P.Message], None]) -> None:
        """End the hold; apply what queued meanwhile until one of them holds again."""
        self.until = None
        while self._queue and self.until is None:
            self.at, msg = self._queue.popleft()
            apply(msg)
        self.at = None

    def due(self) -> bool:
        return self.until is not None and self.clock() >= self.until

    def arrived(self) -> float:
        """When the message being applied arrived, on our clock."""
        return self.at if self.at is not None else self.clock()

    def clear(self) -> None:
        self.until = None
        self._queue.clear()
