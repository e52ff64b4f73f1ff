"""One table: four seats, spectators, the authoritative engine game, timers and bots.

The engine is the only source of truth. Every client action is checked by the engine,
stored, and only then broadcast; every message a member receives is built from that
member's own seat view, so a hidden card can only reach its owner.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from twisted.internet.defer import Deferred, maybeDeferred
from twisted.logger import Logger

from leekha.common import cards as C
from leekha.common.bots.base import Strategy, decide, make_strategy, strategy_names
from leekha.common.config import RulesConfig
from leekha.common.errors import LeekhaError
from leekha.common.game import OVER, PASS, PLAY, Game, replay
from leekha.common.record import GameRecord
from leekha.common.view import seat_view
from leekha.protocol import catalogue as M
from leekha.protocol.message import Message
from leekha.server.clock import Clock, Timer
from leekha.server.errors import Refused
from leekha.server.persistence import SeatRow, Store, TableRow

log = Logger()

WAITING = "waiting"
PLAYING = "playing"
FINISHED = "finished"

#: Strategy a server bot uses when none is named, and the stand-in for absent players.
DEFAULT_BOT = "heuristic"
#: The protocol's hard cap on names (leekha.protocol.records.NAME); server limits stay below.
WIRE_NAME_MAX = 64
#: Wire names accepted for add_bot besides the registered tiers.
BOT_ALIASES = {"basic": DEFAULT_BOT, "default": DEFAULT_BOT}


def build_strategy(name: str, seed: int) -> Strategy:
    """A registered strategy, falling back to `random` while a tier is not available."""
    try:
        return make_strategy(name, seed)
    except ValueError:
        return make_strategy("random", seed)


def bot_strategy_name(requested: str) -> str:
    """Validate a client's bot name: only registered tiers, never `module:Class` imports."""
    name = BOT_ALIASES.get(requested, requested)
    if name not in (*strategy_names(), DEFAULT_BOT):
        known = ", ".join(sorted({*strategy_names(), *BOT_ALIASES}))
        raise Refused("no_such_bot", f"unknown bot strategy {requested!r}; use one of {known}")
    return name


def hash_password(password: str) -> str:
    salt = secrets.token_hex(8)
    digest = hashlib.sha256((salt + password).encode()).hexdigest()
    return f"{salt}${digest}"


def password_matches(stored: str | None, given: str | None) -> bool:
    if stored is None:
        return True
    if given is None:
        return False
    salt, _, digest = stored.partition("$")
    return hmac.compare_digest(digest, hashlib.sha256((salt + given).encode()).hexdigest())


class TableHub(Protocol):
    """What a table needs from the lobby that owns it."""

    store: Store

    def deliver(self, token: str, msg: Message) -> None: ...

    def table_changed(self, table: Table) -> None: ...

    def table_closed(self, table: Table) -> None: ...

    def new_seed(self) -> int: ...

    def release(self, token: str, table: Table) -> None: ...


Actions = list[dict[str, Any]]
#: Runs a bot's decision and delivers the result; the server passes a thread-pool runner so
#: a slow strategy (search) never stalls the reactor, tests the inline default.
Think = Callable[[Callable[[], Actions]], "Deferred[Actions]"]


def think_inline(decide_now: Callable[[], Actions]) -> Deferred[Actions]:
    return maybeDeferred(decide_now)


@dataclass
class TableOptions:
    bot_think_s: float
    seat_grace_s: float
    afk_limit: int
    think: Think = think_inline


@dataclass
class Seat:
    """Who sits in a seat. A bot seat has no token; a human seat's token is its key."""

    name: str
    token: str | None
    strategy: str = DEFAULT_BOT
    connected: bool = False
    away: bool = False  # disconnected longer than the grace period
    afk: bool = False  # timed out too often in a row
    timeouts: int = 0
    grace: Timer | None = field(default=None, repr=False)

    @property
    def is_bot(self) -> bool:
        return self.token is None

    @property
    def autopilot(self) -> bool:
        """True while a server bot makes this seat's decisions."""
        return self.is_bot or self.away or self.afk

    def row(self) -> SeatRow:
        return SeatRow(self.name, self.token, self.strategy if self.is_bot else None)


@dataclass
class _Before:
    """What an action's events need from the state before it was applied."""

    round_no: int
    trick: list[tuple[int, int]]
    taken: list[int]
    doubled: int
    phase: str


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
        self.status = row.status
        self.game_no = row.game_no
        self.seed = row.seed
        self.seats: list[Seat | None] = [None] * 4
        self.spectators: set[str] = set()
        self.game: Game | None = None
        self.rematch_votes: set[int] = set()
        self._strategies: dict[tuple[int, str], Strategy] = {}
        self._decision: list[tuple[Any, ...] | None] = [None] * 4
        self._deadline: list[float | None] = [None] * 4
        self._timers: list[Timer | None] = [None] * 4
        self._bot_call: Timer | None = None
        self._thinking = False
        self.closed = False

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
        if self.status in (PLAYING, FINISHED) and self.seed is not None:
            self.game = replay(self.config, self.seed, row.actions)
        for i, seat in enumerate(self.seats):
            if seat is not None and not seat.is_bot:
                self._start_grace(i)
        self._after_change()

    # ---- who is here -------------------------------------------------------------------
    def seat_of(self, token: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s is not None and s.token == token:
                return i
        return None

    def members(self) -> list[tuple[str, int | None]]:
        out: list[tuple[str, int | None]] = [
            (s.token, i) for i, s in enumerate(self.seats) if s is not None and s.token
        ]
        out.extend((t, None) for t in sorted(self.spectators))
        return out

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is not None and not s.is_bot]

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
            "seats": [self._seat_info(i) for i in range(4)],
            "spectators": len(self.spectators),
            "status": self.status,
            "has_password": self.password is not None,
            "timers": {
                "pass_s": self._timer_value(self.pass_s),
                "turn_s": self._timer_value(self.turn_s),
            },
        }

    def _seat_info(self, i: int) -> dict[str, Any]:
        s = self.seats[i]
        if s is None:
            return {"name": None, "is_bot": False, "connected": False}
        return {"name": s.name, "is_bot": s.is_bot, "connected": s.is_bot or s.connected}

    def player_info(self, i: int) -> dict[str, Any]:
        s = self.seats[i]
        if s is None:
            return {"name": None, "is_bot": False, "connected": False}
        return {
            "name": s.name,
            "is_bot": s.is_bot,
            "connected": s.is_bot or s.connected,
            "strategy": s.strategy if s.autopilot else None,
            "is_host": s.token is not None and s.token == self.host_token,
        }

    def view(self, seat: int | None) -> dict[str, Any] | None:
        """The member's seat view, or None before the first deal."""
        return seat_view(self.game, seat).to_dict() if self.game is not None else None

    def snapshot(self, token: str, re: int | None = None) -> M.Snapshot:
        seat = self.seat_of(token)
        return M.Snapshot(
            re=re,
            table=self.summary(),
            view=self.view(seat),
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
        if seat is None:
            free = [i for i, s in enumerate(self.seats) if s is None]
            if not free:
                raise Refused("table_full", "all four seats are taken; spectate instead")
            seat = free[0]
        elif self.seats[seat] is not None:
            raise Refused("seat_taken", f"seat {seat} is taken")
        self.spectators.discard(token)
        self.seats[seat] = Seat(name, token, connected=True)
        self._seat_changed(seat)
        return seat

    def spectate(self, token: str) -> None:
        self.spectators.add(token)
        self.hub.table_changed(self)

    def leave(self, token: str) -> None:
        """A member leaves for the lobby; a seat in a running game passes to a bot."""
        if token in self.spectators:
            self.spectators.discard(token)
            self.hub.table_changed(self)
        i = self.seat_of(token)
        if i is not None:
            seat = self.seats[i]
            assert seat is not None
            self._cancel_grace(seat)
            self.rematch_votes.discard(i)
            if self.status == PLAYING:
                stand_in = f"{seat.name[: WIRE_NAME_MAX - 6]} (bot)"
                self.seats[i] = Seat(stand_in, None, DEFAULT_BOT, connected=True)
            else:
                self.seats[i] = None
                if self.status == FINISHED:
                    self.status = WAITING
                    self.hub.store.set_status(self.id, WAITING)
            self._seat_changed(i)
            self._decision[i] = None
            self._after_change()
        if token == self.host_token:
            self._pass_host()
        if not self.humans() and not self.spectators:
            self.close()

    def _pass_host(self) -> None:
        """The host left: the next seated human inherits the host controls."""
        for i in self.humans():
            seat = self.seats[i]
            assert seat is not None
            self.host_token, self.host_name = seat.token, seat.name
            self.hub.store.save_table(self.to_row())
            self._seat_changed(i)
            return

    def close(self) -> None:
        """Remove the table: no humans are left to play or watch."""
        if self.closed:
            return
        self.closed = True
        self._stop_clocks()
        self.hub.store.delete_table(self.id)
        self.hub.table_closed(self)

    def _stop_clocks(self) -> None:
        for i in range(4):
            self._cancel_timer(i)
        for s in self.seats:
            if s is not None:
                self._cancel_grace(s)
        if self._bot_call is not None and self._bot_call.active():
            self._bot_call.cancel()
        self._bot_call = None

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
            if not self.humans() and not self.spectators:
                self.close()
        i = self.seat_of(token)
        if i is None:
            return
        seat = self.seats[i]
        assert seat is not None
        seat.connected = False
        self._start_grace(i)
        self._seat_changed(i)

    def reconnected(self, token: str) -> None:
        """The player is back: the seat is theirs again from their next decision."""
        if self.closed:
            return
        i = self.seat_of(token)
        if i is None:
            return
        seat = self.seats[i]
        assert seat is not None
        self._cancel_grace(seat)
        seat.connected = True
        seat.away = False
        if seat.afk:  # coming back is activity: the seat is theirs again at once
            seat.afk = False
            seat.timeouts = 0
            self._decision[i] = None
        running = self._timers[i] is not None
        if not running:
            self._decision[i] = None  # re-prompt and re-arm from scratch
        self._seat_changed(i)
        self._after_change()
        if running:
            self.prompt(i)  # the running timer keeps its deadline: no free extra time

    def _start_grace(self, i: int) -> None:
        seat = self.seats[i]
        assert seat is not None
        self._cancel_grace(seat)
        seat.grace = self.clock.callLater(self.options.seat_grace_s, self._grace_over, i)

    def _cancel_grace(self, seat: Seat) -> None:
        if seat.grace is not None and seat.grace.active():
            seat.grace.cancel()
        seat.grace = None

    def _grace_over(self, i: int) -> None:
        seat = self.seats[i]
        if seat is None or seat.connected:
            return
        seat.grace = None
        if self.status != PLAYING and seat.token is not None:
            # Nobody waits for an absent player outside a game: free the seat.
            token = seat.token
            self.hub.release(token, self)
            self.leave(token)
            return
        seat.away = True
        log.info("table {table} seat {seat}: grace over, a bot plays", table=self.id, seat=i)
        self._seat_changed(i)
        self._after_change()

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

    def remove_bot(self, token: str, seat: int) -> None:
        self._require_host(token)
        s = self.seats[seat]
        if s is None or not s.is_bot:
            raise Refused("no_such_bot", f"no bot in seat {seat}")
        if self.status == PLAYING:
            raise Refused("not_ready", "bots cannot be removed during a game")
        self.seats[seat] = None
        self._seat_changed(seat)

    def start(self, token: str) -> None:
        self._require_host(token)
        if self.status == PLAYING:
            raise Refused("not_ready", "the game is already running")
        if any(s is None for s in self.seats):
            raise Refused("not_ready", "start needs all four seats filled")
        self._new_game()

    def rematch(self, token: str) -> None:
        i = self.seat_of(token)
        if i is None:
            raise Refused("not_seated", "only seated players vote for a rematch")
        if self.status != FINISHED or any(s is None for s in self.seats):
            raise Refused("not_ready", "a rematch needs a finished game and four seats")
        self.rematch_votes.add(i)
        voters = {j for j, s in enumerate(self.seats) if s is not None and not s.autopilot}
        if voters <= self.rematch_votes:
            self._new_game()

    def _new_game(self) -> None:
        self.game_no += 1
        self.seed = self.hub.new_seed()
        self.game = Game(self.config, self.seed)
        self.status = PLAYING
        self.rematch_votes.clear()
        self._strategies.clear()
        self._decision = [None] * 4
        self.hub.store.start_game(self.id, self.game_no, self.seed)
        log.info("table {table} starts game {game_no}", table=self.id, game_no=self.game_no)
        self.hub.table_changed(self)
        # Every member learns the new game twice over: a snapshot (status, seats, view)
        # then `dealt`, which begins every round, round 0 included (docs/protocol.md §7).
        for token, _seat in self.members():
            self._send(token, self.snapshot(token))
        self._deal_events(self.game)
        self._after_change()

    # ---- actions -----------------------------------------------------------------------
    def act(self, token: str, action: dict[str, Any]) -> None:
        """A human's action: the seat comes from the token, never from the client."""
        i = self.seat_of(token)
        if i is None:
            raise Refused("not_seated", "you are not seated at this table")
        if self.game is None or self.status != PLAYING:
            raise Refused("wrong_phase", "no game is running at this table")
        action["seat"] = i
        self._commit(action)
        seat = self.seats[i]
        if seat is not None:
            seat.timeouts = 0
            if seat.afk:
                seat.afk = False
                self._seat_changed(i)
        self._after_change()

    def human_active(self, token: str) -> None:
        """Any request from a seated player shows they are back at the keyboard."""
        i = self.seat_of(token)
        seat = self.seats[i] if i is not None else None
        if i is not None and seat is not None and seat.afk:
            seat.afk = False
            seat.timeouts = 0
            self._decision[i] = None
            self._seat_changed(i)
            self._after_change()

    def _capture(self, game: Game) -> _Before:
        return _Before(
            game.round_no, list(game.trick), list(game.taken), game.doubled_mask, game.phase
        )

    def _commit(self, action: Mapping[str, Any]) -> None:
        game = self.game
        assert game is not None
        before = self._capture(game)
        try:
            game.apply(action)
        except LeekhaError as exc:
            raise Refused(exc.code, exc.message) from None
        stored = game.actions[-1]
        try:
            self.hub.store.append_action(self.id, self.game_no, len(game.actions) - 1, stored)
        except Exception:
            # Unstored means uncommitted: rebuild the game without the action.
            log.failure("table {table}: cannot store an action", table=self.id)
            self.game = replay(self.config, game.seed, game.actions[:-1])
            raise Refused("internal", "the server could not store your move") from None
        self._events(game, before, stored)
        if game.phase == OVER:
            self._finish()

    def _events(self, game: Game, before: _Before, action: Mapping[str, Any]) -> None:
        kind = action["kind"]
        seat = int(action["seat"])
        if kind == "double":
            self._broadcast(M.DoubleRevealed(seat=seat, card=int(action["card"])))
            return
        if kind == "pass":
            self._broadcast(M.PassDone(seat=seat))
            if game.phase == PLAY and before.phase == PASS:
                for token, s in self.members():
                    if s is None:
                        continue
                    got = game.received[s]
                    frm = next(x for x in range(4) if game.pass_target(x) == s)
                    self._send(token, M.PassedReceived(cards=C.cards_of(got or 0), from_seat=frm))
            return
        card = int(action["card"])
        self._broadcast(M.CardPlayed(seat=seat, card=card))
        trick = [*before.trick, (seat, card)]
        if len(trick) < 4 and game.phase != OVER:
            return
        if len(trick) == 4:
            led = C.SUIT_OF[trick[0][1]]
            winner = max((c, s) for s, c in trick if C.SUIT_OF[c] == led)[1]
            pts = self.config.card_points()
            points = sum(pts[c] * (2 if before.doubled & C.BIT[c] else 1) for _, c in trick)
            self._broadcast(
                M.TrickTaken(winner=winner, cards=[[s, c] for s, c in trick], points=points)
            )
            before.taken[winner] |= C.mask_of(c for _, c in trick)
        if game.round_no != before.round_no or game.phase == OVER:
            penalty = self.config.penalty_mask
            self._broadcast(
                M.RoundScored(
                    round=before.round_no,
                    round_points=list(game.history[-1]),
                    totals=list(game.totals),
                    taken=[C.cards_of(t & penalty) for t in before.taken],
                )
            )
            if game.outcome is not None:
                r = game.outcome.to_dict()
                self._broadcast(
                    M.GameOver(winners=r["winners"], losers=r["losers"], totals=r["totals"])
                )
            else:
                self._deal_events(game)

    def _deal_events(self, game: Game) -> None:
        for token, s in self.members():
            hand = C.cards_of(game.hands[s]) if s is not None else []
            self._send(
                token,
                M.Dealt(
                    round=game.round_no,
                    dealer=game.dealer,
                    hand=hand,
                    pass_to=game.pass_target(s) if s is not None else None,
                ),
            )

    def _finish(self) -> None:
        game = self.game
        assert game is not None and game.outcome is not None
        self.status = FINISHED
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
        for seat in self.seats:
            if seat is not None and seat.token is not None and seat.away:
                # Gone past the grace period: free the seat so the table can be reused.
                self.clock.callLater(0, self._drop_absent, seat.token)
        log.info(
            "table {table} game over, stored as game {game_id}", table=self.id, game_id=game_id
        )
        self.hub.table_changed(self)

    def _drop_absent(self, token: str) -> None:
        i = self.seat_of(token)
        seat = self.seats[i] if i is not None else None
        if self.closed or seat is None or seat.connected or self.status == PLAYING:
            return
        self.hub.release(token, self)
        self.leave(token)

    # ---- decisions, timers and bots ----------------------------------------------------
    def _needs(self) -> list[tuple[int, tuple[Any, ...]]]:
        """Seats that must decide now, each with a key naming that decision."""
        game = self.game
        if game is None or self.status != PLAYING:
            return []
        if game.phase == PASS:
            return [(i, (PASS, game.round_no)) for i in range(4) if game.passed[i] is None]
        if game.phase == PLAY and game.turn is not None:
            return [(game.turn, (PLAY, game.round_no, len(game.tricks), len(game.trick)))]
        return []

    def _after_change(self) -> None:
        """Prompt humans with a new decision, arm their timers, and wake the bots."""
        if self.closed:
            return
        needs = dict(self._needs())
        for i in range(4):
            key = needs.get(i)
            if key == self._decision[i]:
                continue
            self._decision[i] = key
            self._cancel_timer(i)
            seat = self.seats[i]
            if key is None or seat is None or seat.autopilot:
                continue
            limit = self.pass_s if key[0] == PASS else self.turn_s
            if limit:
                self._deadline[i] = self.clock.seconds() + limit
                self._timers[i] = self.clock.callLater(limit, self._timed_out, i, key)
            self.prompt(i)
        if (
            self._bot_call is None
            and not self._thinking
            and any((s := self.seats[i]) is not None and s.autopilot for i in needs)
        ):
            self._bot_call = self.clock.callLater(self.options.bot_think_s, self._bot_step)

    def prompt(self, i: int) -> None:
        """Send `your_turn` to the human in seat i if they have a decision to make."""
        seat = self.seats[i]
        if self.game is None or seat is None or seat.token is None or self._decision[i] is None:
            return
        game = self.game
        legal = game.choosable(i)  # the view's `legal`, without building the whole view
        if not legal:
            return
        deadline = self._deadline[i]
        left = None if deadline is None else max(0.0, deadline - self.clock.seconds())
        phase = PASS if game.phase == PASS else PLAY
        doubles = game.can_double(i) if phase == PASS else []
        self._send(
            seat.token,
            M.YourTurn(phase=phase, legal=legal, deadline=left, can_double=doubles),
        )

    def _cancel_timer(self, i: int) -> None:
        call = self._timers[i]
        if call is not None and call.active():
            call.cancel()
        self._timers[i] = None
        self._deadline[i] = None

    def _strategy(self, i: int, name: str) -> Strategy:
        key = (i, name)
        if key not in self._strategies:
            self._strategies[key] = build_strategy(name, (self.seed or 0) + i)
        return self._strategies[key]

    def _bot_actions(self, i: int, name: str, *, doubles: bool) -> list[dict[str, Any]]:
        assert self.game is not None
        view = seat_view(self.game, i)
        try:
            actions = decide(self._strategy(i, name), view)
        except Exception:
            log.failure(
                "table {table}: bot {name} failed; playing randomly", table=self.id, name=name
            )
            actions = decide(build_strategy("random", self.game.seed), view)
        return [dict(a) for a in actions if doubles or a["kind"] != "double"]

    def _play_for(self, i: int, name: str, *, doubles: bool) -> None:
        self._apply_bot(i, self._bot_actions(i, name, doubles=doubles))

    def _bot_step(self) -> None:
        """Let the first bot-controlled seat that must act decide, maybe off the reactor."""
        self._bot_call = None
        if self.closed or self.game is None:
            return
        for i, key in self._needs():
            seat = self.seats[i]
            if seat is None or not seat.autopilot:
                continue
            name = seat.strategy if seat.is_bot else DEFAULT_BOT
            strategy = self._strategy(i, name)
            view = seat_view(self.game, i)  # a frozen copy: safe to read from a thread
            self._thinking = True
            d = self.options.think(partial(decide, strategy, view))
            d.addCallbacks(
                self._bot_decided,
                self._bot_failed,
                callbackArgs=(i, key, seat.is_bot),
                errbackArgs=(i, key),
            )
            return
        self._after_change()

    def _still_bot_turn(self, i: int, key: tuple[Any, ...]) -> bool:
        seat = self.seats[i]
        return (
            not self.closed
            and seat is not None
            and seat.autopilot
            and dict(self._needs()).get(i) == key
        )

    def _bot_decided(
        self, actions: list[dict[str, Any]], i: int, key: tuple[Any, ...], doubles: bool
    ) -> None:
        self._thinking = False
        if not self._still_bot_turn(i, key):
            self._after_change()  # the player took the seat back, or the table closed
            return
        try:
            self._apply_bot(i, [dict(a) for a in actions if doubles or a["kind"] != "double"])
        except Exception:
            log.failure("table {table}: bot move failed", table=self.id)
        self._after_change()

    def _bot_failed(self, failure: Any, i: int, key: tuple[Any, ...]) -> None:
        self._thinking = False
        log.failure("table {table}: bot failed; playing randomly", failure, table=self.id)
        if self._still_bot_turn(i, key):
            try:
                self._play_for(i, "random", doubles=False)
            except Exception:
                log.failure("table {table}: random fallback failed", table=self.id)
        self._after_change()

    def _apply_bot(self, i: int, actions: list[dict[str, Any]]) -> None:
        game = self.game
        must_pass = game is not None and game.phase == PASS and game.passed[i] is None
        try:
            for action in actions:
                try:
                    self._commit(action)
                except Refused as exc:
                    log.warn(
                        "table {table}: bot move refused: {code}", table=self.id, code=exc.code
                    )
                    for a in self._bot_actions(i, "random", doubles=False):
                        self._commit(a)
                    return
        finally:
            if must_pass:
                self._tell_passed_for(i, game)

    def _tell_passed_for(self, i: int, game: Game | None) -> None:
        """The server passed for a human's seat (timeout, AFK, away): `pass_done` does not
        say which cards left the hand, so that seat gets a fresh snapshot that does."""
        seat = self.seats[i]
        if (
            game is None
            or game is not self.game
            or seat is None
            or seat.token is None
            or game.passed[i] is None
            or game.phase == OVER
        ):
            return
        self._send(seat.token, self.snapshot(seat.token))

    def _timed_out(self, i: int, key: tuple[Any, ...]) -> None:
        self._timers[i] = None
        self._deadline[i] = None
        seat = self.seats[i]
        if self.closed or seat is None or dict(self._needs()).get(i) != key:
            return
        seat.timeouts += 1
        log.info(
            "table {table} seat {seat} timed out ({n} in a row)",
            table=self.id,
            seat=i,
            n=seat.timeouts,
        )
        if seat.timeouts >= self.options.afk_limit and not seat.afk:
            seat.afk = True
            self._seat_changed(i)
        try:
            self._play_for(i, DEFAULT_BOT, doubles=False)
        except Exception:
            log.failure("table {table}: timeout move failed", table=self.id)
        self._after_change()
