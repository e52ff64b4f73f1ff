"""Who plays a table's seats, and what happens when people come, go, drop and return.

Joining, watching, leaving, the host's bot seats, a dropped person's grace period and
their return are all seat bookkeeping: they change who holds a seat and tell the table,
which then stores the seat, tells everyone and moves the game on (`Host`). A seat given
up mid-game passes to a stand-in bot (leekha.server.domain.lifecycle), so a game never stalls
for someone who is gone; a person who drops keeps the seat through the grace period,
and after it a server bot plays for them until they come back.
"""

from __future__ import annotations

from typing import Protocol

from twisted.logger import Logger

from leekha.common.errors import Fact
from leekha.protocol.message import Message
from leekha.server.domain import lifecycle as L
from leekha.server.domain.clock import Clock
from leekha.server.domain.errors import Refused
from leekha.server.domain.lifecycle import PLAYING, Status
from leekha.server.domain.seats import (
    DEFAULT_BOT,
    Room,
    Seat,
    bot_strategy_name,
    password_matches,
    stand_in_name,
)
from leekha.server.domain.tablegames import not_ready
from leekha.server.domain.turns import Turns

log = Logger()


class Host(Protocol):
    """The table as its seat bookkeeping sees it."""

    id: int
    status: Status
    closed: bool
    host_token: str | None
    password: str | None
    tournament: int | None
    room: Room
    rematch_votes: set[int]
    turns: Turns

    def seat_changed(self, i: int) -> None: ...

    def listing_changed(self) -> None: ...

    def release(self, token: str) -> None: ...

    def make_host(self, i: int) -> None: ...

    def notice(self, code: str, **args: Fact) -> None: ...

    def seat_notice(self, code: str, i: int, **args: Fact) -> None: ...

    def after_change(self) -> None: ...

    def maybe_rematch(self) -> None: ...

    def close(self) -> None: ...

    def send(self, token: str, msg: Message) -> None: ...

    def snapshot(self, token: str, re: int | None = None) -> Message: ...


class People:
    """The seat bookkeeping of one table."""

    def __init__(self, table: Host, clock: Clock, grace_s: float) -> None:
        self.table = table
        self.clock = clock
        self.grace_s = grace_s

    @property
    def seats(self) -> list[Seat | None]:
        return self.table.room.seats

    # ---- joining and leaving -----------------------------------------------------------
    def check_password(self, given: str | None) -> None:
        if not password_matches(self.table.password, given):
            raise Refused("bad_password", "wrong or missing table password")

    def sit(self, token: str, name: str, seat: int | None) -> int:
        t = self.table
        if t.tournament is not None:
            raise Refused("table_full", "a tournament seats its own players; spectate instead")
        seat = t.room.free_seat(seat, t.status == PLAYING)
        t.room.spectators.discard(token)
        self.seats[seat] = Seat(name, token, connected=True)
        if t.room.seat_of(t.host_token or "") is None:
            t.make_host(seat)  # nobody seated hosts: the newcomer takes the controls
        t.seat_changed(seat)
        t.maybe_rematch()
        return seat

    def spectate(self, token: str) -> None:
        self.table.room.spectators.add(token)
        self.table.listing_changed()

    def leave(self, token: str) -> None:
        """A member gives up their place; a seat in a running game passes to a bot."""
        t = self.table
        if token in t.room.spectators:
            t.room.spectators.discard(token)
            t.listing_changed()
        i = t.room.seat_of(token)
        if i is not None:
            seat = self.seats[i]
            assert seat is not None
            seat.cancel_grace()
            t.rematch_votes.discard(i)
            if L.leaving_gives_seat_to_bot(t.status):
                self.seats[i] = Seat(stand_in_name(seat.name), None, DEFAULT_BOT, connected=True)
                t.notice("left_bot", name=seat.name, seat=i)
            else:
                self.seats[i] = None
                t.notice("left", name=seat.name, seat=i)
            t.seat_changed(i)
            t.turns.forget(i)
            t.after_change()
        if token == t.host_token:
            self._pass_host()
        if self.deserted():
            t.close()
        else:
            t.maybe_rematch()

    def _pass_host(self) -> None:
        """The host left: the next seated human inherits the host controls."""
        for i in self.table.room.humans():
            self.table.make_host(i)
            self.table.seat_changed(i)
            return

    def deserted(self) -> bool:
        """Nobody is left to play or watch, and no server-run game is still on (a
        tournament's game is played out by its bots whoever leaves)."""
        t = self.table
        return t.room.deserted() and not (t.tournament is not None and t.status == PLAYING)

    # ---- connection state --------------------------------------------------------------
    def disconnected(self, token: str) -> None:
        t = self.table
        if t.closed:
            return
        if token in t.room.spectators:
            t.room.spectators.discard(token)
            t.listing_changed()
            if self.deserted():
                t.close()
        i = t.room.seat_of(token)
        if i is None:
            return
        seat = self.seats[i]
        assert seat is not None
        seat.connected = False
        self.start_grace(i)
        t.seat_changed(i)
        t.seat_notice("dropped", i, grace=round(self.grace_s))

    def reconnected(self, token: str) -> bool:
        """The player is back: the seat is theirs again from their next decision, even
        from a stand-in bot after the grace period. True when their timer still runs
        (the table prompts them again: a reconnect earns no extra time)."""
        t = self.table
        if t.closed:
            return False
        i = t.room.seat_of(token)
        if i is None:
            return False
        seat = self.seats[i]
        assert seat is not None
        seat.cancel_grace()
        seat.connected = True
        t.seat_notice("back_from_bot" if seat.autopilot else "back", i)
        seat.away = False
        if seat.afk:  # coming back is activity: the seat is theirs again at once
            seat.afk = False
            seat.timeouts = 0
            t.turns.forget(i)
        running = t.turns.running(i)
        if not running:
            t.turns.forget(i)  # re-prompt and re-arm from scratch
        t.seat_changed(i)
        t.after_change()
        return running

    def start_grace(self, i: int) -> None:
        seat = self.seats[i]
        assert seat is not None
        seat.cancel_grace()
        seat.grace = self.clock.callLater(self.grace_s, self._grace_over, i)

    def _grace_over(self, i: int) -> None:
        t = self.table
        seat = self.seats[i]
        if seat is None or seat.connected:
            return
        seat.grace = None
        if not L.keeps_absent_seat(t.status) and seat.token is not None:
            self.free_absent(seat.token)
            return
        seat.away = True
        log.info("table {table} seat {seat}: grace over, a bot plays", table=t.id, seat=i)
        t.seat_notice("away_bot", i)
        t.seat_changed(i)
        t.after_change()

    def free_absent(self, token: str) -> None:
        """Nobody waits for an absent player outside a game: free the seat."""
        t = self.table
        i = t.room.seat_of(token)
        seat = self.seats[i] if i is not None else None
        if t.closed or seat is None or seat.connected or L.keeps_absent_seat(t.status):
            return
        t.release(token)
        self.leave(token)

    # ---- the host's bot seats ----------------------------------------------------------
    def require_host(self, token: str) -> None:
        if token != self.table.host_token:
            raise Refused("not_host", "only the table's host may do this")

    def add_bot(self, token: str, seat: int, strategy: str) -> None:
        self.require_host(token)
        name = bot_strategy_name(strategy)
        if self.seats[seat] is not None:
            raise Refused("seat_taken", f"seat {seat} is taken")
        self.seats[seat] = Seat(f"{name} bot {seat}", None, name, connected=True)
        self.table.seat_changed(seat)
        self.table.maybe_rematch()

    def take_bot_seat(self, i: int, token: str, name: str) -> None:
        """A spectating person takes seat i from its bot (quick play, between rounds): the
        game goes on with them, and they get the seat's view and, if due, their prompt."""
        t = self.table
        seat = self.seats[i]
        if seat is None or not seat.is_bot or token not in t.room.spectators:
            raise Refused("seat_taken", f"seat {i} is not a bot's")
        t.room.spectators.discard(token)
        self.seats[i] = Seat(name, token, connected=True)
        t.turns.forget(i)
        t.seat_changed(i)
        t.send(token, t.snapshot(token))  # the caller's after_change prompts them

    def remove_bot(self, token: str, seat: int) -> None:
        self.require_host(token)
        s = self.seats[seat]
        if s is None or not s.is_bot:
            raise Refused("no_such_bot", f"no bot in seat {seat}")
        if self.table.status == PLAYING:
            not_ready("bots_in_game")
        self.seats[seat] = None
        self.table.seat_changed(seat)
