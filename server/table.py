"""One table: the authoritative game, its members, and what each member is told.

The engine is the only source of truth. Every client action is checked by the engine,
stored, and only then broadcast; every message a member receives is built from that
member's own seat view, so a hidden card can only reach its owner. The jobs around the
game live beside this module: who sits where (`seats`), whose decision is pending and its
timer (`turns`), the server bots (`autopilot`) and the states a table goes through
(`lifecycle`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from twisted.logger import Logger

from leekha.common import cards as C
from leekha.common.config import RulesConfig
from leekha.common.errors import LeekhaError
from leekha.common.events import Event, RoundScored
from leekha.common.game import OVER, PASS, Game, replay
from leekha.common.record import GameRecord
from leekha.common.view import seat_view
from leekha.protocol import catalogue as M
from leekha.protocol.message import Message
from leekha.protocol.notices import NOTICES, RULES, english
from leekha.server import lifecycle as L
from leekha.server import wire_events
from leekha.server.autopilot import Actions, Autopilot, Think, think_inline
from leekha.server.clock import Clock
from leekha.server.errors import Refused, StoreFailed
from leekha.server.lifecycle import FINISHED, PLAYING, WAITING
from leekha.server.persistence import Store, TableRow
from leekha.server.seats import (
    DEFAULT_BOT,
    WIRE_NAME_MAX,
    Room,
    Seat,
    bot_strategy_name,
    hash_password,
    password_matches,
    stand_in_name,
)
from leekha.server.standing import record_finished
from leekha.server.turns import Key, Turns, count_timeout, pending, prompt_for

__all__ = [
    "CHAT_REPLAY",
    "FINISHED",
    "PLAYING",
    "SYSTEM_SENDER",
    "WAITING",
    "WIRE_NAME_MAX",
    "Table",
    "TableHub",
    "TableOptions",
    "TableWatcher",
    "hash_password",
]

log = Logger()

#: The `from` of the server's own lines in a table's chat; no player may take this name.
SYSTEM_SENDER = "*"
#: Table chat lines replayed to whoever joins or resumes.
CHAT_REPLAY = 50


class TableHub(Protocol):
    """What a table needs from the lobby that owns it."""

    store: Store

    def deliver(self, token: str, msg: Message) -> None: ...

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


class Table:
    def __init__(self, hub: TableHub, clock: Clock, options: TableOptions, row: TableRow):
        self.hub = hub
        self.clock = clock
        self.options = options
        self.id = row.id
        self.name = row.name
        self.host_token = row.host_token
        self.host_name = row.host_name
        self.preset = row.preset
        self.config = RulesConfig.from_dict(row.rules)
        self.password = row.password
        self.pass_s = row.pass_s
        self.turn_s = row.turn_s
        #: (1.2) false: the host forbids the clients' card-counting aid. Not in the table's
        #: row, so a table restored after a restart allows it again.
        self.counting_aid = True
        self.status = row.status
        self.game_no = row.game_no
        self.seed = row.seed
        self.room = Room()
        self.game: Game | None = None
        self.rematch_votes: set[int] = set()
        #: The token in each seat when the last game ended (None: a bot or an absent person
        #: finished it); anyone else in that seat sees the finished game as a spectator.
        self.finishers: list[str | None] = [None] * 4
        self.chat_log: deque[M.ChatMessage] = deque(maxlen=CHAT_REPLAY)
        self.turns = Turns(clock, self._timed_out)
        #: The decisions and deadlines the last `turn` told everyone about.
        self._clock_said: tuple[Any, ...] | None = None
        self.autopilot = Autopilot(self, clock, options.bot_think_s, options.think)
        self.autopilot.new_game(self.seed or 0)
        self.closed = False
        #: The tournament whose game this table plays (the server seats it, starts it
        #: with the game's seed and takes the players back after one game), or None.
        self.tournament: int | None = None
        self.watcher: TableWatcher | None = None
        #: Called between two rounds of a game (the last round scored, the next not yet
        #: decided by anyone): quick play seats waiting people in bot seats then.
        self.between_rounds: Callable[[Table], None] | None = None

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
        )

    def restore(self, row: TableRow) -> None:
        """Rebuild seats and the game from a stored row; every human starts disconnected."""
        for i, s in enumerate(row.seats):
            if s is not None:
                self.seats[i] = Seat(s.name, s.token, s.strategy or DEFAULT_BOT)
        for sender, text in self.hub.store.load_chat(self.id):
            self.chat_log.append(M.ChatMessage(sender=sender, text=text, table_id=self.id))
        if self.status in (PLAYING, FINISHED) and self.seed is not None:
            self.game = replay(self.config, self.seed, row.actions)
            self.finishers = [s.token if s is not None else None for s in self.seats]
        for i, seat in enumerate(self.seats):
            if seat is not None and not seat.is_bot:
                self._start_grace(i)
        self.after_change()

    # ---- who is here -------------------------------------------------------------------
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

    def _send(self, token: str, msg: Message) -> None:
        self.hub.deliver(token, msg)

    def _broadcast(self, msg: Message) -> None:
        for token, _ in self.members():
            self._send(token, msg)

    def say(self, sender: str, text: str) -> None:
        """A line in the table's chat: everyone here hears it, and later comers too."""
        msg = M.ChatMessage(sender=sender, text=text, table_id=self.id)
        self.chat_log.append(msg)
        self.hub.store.add_chat(self.id, sender, text, CHAT_REPLAY)
        self._broadcast(msg)

    def notice(self, code: str, **args: Any) -> None:
        """One of the server's own lines (leekha.protocol.notices): everyone here hears its
        code and facts, later comers too; `text` is the English for older clients."""
        text = english(NOTICES[code], args)
        msg = M.ChatMessage(sender=SYSTEM_SENDER, text=text, table_id=self.id, code=code, args=args)
        self.chat_log.append(msg)
        self.hub.store.add_chat(self.id, SYSTEM_SENDER, text, CHAT_REPLAY)
        self._broadcast(msg)

    def _seat_notice(self, code: str, i: int, **args: Any) -> None:
        seat = self.seats[i]
        self.notice(code, name=seat.name if seat is not None else "", seat=i, **args)

    def replay_chat(self, token: str) -> None:
        """The last lines of the table's chat and the running clock, for someone who just
        joined, watched or came back (after their snapshot)."""
        if not self.closed and (self.seat_of(token) is not None or token in self.spectators):
            for msg in self.chat_log:
                self._send(token, msg)
            self._send(token, self.clock_message())

    # ---- summaries ---------------------------------------------------------------------
    def _timer_value(self, seconds: float | None) -> int | None:
        if not seconds:
            return None
        return max(1, min(3600, round(seconds)))

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "host": self.host_name,
            "preset": self.preset,
            "rules": self.config.to_dict(),
            "seats": [self.room.seat_info(i) for i in range(4)],
            "spectators": len(self.spectators),
            "status": self.status,
            "has_password": self.password is not None,
            "timers": {
                "pass_s": self._timer_value(self.pass_s),
                "turn_s": self._timer_value(self.turn_s),
            },
            "counting_aid": self.counting_aid,
        }

    def player_info(self, i: int) -> dict[str, Any]:
        return self.room.player_info(i, self.host_token)

    def view(self, seat: int | None) -> dict[str, Any] | None:
        """The member's seat view, or None before the first deal."""
        return seat_view(self.game, seat).to_dict() if self.game is not None else None

    def snapshot(self, token: str, re: int | None = None) -> M.Snapshot:
        seat = self.seat_of(token)
        played = seat is not None and (self.status != FINISHED or self.finishers[seat] == token)
        return M.Snapshot(
            re=re,
            table=self.summary(),
            view=self.view(seat if played else None),
            your_seat=seat,
            players=[self.player_info(i) for i in range(4)],
        )

    def _seat_changed(self, i: int) -> None:
        s = self.seats[i]
        self.hub.store.save_seat(self.id, i, s.row() if s is not None else None)
        self._broadcast(M.SeatUpdate(table_id=self.id, seat=i, player=self.player_info(i)))
        self.hub.table_changed(self)

    # ---- joining and leaving -----------------------------------------------------------
    def check_password(self, given: str | None) -> None:
        if not password_matches(self.password, given):
            raise Refused("bad_password", "wrong or missing table password")

    def sit(self, token: str, name: str, seat: int | None) -> int:
        if self.tournament is not None:
            raise Refused("table_full", "a tournament seats its own players; spectate instead")
        seat = self.room.free_seat(seat, self.status == PLAYING)
        self.spectators.discard(token)
        self.seats[seat] = Seat(name, token, connected=True)
        if self.seat_of(self.host_token or "") is None:
            self._make_host(seat)  # nobody seated hosts: the newcomer takes the controls
        self._seat_changed(seat)
        self._maybe_rematch()
        return seat

    def spectate(self, token: str) -> None:
        self.spectators.add(token)
        self.hub.table_changed(self)

    def leave(self, token: str) -> None:
        """A member gives up their place; a seat in a running game passes to a bot."""
        if token in self.spectators:
            self.spectators.discard(token)
            self.hub.table_changed(self)
        i = self.seat_of(token)
        if i is not None:
            seat = self.seats[i]
            assert seat is not None
            seat.cancel_grace()
            self.rematch_votes.discard(i)
            if L.leaving_gives_seat_to_bot(self.status):
                self.seats[i] = Seat(stand_in_name(seat.name), None, DEFAULT_BOT, connected=True)
                self.notice("left_bot", name=seat.name, seat=i)
            else:
                self.seats[i] = None
                self.notice("left", name=seat.name, seat=i)
            self._seat_changed(i)
            self.turns.forget(i)
            self.after_change()
        if token == self.host_token:
            self._pass_host()
        if self._deserted():
            self.close()
        else:
            self._maybe_rematch()

    def _make_host(self, i: int) -> None:
        seat = self.seats[i]
        assert seat is not None
        self.host_token, self.host_name = seat.token, seat.name
        self.hub.store.save_table(self.to_row())

    def _pass_host(self) -> None:
        """The host left: the next seated human inherits the host controls."""
        for i in self.humans():
            self._make_host(i)
            self._seat_changed(i)
            return

    def _deserted(self) -> bool:
        """Nobody is left to play or watch, and no server-run game is still on (a
        tournament's game is played out by its bots whoever leaves)."""
        return self.room.deserted() and not (self.tournament is not None and self.status == PLAYING)

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

    # ---- connection state --------------------------------------------------------------
    def disconnected(self, token: str) -> None:
        if self.closed:
            return
        if token in self.spectators:
            self.spectators.discard(token)
            self.hub.table_changed(self)
            if self._deserted():
                self.close()
        i = self.seat_of(token)
        if i is None:
            return
        seat = self.seats[i]
        assert seat is not None
        seat.connected = False
        self._start_grace(i)
        self._seat_changed(i)
        self._seat_notice("dropped", i, grace=round(self.options.seat_grace_s))

    def reconnected(self, token: str) -> None:
        """The player is back: the seat is theirs again from their next decision, even
        from a stand-in bot after the grace period."""
        if self.closed:
            return
        i = self.seat_of(token)
        if i is None:
            return
        seat = self.seats[i]
        assert seat is not None
        seat.cancel_grace()
        seat.connected = True
        self._seat_notice("back_from_bot" if seat.autopilot else "back", i)
        seat.away = False
        if seat.afk:  # coming back is activity: the seat is theirs again at once
            seat.afk = False
            seat.timeouts = 0
            self.turns.forget(i)
        running = self.turns.running(i)
        if not running:
            self.turns.forget(i)  # re-prompt and re-arm from scratch
        self._seat_changed(i)
        self.after_change()
        if running:
            self.prompt(i)  # the running timer keeps its deadline: no free extra time

    def _start_grace(self, i: int) -> None:
        seat = self.seats[i]
        assert seat is not None
        seat.cancel_grace()
        seat.grace = self.clock.callLater(self.options.seat_grace_s, self._grace_over, i)

    def _grace_over(self, i: int) -> None:
        seat = self.seats[i]
        if seat is None or seat.connected:
            return
        seat.grace = None
        if not L.keeps_absent_seat(self.status) and seat.token is not None:
            self._free_absent(seat.token)
            return
        seat.away = True
        log.info("table {table} seat {seat}: grace over, a bot plays", table=self.id, seat=i)
        self._seat_notice("away_bot", i)
        self._seat_changed(i)
        self.after_change()

    def _free_absent(self, token: str) -> None:
        """Nobody waits for an absent player outside a game: free the seat."""
        i = self.seat_of(token)
        seat = self.seats[i] if i is not None else None
        if self.closed or seat is None or seat.connected or L.keeps_absent_seat(self.status):
            return
        self.hub.release(token, self)
        self.leave(token)

    # ---- host controls -----------------------------------------------------------------
    def _require_host(self, token: str) -> None:
        if token != self.host_token:
            raise Refused("not_host", "only the table's host may do this")

    def add_bot(self, token: str, seat: int, strategy: str) -> None:
        self._require_host(token)
        name = bot_strategy_name(strategy)
        if self.seats[seat] is not None:
            raise Refused("seat_taken", f"seat {seat} is taken")
        self.seats[seat] = Seat(f"{name} bot {seat}", None, name, connected=True)
        self._seat_changed(seat)
        self._maybe_rematch()

    def take_bot_seat(self, i: int, token: str, name: str) -> None:
        """A spectating person takes seat i from its bot (quick play, between rounds): the
        game goes on with them, and they get the seat's view and, if due, their prompt."""
        seat = self.seats[i]
        if seat is None or not seat.is_bot or token not in self.spectators:
            raise Refused("seat_taken", f"seat {i} is not a bot's")
        self.spectators.discard(token)
        self.seats[i] = Seat(name, token, connected=True)
        self.turns.forget(i)
        self._seat_changed(i)
        self._send(token, self.snapshot(token))  # the caller's after_change prompts them

    def remove_bot(self, token: str, seat: int) -> None:
        self._require_host(token)
        s = self.seats[seat]
        if s is None or not s.is_bot:
            raise Refused("no_such_bot", f"no bot in seat {seat}")
        if self.status == PLAYING:
            self._not_ready("bots_in_game")
        self.seats[seat] = None
        self._seat_changed(seat)

    def _check(self, event: L.Event) -> None:
        reason = L.refusal(self.status, event, self.room.empty())
        if reason is not None:
            self._not_ready(*reason)

    @staticmethod
    def _not_ready(rule: str, args: dict[str, Any] | None = None) -> None:
        args = args or {}
        raise Refused("not_ready", english(RULES[rule], args), rule=rule, args=args)

    def start(self, token: str) -> None:
        self._require_host(token)
        self._check("start")
        self._new_game()

    def rematch(self, token: str) -> None:
        """A seated person's vote; the game starts once every seated person has voted.
        Votes stand while a freed seat is filled again."""
        i = self.seat_of(token)
        if i is None:
            raise Refused("not_seated", "only seated players vote for a rematch")
        if self.tournament is not None:
            self._not_ready("tournament_one_game")
        self._check("rematch")
        self.rematch_votes.add(i)
        self._maybe_rematch()

    def _maybe_rematch(self) -> None:
        if not self.rematch_votes or L.refusal(self.status, "rematch", self.room.empty()):
            return
        voters = {j for j, s in enumerate(self.seats) if s is not None and not s.autopilot}
        if voters <= self.rematch_votes:
            self._new_game()

    def run(self, seats: Sequence[Seat], seed: int) -> None:
        """Seat four players and start a game with a given seed, with no host: a game
        the server runs itself (a tournament's)."""
        for i, seat in enumerate(seats):
            self.seats[i] = seat
            self._seat_changed(i)
        self._check("start")
        self._new_game(seed)

    def _new_game(self, seed: int | None = None) -> None:
        event: L.Event = "rematch" if self.status == FINISHED and self.rematch_votes else "start"
        self.status = L.next_state(self.status, event)
        self.game_no += 1
        self.seed = self.hub.new_seed() if seed is None else seed
        self.game = Game(self.config, self.seed)
        self.rematch_votes.clear()
        self.autopilot.new_game(self.seed)
        self.turns.forget_all()
        self.hub.store.start_game(self.id, self.game_no, self.seed)
        log.info("table {table} starts game {game_no}", table=self.id, game_no=self.game_no)
        self.hub.table_changed(self)
        # Every member learns the new game twice over: a snapshot (status, seats, view)
        # then `dealt`, which begins every round, round 0 included (docs/protocol.md §7).
        for token, _seat in self.members():
            self._send(token, self.snapshot(token))
        self._tell([self.game.dealt])
        self.after_change()

    # ---- actions -----------------------------------------------------------------------
    def act(self, token: str, action: dict[str, Any]) -> None:
        """A human's action: the seat comes from the token, never from the client."""
        i = self.seat_of(token)
        if i is None:
            raise Refused("not_seated", "you are not seated at this table")
        if self.game is None or self.status != PLAYING:
            raise Refused("wrong_phase", "no game is running at this table")
        action["seat"] = i
        self.commit(action)
        seat = self.seats[i]
        if seat is not None:
            seat.timeouts = 0
            if seat.afk:
                self._take_back(i)
        self.after_change()

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
        self._seat_changed(i)
        self._seat_notice("took_back", i)

    def commit(self, action: Mapping[str, Any]) -> None:
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
        except StoreFailed:  # logged once; the server fail-stops (leekha.server.outbox)
            self.game = replay(self.config, game.seed, game.actions[:-1])
            raise
        except Exception:
            # Unstored means uncommitted: rebuild the game without the action.
            log.failure("table {table}: cannot store an action", table=self.id)
            self.game = replay(self.config, game.seed, game.actions[:-1])
            raise Refused("internal", "the server could not store your move") from None
        self._tell(events)
        if game.phase == OVER:
            self._finish()
        elif self.between_rounds is not None and any(isinstance(e, RoundScored) for e in events):
            self.between_rounds(self)

    def _tell(self, events: Sequence[Event]) -> None:
        """Each member hears the engine's events through its own seat (wire_events)."""
        members = self.members()
        told = wire_events.for_members(events, (seat for _, seat in members))
        for token, seat in members:
            for msg in told[seat]:
                self._send(token, msg)

    def _finish(self) -> None:
        game = self.game
        assert game is not None and game.outcome is not None
        self.status = L.next_state(self.status, "game_over")
        self.finishers = [s.token if s is not None and not s.away else None for s in self.seats]
        names = [s.name if s is not None else "" for s in self.seats]
        record = GameRecord.of(
            game, names, table=self.name, table_id=self.id, game_no=self.game_no
        ).to_dict()
        winners = set(game.outcome.winners)
        players = [
            (
                names[i],
                s is None or s.is_bot,
                i in winners,
                sum(h[i] for h in game.history),
                len(game.history),
            )
            for i, s in enumerate(self.seats)
        ]
        game_id = self.hub.store.finish_game(self.id, self.name, record, players)
        try:
            humans = [s is not None and not s.is_bot for s in self.seats]
            record_finished(self.hub.store, game_id, game, names, humans)
        except Exception:
            log.failure("table {table}: rating game {id} failed", table=self.id, id=game_id)
        if self.watcher is not None:
            self.watcher.game_finished(self, game_id)
        for seat in self.seats:
            if seat is not None and seat.token is not None and seat.away:
                # Gone past the grace period: free the seat so the table can be reused.
                self.clock.callLater(0, self._free_absent, seat.token)
        log.info(
            "table {table} game over, stored as game {game_id}", table=self.id, game_id=game_id
        )
        self.hub.table_changed(self)

    # ---- decisions, timers and bots ----------------------------------------------------
    def needs(self) -> dict[int, Key]:
        return pending(self.game, self.status == PLAYING)

    def after_change(self) -> None:
        """Prompt humans with a new decision, arm their timers, and wake the bots."""
        if self.closed:
            return

        def human(i: int) -> bool:
            seat = self.seats[i]
            return seat is not None and not seat.autopilot

        def limit(key: Key) -> float | None:
            return self.pass_s if key[0] == PASS else self.turn_s

        for i in self.turns.update(self.needs(), human, limit):
            self.prompt(i)
        self._clock_changed()
        self.autopilot.wake()

    def clock_message(self) -> M.Turn:
        """(1.4) Whose decision the table waits for, with each seat's time left."""
        needs = self.needs()
        phase = PASS if self.game is not None and self.game.phase == PASS else "play"
        left = self.turns.left
        return M.Turn(phase=phase, seats=[[i, _ms(left(i))] for i in sorted(needs)])

    def _clock_changed(self) -> None:
        """Tell everyone here when a decision or its clock started (or none is left)."""
        needs = self.needs()
        now = tuple((i, needs[i], self.turns.deadline(i)) for i in sorted(needs))
        if now != self._clock_said:
            self._clock_said = now
            self._broadcast(self.clock_message())

    def prompt(self, i: int) -> None:
        """Send `your_turn` to the human in seat i if they have a decision to make."""
        seat = self.seats[i]
        if (
            self.game is None
            or seat is None
            or seat.token is None
            or self.turns.decision[i] is None
        ):
            return
        msg = prompt_for(self.game, i, self.turns.left(i))
        if msg is not None:
            self._send(seat.token, msg)

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
                self._send(seat.token, self._timeout_line(action))
        if any(a["kind"] == "pass" for a in actions) and game.phase != OVER:
            self._send(seat.token, self.snapshot(seat.token))
            self._send(seat.token, self.clock_message())

    def _timeout_line(self, action: Mapping[str, Any]) -> M.ChatMessage:
        """What a timer played for you: to your seat alone."""
        args: dict[str, Any]
        if action["kind"] == "pass":
            cards = sorted(action["cards"])
            code, args = "timeout_passed", {"cards": cards}
            text = english(NOTICES[code], {"cards": C.format_cards(cards)})
        else:
            card = int(action["card"])
            code, args = "timeout_played", {"card": card}
            text = english(NOTICES[code], {"card": C.format_card(card)})
        return M.ChatMessage(
            sender=SYSTEM_SENDER, text=text, table_id=self.id, code=code, args=args
        )

    def _timed_out(self, i: int, key: Key) -> None:
        seat = self.seats[i]
        if self.closed or seat is None or self.needs().get(i) != key:
            return
        log.info(
            "table {table} seat {seat} timed out ({n} in a row)",
            table=self.id,
            seat=i,
            n=seat.timeouts + 1,
        )
        if count_timeout(seat, self.options.afk_limit):
            self._seat_changed(i)
            self._seat_notice("timeouts_bot", i, count=seat.timeouts)
        self.autopilot.play_now(i, "timeout")
        self.after_change()


def _ms(seconds: float | None) -> float | None:
    """Seconds to the millisecond: the wire needs no more, and frames stay short."""
    return None if seconds is None else round(seconds, 3)
