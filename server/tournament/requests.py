"""The tournament requests of the lobby: create, list, follow and enter.

They check what a client asked for and change the runner's tournaments; the games are
started by the runner (leekha.server.tournament.runner) on its next look.
"""

from __future__ import annotations

from typing import Protocol

from twisted.logger import Logger

from leekha.protocol import tournaments as T
from leekha.protocol.views import EntrantRequest
from leekha.server.clock import Clock
from leekha.server.errors import Refused
from leekha.server.limits import clean_name, name_keys
from leekha.server.seats import bot_strategy_name
from leekha.server.session import Session
from leekha.server.settings import ServerSettings
from leekha.server.tournament import plan as P
from leekha.server.tournament.live import (
    FALLBACK,
    FINISHED,
    RUNNING,
    WAITING,
    LobbyPort,
    Tournament,
)
from leekha.server.tournament.store import Stored, TournamentStore

__all__ = ["TournamentRequests"]

log = Logger()

#: The furthest ahead a start time may be set: a week, so that a tournament that will
#: not start soon does not hold a place among `max_tournaments` for long.
MAX_AHEAD_S = 7 * 24 * 3600


def _bad(message: str) -> Refused:
    return Refused("bad_tournament", message)


class RunnerPort(Protocol):
    """What the requests use of the runner (leekha.server.tournament.runner), which owns
    them: its tournaments, who follows or entered them, and a look for games to start."""

    lobby: LobbyPort
    clock: Clock
    settings: ServerSettings
    store: TournamentStore
    tournaments: dict[int, Tournament]
    following: dict[str, int]
    entered: set[str]

    def poke(self) -> None: ...

    def state(self, t: Tournament, re: int | None = None) -> T.TournamentState: ...

    def set_status(self, t: Tournament, status: str) -> None: ...


class TournamentRequests:
    """The lobby's tournament requests, answered from the runner's tournaments."""

    def __init__(self, runner: RunnerPort) -> None:
        self.runner = runner
        self.lobby = runner.lobby
        self.settings = runner.settings

    def create(self, session: Session, msg: T.CreateTournament) -> T.TournamentState:
        unfinished = sum(1 for t in self.runner.tournaments.values() if t.t.status != FINISHED)
        if unfinished >= self.settings.max_tournaments:
            raise Refused(
                "too_many_tournaments",
                f"this server runs at most {self.settings.max_tournaments} tournaments at once",
            )
        name = clean_name(msg.name, self.lobby.max_name)
        if msg.move_timer_s == 0:
            raise _bad("a tournament needs a move timer (1..3600 s), so nobody can stall it")
        timer = (
            self.settings.tournament_move_timer_s
            if msg.move_timer_s is None
            else float(msg.move_timer_s)
        )
        starts_at = self._start(msg)
        rules = self.lobby.rules_of(msg.preset, msg.overrides)
        entrants = self._entrants(msg.entrants)
        try:
            P.check(msg.format, len(entrants), msg.deals, msg.stages)
        except P.PlanError as exc:
            raise _bad(str(exc)) from None
        seed = self.lobby.new_seed()
        if msg.format == P.SWISS:
            field = P.with_house(entrants, FALLBACK)
            games = P.swiss_stage(P.first_order(len(field), seed), 0, msg.deals, seed)
        else:
            field = entrants
            games = P.round_robin(len(entrants), msg.deals, seed)
        stored = Stored(
            id=0,
            name=name,
            format=msg.format,
            preset=msg.preset,
            rules=rules,
            deals=msg.deals,
            stages=msg.stages,
            move_timer_s=timer,
            seed=seed,
            status=(
                WAITING
                if starts_at is not None or any(e.name is not None for e in field)
                else RUNNING
            ),
            entrants=field,
            games=games,
            starts_at=starts_at,
        )
        self.runner.store.create(stored)
        t = self.runner.tournaments[stored.id] = Tournament(stored, self.runner.clock.seconds())
        if starts_at is not None:
            t.note(f"the games begin in {round(starts_at - self.runner.clock.seconds())} s")
        elif stored.status == WAITING:
            t.note("waiting for the client entrants to enter")
        log.info(
            "{player} created tournament {id} {name!r}: {n} games",
            player=session.name,
            id=t.id,
            name=name,
            n=len(games),
        )
        self.runner.following[session.token] = t.id
        self.runner.poke()
        return self.runner.state(t, msg.id)

    def _start(self, msg: T.CreateTournament) -> float | None:
        """The start time asked for (at most one of `starts_at` and `starts_in_s`), on
        the server's clock; None when the games begin as the entrants come."""
        now = self.runner.clock.seconds()
        if msg.starts_at is not None and msg.starts_in_s is not None:
            raise _bad("give the start as starts_at or as starts_in_s, not both")
        if msg.starts_in_s is not None:
            ahead = float(msg.starts_in_s)
        elif msg.starts_at is not None:
            ahead = msg.starts_at - now
        else:
            return None
        if ahead < 1:
            raise _bad("the start time has passed (the server's clock says so)")
        if ahead > MAX_AHEAD_S:
            raise _bad(f"the start time is more than {MAX_AHEAD_S // 86400} days ahead")
        return now + ahead

    def _entrants(self, asked: list[EntrantRequest]) -> list[P.Entrant]:
        specs: list[tuple[str | None, str | None]] = []
        keys: set[str] = set()
        for i, e in enumerate(asked):
            name, strategy = e["name"], e["strategy"]
            try:
                if name is not None:
                    name = clean_name(name, self.lobby.max_name)
                    if keys & set(name_keys(name)):
                        raise _bad(f"entrant {i + 1}: {name!r} (or a look-alike) is given twice")
                    keys.update(name_keys(name))
                if strategy is not None:
                    strategy = bot_strategy_name(strategy)
            except Refused as exc:
                if exc.code == "bad_tournament":
                    raise
                raise _bad(f"entrant {i + 1}: {exc.message}") from None
            specs.append((name, strategy))
        try:
            return P.entrants_of(specs)
        except P.PlanError as exc:
            raise _bad(str(exc)) from None

    def list(self, msg: T.ListTournaments) -> T.TournamentList:
        now = self.runner.clock.seconds()
        newest = sorted(self.runner.tournaments.values(), key=lambda t: -t.id)[: T.WIRE_LIST]
        return T.TournamentList(re=msg.id, tournaments=[t.summary(now) for t in newest])

    def _get(self, tournament_id: int) -> Tournament:
        t = self.runner.tournaments.get(tournament_id)
        if t is None:
            raise Refused("no_such_tournament", f"no tournament {tournament_id}")
        return t

    def follow(self, session: Session, msg: T.GetTournament) -> T.TournamentState:
        t = self._get(msg.tournament_id)
        self.runner.following[session.token] = t.id
        return self.runner.state(t, msg.id)

    def enter(self, session: Session, msg: T.EnterTournament) -> T.TournamentState:
        t = self._get(msg.tournament_id)
        if t.t.status == FINISHED:
            raise Refused("tournament_over", f"tournament {t.id} has finished")
        mine = set(name_keys(session.name))
        index = next(
            (e.index for e in t.t.entrants if e.name is not None and mine & set(name_keys(e.name))),
            None,
        )
        if index is None:
            raise Refused(
                "not_an_entrant", f"{session.name!r} is not a client entrant of tournament {t.id}"
            )
        bound = t.t.tokens.get(index)
        if bound is not None and bound != session.token:
            other = self.lobby.sessions.get(bound)
            if other is not None and other.peer is not None:
                raise Refused(
                    "already_entered",
                    f"another connected session plays {t.t.entrants[index].label!r}",
                )
        self.runner.entered.add(session.token)
        if bound != session.token:
            t.t.tokens[index] = session.token
            self.runner.store.bind(t.id, index, session.token)
            t.note(f"{t.t.entrants[index].label} entered")
        if (
            t.t.status == WAITING
            and t.t.starts_at is None
            and all(e.index in t.t.tokens for e in t.t.entrants if e.name is not None)
        ):
            self.runner.set_status(t, RUNNING)
            t.note("every client entrant is here: the games begin")
        self.runner.following[session.token] = t.id
        self.runner.poke()
        return self.runner.state(t, msg.id)
