"""Tournaments far ahead do not squat a public server: each address and each name may
have `max_tournaments_per_creator` not yet finished, those waiting to start have their own
limit and never keep one from running now, and a tournament's creator (or the operator,
on the server's machine) can cancel it."""

from __future__ import annotations

from typing import Any

from helpers.server import FakeClient, Harness
from helpers.tournaments import _create

from leekha import protocol as P
from leekha.protocol import catalogue as M

WEEK = 7 * 86400 - 60
V14 = [[1, 4]]
QUIET: dict[str, Any] = {"ping_interval_s": 3600.0, "bot_think_ms": 0}
BOTS: list[dict[str, Any]] = [{"strategy": "random"}] * 4


def _who(h: Harness, name: str, ip: str) -> FakeClient:
    c = h.connect(ip)
    reply = c.request(M.Hello(id=c.rid(), versions=V14, name=name))
    assert isinstance(reply, M.Welcome), reply
    c.token = reply.token
    return c


def _refused(reply: P.Message, code: str) -> str:
    assert isinstance(reply, M.Error) and reply.code == code, reply
    return reply.message


def test_one_client_cannot_fill_the_server_with_tournaments_a_week_ahead() -> None:
    h = Harness(max_tournaments=4, max_waiting_tournaments=16, **QUIET)
    squatter = _who(h, "squatter", "10.0.0.9")
    for _ in range(2):
        assert isinstance(_create(squatter, starts_in_s=WEEK), P.TournamentState)
    words = _refused(_create(squatter, starts_in_s=WEEK), "too_many_tournaments")
    limit = "your limit of tournaments not yet finished (2) is reached: 1, 2; cancel one or wait"
    assert words == limit
    again = _who(h, "other-name", "10.0.0.9")  # the same address under another name
    _refused(_create(again, starts_in_s=WEEK), "too_many_tournaments")
    # Anyone else may still create, and run at once, up to max_tournaments running.
    for i in range(4):
        someone = _who(h, f"p{i}", f"10.0.1.{i}")
        reply = _create(someone)
        assert isinstance(reply, P.TournamentState) and reply.tournament["status"] == "running"
    late = _who(h, "late", "10.0.2.1")
    assert "running at once (4)" in _refused(_create(late), "too_many_tournaments")
    waiting = _create(late, starts_in_s=600)  # waiting ones are counted apart
    assert isinstance(waiting, P.TournamentState)


def test_waiting_tournaments_have_their_own_limit() -> None:
    h = Harness(max_waiting_tournaments=2, **QUIET)
    for i in range(2):
        assert isinstance(
            _create(_who(h, f"p{i}", f"10.0.0.{i}"), starts_in_s=WEEK), P.TournamentState
        )
    c = _who(h, "third", "10.0.0.7")
    assert "waiting to start (2)" in _refused(_create(c, starts_in_s=WEEK), "too_many_tournaments")
    assert isinstance(_create(c), P.TournamentState)  # one to run now is still welcome


def test_a_due_tournament_waits_for_a_free_place_and_then_begins() -> None:
    h = Harness(max_tournaments=1, ping_interval_s=3600.0, bot_think_ms=50)  # a long game
    first = _create(_who(h, "a", "10.0.0.1"), overrides={"target": 200})
    assert isinstance(first, P.TournamentState)
    later = _create(_who(h, "b", "10.0.0.2"), starts_in_s=2)
    assert isinstance(later, P.TournamentState)
    t1 = h.lobby.tournaments.tournaments[first.tournament["id"]]
    t2 = h.lobby.tournaments.tournaments[later.tournament["id"]]
    h.advance(3, step=0.1)
    assert t1.t.status == "running" and t2.t.status == "waiting"
    assert any("begins when one ends" in n for n in t2.note_texts())
    h.lobby.tournaments.cancel(t1, "test")
    h.advance(0.5, step=0.5)
    assert t2.t.status == "running"


def test_the_creator_cancels_and_nobody_else_but_the_operator() -> None:
    h = Harness(ping_interval_s=3600.0, bot_think_ms=50)  # its games still being played
    ann = _who(h, "ann", "10.0.0.1")
    created = _create(ann, entrants=BOTS, overrides={"target": 200})
    assert isinstance(created, P.TournamentState)
    tid = created.tournament["id"]
    t = h.lobby.tournaments.tournaments[tid]
    h.advance(1, step=0.1)
    assert t.live
    tables = [live.table for live in t.live.values()]
    bob = _who(h, "bob", "10.0.0.2")
    _refused(
        bob.request(P.CancelTournament(id=bob.rid(), tournament_id=tid)), "not_your_tournament"
    )
    assert t.t.status == "running" and t.live  # refused: nothing changed
    reply = ann.request(P.CancelTournament(id=ann.rid(), tournament_id=tid))
    assert isinstance(reply, P.TournamentState) and reply.tournament["status"] == "finished"
    assert "cancelled by ann" in reply.tournament["notes"]
    assert not t.live and all(table.closed for table in tables)
    assert not h.lobby.tournaments.tournaments[tid].live
    _refused(ann.request(P.CancelTournament(id=ann.rid(), tournament_id=tid)), "tournament_over")
    # The operator, on the server's own machine, may cancel anyone's.
    other = _create(_who(h, "carl", "10.0.0.3"), starts_in_s=600)
    assert isinstance(other, P.TournamentState)
    op = _who(h, "op", "127.0.0.1")
    reply = op.request(P.CancelTournament(id=op.rid(), tournament_id=other.tournament["id"]))
    assert isinstance(reply, P.TournamentState) and reply.tournament["status"] == "finished"
    _refused(op.request(P.CancelTournament(id=op.rid(), tournament_id=999)), "no_such_tournament")


def test_a_guest_of_the_same_name_from_elsewhere_cannot_cancel() -> None:
    h = Harness(**QUIET)
    ann = _who(h, "ann", "10.0.0.1")
    created = _create(ann, starts_in_s=600)
    assert isinstance(created, P.TournamentState)
    ann.drop()
    h.advance(400, step=5)  # her session is long gone: the name is free again
    fake = _who(h, "ann", "10.0.0.66")
    reply = fake.request(P.CancelTournament(id=fake.rid(), tournament_id=created.tournament["id"]))
    _refused(reply, "not_your_tournament")
