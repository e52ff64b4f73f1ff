"""One table: the authoritative game, its members, and what each member is told.

The engine is the only source of truth. Every client action is checked by the engine,
stored, and only then broadcast; every message a member receives is built from that
member's own seat view, so a hidden card can only reach its owner. The table holds the
state and runs the game; its jobs are collaborators beside it: who sits where and comes
and goes (`tablepeople`), whose decision is pending with its timer and prompt
(`tableclock`), the chat (`tablechat`), the server bots (`autopilot`), the states a table
goes through (`lifecycle`) and what a finished game stores (`standing`).

Over 400 lines because what is left here is the one order of a commit: the engine's
check, the store, then each member's message from their own view. Every piece split off
so far took a job that reads the table's state without changing that order; the rest
would split the order itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from twisted.logger import Logger

from leekha.common.actions import Action, from_dict
from leekha.common.config import RulesConfig
from leekha.common.errors import Fact, LeekhaError
from leekha.common.events import Event, RoundScored
from leekha.common.game import OVER, Game, replay
from leekha.protocol import catalogue as M
from leekha.protocol.message import Message
from leekha.protocol.views import SeatViewDict, TableSummary
from leekha.server.domain import tableview, wire_events
from leekha.server.domain.autopilot import Actions, Autopilot, Think, think_inline
from leekha.server.domain.clock import Clock
from leekha.server.domain.errors import Refused, StoreFailed
from leekha.server.domain.lifecycle import FINISHED, PLAYING
from leekha.server.domain.persistence import Store, TableRow
from leekha.server.domain.seats import DEFAULT_BOT, Room, Seat
from leekha.server.domain.tablechat import TableChat
from leekha.server.domain.tableclock import TurnClock
from leekha.server.domain.tablegames import Games
from leekha.server.domain.tablepeople import People
from leekha.server.domain.turns import Key

log = Logger()


class TableHub(Protocol):
    """What a table needs from the lobby that owns it."""

    store: Store

    def deliver(self, token: str, msg: Message) -> None: ...

    def deliver_all(self, token: str, msgs: Sequence[Message]) -> None: ...

    def hears(self, token: str, msg: type[Message]) -> bool: ...

    def table_changed(self, table: Table) -> None: ...

    def table_closed(self, table: Table) -> None: ...

    def new_seed(self) -> int: ...

    def release(self, token: str, table: Table) -> None: ...


class TableWatcher(Protocol):
    """Who runs a table's games itself (a tournament): it hears each move the server
    made for a seat and each finished game, before anyone can act on the result."""

    def server_moved(self, table: Table, seat: int, moves: int) -> None: ...

    def game_finished(self, table: Table, game_id: int) -> None: ...


@dataclass
class TableOptions:
    bot_think_s: float
    seat_grace_s: float
    afk_limit: int
    think: Think = think_inline
    #: The turn timers' clock: on a server, one `timers.Deadlines` for all; None: `clock`.
    turn_timers: Clock | None = None


class Table:
    def __init__(self, hub: TableHub, clock: Clock, options: TableOptions, row: TableRow,
                 config: RulesConfig | None = None):  # fmt: skip
        self.hub = hub
        self.clock = clock
        self.options = options
        self.id = row.id
        self.name = row.name
        self.host_token = row.host_token
        self.host_name = row.host_name
        self.preset = row.preset
        self.config = config if config is not None else RulesConfig.from_dict(row.rules)  # stored
        self.password = row.password
        self.pass_s = row.pass_s
        self.turn_s = row.turn_s
        #: (1.2) false: the host forbids the clients' card-counting aid.
        self.counting_aid = row.counting_aid
        self.status = row.status
        self.game_no = row.game_no
        self.seed = row.seed
        self.room = Room()
        self.game: Game | None = None
        self.rematch_votes: set[int] = set()
        #: The token in each seat when the last game ended (None: a bot or an absent person
        #: finished it); anyone else in that seat sees the finished game as a spectator.
        self.finishers: list[str | None] = [None] * 4
        #: While a person's move is told (`act`): what each member hears of it, held so
        #: that the events, the next `your_turn` and the `turn` go to each connection as
        #: one batch (`_release`). None: every message is delivered as it is sent.
        self._held: dict[str, list[Message]] | None = None
        self.chat = TableChat(self.id, hub.store, self.members, self.send)
        # Not `or`: an empty Deadlines is falsy (it has a length).
        timers = options.turn_timers if options.turn_timers is not None else clock
        self.turn_clock = TurnClock(
            self, timers, options.afk_limit, self.send, self._broadcast, self._heard
        )
        self.turns = self.turn_clock.turns
        self.people = People(self, clock, options.seat_grace_s)
        self.autopilot = Autopilot(self, clock, options.bot_think_s, options.think)
        self.autopilot.new_game(self.seed or 0)
        self.closed = False
        #: The tournament whose game this table plays (the server seats it, starts it
        #: with the game's seed and takes the players back after one game), or None.
        self.tournament: int | None = None
        self.watcher: TableWatcher | None = None
        #: Called after each round is scored (the next not yet decided by anyone, or the
        #: game over): quick play seats waiting people in bot seats then.
        self.between_rounds: Callable[[Table], None] | None = None
        # The seat bookkeeping, as the table's own requests.
        self.check_password = self.people.check_password
        self.sit = self.people.sit
        self.spectate = self.people.spectate
        self.leave = self.people.leave
        self.disconnected = self.people.disconnected
        self.add_bot = self.people.add_bot
        self.take_bot_seat = self.people.take_bot_seat
        self.remove_bot = self.people.remove_bot
        self.games = Games(self, clock, hub.store, lambda: self.hub.new_seed())
        self.rematch = self.games.rematch
        self.run = self.games.run

    @property
    def seats(self) -> list[Seat | None]:
        return self.room.seats

    @property
    def spectators(self) -> set[str]:
        return self.room.spectators

    # ---- construction and restore ------------------------------------------------------
    def to_row(self) -> TableRow:
        return TableRow(
            id=self.id,
            name=self.name,
            host_token=self.host_token,
            host_name=self.host_name,
            preset=self.preset,
            rules=self.config.to_dict(),
            password=self.password,
            pass_s=self.pass_s,
            turn_s=self.turn_s,
            status=self.status,
            game_no=self.game_no,
            seed=self.seed,
            counting_aid=self.counting_aid,
        )

    def restore(self, row: TableRow) -> None:
        """Rebuild seats and the game from a stored row; every human starts disconnected."""
        for i, s in enumerate(row.seats):
            if s is not None:
                self.seats[i] = Seat(s.name, s.token, s.strategy or DEFAULT_BOT)
        self.chat.restore()
        if self.status in (PLAYING, FINISHED) and self.seed is not None:
            self.game = replay(self.config, self.seed, row.actions)
            self.finishers = [s.token if s is not None else None for s in self.seats]
        for i, seat in enumerate(self.seats):
            if seat is not None and not seat.is_bot:
                self.people.start_grace(i)
        self.after_change()

    # ---- who is here, and what they hear -----------------------------------------------
    def seat(self, i: int) -> Seat | None:
        return self.seats[i]

    def seat_of(self, token: str) -> int | None:
        return self.room.seat_of(token)

    def members(self) -> list[tuple[str, int | None]]:
        return self.room.members()

    def humans(self) -> list[int]:
        return self.room.humans()

    def tokens(self) -> list[str]:
        out = [s.token for s in self.seats if s is not None and s.token]
        if self.host_token:
            out.append(self.host_token)
        return out

    def send(self, token: str, msg: Message) -> None:
        held = self._held
        if held is not None and token in held:
            held[token].append(msg)  # after what it holds for them: the order sent
        else:
            self.hub.deliver(token, msg)

    def _broadcast(self, msg: Message) -> None:
        held = self._held
        deliver = self.hub.deliver
        for token, _ in self.members():
            if held is not None and token in held:
                held[token].append(msg)
            else:
                deliver(token, msg)

    def _release(self) -> None:
        """Deliver what `act` held, each member's in one call, and stop holding. Called
        before anything that reaches members other than through this table's `send`,
        `_broadcast` and `tell` (the lobby's listing, a finished game, quick play), so
        that nothing overtakes what was held."""
        held, self._held = self._held, None
        if held:
            deliver_all = self.hub.deliver_all
            for token, msgs in held.items():
                deliver_all(token, msgs)

    def _heard(self, msg: type[Message]) -> bool:
        """Whether anyone here would be sent a message of this type (`Message.SINCE`).
        A loop, not `any()` over a generator: this runs at every move, and each step of a
        generator is one more Python call."""
        hears = self.hub.hears
        for token, _ in self.members():  # noqa: SIM110
            if hears(token, msg):
                return True
        return False

    def say(self, sender: str, text: str) -> None:
        """A line in the table's chat: everyone here hears it, and later comers too."""
        self.chat.say(sender, text)

    def notice(self, code: str, **args: Fact) -> None:
        """One of the server's own lines (leekha.protocol.notices): everyone here hears its
        code and facts, later comers too; `text` is the English for older clients."""
        self.chat.notice(code, args)

    def seat_notice(self, code: str, i: int, **args: Fact) -> None:
        seat = self.seats[i]
        self.notice(code, name=seat.name if seat is not None else "", seat=i, **args)

    def replay_chat(self, token: str) -> None:
        """The last lines of the table's chat and the running clock, for someone who just
        joined, watched or came back (after their snapshot)."""
        if not self.closed and (self.seat_of(token) is not None or token in self.spectators):
            self.chat.replay(token)
            self._send_clock(token)

    def _send_clock(self, token: str) -> None:
        """The running clock (`turn`) to one member, when its connection reads it (1.4):
        it is not built for one that would drop it."""
        if self.hub.hears(token, M.Turn):
            self.send(token, self.clock_message())

    def listing_changed(self) -> None:
        self.hub.table_changed(self)

    def release(self, token: str) -> None:
        self.hub.release(token, self)

    # ---- what the table looks like (leekha.server.domain.tableview) ---------------------------
    def summary(self) -> TableSummary:
        return tableview.summary(self)

    def view(self, seat: int | None) -> SeatViewDict | None:
        return tableview.view(self, seat)

    def snapshot(self, token: str, re: int | None = None) -> M.Snapshot:
        return tableview.snapshot(self, token, re)

    def seat_changed(self, i: int) -> None:
        s = self.seats[i]
        self.hub.store.save_seat(self.id, i, s.row() if s is not None else None)
        player = self.room.player_info(i, self.host_token)
        self._broadcast(M.SeatUpdate(table_id=self.id, seat=i, player=player))
        self.hub.table_changed(self)

    def make_host(self, i: int) -> None:
        seat = self.seats[i]
        assert seat is not None
        self.host_token, self.host_name = seat.token, seat.name
        self.hub.store.save_table(self.to_row())

    # ---- closing -----------------------------------------------------------------------
    def close(self) -> None:
        """Remove the table: no humans are left to play or watch."""
        if self.closed:
            return
        self.closed = True
        self._stop_clocks()
        self.hub.store.delete_table(self.id)
        self.hub.table_closed(self)

    def _stop_clocks(self) -> None:
        self.turns.cancel_all()
        for s in self.seats:
            if s is not None:
                s.cancel_grace()
        self.autopilot.stop()

    def shutdown(self) -> None:
        """Stop every clock without touching stored state (server shutdown or crash test)."""
        self.closed = True
        self._stop_clocks()

    def reconnected(self, token: str) -> None:
        """The player is back (`People.reconnected`); a timer that kept running keeps its
        deadline, and they are prompted again with what is left of it."""
        if self.people.reconnected(token):
            i = self.seat_of(token)
            if i is not None:
                self.turn_clock.prompt(i)

    # ---- starting and ending games (leekha.server.domain.tablegames) -------------------------
    def start(self, token: str) -> None:
        self.people.require_host(token)
        self.games.check("start")
        self.games.new_game()

    def maybe_rematch(self) -> None:
        self.games.maybe_rematch()

    def finished(self, game_id: int) -> None:
        if self.watcher is not None:
            self.watcher.game_finished(self, game_id)

    def free_absent(self, token: str) -> None:
        self.people.free_absent(token)

    # ---- actions -----------------------------------------------------------------------
    def act(self, token: str, action: Callable[[int], Action]) -> None:
        """A human's action, made for their seat here (never one the client names)."""
        i = self.seat_of(token)
        if i is None:
            raise Refused("not_seated", "you are not seated at this table")
        if self.game is None or self.status != PLAYING:
            raise Refused("wrong_phase", "no game is running at this table")
        try:
            made = action(i)
        except LeekhaError as exc:
            raise Refused.of(exc) from None
        # Hold what members hear until the clock has followed: a move then costs each
        # member one delivery (events, prompt and turn), not one per message. `_release`
        # ends it at the first step that could reach them another way, and at the latest
        # here: all of it is queued before `act` returns, as when each message went at
        # once (the request's reply still goes in front of it: handlers.py).
        self._held = {}
        try:
            self.commit(made)
            seat = self.seats[i]
            if seat is not None:
                seat.timeouts = 0
                if seat.afk:
                    self._release()
                    self._take_back(i)
            self.after_change()
        finally:
            if self._held is not None:
                self._release()

    def human_active(self, token: str) -> None:
        """Any request from a seated player shows they are back at the keyboard."""
        i = self.seat_of(token)
        seat = self.seats[i] if i is not None else None
        if i is not None and seat is not None and seat.afk:
            seat.timeouts = 0
            self.turns.forget(i)
            self._take_back(i)
            self.after_change()

    def _take_back(self, i: int) -> None:
        """The person acted: the seat a bot played for their timeouts is theirs again."""
        seat = self.seats[i]
        assert seat is not None
        seat.afk = False
        self.seat_changed(i)
        self.seat_notice("took_back", i)

    def commit(self, action: Action | Mapping[str, object]) -> None:
        """Apply, store, then tell: an action nobody could store never happened."""
        game = self.game
        assert game is not None
        try:
            events = game.apply(action)
        except LeekhaError as exc:
            raise Refused.of(exc) from None
        stored = game.actions[-1]
        try:
            self.hub.store.append_action(self.id, self.game_no, len(game.actions) - 1, stored)
        except StoreFailed:  # logged once; the server fail-stops (leekha.server.domain.outbox)
            self.game = replay(self.config, game.seed, game.actions[:-1])
            raise
        except Exception:
            # Unstored means uncommitted: rebuild the game without the action.
            log.failure("table {table}: cannot store an action", table=self.id)
            self.game = replay(self.config, game.seed, game.actions[:-1])
            raise Refused("internal", "the server could not store your move") from None
        game_id = self.games.store_finished() if game.phase == OVER else None
        self.tell(events, game_id)  # game_over names the stored game
        if game_id is not None:
            self._release()
            self.games.finish(game_id)
        if self.between_rounds is not None and any(isinstance(e, RoundScored) for e in events):
            self._release()
            self.between_rounds(self)  # after the last round too: the table is finished

    def tell(self, events: Sequence[Event], game_id: int | None = None) -> None:
        """Each member hears the engine's events through its own seat (wire_events), as
        one batch for its connection."""
        members = self.members()
        told = wire_events.for_members(events, (seat for _, seat in members), game_id)
        held = self._held
        if held is not None:  # a person's move (`act`): the clock's lines join them
            for token, seat in members:
                msgs = told[seat]
                if not msgs:
                    continue
                if token in held:
                    held[token] += msgs
                else:
                    held[token] = [*msgs]  # a copy: members may share one list
            return
        deliver_all = self.hub.deliver_all
        for token, seat in members:
            msgs = told[seat]
            if msgs:
                deliver_all(token, msgs)

    # ---- decisions, timers and bots ----------------------------------------------------
    def needs(self) -> dict[int, Key]:
        return self.turn_clock.needs()

    def after_change(self) -> None:
        """Prompt humans with a new decision, arm their timers, and wake the bots."""
        if self.closed:
            return
        needs = self.turn_clock.follow()
        if self._held is not None:  # a person's move is told in full before any bot moves
            self._release()
        self.autopilot.wake(needs)

    def clock_message(self) -> M.Turn:
        """(1.4) Whose decision the table waits for, with each seat's time left."""
        return self.turn_clock.message()

    def prompt(self, i: int) -> None:
        """Send `your_turn` to the human in seat i if they have a decision to make."""
        self.turn_clock.prompt(i)

    def server_moved(self, i: int, actions: Actions, why: str) -> None:
        """The server acted for seat i. A person is told what was played for them and
        why; `pass_done` does not say which cards left their hand, so after a pass their
        seat also gets a fresh snapshot that does."""
        if self.watcher is not None:
            self.watcher.server_moved(self, i, len(actions))
        seat = self.seats[i]
        game = self.game
        if game is None or seat is None or seat.token is None:
            return
        if why == "timeout":
            for action in actions:
                self.send(seat.token, self.chat.timeout_line(from_dict(action)))
        if any(a["kind"] == "pass" for a in actions) and game.phase != OVER:
            self.send(seat.token, self.snapshot(seat.token))
            self._send_clock(seat.token)
