"""The tournament requests of the lobby: create, list, follow and enter.

They check what a client asked for and change the runner's tournaments; the games are
started by the runner (leekha.server.domain.tournament.runner) on its next look.
"""

from __future__ import annotations

from typing import NoReturn, Protocol

from twisted.logger import Logger

from leekha.common.errors import Fact
from leekha.protocol import tournaments as T
from leekha.protocol.notices import RULES, english
from leekha.protocol.views import EntrantRequest
from leekha.server.domain.clock import Clock
from leekha.server.domain.config import DomainSettings
from leekha.server.domain.errors import Refused
from leekha.server.domain.limits import clean_name, name_keys
from leekha.server.domain.seats import WIRE_NAME_MAX, bot_strategy_name
from leekha.server.domain.session import Session
from leekha.server.domain.tournament import plan as P
from leekha.server.domain.tournament.live import (
    FALLBACK,
    FINISHED,
    RUNNING,
    WAITING,
    LobbyPort,
    Tournament,
)
from leekha.server.domain.tournament.store import Stored, TournamentStore

__all__ = ["TournamentRequests"]

log = Logger()

#: The furthest ahead a start time may be set: a week, so that a tournament that will
#: not start soon does not hold a place among `max_tournaments` for long.
MAX_AHEAD_S = 7 * 24 * 3600


def creator_of(session: Session) -> str:
    """Who creates a tournament: the key of a claimed name, or a guest's name."""
    if session.key is not None:
        return f"key:{session.key}"
    return f"name:{session.name.casefold()}"


def _too_many(rule: str, **facts: Fact) -> NoReturn:
    """Refuse with `too_many_tournaments`, saying which limit (a rule a client words)."""
    raise Refused("too_many_tournaments", english(RULES[rule], facts), rule=rule, args=facts)


def _bad(message: str) -> Refused:
    return Refused("bad_tournament", message)


class RunnerPort(Protocol):
    """What the requests use of the runner (leekha.server.domain.tournament.runner), which owns
    them: its tournaments, who follows or entered them, and a look for games to start."""

    lobby: LobbyPort
    clock: Clock
    settings: DomainSettings
    store: TournamentStore
    tournaments: dict[int, Tournament]
    following: dict[str, int]
    entered: set[str]

    def poke(self) -> None: ...

    def state(self, t: Tournament, re: int | None = None) -> T.TournamentState: ...

    def set_status(self, t: Tournament, status: str) -> None: ...

    def cancel(self, t: Tournament, by: str) -> None: ...


class TournamentRequests:
    """The lobby's tournament requests, answered from the runner's tournaments."""

    def __init__(self, runner: RunnerPort) -> None:
        self.runner = runner
        self.lobby = runner.lobby
        self.settings = runner.settings

    def create(
        self, session: Session, msg: T.CreateTournament, address: str = ""
    ) -> T.TournamentState:
        creator = creator_of(session)
        self._check_creator(creator, address)
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
        waits = starts_at is not None or any(e.name is not None for e in entrants)
        self._check_room(waits)
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
            rules=rules.to_dict(),
            deals=msg.deals,
            stages=msg.stages,
            move_timer_s=timer,
            seed=seed,
            status=WAITING if waits else RUNNING,
            entrants=field,
            games=games,
            starts_at=starts_at,
            creator=creator,
            address=address,
        )
        self.runner.store.create(stored)
        t = self.runner.tournaments[stored.id] = Tournament(stored, self.runner.clock.seconds())
        if starts_at is not None:
            t.note("begins_in", seconds=round(starts_at - self.runner.clock.seconds()))
        elif stored.status == WAITING:
            t.note("waiting_entrants")
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

    def _unfinished(self) -> list[Tournament]:
        return [t for t in self.runner.tournaments.values() if t.t.status != FINISHED]

    def _check_creator(self, creator: str, address: str) -> None:
        """One address, or one name, may have `max_tournaments_per_creator` tournaments
        not yet finished: nobody holds the server's places for everyone else."""
        limit = self.settings.max_tournaments_per_creator
        mine = [t for t in self._unfinished() if t.t.creator == creator or t.t.address == address]
        if len(mine) >= limit:
            _too_many("tournaments_yours", limit=limit, ids=[t.id for t in mine])

    def _check_room(self, waits: bool) -> None:
        """Tournaments waiting to start and those running have separate limits, so those
        waiting (a week ahead, say) never keep one from running now."""
        if waits:
            waiting = sum(1 for t in self._unfinished() if t.t.status == WAITING)
            if waiting >= self.settings.max_waiting_tournaments:
                _too_many("tournaments_waiting", limit=self.settings.max_waiting_tournaments)
            return
        running = sum(1 for t in self._unfinished() if t.t.status == RUNNING)
        if running >= self.settings.max_tournaments:
            _too_many("tournaments_running", limit=self.settings.max_tournaments)

    def cancel(
        self, session: Session, msg: T.CancelTournament, address: str, operator: bool
    ) -> T.TournamentState:
        """End a tournament now: its creator's (a guest's from the address it was created
        from), or anyone's for the server's operator."""
        t = self._get(msg.tournament_id)
        if t.t.status == FINISHED:
            raise Refused("tournament_over", f"tournament {t.id} has finished")
        mine = t.t.creator == creator_of(session) and (
            session.key is not None or t.t.address == address
        )
        if not (operator or mine):
            raise Refused(
                "not_your_tournament",
                f"only the creator of tournament {t.id} or the server's operator may cancel it",
            )
        self.runner.cancel(t, session.name)
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
            t.note("entered", name=t.t.entrants[index].label[:WIRE_NAME_MAX])
        if (
            t.t.status == WAITING
            and t.t.starts_at is None
            and all(e.index in t.t.tokens for e in t.t.entrants if e.name is not None)
        ):
            self.runner.set_status(t, RUNNING)
            t.note("all_here")
        self.runner.following[session.token] = t.id
        self.runner.poke()
        return self.runner.state(t, msg.id)
