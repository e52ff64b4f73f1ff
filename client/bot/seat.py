"""One headless bot seat's session: the connection, its requests and the server's replies.

`BotSeat` is the part of `client.bot.client.BotClient` every job shares: the resumable
session (handshake, resume after a drop, back-off: `client.session`'s, shared with the
terminal client; the first connection is not retried, so a bad address fails fast with a
clear message), the requests in flight (`client.core.requests.RequestTracker`, each with
a `Note` of what it was for), timers, and what a refusal makes the bot do next. Finding a
table is `client.bot.lobby`'s; playing the cards, `client.bot.moves`'.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from twisted.internet import defer
from twisted.logger import Logger
from twisted.python.failure import Failure

from leekha import protocol as P
from leekha.client.bot.view import DecisionKey, ViewTracker
from leekha.client.core.requests import Answer, RequestTracker
from leekha.client.identity import Identity
from leekha.client.session import ClientSession, Target, retry_policy
from leekha.client.session import ConnectFailed as ConnectFailed
from leekha.common.bots.base import Strategy, make_strategy
from leekha.common.view import Rules
from leekha.protocol.reactor import DelayedCall, ReactorTime
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
    overrides: Rules = field(default_factory=dict)  # rules options over the preset
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


#: What a request was for, so its reply (or refusal) is acted on: "" = nothing to do.
Kind = Literal["", "leave", "enter", "list", "create", "join", "start", "rematch", "double",
               "pass", "play"]  # fmt: skip


@dataclass(frozen=True)
class Move:
    """A pass or a card sent for the decision `key`, and how often it was sent before."""

    key: DecisionKey
    choice: int | list[int]  # the card played, or the three cards passed
    tries: int


@dataclass(frozen=True)
class Note:
    """The tracker's note of one request: its kind, the move behind it, and (a table
    list) whether it is the second look before creating a table."""

    kind: Kind = ""
    move: Move | None = None
    confirm: bool = False


NOTHING = Note()


class BotSeat:
    """One seat's session and plumbing. `done` fires with an exit code (0 = finished its
    games), or fails with ConnectFailed when the very first connection cannot be made;
    `seated` fires once the bot first sits at its table."""

    def __init__(
        self,
        reactor: ReactorTime,
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
        self.requests: RequestTracker[Note] = RequestTracker(
            self.session.send, self.session.answered
        )
        self._reply: Answer[Note] | None = None  # what the message being handled answers
        self.stopping = False
        self.games_done = 0
        self.table_id: int | None = None
        self.occupied = [False] * 4
        self.is_host = False
        self.status = "waiting"
        self.created = False
        self._resume_probe: int | None = None
        self._answered: DecisionKey | None = None
        self._timers: dict[str, DelayedCall] = {}
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
        self.requests.lost()  # their replies can never come; the moves' timers are cancelled
        if not self.stopping:
            log.info("{bot}: connection lost ({why})", bot=self.name, why=why)

    def _send(self, msg: P.Message, note: Note = NOTHING) -> None:
        self.requests.send(msg, note)

    def _take(self, reply: P.Message) -> Note:
        """What the request `reply` answers was for (NOTHING when it answers none)."""
        answer = self._reply
        return answer.note if answer is not None and answer.reply is reply else NOTHING

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
        self._reply = self.requests.reply(msg)
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
            log.info("{bot}: session resumed at seat {seat}", bot=self.name, seat=seat + 1)
            return  # the snapshot that follows puts us back in the game
        log.info("{bot}: no longer seated after resume; finding the table", bot=self.name)
        if table_id is not None:
            # Spectating is no use to a bot (and is never kept across a drop today).
            self._send(P.Leave(id=self._new_id()), Note("leave"))
        self.table_id = None
        self._enter_lobby()

    def _on_pong(self, msg: P.Pong) -> None:
        if msg.re == self._resume_probe:
            self._resume_probe = None
            log.info("{bot}: no longer seated after resume; finding the table", bot=self.name)
            self.table_id = None
            self._enter_lobby()

    def _on_ok(self, msg: P.Ok) -> None:
        note = self._take(msg)
        if note.kind in ("pass", "play"):
            self._cancel("unanswered")
        if note.kind == "pass" and note.move is not None and isinstance(note.move.choice, list):
            self.tracker.own_pass(note.move.choice)

    def _on_error(self, msg: P.Error) -> None:
        note = self._take(msg)
        kind = note.kind
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
        elif note.move is not None and kind in ("pass", "play"):
            self._cancel("unanswered")
            key, move, tries = note.move.key, note.move.choice, note.move.tries
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

    def _cancel(self, key: str) -> None:
        call = self._timers.pop(key, None)
        if call is not None and call.active():
            call.cancel()

    # ---- the other jobs' steps (client.bot.lobby, client.bot.moves) -------------------
    def _enter_lobby(self) -> None:
        raise NotImplementedError

    def _maybe_start(self) -> None:
        raise NotImplementedError

    def _vote_rematch(self) -> None:
        raise NotImplementedError

    def _act_randomly(self, kind: str, key: DecisionKey, tries: int = 1) -> None:
        raise NotImplementedError

    def _resend(self, kind: str, key: DecisionKey, move: int | list[int], tries: int) -> None:
        raise NotImplementedError

    def _think(self) -> None:
        raise NotImplementedError

    def _game_over(self) -> None:
        raise NotImplementedError
