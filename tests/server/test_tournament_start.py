"""A tournament with a start time, on a fake clock: it waits for its time whoever has
entered, seats the entered people at once when the time comes, covers whoever did not
come (`seat_grace_s`, then the fallback), and keeps its time across a restart."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from helpers.server import Harness
from helpers.tournaments import V13, _create, _hello, _run, _tournament

from leekha import protocol as P
from leekha.protocol import catalogue as M
from leekha.server.domain.persistence import Store
from leekha.server.domain.tournament.store import TournamentStore

V14 = [[1, 4]]
#: ann and bob are people, two server bots make the foursome.
#: The clients here never answer a keepalive ping: no pings in the minutes waited.
QUIET: dict[str, Any] = {"ping_interval_s": 3600.0, "bot_think_ms": 0}
PEOPLE: list[dict[str, Any]] = [{"name": "ann"}, {"name": "bob"}] + [{"strategy": "random"}] * 2


def test_a_timed_tournament_waits_then_seats_who_came_and_covers_who_did_not() -> None:
    h = Harness(seat_grace_s=2.0, tournament_entry_wait_s=5.0, **QUIET)
    host = _hello(h, "host", V14)
    reply = _create(host, entrants=PEOPLE, starts_in_s=30)
    t = _tournament(h, reply)
    assert isinstance(reply, P.TournamentState)
    assert reply.tournament["starts_at"] == 30.0 and reply.tournament["starts_in_s"] == 30
    ann = _hello(h, "ann", V14)
    entered = ann.request(P.EnterTournament(id=ann.rid(), tournament_id=t.id))
    assert isinstance(entered, P.TournamentState)
    h.advance(20.0, step=0.5)  # past the entry wait, which a start time overrides
    assert t.t.status == "waiting" and not t.live
    listed = host.request(P.ListTournaments(id=host.rid()))
    assert isinstance(listed, P.TournamentList)
    (line,) = listed.tournaments
    assert line["starts_at"] == 30.0 and line["starts_in_s"] == 10  # the countdown
    h.advance(10.5, step=0.5)
    assert t.t.status == "running" and not t.live  # bob may be just late: his grace
    h.advance(2.0, step=0.5)
    seated = [m for m in ann.of(M.Snapshot) if m.re is None]
    assert seated and seated[0].your_seat is not None  # ann at once, the fallback for bob
    told = [m for m in ann.of(M.ChatMessage) if m.code == "tournament_away"]
    assert told and told[0].args["name"] == "bob" and told[0].table_id == seated[0].table["id"]
    state = h.lobby.tournaments.state(t).tournament
    assert state["starts_in_s"] == 0
    assert "the start time has come: the games begin" in state["notes"]
    assert "bob did not enter in time: the fallback plays for them" in state["notes"]
    _run(h, t, (ann,))
    bob_games = [r for r in t.t.results.values() if 1 in r.game.seats]
    assert bob_games and all(r.fallback_moves[r.game.seats.index(1)] > 0 for r in bob_games)
    assert all(r.fallback_moves[r.game.seats.index(0)] == 0 for r in t.t.results.values())


def test_people_who_all_entered_early_still_wait_for_the_start() -> None:
    h = Harness(**QUIET)
    host = _hello(h, "host", V14)
    t = _tournament(h, _create(host, entrants=PEOPLE, starts_in_s=60))
    ann, bob = _hello(h, "ann", V14), _hello(h, "bob", V14)
    for c in (ann, bob):
        reply = c.request(P.EnterTournament(id=c.rid(), tournament_id=t.id))
        assert isinstance(reply, P.TournamentState) and reply.tournament["status"] == "waiting"
    h.advance(59.0, step=1.0)
    assert not t.live
    h.advance(1.5, step=0.5)
    assert t.live
    assert any(m.re is None for m in ann.of(M.Snapshot))


def test_a_restart_before_the_start_keeps_the_time(tmp_path: Path) -> None:
    path = tmp_path / "leekha.sqlite3"
    h = Harness(store=Store(path), **QUIET)
    host = _hello(h, "host", V14)
    t = _tournament(h, _create(host, entrants=[{"strategy": "random"}] * 4, starts_in_s=60))
    h.advance(10.0, step=1.0)
    h.stop()
    assert TournamentStore(Store(path)).load(t.id) is not None

    h2 = Harness(store=Store(path), **QUIET)  # its clock starts again at 0
    t2 = h2.lobby.tournaments.tournaments[t.id]
    assert t2.t.starts_at == 60.0 and t2.t.status == "waiting"
    h2.advance(59.0, step=1.0)
    assert t2.t.status == "waiting" and not t2.live and not t2.t.results
    h2.advance(1.5, step=0.5)
    assert t2.t.status != "waiting" and (t2.live or t2.t.results)
    _run(h2, t2)
    assert len(t2.t.results) == 4


@pytest.mark.parametrize(
    ("over", "words"),
    [
        ({"starts_in_s": 0}, "has passed"),
        ({"starts_at": 5.0}, "has passed"),  # the server's clock is at 10 s
        ({"starts_in_s": 8 * 86400}, "more than 7 days ahead"),
        ({"starts_in_s": 60, "starts_at": 100.0}, "not both"),
    ],
)
def test_a_bad_start_is_refused_in_words_and_nothing_is_created(
    over: dict[str, Any], words: str
) -> None:
    h = Harness()
    h.advance(10.0, step=1.0)
    host = _hello(h, "host", V14)
    reply = _create(host, **over)
    assert isinstance(reply, M.Error) and reply.code == "bad_tournament", reply
    assert words in reply.message
    assert not h.lobby.tournaments.tournaments


def test_a_tournament_without_a_start_time_says_so_to_every_client() -> None:
    h = Harness(**QUIET)
    host = _hello(h, "host", V13)  # an older client ignores the new keys
    reply = _create(host)
    assert isinstance(reply, P.TournamentState)
    assert reply.tournament["starts_at"] is None and reply.tournament["starts_in_s"] is None


def test_a_database_of_an_older_server_gains_the_start_column(tmp_path: Path) -> None:
    path = tmp_path / "leekha.sqlite3"
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE tournaments (id INTEGER PRIMARY KEY, name TEXT NOT NULL, format TEXT"
        " NOT NULL, preset TEXT NOT NULL, rules TEXT NOT NULL, deals INTEGER NOT NULL,"
        " stages INTEGER, move_timer_s REAL, seed INTEGER NOT NULL, status TEXT NOT NULL,"
        " created REAL NOT NULL)"
    )
    db.execute(
        "INSERT INTO tournaments VALUES (1, 'old', 'round_robin', 'classic', '{}', 1, NULL,"
        " 10, 5, 'finished', 0)"
    )
    db.commit()
    db.close()
    loaded = TournamentStore(Store(path)).load(1)
    assert loaded is not None and loaded.name == "old" and loaded.starts_at is None
