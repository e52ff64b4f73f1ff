"""What the tournament runner holds about a tournament while it runs, what it needs of
the lobby, and a tournament's state as the wire carries it.

`Lobby` is the server's lobby; the runner sees it only through `LobbyPort`, so the lobby
can own the runner without the two modules importing each other.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from leekha.common.config import RulesConfig
from leekha.common.errors import Fact
from leekha.common.game import Game
from leekha.protocol import tournaments as T
from leekha.protocol.notices import TOURNAMENT_NOTES, note_english
from leekha.protocol.views import Rules, StartTime, TournamentNote, TournamentSummary
from leekha.server.domain.clock import Clock
from leekha.server.domain.config import DomainSettings
from leekha.server.domain.persistence import Store
from leekha.server.domain.seats import DEFAULT_BOT, WIRE_NAME_MAX
from leekha.server.domain.session import Session
from leekha.server.domain.table import Table
from leekha.server.domain.tournament import plan as P
from leekha.server.domain.tournament.standings import GameResult, standings
from leekha.server.domain.tournament.store import Stored

__all__ = ["FALLBACK", "FINISHED", "RUNNING", "WAITING", "Live", "LobbyPort", "Tournament"]

#: The strategy of house bots and of the stand-in for a client entrant that is away.
FALLBACK = DEFAULT_BOT
WAITING, RUNNING, FINISHED = T.STATUSES


class LobbyPort(Protocol):
    """What the runner uses of the lobby (leekha.server.domain.lobby.Lobby)."""

    clock: Clock
    settings: DomainSettings
    store: Store
    max_name: int
    closing: bool
    new_seed: Callable[[], int]

    @property
    def sessions(self) -> Mapping[str, Session]: ...

    @property
    def tables(self) -> Mapping[int, Table]: ...

    def rules_of(self, preset_name: str, overrides: Rules) -> RulesConfig: ...

    def open_table(
        self,
        name: str,
        preset_name: str,
        rules: RulesConfig,
        timers: tuple[float | None, float | None],
    ) -> Table: ...

    def seated(self, session: Session, table: Table) -> None: ...

    def release(self, token: str, table: Table) -> None: ...

    def leave(self, session: Session) -> None: ...


@dataclass
class Live:
    """A game being played: its table, which seats are client entrants, and how many
    moves the server made for each of those seats."""

    game: P.PlannedGame
    table: Table
    clients: list[bool]
    moves: list[int]
    #: Set at game end; the table is let go on the next turn.
    result: GameResult | None = None

    def finished(self, game: Game, record_id: int) -> GameResult:
        assert game.outcome is not None
        self.result = GameResult(
            self.game,
            tuple(tuple(points) for points in game.history),
            tuple(game.outcome.winners),
            (self.moves[0], self.moves[1], self.moves[2], self.moves[3]),
            record_id,
        )
        return self.result


class Tournament:
    """A tournament being run: its stored facts and what is live now."""

    def __init__(self, stored: Stored, since: float) -> None:
        self.t = stored
        #: When it began to wait for its client entrants (created, or this process started).
        self.since = since
        self.live: dict[int, Live] = {}
        #: What happened, latest last: each note's code and facts (leekha.protocol.notices).
        self.notes: deque[TournamentNote] = deque(maxlen=T.WIRE_NOTES)
        #: Its start has come while the server runs `max_tournaments` already.
        self.queued = False

    @property
    def id(self) -> int:
        return self.t.id

    def pending(self) -> list[P.PlannedGame]:
        """Planned games neither finished nor being played, in plan order."""
        return [
            g for g in self.t.games if g.number not in self.t.results and g.number not in self.live
        ]

    def note(self, code: str, **args: Fact) -> None:
        """A note for the tournament's followers: a code and its facts, worded by each
        client in its own language (the English for older clients)."""
        assert code in TOURNAMENT_NOTES, code
        self.notes.append({"code": code, "args": dict(args)})

    def note_texts(self) -> list[str]:
        """The notes in English, as clients older than 1.4 read them."""
        return [note_english(n["code"], n["args"])[:200] for n in self.notes]

    def start(self, now: float) -> StartTime:
        """(1.4) The start time on the wire: when, and how long until then from `now`."""
        at = self.t.starts_at
        if at is None:
            return {"starts_at": None, "starts_in_s": None}
        return {"starts_at": at, "starts_in_s": max(0, math.ceil(at - now))}

    def summary(self, now: float) -> TournamentSummary:
        return {
            "id": self.id,
            "name": self.t.name,
            "format": self.t.format,
            "status": self.t.status,
            "entrants": sum(1 for e in self.t.entrants if not e.house),
            "games_done": len(self.t.results),
            "games_total": self.t.games_total,
            **self.start(now),
        }


def wire_state(
    t: Tournament,
    present: Callable[[Tournament, P.Entrant], bool],
    now: float,
    re: int | None = None,
) -> T.TournamentState:
    """The tournament as `tournament_state` carries it at `now` (the server's clock);
    `present` says whether a client entrant is connected now."""
    results = list(t.t.results.values())
    timer = t.t.move_timer_s
    tables = sorted(t.live.values(), key=lambda live: live.game.number)[: T.WIRE_TABLES]
    return T.TournamentState(
        re=re,
        tournament={
            "id": t.id,
            "name": t.t.name,
            "format": t.t.format,
            "status": t.t.status,
            "preset": t.t.preset,
            "rules": t.t.rules,
            "deals": t.t.deals,
            "stages": t.t.stages,
            "move_timer_s": None if timer is None else max(1, min(3600, round(timer))),
            "entrants": [
                {
                    "index": e.index,
                    "name": e.label[:WIRE_NAME_MAX],
                    "strategy": e.strategy,
                    "kind": e.kind,
                    "present": present(t, e),
                }
                for e in t.t.entrants
            ],
            "standings": [s.to_dict() for s in standings(t.t.entrants, results)],
            "tables": [
                {
                    "table_id": live.table.id,
                    "game": live.game.number,
                    "deal": live.game.deal,
                    "rotation": live.game.rotation,
                    "seats": list(live.game.seats),
                }
                for live in tables
            ],
            "games_done": len(results),
            "games_total": t.t.games_total,
            "notes": t.note_texts(),
            "note_codes": list(t.notes),
            **t.start(now),
        },
    )
