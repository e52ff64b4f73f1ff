"""One headless bot seat: a resumable protocol session driving a strategy.

`BotClient` finds (or creates) its table by name, sits, answers every decision with its
strategy, and never stalls: a move the server refuses is replaced once by a random move
from the prompt's `legal` list. The session itself (handshake, resume after a drop,
back-off) is `client.session`'s, shared with the terminal client; the first connection
is not retried, so a bad address fails fast with a clear message.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, cast

from twisted.internet import defer
from twisted.logger import Logger
from twisted.python.failure import Failure

from leekha import protocol as P
from leekha.client.bot.view import OVER, PASS, PLAY, ViewTracker
from leekha.client.identity import Identity
from leekha.client.session import ClientSession, Target, retry_policy
from leekha.client.session import ConnectFailed as ConnectFailed
from leekha.common import cards as C
from leekha.common.bots.base import Strategy, decide, make_strategy
from leekha.common.legality import legal_passes
from leekha.protocol.version import WELCOME_SAYS_SEAT, speaks

log = Logger()

CLIENT = "leekha-bot 0.1"
#: Refusals that mean our move itself was wrong (a random legal move may fix it); any other
#: refusal means our picture is stale and the server's next prompt will set it right.
MOVE_ERRORS = frozenset(
    {
        "not_in_hand",
        "must_follow_suit",
        "must_play_leekha",
        "must_play_forced",
        "bad_pass",
        "pass_last_of_suit",
        "bad_card",
        "internal",
    }
)
#: Join/create refusals after which looking the table up again can succeed.
RATE_RETRIES = 5
RATE_BACKOFF_S = 0.25
#: A move with no answer after this long was dropped (a server past its rate limit answers
#: only some of the requests it drops): it is sent again.
UNANSWERED_S = 2.0
LOBBY_RETRY = frozenset({"no_such_table", "seat_taken", "table_full", "rate_limited"})
#: `enter_tournament` refusals after which there is nothing to wait for.
ENTRY_REFUSED = frozenset(
    {
        "no_such_tournament",
        "not_an_entrant",
        "already_entered",
        "unknown_type",
        "not_hello_first",
        "tournament_over",
    }
)


#: Refusals of a table request that retrying cannot fix.
TABLE_REFUSED = frozenset({"bad_password", "bad_field", "bad_rules"})


class EntryRefused(Exception):
    """The server will not let this bot play in the tournament, or at the table; the
    message says why."""


@dataclass
class BotOptions:
    host: str
    port: int
    name: str = "bot"
    strategy: str = "random"
    table: str | None = None  # join by name, create when absent
    create: str | None = None  # always create
    tournament: int | None = None  # enter this tournament and play wherever it seats us
    preset: str = "classic"
    overrides: dict[str, Any] = field(default_factory=dict)
    password: str | None = None
    think_s: float = 0.0
    games: int = 1  # 0 = keep voting for rematches until stopped
    seed: int = 0
    connect_timeout: float = 5.0
    backoff_first: float = 0.25
    backoff_cap: float = 8.0
    max_retries: int = 12
    lonely_s: float = 5.0  # a creator alone this long rejoins by name (see _lonely)
    create_jitter_s: float = 0.5
    tls: bool = False
    #: With an identity the bot proves its name (protocol 1.2); None = a guest.
    identity: Identity | None = None


class BotClient:
    """One seat. `done` fires with an exit code (0 = finished its games), or fails with
    ConnectFailed when the very first connection cannot be made; `seated` fires once the
    bot first sits at its table."""

    def __init__(
        self,
        reactor: Any,
        options: BotOptions,
        *,
        strategy: Strategy | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.reactor = reactor
        self.options = options
        self.name = options.name
        self.rng = rng or random.Random(options.seed)
        self.strategy = strategy or make_strategy(options.strategy, options.seed)
        self.fallback = make_strategy("random", options.seed)
        self.tracker = ViewTracker()
        self.done: defer.Deferred[int] = defer.Deferred()
        self.seated: defer.Deferred[None] = defer.Deferred()
        self.session = ClientSession(
            reactor,
            Target(options.host, options.port, options.tls),
            options.name,
            client=CLIENT,
            on_message=self._received,
            on_lost=self._lost,
            on_retry=self._retrying,
            on_failed=lambda why: self._fail(ConnectFailed(why)),
            on_refused=self._refused,
            retry=retry_policy(options.backoff_first, options.backoff_cap, self.rng),
            connect_timeout=options.connect_timeout,
            identity=options.identity,
        )
        self.stopping = False
        self.games_done = 0
        self.table_id: int | None = None
        self.occupied = [False] * 4
        self.is_host = False
        self.status = "waiting"
        self.created = False
        self._resume_probe: int | None = None
        self._answered: tuple[Any, ...] | None = None
        self._timers: dict[str, Any] = {}  # IDelayedCall
        self._name_tries = 0
        self._lonely_count = 0
        self._said_busy = False

    # ---- public ------------------------------------------------------------------------
    def start(self) -> None:
        self.session.connect().addErrback(self._first_failed)

    def stop(self) -> defer.Deferred[int]:
        """Hang up for good (SIGINT/SIGTERM or finished); fires `done`."""
        if not self.stopping:
            self.stopping = True
            self._cancel_all()
            self.session.close().addBoth(lambda _: self._finish(0))
        return self.done

    # ---- connection ----------------------------------------------------------------------
    def _first_failed(self, failure: Failure) -> None:
        if self.stopping:
            self._finish(0)
        else:
            exc = failure.value
            self._fail(exc if isinstance(exc, ConnectFailed) else ConnectFailed(str(exc)))

    def _retrying(self, attempt: int, delay: float) -> None:
        if attempt > self.options.max_retries:
            log.error(
                "{bot}: giving up after {n} reconnects", bot=self.name, n=self.options.max_retries
            )
            # Not from inside ClientService's own retry step: on the next turn.
            self.reactor.callLater(0, self._give_up)
            return
        log.info("{bot}: reconnecting in {delay:.2f}s", bot=self.name, delay=delay)

    def _give_up(self) -> None:
        self.stopping = True
        self._cancel_all()
        self.session.close().addBoth(lambda _: self._finish(1))

    def _refused(self, msg: P.Error) -> str | None:
        """A refused hello: try another name when ours is taken (not in a tournament,
        where the name is what makes us the entrant)."""
        if msg.code == "bad_name" and self._name_tries < 5 and self.options.tournament is None:
            self._name_tries += 1
            return f"{self.options.name}-{self.rng.randrange(1000, 10000)}"
        return None

    def _lost(self, why: str) -> None:
        self._cancel_all()
        self._answered = None  # a move in flight when the link dropped may never have arrived
        if not self.stopping:
            log.info("{bot}: connection lost ({why})", bot=self.name, why=why)

    def _send(self, msg: P.Message, kind: str = "", data: Any = None) -> None:
        self.session.send(msg, (kind, data) if kind else None)

    def _take(self, reply: P.Message) -> tuple[str, Any]:
        """The request a reply answers: (kind, data), or ("", None) when not ours."""
        pending = self.session.answered(reply)
        if pending is None or pending.note is None:
            return "", None
        return cast(tuple[str, Any], pending.note)

    def _new_id(self) -> int:
        return self.session.new_id()

    def _later(self, key: str, delay: float, fn: Callable[[], None]) -> None:
        self._cancel(key)

        def fire() -> None:
            self._timers.pop(key, None)
            fn()

        self._timers[key] = self.reactor.callLater(max(0.0, delay), fire)

    def _cancel_all(self) -> None:
        for call in self._timers.values():
            if call.active():
                call.cancel()
        self._timers.clear()

    def _finish(self, code: int) -> None:
        self._cancel_all()
        if not self.done.called:
            self.done.callback(code)

    def _fail(self, exc: Exception) -> None:
        self.stopping = True
        self._cancel_all()
        self.session.close()
        if not self.done.called:
            self.done.errback(exc)

    # ---- messages ----------------------------------------------------------------------
    def _received(self, msg: P.Message) -> None:
        handler = getattr(self, "_on_" + msg.TYPE, None)
        if handler is not None:
            handler(msg)
        else:
            self.tracker.apply(msg)

    def _on_welcome(self, msg: P.Welcome) -> None:
        self.name = msg.name
        self.tracker.apply(msg)
        if not msg.resumed:
            self.table_id = None
            self._enter_lobby()
        elif speaks(msg.version, WELCOME_SAYS_SEAT):
            self._resumed_at(msg.table_id, msg.seat)
        else:
            log.info("{bot}: session resumed", bot=self.name)
            # A 1.0 welcome does not say where we are. A seated session gets its
            # snapshot right after welcome; a pong arriving first tells us the seat
            # is gone and the lobby step must run again.
            self._resume_probe = self._new_id()
            self._send(P.Ping(id=self._resume_probe))

    def _resumed_at(self, table_id: int | None, seat: int | None) -> None:
        """Act on a 1.1 welcome's word on where the resumed session is."""
        if table_id is not None and seat is not None:
            log.info("{bot}: session resumed at seat {seat}", bot=self.name, seat=seat)
            return  # the snapshot that follows puts us back in the game
        log.info("{bot}: no longer seated after resume; finding the table", bot=self.name)
        if table_id is not None:
            # Spectating is no use to a bot (and is never kept across a drop today).
            self._send(P.Leave(id=self._new_id()), "leave")
        self.table_id = None
        self._enter_lobby()

    def _on_pong(self, msg: P.Pong) -> None:
        if msg.re == self._resume_probe:
            self._resume_probe = None
            log.info("{bot}: no longer seated after resume; finding the table", bot=self.name)
            self.table_id = None
            self._enter_lobby()

    def _on_ok(self, msg: P.Ok) -> None:
        kind, data = self._take(msg)
        if kind in ("pass", "play"):
            self._cancel("unanswered")
        if kind == "pass":
            self.tracker.own_pass(list(data[1]))

    def _on_error(self, msg: P.Error) -> None:
        kind, data = self._take(msg)
        if self.stopping:
            return
        if kind == "enter" and msg.code == "tournament_over" and self.seated.called:
            self.stop()  # it finished while we were away: our games are done
            return
        if (kind == "enter" and msg.code in ENTRY_REFUSED) or (
            kind in ("create", "join", "list") and msg.code in TABLE_REFUSED
        ):
            self._fail(EntryRefused(msg.message))  # the command's last line says it
            return
        log.warn(
            "{bot}: server refused {kind}: {code} {message}",
            bot=self.name,
            kind=kind or "a request",
            code=msg.code,
            message=msg.message,
        )
        if kind == "enter":
            self._later("lobby", 1.0, self._enter_lobby)
        elif kind in ("create", "join", "list"):
            if msg.code == "already_seated":
                return
            self._later("lobby", 1.0, self._enter_lobby)
        elif kind in ("pass", "play"):
            self._cancel("unanswered")
            key, move, tries = data
            self._answered = None  # let the next prompt for this decision through
            current = key == self.tracker.decision_key()
            if msg.code == "rate_limited" and current and tries < RATE_RETRIES:
                # The move was fine, we were just too quick: send it again a little later
                # rather than leave the seat to the turn timer.
                self._answered = key
                self._later(
                    kind,
                    RATE_BACKOFF_S * (tries + 1),
                    lambda: self._resend(kind, key, move, tries + 1),
                )
            elif msg.code in MOVE_ERRORS and current and tries < 3:
                self._answered = key
                self._act_randomly(kind, key, tries + 1)
        elif kind == "start" and msg.code == "not_ready":
            self._later("start", 0.5, self._maybe_start)
        elif kind == "rematch" and msg.code == "not_ready":
            self._later("rematch", 1.0, self._vote_rematch)

    # ---- lobby -------------------------------------------------------------------------
    def _enter_lobby(self) -> None:
        o = self.options
        if o.tournament is not None:
            # Entering again (after a reconnect) is harmless: the server keeps us as the
            # entrant, and seats us when our next game begins.
            self._send(P.EnterTournament(id=self._new_id(), tournament_id=o.tournament), "enter")
        elif o.create is not None and not self.created:
            self._create(o.create)
        else:
            self._send(P.ListTables(id=self._new_id()), "list")

    def _create(self, name: str) -> None:
        o = self.options
        msg = P.CreateTable(
            id=self._new_id(),
            name=name,
            preset=o.preset,
            overrides=dict(o.overrides),
            password=o.password,
        )
        self._send(msg, "create")

    def _on_table_list(self, msg: P.TableList) -> None:
        kind, data = self._take(msg)
        if kind != "list" or self.table_id is not None:
            return
        wanted = self.options.table or self.options.create
        named = sorted((t for t in msg.tables if t["name"] == wanted), key=lambda t: t["id"])
        open_ = [
            t
            for t in named
            if t["status"] == "waiting"
            and any(s["name"] is None for s in t["seats"])
            and (not t["has_password"] or self.options.password is not None)
        ]
        if open_:
            join = P.JoinSeat(
                id=self._new_id(), table_id=open_[0]["id"], password=self.options.password
            )
            self._send(join, "join")
        elif any(t["has_password"] for t in named) and self.options.password is None:
            self._fail(EntryRefused(f"table {wanted!r} has a password: give it with --password"))
        elif named or data == "confirm":
            if not named:
                self._create(str(wanted))
            else:
                if not self._said_busy:
                    self._said_busy = True
                    log.info("{bot}: table {name!r} is busy; waiting", bot=self.name, name=wanted)
                self._later("lobby", 2.0, self._enter_lobby)
        else:
            # Absent: look once more after a random pause, so bots started together do
            # not all create a table of the same name.
            delay = self.rng.random() * self.options.create_jitter_s
            self._later(
                "lobby",
                delay,
                lambda: self._send(P.ListTables(id=self._new_id()), "list", "confirm"),
            )

    def _on_table_update(self, msg: P.TableUpdate) -> None:
        return

    def _on_tournament_state(self, msg: P.TournamentState) -> None:
        kind, _data = self._take(msg)
        t = msg.tournament
        if kind == "enter" and not self.seated.called:
            log.info(
                "{bot}: entered tournament {id} {name!r}; waiting to be seated",
                bot=self.name,
                id=t["id"],
                name=t["name"],
            )
            self.seated.callback(None)
        if t["status"] == "finished" and self.table_id is None:
            log.info("{bot}: tournament {id} finished", bot=self.name, id=t["id"])
            self.stop()

    def _on_snapshot(self, msg: P.Snapshot) -> None:
        if self._resume_probe is not None:
            self._resume_probe = None
        was_over = self.tracker.view.phase == OVER
        was_playing = self.status == "playing" and not was_over
        self.tracker.apply(msg)
        if self.options.tournament is not None and self.table_id != msg.table["id"]:
            log.info("{bot}: seated for a tournament game at table {t}", bot=self.name,
                     t=msg.table["id"])  # fmt: skip
        self.table_id = int(msg.table["id"])
        self.status = str(msg.table["status"])
        seat = msg.your_seat
        self.occupied = [p["name"] is not None for p in msg.players]
        self.is_host = seat is not None and bool(msg.players[seat].get("is_host"))
        if seat is None:
            log.warn("{bot}: not seated at table {t}; leaving", bot=self.name, t=self.table_id)
            self.table_id = None  # a seatless snapshot must not stop the lobby's lookup
            return
        if not self.seated.called:
            log.info("{bot}: seat {seat} at table {t}", bot=self.name, seat=seat, t=self.table_id)
            if self.is_host:
                self.created = True
            self.seated.callback(None)
        if was_playing and self.tracker.view.phase == OVER:
            self._game_over()  # the game ended while we were away
            return
        self._maybe_start()
        self._lonely_check()
        if self.tracker.my_move():
            self._think()

    def _on_seat_update(self, msg: P.SeatUpdate) -> None:
        if msg.table_id != self.table_id:
            return
        self.occupied[msg.seat] = msg.player.get("name") is not None
        self._maybe_start()
        self._lonely_check()

    def _maybe_start(self) -> None:
        # After a game, rematch votes (not `start`) begin the next one.
        if self.is_host and self.status == "waiting" and all(self.occupied):
            self._send(P.Start(id=self._new_id()), "start")

    def _lonely_check(self) -> None:
        """A table creator alone for a while leaves and looks the name up again.

        Two bots that create the same name at once each end up alone; the others join
        the lowest id, so the creator of the other one rejoins there. Harmless otherwise
        (an empty table is simply made again), and the pause doubles each time so a bot
        waiting long for company does not churn.
        """
        if (
            self.is_host
            and self.options.table is not None
            and self.status == "waiting"
            and sum(self.occupied) == 1
        ):
            if "lonely" not in self._timers:
                delay = min(60.0, self.options.lonely_s * 2**self._lonely_count)
                self._later("lonely", delay, self._lonely)
        else:
            self._cancel("lonely")

    def _lonely(self) -> None:
        if self.status == "waiting" and sum(self.occupied) == 1 and self.table_id is not None:
            self._lonely_count += 1
            log.debug("{bot}: alone at table {t}; looking again", bot=self.name, t=self.table_id)
            self._send(P.Leave(id=self._new_id()), "leave")
            self.table_id = None
            self.is_host = False
            self._enter_lobby()

    # ---- the game ----------------------------------------------------------------------
    def _on_your_turn(self, msg: P.YourTurn) -> None:
        self.tracker.apply(msg)
        self._think()

    def _on_dealt(self, msg: P.Dealt) -> None:
        self.status = "playing"
        self.tracker.apply(msg)

    def _on_game_over(self, msg: P.GameOver) -> None:
        self.tracker.apply(msg)
        self._game_over()

    def _game_over(self) -> None:
        self.status = "finished"
        self.games_done += 1
        if self.options.tournament is not None:
            # The server takes us back to the lobby and seats us at our next game; asking
            # for the state again tells us when that was the last one.
            log.info("{bot}: tournament game {n} over", bot=self.name, n=self.games_done)
            self.table_id = None
            self._answered = None
            self._enter_lobby()
            return
        result = self.tracker.view.result
        log.info(
            "{bot}: game {n} over, totals {totals}, winners {winners}",
            bot=self.name,
            n=self.games_done,
            totals=result["totals"] if result else None,
            winners=result["winners"] if result else None,
        )
        if self.options.games and self.games_done >= self.options.games:
            self._send(P.Leave(id=self._new_id()), "leave")
            self.stop()
            return
        self._vote_rematch()

    def _vote_rematch(self) -> None:
        if self.status == "finished":
            self._send(P.Rematch(id=self._new_id()), "rematch")

    def _think(self) -> None:
        if not self.tracker.my_move():
            return
        key = self.tracker.decision_key()
        if key == self._answered:
            return
        if self.options.think_s > 0:
            self._later("think", self.options.think_s, lambda: self._act(key))
        else:
            self._act(key)

    def _act(self, key: tuple[Any, ...]) -> None:
        if key != self.tracker.decision_key() or not self.tracker.my_move():
            return
        self._answered = key
        view = self.tracker.seat_view()
        try:
            actions = decide(self.strategy, view)
        except Exception:
            log.failure("{bot}: strategy failed; moving at random", bot=self.name)
            actions = []
        legal = set(view.legal)
        for action in actions:
            if action["kind"] == "double" and action["card"] in view.can_double:
                card = action["card"]
                self._send(P.DeclareDouble(id=self._new_id(), card=card), "double")
            elif action["kind"] == "pass":
                cards = sorted(cast(list[int], action["cards"]))
                if len(set(cards)) == 3 and set(cards) <= legal:
                    self._send_pass(key, cards)
                    return
            elif action["kind"] == "play" and action["card"] in legal:
                self._send_play(key, action["card"])
                return
        self._act_randomly(PASS if view.phase == PASS else PLAY, key)

    def _act_randomly(self, kind: str, key: tuple[Any, ...], tries: int = 1) -> None:
        """The never-stall path: a random move the prompt's `legal` list allows."""
        legal = list(self.tracker.view.legal)
        if not legal:
            return
        if kind == PLAY:
            self._send_play(key, self.rng.choice(legal), tries)
            return
        options = self._pass_options(legal)
        if options:
            self._send_pass(key, self.rng.choice(options), tries)

    def _pass_options(self, legal: list[int]) -> list[list[int]]:
        """Legal passes by our tracked hand; any three passable cards if that is off."""
        hand = C.mask_of(self.tracker.view.hand)
        allowed = set(legal)
        combos = [list(c) for c in legal_passes(self.tracker.config, hand) if set(c) <= allowed]
        return combos or [list(c) for c in combinations(legal, 3)]

    def _resend(self, kind: str, key: tuple[Any, ...], move: Any, tries: int) -> None:
        if key != self.tracker.decision_key():
            return  # the decision was made for us meanwhile (timer, takeover)
        if kind == PLAY:
            self._send_play(key, move, tries)
        else:
            self._send_pass(key, list(move), tries)

    def _send_pass(self, key: tuple[Any, ...], cards: list[int], tries: int = 0) -> None:
        cards = sorted(cards)
        self._send(P.PassCards(id=self._new_id(), cards=cards), "pass", (key, cards, tries))
        self._unanswered(PASS, key, cards, tries)

    def _send_play(self, key: tuple[Any, ...], card: int, tries: int = 0) -> None:
        self._send(P.PlayCard(id=self._new_id(), card=card), "play", (key, card, tries))
        self._unanswered(PLAY, key, card, tries)

    def _unanswered(self, kind: str, key: tuple[Any, ...], move: Any, tries: int) -> None:
        """Send the move again if no answer comes (the server may drop it unanswered)."""
        if tries < RATE_RETRIES:
            again = tries + 1
            self._later("unanswered", UNANSWERED_S, lambda: self._resend(kind, key, move, again))

    def _cancel(self, key: str) -> None:
        call = self._timers.pop(key, None)
        if call is not None and call.active():
            call.cancel()
