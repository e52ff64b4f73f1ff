"""A table's turn clock: who must decide now, their prompts and timers, and the `turn` line.

After every change the table asks the clock to follow the decisions now pending: each
person with a new decision is prompted (`your_turn`) and, when the table has a timer for
that phase, their timer starts (when it runs out a bot plays for them); everyone at the
table hears a `turn` (1.4) whenever a decision or its deadline changed. The pending
decisions are worked out once per change and shared by all three, since this runs after
every card played.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from twisted.logger import Logger

from leekha.common.errors import Fact
from leekha.common.game import PASS, Game
from leekha.protocol import catalogue as M
from leekha.protocol.message import Message
from leekha.server.domain.autopilot import Autopilot
from leekha.server.domain.clock import Clock
from leekha.server.domain.lifecycle import PLAYING, Status
from leekha.server.domain.seats import Seat
from leekha.server.domain.turns import Key, Turns, count_timeout, pending, prompt_for

log = Logger()

#: What `turn` was last said: each deciding seat with its decision and deadline.
Said = tuple[tuple[int, Key, float | None], ...]


class Timed(Protocol):
    """What the clock reads of its table, and what it does when a timer runs out."""

    id: int
    closed: bool
    game: Game | None
    status: Status
    pass_s: float | None
    turn_s: float | None
    autopilot: Autopilot

    @property
    def seats(self) -> list[Seat | None]: ...

    def seat_changed(self, i: int) -> None: ...

    def seat_notice(self, code: str, i: int, **args: Fact) -> None: ...

    def after_change(self) -> None: ...


class TurnClock:
    def __init__(
        self,
        table: Timed,
        clock: Clock,
        afk_limit: int,
        send: Callable[[str, Message], None],
        broadcast: Callable[[Message], None],
        heard: Callable[[type[Message]], bool],
    ) -> None:
        self.table = table
        self.afk_limit = afk_limit
        self.turns = Turns(clock, self._expired)
        self.send = send
        self.broadcast = broadcast
        #: Whether anyone at the table reads a message type: a `turn` nobody here reads
        #: (1.0 clients) is not built, which it would be at every move only to be dropped.
        self.heard = heard
        self._said: Said | None = None

    def needs(self) -> dict[int, Key]:
        """Seats that must decide now, each with the key naming that decision."""
        return pending(self.table.game, self.table.status == PLAYING)

    def follow(self) -> dict[int, Key]:
        """Prompt each person with a new decision, arm their timers, tell the table;
        returns the decisions pending (the table's bots wake on the same)."""
        needs = self.needs()
        for i in self.turns.update(needs, self._human, self._limit):
            self.prompt(i)
        self._changed(needs)
        return needs

    def _human(self, i: int) -> bool:
        """Whether a new decision of seat i gets a person's timer. A person who is not
        connected when the decision comes (after a restart, nobody is) gets none: the
        seat grace covers them, and on their return the timer starts with its full time
        (`People.reconnected`), so a restart never times out someone still on the way
        back. A timer already running when they drop keeps running."""
        seat = self.table.seats[i]
        return seat is not None and not seat.autopilot and seat.connected

    def _limit(self, key: Key) -> float | None:
        return self.table.pass_s if key[0] == PASS else self.table.turn_s

    def message(self, needs: dict[int, Key] | None = None) -> M.Turn:
        """(1.4) Whose decision the table waits for, with each seat's time left."""
        if needs is None:
            needs = self.needs()
        game = self.table.game
        phase = PASS if game is not None and game.phase == PASS else "play"
        left = self.turns.left
        return M.Turn.trusted(phase=phase, seats=[[i, _ms(left(i))] for i in sorted(needs)])

    def _changed(self, needs: dict[int, Key]) -> None:
        """Tell everyone here when a decision or its clock started (or none is left)."""
        deadline = self.turns.deadline
        now = tuple((i, needs[i], deadline(i)) for i in sorted(needs))
        if now != self._said:
            # Remembered even when nobody here reads it, so that a 1.4 client who joins
            # hears a change from then on, not a repeat (it got the clock on joining).
            self._said = now
            if self.heard(M.Turn):
                self.broadcast(self.message(needs))

    def prompt(self, i: int) -> None:
        """Send `your_turn` to the person in seat i if they have a decision to make."""
        game = self.table.game
        seat = self.table.seats[i]
        if game is None or seat is None or seat.token is None or self.turns.decision[i] is None:
            return
        msg = prompt_for(game, i, self.turns.left(i))
        if msg is not None:
            self.send(seat.token, msg)

    def _expired(self, i: int, key: Key) -> None:
        """Seat i's timer ran out: a bot plays for them, and after `afk_limit` timeouts
        in a row it keeps the seat until the person acts again."""
        t = self.table
        seat = t.seats[i]
        if t.closed or seat is None or self.needs().get(i) != key:
            return
        log.info(
            "table {table} seat {seat} timed out ({n} in a row)",
            table=t.id,
            seat=i,
            n=seat.timeouts + 1,
        )
        if count_timeout(seat, self.afk_limit):
            t.seat_changed(i)
            t.seat_notice("timeouts_bot", i, count=seat.timeouts)
        t.autopilot.play_now(i, "timeout")
        t.after_change()


def _ms(seconds: float | None) -> float | None:
    """Seconds to the millisecond: the wire needs no more, and frames stay short."""
    return None if seconds is None else round(seconds, 3)
