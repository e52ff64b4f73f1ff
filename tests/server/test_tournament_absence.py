"""An entrant who is elsewhere when her tournament game is due never holds the game's
other entrants: seated at an ordinary table she is called (`tournament_due`) and covered
by the fallback after `seat_grace_s`; only watching a table, she is taken to her game."""

from __future__ import annotations

from typing import Any

from helpers.server import Harness, created_table
from helpers.tournaments import _create, _hello, _tournament

from leekha import protocol as P
from leekha.protocol import catalogue as M

V14 = [[1, 4]]
QUIET: dict[str, Any] = {"ping_interval_s": 3600.0, "bot_think_ms": 0}
PEOPLE: list[dict[str, Any]] = [{"name": "ann"}, {"name": "bob"}] + [{"strategy": "random"}] * 2


def _session(h: Harness, name: str) -> Any:
    return next(s for s in h.lobby.sessions.values() if s.name == name)


def _entered(h: Harness) -> tuple[Any, Any, Any]:
    host = _hello(h, "host", V14)
    t = _tournament(h, _create(host, entrants=PEOPLE, starts_in_s=30))
    ann, bob = _hello(h, "ann", V14), _hello(h, "bob", V14)
    for c in (ann, bob):
        entered = c.request(P.EnterTournament(id=c.rid(), tournament_id=t.id))
        assert isinstance(entered, P.TournamentState)
    return t, ann, bob


def test_an_entrant_seated_elsewhere_is_called_then_covered_after_the_grace() -> None:
    h = Harness(seat_grace_s=5.0, **QUIET)
    t, ann, bob = _entered(h)
    tid = created_table(ann.request(M.CreateTable(id=ann.rid(), name="casual")))
    h.advance(30.5, step=0.5)  # the start: ann sits at her own table
    called = [m for m in ann.of(M.ChatMessage) if m.code == "tournament_due"]
    assert len(called) == 1 and called[0].table_id == tid
    assert called[0].args == {"name": "cup", "game": 1, "grace": 5}
    assert not t.live  # waited for, within the grace
    h.advance(5.5, step=0.5)
    assert t.live, "one entrant elsewhere held every game of the tournament"
    (live,) = t.live.values()
    bob_seated = [m for m in bob.of(M.Snapshot) if m.re is None]
    assert bob_seated and bob_seated[-1].table["id"] == live.table.id
    seats = live.table.seats
    ann_seat = live.game.seats.index(0)
    assert seats[ann_seat] is not None and seats[ann_seat].token is None  # the fallback
    assert _session(h, "ann").table_id == tid  # her own table is left alone
    assert len([m for m in ann.of(M.ChatMessage) if m.code == "tournament_due"]) == 1


def test_an_entrant_who_leaves_within_the_grace_plays_her_game() -> None:
    h = Harness(seat_grace_s=5.0, **QUIET)
    t, ann, _bob = _entered(h)
    created_table(ann.request(M.CreateTable(id=ann.rid(), name="casual")))
    h.advance(31.0, step=0.5)
    assert not t.live
    ann.request(M.Leave(id=ann.rid()))
    h.advance(0.5, step=0.5)
    (live,) = t.live.values()
    assert live.table.seat_of(_session(h, "ann").token) == live.game.seats.index(0)


def test_an_entrant_who_only_watches_a_table_is_taken_to_her_game() -> None:
    h = Harness(seat_grace_s=5.0, **QUIET)
    t, ann, _bob = _entered(h)
    other = _hello(h, "carl", V14)
    tid = created_table(other.request(M.CreateTable(id=other.rid(), name="casual")))
    watched = ann.request(M.Spectate(id=ann.rid(), table_id=tid))
    assert isinstance(watched, M.Snapshot)
    h.advance(30.5, step=0.5)
    assert t.live, "a watching entrant held the tournament"
    (live,) = t.live.values()
    assert live.table.seat_of(_session(h, "ann").token) == live.game.seats.index(0)
    assert _session(h, "ann").table_id == live.table.id
    assert _session(h, "ann").token not in h.lobby.tables[tid].spectators
