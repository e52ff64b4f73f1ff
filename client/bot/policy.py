"""A bot seat's policy: the core's changes in, intents and timers out. No socket, no clock.

The bot (client/bot/client.py) feeds every change `ClientCore.receive` reports to
`changed`, every timer it was asked to set that fires to `fired`, and carries out what
comes back (client/bot/options.py): an intent is sent through the core, `Later`/`Cancel`
set and clear a named timer, `Seated`, `Stop` and `Fail` end a wait or the bot. The
policy finds the table: it enters the tournament, or joins the lowest open table of the
wanted name (`Lobby.choose`), creates it when it is still absent after a second look a
random moment later (bots started together must not all create one), and leaves a table
it was left alone at for a while (two bots that created the same name at once). At a
game's end it votes for a rematch, leaves, or goes back to the tournament. Each move, and
the never-stall retries, are `Moves`' (client/bot/moves.py).
"""

from __future__ import annotations

import random

from twisted.logger import Logger

from leekha import protocol as P
from leekha.client.bot.moves import Moves
from leekha.client.bot.options import (
    BotOptions,
    Cancel,
    Effect,
    EntryRefused,
    Fail,
    Later,
    Seated,
    Stop,
)
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
from leekha.common.bots.base import Strategy, make_strategy
from leekha.protocol.version import WELCOME_SAYS_SEAT

log = Logger()

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


class BotPolicy:
    """One seat's decisions over `core`; `strategy` decides its moves (`moves`), `rng`
    spreads the second looks and picks the never-stall moves."""

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
        strategy = strategy or make_strategy(options.strategy, options.seed)
        self.moves = Moves(core, strategy, self.rng, options.think_s, lambda: self.name)
        #: The table the lobby steps found (None: still looking, or gone back to look).
        self.table_id: int | None = None
        self.created = False
        self.seated = False
        self.games_done = 0
        self._timers: set[str] = set()
        self._probing = False  # a 1.0 resume: a pong before a snapshot means no seat
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
                self.moves.forget()  # a move in flight may never have arrived
                return []
            case TableChanged():
                return self._table(change)
            case SeatsChanged() if change.table_id == self.table_id:
                return self._maybe_start() + self._lonely_check()
            case GameEnded():
                return self._game_over(change)
            case DecisionDue():
                return self.moves.due(change.key)
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
            self.moves.forget()
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

    def _answer(self, change: Answered) -> list[Effect]:
        intent, refusal = change.intent, change.refusal
        if isinstance(intent, I.Pass | I.Play):
            return self.moves.answered(intent, refusal.code if refusal is not None else None)
        if refusal is not None:
            return self._refused(intent, refusal.code, refusal.message)
        if isinstance(intent, I.ListTables):
            return self._listed(intent.confirm)
        reply = change.answer.reply
        if isinstance(reply, P.TournamentState) and not self.seated:
            t = reply.tournament
            log.info("{bot}: entered tournament {id} {name!r}; waiting to be seated",
                     bot=self.name, id=t["id"], name=t["name"])  # fmt: skip
            self.seated = True
            return [Seated()]
        if isinstance(intent, I.Ping) and self._probing:
            self._probing = False
            log.info("{bot}: no longer seated after resume; finding the table", bot=self.name)
            self.table_id = None
            return self.enter_lobby()
        return []

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
        return self.moves.fired(timer)


def _kind(intent: I.Intent) -> str:
    """The intent's name for the log: "jointable", "pass"."""
    return type(intent).__name__.lower()
