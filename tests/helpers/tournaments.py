"""Tournament runner set-ups: a server with bots, a created tournament, run to its end on a
clock.
"""

from __future__ import annotations

from typing import Any

from helpers.server import FakeClient, Harness, answer_prompts
from leekha import protocol as P
from leekha.protocol import catalogue as M
from leekha.server.domain.tournament.live import Tournament

V13 = [[1, 3]]


SHORT = {"target": 1}


def _hello(h: Harness, name: str, versions: list[list[int]] = V13) -> FakeClient:
    client = h.connect()
    reply = client.request(M.Hello(id=client.rid(), versions=versions, name=name))
    assert isinstance(reply, M.Welcome), reply
    client.token = reply.token
    return client


def _create(client: FakeClient, **over: Any) -> P.Message:
    fields: dict[str, Any] = {
        "name": "cup",
        "entrants": [{"strategy": "random"}] * 4,
        "deals": 1,
        "overrides": SHORT,
        "move_timer_s": 2,
    }
    fields.update(over)
    reply: P.Message = client.request(P.CreateTournament(id=client.rid(), **fields))
    return reply


def _tournament(h: Harness, reply: P.Message) -> Tournament:
    assert isinstance(reply, P.TournamentState), reply
    t: Tournament = h.lobby.tournaments.tournaments[reply.tournament["id"]]
    return t


def _run(
    h: Harness, t: Tournament, clients: tuple[FakeClient, ...] = (), limit: float = 300
) -> int:
    """Play on (scripted clients answer their prompts) until the tournament finishes;
    returns the most tables it had live at once."""
    most = 0
    elapsed = 0.0
    while t.t.status != "finished":
        most = max(most, len(t.live))
        for c in clients:
            for live in list(t.live.values()):
                answer_prompts(h, c, live.table.id)
        h.advance(0.05, step=0.05)
        elapsed += 0.05
        assert elapsed < limit, f"{len(t.t.results)} of {t.t.games_total} games after {limit} s"
    return most
