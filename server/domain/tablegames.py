"""A table's games begin and end here: the host's start, the rematch vote, a game the
server runs itself (a tournament's), and the finished game stored.

Whether an event may happen in the table's state is `leekha.server.domain.lifecycle`'s to say;
a refusal is a `not_ready` error naming the rule. A new game is announced twice over, a
snapshot to every member and then `dealt` (docs/protocol.md §7); a finished one is stored
with its facts and ratings (`leekha.server.domain.standing`) before anyone hears of the result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from twisted.logger import Logger

from leekha.common.config import RulesConfig
from leekha.common.errors import Facts
from leekha.common.events import Event
from leekha.common.game import Game
from leekha.protocol.message import Message
from leekha.protocol.notices import RULES, english
from leekha.server.domain import lifecycle as L
from leekha.server.domain.autopilot import Autopilot
from leekha.server.domain.clock import Clock
from leekha.server.domain.errors import Refused
from leekha.server.domain.lifecycle import FINISHED, Status
from leekha.server.domain.persistence import Store
from leekha.server.domain.seats import Room, Seat
from leekha.server.domain.standing import store_finished
from leekha.server.domain.turns import Turns

log = Logger()


def not_ready(rule: str, args: Facts | None = None) -> None:
    """Refuse with `not_ready`, the rule (leekha.protocol.notices.RULES) and its facts."""
    args = args or {}
    raise Refused("not_ready", english(RULES[rule], args), rule=rule, args=args)


class Played(Protocol):
    """The table as its games see it."""

    id: int
    name: str
    status: Status
    config: RulesConfig
    game: Game | None
    game_no: int
    seed: int | None
    room: Room
    rematch_votes: set[int]
    finishers: list[str | None]
    tournament: int | None
    autopilot: Autopilot
    turns: Turns

    def seat_changed(self, i: int) -> None: ...

    def members(self) -> list[tuple[str, int | None]]: ...

    def send(self, token: str, msg: Message) -> None: ...

    def snapshot(self, token: str, re: int | None = None) -> Message: ...

    def tell(self, events: Sequence[Event], game_id: int | None = None) -> None: ...

    def after_change(self) -> None: ...

    def listing_changed(self) -> None: ...

    def finished(self, game_id: int) -> None: ...

    def free_absent(self, token: str) -> None: ...


class Games:
    """Starting and ending the games of one table."""

    def __init__(
        self, table: Played, clock: Clock, store: Store, new_seed: Callable[[], int]
    ) -> None:
        self.table = table
        self.clock = clock
        self.store = store
        self.new_seed = new_seed

    def check(self, event: L.Event) -> None:
        reason = L.refusal(self.table.status, event, self.table.room.empty())
        if reason is not None:
            not_ready(*reason)

    def rematch(self, token: str) -> None:
        """A seated person's vote; the game starts once every seated person has voted.
        Votes stand while a freed seat is filled again."""
        t = self.table
        i = t.room.seat_of(token)
        if i is None:
            raise Refused("not_seated", "only seated players vote for a rematch")
        if t.tournament is not None:
            not_ready("tournament_one_game")
        self.check("rematch")
        t.rematch_votes.add(i)
        self.maybe_rematch()

    def maybe_rematch(self) -> None:
        t = self.table
        if not t.rematch_votes or L.refusal(t.status, "rematch", t.room.empty()):
            return
        voters = {j for j, s in enumerate(t.room.seats) if s is not None and not s.autopilot}
        if voters <= t.rematch_votes:
            self.new_game()

    def run(self, seats: Sequence[Seat], seed: int) -> None:
        """Seat four players and start a game with a given seed, with no host: a game
        the server runs itself (a tournament's)."""
        for i, seat in enumerate(seats):
            self.table.room.seats[i] = seat
            self.table.seat_changed(i)
        self.check("start")
        self.new_game(seed)

    def new_game(self, seed: int | None = None) -> None:
        t = self.table
        event: L.Event = "rematch" if t.status == FINISHED and t.rematch_votes else "start"
        t.status = L.next_state(t.status, event)
        t.game_no += 1
        t.seed = self.new_seed() if seed is None else seed
        game = t.game = Game(t.config, t.seed)
        t.rematch_votes.clear()
        t.autopilot.new_game(t.seed)
        t.turns.forget_all()
        self.store.start_game(t.id, t.game_no, t.seed)
        log.info("table {table} starts game {game_no}", table=t.id, game_no=t.game_no)
        t.listing_changed()
        # Every member learns the new game twice over: a snapshot (status, seats, view)
        # then `dealt`, which begins every round, round 0 included (docs/protocol.md §7).
        for token, _seat in t.members():
            t.send(token, t.snapshot(token))
        t.tell([game.dealt])
        t.after_change()

    def store_finished(self) -> int:
        """The engine says the game is over: store it (its id goes out in `game_over`)."""
        t = self.table
        game = t.game
        assert game is not None and game.outcome is not None
        return store_finished(
            self.store, game, t.room.seats, table=t.name, table_id=t.id, game_no=t.game_no
        )

    def finish(self, game_id: int) -> None:
        """After everyone heard `game_over`: let the table be reused."""
        t = self.table
        t.status = L.next_state(t.status, "game_over")
        seats = t.room.seats
        t.finishers = [s.token if s is not None and not s.away else None for s in seats]
        t.finished(game_id)
        for seat in seats:
            if seat is not None and seat.token is not None and seat.away:
                # Gone past the grace period: free the seat so the table can be reused.
                self.clock.callLater(0, t.free_absent, seat.token)
        log.info("table {table} game over, stored as game {game_id}", table=t.id, game_id=game_id)
        t.listing_changed()
