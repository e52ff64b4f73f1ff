"""A tournament screen model in known states, shared by the tournament client tests."""

from __future__ import annotations

from leekha import protocol as P
from leekha.client.tui import model as M
from leekha.protocol.views import Entrant, Tournament
from leekha.server.domain.tournament import plan
from leekha.server.domain.tournament.export import entrant_dict
from leekha.server.domain.tournament.standings import GameResult, standings


def state(status: str = "running", tables: int = 2, done: int = 3) -> Tournament:
    """A tournament_state map built from the pure modules, as the server builds it."""
    entrants = [plan.Entrant(0, "mybot"), *(plan.Entrant(i, strategy="heuristic")
                                            for i in (1, 2, 3))]  # fmt: skip
    games = plan.round_robin(4, 2, 5)
    rounds = ((3, 5, 5, 13), (0, 13, 9, 4))
    results = [
        GameResult(g, rounds, (0,), (0, 0, 2, 0) if g.number == 1 else (0, 0, 0, 0), 100 + g.number)
        for g in games[:done]
    ]
    wire_entrants: list[Entrant] = []
    for e in entrants:
        d = entrant_dict(e)
        wire_entrants.append({"index": e.index, "name": d["label"], "strategy": e.strategy,
                              "kind": e.kind, "present": True})  # fmt: skip
    return {
        "id": 7, "name": "Friday", "format": "round_robin", "status": status,
        "preset": "classic", "rules": {}, "deals": 2, "stages": None, "move_timer_s": 30,
        "entrants": wire_entrants,
        "standings": [s.to_dict() for s in standings(entrants, results)],
        "tables": [{"table_id": 40 + i, "game": done + i, "deal": 0, "rotation": 1 + i,
                    "seats": list(games[done + i].seats)} for i in range(tables)],
        "games_done": done, "games_total": len(games), "notes": [],
    }  # fmt: skip


def lobby(version: tuple[int, int] = (1, 3)) -> M.ClientModel:
    """A client in the lobby of a server speaking `version`, its first requests taken."""
    m = M.ClientModel("ann")
    m.apply(P.Welcome(re=1, version=list(version), server="srv", token="t" * 16, name="ann"))
    assert [type(r) for r in m.take_outbox()] == [P.ListTables]
    return m


def opened(tournament_id: int = 2) -> tuple[M.ClientModel, P.GetTournament]:
    """The tournament screen with one tournament listed, Enter pressed on it."""
    m = lobby()
    m.in_lobby.open_tournaments()
    (ask,) = m.take_outbox()
    assert isinstance(ask, P.ListTournaments)
    m.apply(P.TournamentList(re=ask.id, tournaments=[
        {"id": tournament_id, "name": "A", "format": "swiss", "status": "running",
         "entrants": 5, "games_done": 3, "games_total": 48}]))  # fmt: skip
    m.in_lobby.tournament_enter()
    (get,) = m.take_outbox()
    assert isinstance(get, P.GetTournament) and get.tournament_id == tournament_id
    return m, get
