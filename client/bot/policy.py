"""A bot seat's policy: the core's changes in, intents and timers out. No socket, no clock.

The bot (client/bot/client.py) feeds every change `ClientCore.receive` reports to
`changed`, every timer it was asked to set that fires to `fired`, and carries out what
comes back: an intent is sent through the core, `Later`/`Cancel` set and clear a named
timer, `Seated`, `Stop` and `Fail` end a wait or the bot. Everything the seat decides is
here, in one place:

- the lobby: enter the tournament, or join the lowest open table of the wanted name
  (`Lobby.choose`), create it when it is still absent after a second look a random
  moment later (bots started together must not all create one), and leave a table the
  seat was left alone at for a while (two bots that created the same name at once);
- the game: each decision by the strategy from the core's seat view; at a game's end a
  rematch vote, leaving, or back to the tournament;
- never stalling: a move the strategy gets wrong (or a strategy that fails) becomes a
  random one from the prompt's `legal` list, a move refused as too quick is sent again
  after a pause, and one never answered (a server past its rate limit drops some without
  a word) is sent again; a refusal that says our picture was stale waits for the
  server's next prompt.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import combinations
from typing import cast

from twisted.logger import Logger

from leekha import protocol as P
from leekha.client.core import intents as I
from leekha.client.core.core import (
    Answered,
    Change,
    ClientCore,
    DecisionDue,
    GameEnded,
    LinkLost,
    SeatsChanged,
    TableChanged,
    TournamentChanged,
    Welcomed,
)
from leekha.client.identity import Identity
from leekha.common import cards as C
from leekha.common.bots.base import Strategy, decide, make_strategy
from leekha.common.legality import legal_passes
from leekha.common.view import Rules
from leekha.protocol.version import WELCOME_SAYS_SEAT

log = Logger()

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
#: How often a move refused as too quick, or not answered, is sent again.
RATE_RETRIES = 5
RATE_BACKOFF_S = 0.25
#: A move with no answer after this long was dropped: it is sent again.
UNANSWERED_S = 2.0
#: How often a refused move is replaced by a random legal one.
MOVE_RETRIES = 3
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
    lonely_s: float = 5.0  # a creator alone this long rejoins by name (see _lonely_check)
    create_jitter_s: float = 0.5
    tls: bool = False
    #: With an identity the bot proves its name (protocol 1.2); None = a guest.
    identity: Identity | None = None


# ---- what the policy asks of the bot ----------------------------------------------------
@dataclass(frozen=True)
class Later:
    """Call `fired(timer)` after `delay` seconds, replacing a timer of that name."""

    timer: str
    delay: float


@dataclass(frozen=True)
class Cancel:
    timer: str


@dataclass(frozen=True)
class Seated:
    """The bot sits at its table, or is entered in its tournament: the next may start."""


@dataclass(frozen=True)
class Stop:
    """The bot's games are done: hang up."""


@dataclass(frozen=True)
class Fail:
    error: Exception


Effect = I.Intent | Later | Cancel | Seated | Stop | Fail


class BotPolicy:
    """One seat's decisions over `core`; `strategy` decides the moves, `rng` breaks ties
    and picks the never-stall moves."""

    def __init__(
        self,
        options: BotOptions,
        core: ClientCore,
        *,
        strategy: Strategy | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.options = options
        self.core = core
        self.rng = rng or random.Random(options.seed)
        self.strategy = strategy or make_strategy(options.strategy, options.seed)
        #: The table the lobby steps found (None: still looking, or gone back to look).
        self.table_id: int | None = None
        self.created = False
        self.seated = False
        self.games_done = 0
        self._timers: set[str] = set()
        self._probing = False  # a 1.0 resume: a pong before a snapshot means no seat
        self._answered: I.DecisionKey | None = None  # the decision a move was sent for
        self._thinking: I.DecisionKey | None = None
        self._again: I.Pass | I.Play | None = None  # the move the "move" timer resends
        self._lonely_count = 0
        self._said_busy = False

    @property
    def name(self) -> str:
        return self.core.name or self.options.name

    # ---- in --------------------------------------------------------------------------
    def changed(self, changes: list[Change]) -> list[Effect]:
        out: list[Effect] = []
        for change in changes:
            out += self._change(change)
        return self._track(out)

    def fired(self, timer: str) -> list[Effect]:
        self._timers.discard(timer)
        return self._track(self._fired(timer))

    def enter_lobby(self) -> list[Effect]:
        """Look for the table (or enter the tournament) from the lobby."""
        o = self.options
        if o.tournament is not None:
            # Entering again (after a reconnect) is harmless: the server keeps us as the
            # entrant, and seats us when our next game begins.
            return [I.EnterTournament(o.tournament)]
        if o.create is not None and not self.created:
            return [self._create(o.create)]
        return [I.ListTables()]

    def _track(self, out: list[Effect]) -> list[Effect]:
        for effect in out:
            if isinstance(effect, Later):
                self._timers.add(effect.timer)
            elif isinstance(effect, Cancel):
                self._timers.discard(effect.timer)
        return out

    def _change(self, change: Change) -> list[Effect]:
        match change:
            case Welcomed():
                return self._welcomed(change)
            case LinkLost():
                self._timers.clear()  # the bot cancels every timer with the link
                self._answered = None  # a move in flight may never have arrived
                self._thinking = None
                return []
            case TableChanged():
                return self._table(change)
            case SeatsChanged() if change.table_id == self.table_id:
                return self._maybe_start() + self._lonely_check()
            case GameEnded():
                return self._game_over(change)
            case DecisionDue():
                return self._think(change.key)
            case TournamentChanged():
                return self._tournament(change)
            case Answered():
                return self._answer(change)
        return []

    # ---- the lobby ---------------------------------------------------------------------
    def _welcomed(self, change: Welcomed) -> list[Effect]:
        w = change.welcome
        if not w.resumed:
            self.table_id = None
            return self.enter_lobby()
        if self.core.link.speaks(WELCOME_SAYS_SEAT):
            if w.table_id is not None and w.seat is not None:
                log.info("{bot}: session resumed at seat {seat}", bot=self.name, seat=w.seat + 1)
                return []  # the snapshot that follows puts us back in the game
            log.info("{bot}: no longer seated after resume; finding the table", bot=self.name)
            self.table_id = None
            # Spectating is no use to a bot (and is never kept across a drop today).
            leave: list[Effect] = [I.Leave()] if w.table_id is not None else []
            return leave + self.enter_lobby()
        log.info("{bot}: session resumed", bot=self.name)
        # A 1.0 welcome does not say where we are. A seated session gets its snapshot
        # right after welcome; a pong arriving first tells us the seat is gone.
        self._probing = True
        return [I.Ping()]

    def _create(self, name: str) -> I.CreateTable:
        o = self.options
        return I.CreateTable(name, o.preset, dict(o.overrides), o.password)

    def _listed(self, confirm: bool) -> list[Effect]:
        if self.table_id is not None:
            return []
        wanted = self.options.table or self.options.create
        choice = self.core.lobby.choose(wanted, self.options.password)
        if choice.kind == "join":
            assert choice.table_id is not None
            return [I.JoinTable(choice.table_id, self.options.password)]
        if choice.kind == "locked":
            why = f"table {wanted!r} has a password: give it with --password"
            return [Fail(EntryRefused(why))]
        if choice.kind == "absent" and confirm:
            return [self._create(str(wanted))]
        if choice.kind == "busy":
            if not self._said_busy:
                self._said_busy = True
                log.info("{bot}: table {name!r} is busy; waiting", bot=self.name, name=wanted)
            return [Later("lobby", 2.0)]
        # Absent: look once more after a random pause, so bots started together do not
        # all create a table of the same name.
        return [Later("relook", self.rng.random() * self.options.create_jitter_s)]

    def _tournament(self, change: TournamentChanged) -> list[Effect]:
        t = change.tournament
        if t["status"] == "finished" and self.table_id is None:
            log.info("{bot}: tournament {id} finished", bot=self.name, id=t["id"])
            return [Stop()]
        return []

    def _table(self, change: TableChanged) -> list[Effect]:
        self._probing = False
        table = self.core.table
        if self.options.tournament is not None and self.table_id != change.table_id:
            log.info("{bot}: seated for a tournament game at table {t}", bot=self.name,
                     t=change.table_id)  # fmt: skip
        self.table_id = change.table_id
        seat = table.your_seat
        if seat is None:
            log.warn("{bot}: not seated at table {t}; leaving", bot=self.name, t=self.table_id)
            self.table_id = None  # a seatless snapshot must not stop the lobby's lookup
            return []
        out: list[Effect] = []
        if not self.seated:
            # Seats are counted from 1 wherever a person reads them, logs included.
            log.info("{bot}: seat {seat} at table {t}", bot=self.name, seat=seat + 1,
                     t=self.table_id)  # fmt: skip
            if table.is_host:
                self.created = True
            self.seated = True
            out.append(Seated())
        return out + self._maybe_start() + self._lonely_check()

    def _occupied(self) -> int:
        return sum(1 for p in self.core.table.players if p.get("name"))

    def _maybe_start(self) -> list[Effect]:
        # After a game, rematch votes (not `start`) begin the next one.
        t = self.core.table
        if t.is_host and t.status_word == "waiting" and self._occupied() == 4:
            return [I.Start()]
        return []

    def _lonely_check(self) -> list[Effect]:
        """A table creator alone for a while leaves and looks the name up again.

        Two bots that create the same name at once each end up alone; the others join
        the lowest id, so the creator of the other one rejoins there. Harmless otherwise
        (an empty table is simply made again), and the pause doubles each time so a bot
        waiting long for company does not churn. A bot that was told to create its table
        (`--create`) never leaves it: it hosts, and an invitation to it stays good.
        """
        if self._lonely():
            if "lonely" in self._timers:
                return []
            return [Later("lonely", min(60.0, self.options.lonely_s * 2**self._lonely_count))]
        return [Cancel("lonely")] if "lonely" in self._timers else []

    def _lonely(self) -> bool:
        t = self.core.table
        return (
            t.is_host
            and self.table_id is not None
            and self.options.table is not None
            and self.options.create is None  # `--create`: it hosts, and waits for people
            and t.status_word == "waiting"
            and self._occupied() == 1
        )

    def _leave_lonely(self) -> list[Effect]:
        if not self._lonely():
            return []
        self._lonely_count += 1
        # Said, not debug: a person watching the log sees why the table's number changes.
        log.info(
            "{bot}: alone at table {t}; leaving it to look for {name!r} again",
            bot=self.name,
            t=self.table_id,
            name=self.options.table,
        )
        self.table_id = None
        return [I.Leave(), *self.enter_lobby()]

    # ---- the game ----------------------------------------------------------------------
    def _game_over(self, change: GameEnded) -> list[Effect]:
        """The log names the id the server stored the game under (1.4), so that `leekha
        records export --game ID` finds it."""
        stored = f", stored as game {change.game_id}" if change.game_id is not None else ""
        if change.missed:
            stored += ", ended while we were away"
        self.games_done += 1
        if self.options.tournament is not None:
            # The server takes us back to the lobby and seats us at our next game; asking
            # for the state again tells us when that was the last one.
            log.info("{bot}: tournament game {n} over{stored}", bot=self.name,
                     n=self.games_done, stored=stored)  # fmt: skip
            self.table_id = None
            self._answered = None
            return self.enter_lobby()
        v = self.core.table.view
        result = v.result if v is not None else None
        log.info(
            "{bot}: game {n} over, totals {totals}, winners {winners}{stored}",
            bot=self.name,
            n=self.games_done,
            stored=stored,
            totals=result["totals"] if result else None,
            winners=[w + 1 for w in result["winners"]] if result else None,
        )
        if self.options.games and self.games_done >= self.options.games:
            return [I.Leave(), Stop()]
        return self._vote_rematch()

    def _vote_rematch(self) -> list[Effect]:
        return [I.Rematch()] if self.core.table.status_word == "finished" else []

    def _think(self, key: I.DecisionKey) -> list[Effect]:
        if key == self._answered:
            return []
        if self.options.think_s > 0:
            self._thinking = key
            return [Later("think", self.options.think_s)]
        return self._act(key)

    def _act(self, key: I.DecisionKey) -> list[Effect]:
        view = self.core.seat_view()
        if key != self.core.decision() or view is None:
            return []
        self._answered = key
        try:
            actions = decide(self.strategy, view)
        except Exception:
            log.failure("{bot}: strategy failed; moving at random", bot=self.name)
            actions = []
        legal = set(view.legal)
        out: list[Effect] = []
        for action in actions:
            if action["kind"] == "double" and action["card"] in view.can_double:
                out.append(I.Double(action["card"]))
            elif action["kind"] == "pass":
                cards = tuple(sorted(cast(list[int], action["cards"])))
                if len(set(cards)) == 3 and set(cards) <= legal:
                    return [*out, *self._send(I.Pass(cards, key))]
            elif action["kind"] == "play" and action["card"] in legal:
                return [*out, *self._send(I.Play(action["card"], key))]
        return out + self._at_random(key, 0)

    def _at_random(self, key: I.DecisionKey, tries: int) -> list[Effect]:
        """The never-stall move: a random one the prompt's `legal` list allows."""
        v = self.core.table.view
        legal = list(v.legal) if v is not None else []
        if not legal or v is None:
            return []
        if key[1] == "play":
            return self._send(I.Play(self.rng.choice(legal), key, tries))
        hand = C.mask_of(v.hand)
        allowed = set(legal)
        options = [c for c in legal_passes(self.core.rules, hand) if set(c) <= allowed]
        options = options or list(combinations(legal, 3))
        if not options:
            return []
        return self._send(I.Pass(tuple(sorted(self.rng.choice(options))), key, tries))

    def _send(self, move: I.Pass | I.Play) -> list[Effect]:
        """Send `move`, and send it again if no answer comes (the server may drop it)."""
        if move.tries >= RATE_RETRIES:
            self._again = None
            return [move, Cancel("move")]
        self._again = _again(move)
        return [move, Later("move", UNANSWERED_S)]

    def _answer(self, change: Answered) -> list[Effect]:
        intent, refusal = change.intent, change.refusal
        if isinstance(intent, I.Pass | I.Play) and self._again is not None:
            if self._again.decision == intent.decision:
                self._again = None
                out: list[Effect] = [Cancel("move")]
            else:
                out = []
        else:
            out = []
        if refusal is None:
            if isinstance(intent, I.ListTables):
                return out + self._listed(intent.confirm)
            reply = change.answer.reply
            if isinstance(reply, P.TournamentState) and not self.seated:
                t = reply.tournament
                log.info("{bot}: entered tournament {id} {name!r}; waiting to be seated",
                         bot=self.name, id=t["id"], name=t["name"])  # fmt: skip
                self.seated = True
                return [*out, Seated()]
            if isinstance(intent, I.Ping) and self._probing:
                self._probing = False
                log.info("{bot}: no longer seated after resume; finding the table", bot=self.name)
                self.table_id = None
                return out + self.enter_lobby()
            return out
        return out + self._refused(intent, refusal.code, refusal.message)

    def _refused(self, intent: I.Intent, code: str, message: str) -> list[Effect]:
        lobby = isinstance(intent, I.CreateTable | I.JoinTable | I.ListTables)
        entering = isinstance(intent, I.EnterTournament)
        if entering and code == "tournament_over" and self.seated:
            return [Stop()]  # it finished while we were away: our games are done
        if (entering and code in ENTRY_REFUSED) or (lobby and code in TABLE_REFUSED):
            return [Fail(EntryRefused(message))]  # the command's last line says it
        log.warn("{bot}: server refused {kind}: {code} {message}", bot=self.name,
                 kind=_kind(intent), code=code, message=message)  # fmt: skip
        if entering or (lobby and code != "already_seated"):
            return [Later("lobby", 1.0)]
        if isinstance(intent, I.Pass | I.Play):
            key = intent.decision
            self._answered = None  # let the next prompt for this decision through
            if key != self.core.decision():
                return []
            if code == "rate_limited" and intent.tries < RATE_RETRIES:
                # The move was fine, we were just too quick: send it again a little later
                # rather than leave the seat to the turn timer.
                self._answered = key
                self._again = _again(intent)
                return [Later("move", RATE_BACKOFF_S * (intent.tries + 1))]
            if code in MOVE_ERRORS and intent.tries < MOVE_RETRIES:
                self._answered = key
                return self._at_random(key, intent.tries + 1)
            return []
        if isinstance(intent, I.Start) and code == "not_ready":
            return [Later("start", 0.5)]
        if isinstance(intent, I.Rematch) and code == "not_ready":
            return [Later("rematch", 1.0)]
        return []

    # ---- timers ------------------------------------------------------------------------
    def _fired(self, timer: str) -> list[Effect]:
        match timer:
            case "lobby":
                return self.enter_lobby()
            case "relook":
                return [I.ListTables(confirm=True)]
            case "lonely":
                return self._leave_lonely()
            case "start":
                return self._maybe_start()
            case "rematch":
                return self._vote_rematch()
            case "think" if self._thinking is not None:
                key, self._thinking = self._thinking, None
                return self._act(key)
            case "move" if self._again is not None:
                move, self._again = self._again, None
                if move.decision != self.core.decision():
                    return []  # the decision was made for us meanwhile (timer, takeover)
                return self._send(move)
        return []


def _again(move: I.Pass | I.Play) -> I.Pass | I.Play:
    """`move` as it is sent the next time."""
    if isinstance(move, I.Pass):
        return I.Pass(move.cards, move.decision, move.tries + 1)
    return I.Play(move.card, move.decision, move.tries + 1)


def _kind(intent: I.Intent) -> str:
    """The intent's name for the log: "jointable", "pass"."""
    return type(intent).__name__.lower()
