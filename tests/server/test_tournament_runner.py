"""The tournament runner on a fake clock: scheduling, refusals, fallback, restart."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from helpers.server import FakeClient, Harness, answer_prompts
from helpers.tournaments import _create, _hello, _run, _tournament
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leekha import protocol as P
from leekha.common.record import GameRecord
from leekha.protocol import catalogue as M
from leekha.server.domain.persistence import Store
from leekha.server.domain.tournament.live import Tournament
from leekha.server.domain.tournament.store import TournamentStore

#: One round of 13 tricks ends most games: a quick tournament.


#: A tournament of one client entrant, ann, and three server bots.
ANN_AND_BOTS: list[dict[str, Any]] = [{"name": "ann"}] + [{"strategy": "random"}] * 3


def _ann_entered(h: Harness, host: FakeClient) -> tuple[Tournament, FakeClient]:
    t = _tournament(h, _create(host, entrants=ANN_AND_BOTS))
    ann = _hello(h, "ann")
    reply = ann.request(P.EnterTournament(id=ann.rid(), tournament_id=t.id))
    assert isinstance(reply, P.TournamentState), reply
    return t, ann


def _records_add_up(h: Harness, t: Tournament) -> None:
    """Each result is the stored record's game: same seed, history and winners."""
    for result in t.t.results.values():
        assert result.record_id is not None
        data = h.store.game_record(result.record_id)
        assert data is not None
        game = GameRecord.from_dict(data).replay()
        assert game.seed == result.game.seed
        assert [tuple(r) for r in game.history] == list(result.rounds)
        assert game.outcome is not None and tuple(game.outcome.winners) == result.winners


def test_server_bots_play_every_rotation_of_every_deal_within_the_table_cap() -> None:
    h = Harness(max_tournament_tables=3, bot_think_ms=1)
    host = _hello(h, "host")
    t = _tournament(h, _create(host, deals=2, entrants=[{"strategy": "random"}] * 5))
    assert t.t.status == "running" and t.t.games_total == 5 * 2 * 4  # C(5,4) foursomes
    most = _run(h, t)
    assert most == 3
    assert sorted(t.t.results) == list(range(40))
    rotations = Counter((r.game.deal, frozenset(r.game.seats)) for r in t.t.results.values())
    assert set(rotations.values()) == {4}
    _records_add_up(h, t)
    assert not h.lobby.tables  # every table closed once its game ended
    state = host.of(P.TournamentState)[-1].tournament
    assert state["status"] == "finished" and state["games_done"] == 40
    assert sum(s["games"] for s in state["standings"]) == 40 * 4
    points = sum(sum(sum(r) for r in res.rounds) for res in t.t.results.values())
    assert sum(s["points"] for s in state["standings"]) == points


def test_a_client_entrant_is_seated_game_after_game_and_the_others_wait() -> None:
    h = Harness(bot_think_ms=0)
    host = _hello(h, "host")
    bots = [{"strategy": "random"}, {"strategy": "heuristic"}, {"strategy": "random"}]
    t = _tournament(h, _create(host, entrants=[{"name": "ann"}, *bots], deals=2))
    assert t.t.status == "waiting" and not t.live
    ann = _hello(h, "ann")
    entered = ann.request(P.EnterTournament(id=ann.rid(), tournament_id=t.id))
    assert isinstance(entered, P.TournamentState) and entered.tournament["status"] == "running"
    h.advance(0.01)
    assert len(t.live) == 1  # ann sits at one table at a time
    snapshots = [m for m in ann.of(M.Snapshot) if m.re is None]
    assert snapshots and snapshots[-1].your_seat is not None
    _run(h, t, (ann,))
    assert len(t.t.results) == 8
    assert all(r.fallback_moves == (0, 0, 0, 0) for r in t.t.results.values())
    seated = [m for m in ann.drain() if isinstance(m, M.Snapshot) and m.re is None]
    assert len({m.table["id"] for m in seated}) == 8  # one new table per game
    _records_add_up(h, t)


def test_a_silent_entrant_is_timed_out_and_the_standings_count_every_move_made_for_it() -> None:
    h = Harness(bot_think_ms=0, afk_timeouts_before_bot=2)
    host = _hello(h, "host")
    entrants = [{"strategy": "random"}, {"name": "mute"}] + [{"strategy": "random"}] * 2
    t = _tournament(h, _create(host, entrants=entrants, deals=1, move_timer_s=1))
    mute = _hello(h, "mute")
    mute.request(P.EnterTournament(id=mute.rid(), tournament_id=t.id))
    _run(h, t)  # mute never answers
    for result in t.t.results.values():
        data = h.store.game_record(result.record_id or 0)
        assert data is not None
        seat = result.game.seats.index(1)
        made = sum(1 for a in data["actions"] if a["seat"] == seat and a["kind"] != "double")
        assert result.fallback_moves == tuple(made if s == seat else 0 for s in range(4))
    line = next(
        s for s in h.lobby.tournaments.state(t).tournament["standings"] if s["entrant"] == 1
    )
    assert line["fallback_games"] == 4 and line["games"] == 4


def test_an_entrant_that_is_gone_is_played_by_the_fallback_and_the_tournament_goes_on() -> None:
    h = Harness(bot_think_ms=0, seat_grace_s=1.0)
    host = _hello(h, "host")
    entrants = [{"name": "ann"}, {"name": "bob"}, {"strategy": "random"}, {"strategy": "random"}]
    t = _tournament(h, _create(host, entrants=entrants, deals=2))
    ann, bob = _hello(h, "ann"), _hello(h, "bob")
    for c in (ann, bob):
        c.request(P.EnterTournament(id=c.rid(), tournament_id=t.id))
    while len(t.t.results) < 2:
        _step(h, t, (ann, bob))
    bob.drop()  # killed between or during games
    _run(h, t, (ann,))
    assert len(t.t.results) == 8
    late = [r for r in t.t.results.values() if r.game.number >= 3]
    assert all(r.fallback_moves[r.game.seats.index(1)] > 0 for r in late)
    assert all(r.fallback_moves[r.game.seats.index(0)] == 0 for r in t.t.results.values())
    state = h.lobby.tournaments.state(t).tournament
    assert not state["entrants"][1]["present"] and state["entrants"][0]["present"]
    _records_add_up(h, t)


def _step(h: Harness, t: Tournament, clients: tuple[FakeClient, ...]) -> None:
    for c in clients:
        for live in list(t.live.values()):
            answer_prompts(h, c, live.table.id)
    h.advance(0.05, step=0.05)


def test_a_tournament_survives_a_crash_mid_game(tmp_path: Path) -> None:
    path = tmp_path / "leekha.sqlite3"
    h = Harness(store=Store(path), bot_think_ms=5, max_tournament_tables=2)
    host = _hello(h, "host")
    t = _tournament(h, _create(host, deals=2))
    for _ in range(2000):
        if len(t.t.results) >= 3 and t.live and all(lv.result is None for lv in t.live.values()):
            break
        _step(h, t, ())
    assert t.t.status == "running" and t.live
    done = {n: r.record_id for n, r in t.t.results.items()}
    live = {n: live.table.id for n, live in t.live.items()}
    h.lobby.outbox.flush()
    for table in h.lobby.tables.values():
        table.shutdown()  # kill -9: nothing more happens, nothing is cleaned up
    h.store.close()

    h2 = Harness(store=Store(path), bot_think_ms=5, max_tournament_tables=2)
    t2 = h2.lobby.tournaments.tournaments[t.id]
    assert {n: r.record_id for n, r in t2.t.results.items() if n in done} == done
    assert {n: lv.table.id for n, lv in t2.live.items()} == live  # re-attached, not replayed
    _run(h2, t2)
    assert sorted(t2.t.results) == list(range(8))
    _records_add_up(h2, t2)
    assert TournamentStore(h2.store).load(t.id) is not None


def test_a_swiss_tournament_fills_the_field_with_house_bots_and_draws_each_stage() -> None:
    h = Harness(bot_think_ms=0, max_tournament_tables=4)
    host = _hello(h, "host")
    t = _tournament(
        h, _create(host, format="swiss", stages=2, entrants=[{"strategy": "random"}] * 6)
    )
    kinds = [e.kind for e in t.t.entrants]
    assert kinds == ["server"] * 6 + ["house"] * 2
    _run(h, t)
    assert sorted(t.t.results) == list(range(t.t.games_total)) and t.t.games_total == 16
    assert {r.game.stage for r in t.t.results.values()} == {0, 1}


@pytest.mark.parametrize(
    ("over", "code", "words"),
    [
        ({"format": "knockout"}, "bad_tournament", "format"),
        ({"deals": 0}, "bad_tournament", "deals"),
        ({"deals": 10**12}, "bad_tournament", "deals"),
        ({"deals": 400, "entrants": [{"strategy": "random"}] * 8}, "bad_tournament", "2000"),
        ({"stages": 3}, "bad_tournament", "swiss"),
        ({"format": "swiss"}, "bad_tournament", "stages"),
        ({"entrants": [{"strategy": "random"}] * 3}, "bad_tournament", "entrants"),
        ({"entrants": [{"strategy": "random"}] * 65}, "bad_tournament", "entrants"),
        ({"entrants": [{"name": "a", "strategy": "random"}] + [{}] * 3}, "bad_tournament", "both"),
        ({"entrants": [{"strategy": "module:Evil"}] * 4}, "bad_tournament", "entrant 1"),
        ({"entrants": [{"name": "x"}, {"name": "X"}] + [{"strategy": "random"}] * 2},
         "bad_tournament", "twice"),
        ({"entrants": [{"name": " "}] + [{"strategy": "random"}] * 3},
         "bad_tournament", "entrant 1"),
        ({"move_timer_s": 0}, "bad_tournament", "timer"),
        ({"preset": "nope"}, "bad_rules", ""),
        ({"overrides": {"target": -5}}, "bad_rules", "target"),
    ],
)  # fmt: skip
def test_bad_tournaments_are_refused_in_words(over: dict[str, Any], code: str, words: str) -> None:
    h = Harness()
    host = _hello(h, "host")
    reply = _create(host, **over)
    assert isinstance(reply, M.Error) and reply.code == code, reply
    assert words in reply.message
    assert not h.lobby.tournaments.tournaments and not host.closed


def test_unknown_ids_strangers_and_old_clients_are_refused() -> None:
    h = Harness(max_tournaments=1, max_waiting_tournaments=1)
    host = _hello(h, "host")
    t = _tournament(h, _create(host, entrants=ANN_AND_BOTS))
    for msg in (
        P.GetTournament(id=host.rid(), tournament_id=2**64 - 1),
        P.EnterTournament(id=host.rid(), tournament_id=t.id + 1),
    ):
        reply = host.request(msg)
        assert isinstance(reply, M.Error) and reply.code == "no_such_tournament"
    reply = host.request(P.EnterTournament(id=host.rid(), tournament_id=t.id))
    assert isinstance(reply, M.Error) and reply.code == "not_an_entrant"
    reply = _create(host, entrants=ANN_AND_BOTS)  # a second one waiting for ann
    assert isinstance(reply, M.Error) and reply.code == "too_many_tournaments"
    old = _hello(h, "old", versions=[[1, 2]])
    reply = old.request(P.ListTournaments(id=old.rid()))
    assert isinstance(reply, M.Error) and reply.code == "unknown_type"
    assert old.closed  # a protocol error: fatal on both ends, as the session table says
    listed = host.request(P.ListTournaments(id=host.rid()))
    assert isinstance(listed, P.TournamentList)
    assert [x["id"] for x in listed.tournaments] == [t.id]


def test_a_second_session_takes_an_entrant_over_only_once_the_first_is_gone() -> None:
    h = Harness()
    host = _hello(h, "host")
    t, ann = _ann_entered(h, host)
    h.advance(0.01)
    live = next(iter(t.live.values()))
    # A tournament table takes no one the server did not seat, and plays one game.
    guest = _hello(h, "guest")
    reply = guest.request(M.JoinSeat(id=guest.rid(), table_id=live.table.id))
    assert isinstance(reply, M.Error) and reply.code == "table_full"
    reply = ann.request(M.Rematch(id=ann.rid()))
    assert isinstance(reply, M.Error) and reply.code == "not_ready"
    reply = ann.request(M.Start(id=ann.rid()))
    assert isinstance(reply, M.Error) and reply.code == "not_host"
    ann.request(M.Leave(id=ann.rid()))  # the stand-in finishes this game
    ann.drop()
    h.advance(0.01)
    again = _hello(h, "ann")
    entered = again.request(P.EnterTournament(id=again.rid(), tournament_id=t.id))
    assert isinstance(entered, P.TournamentState)
    assert t.t.tokens[0] == again.sid


def test_a_dropped_entrant_is_waited_for_its_grace_then_played_by_the_fallback() -> None:
    h = Harness(bot_think_ms=0, seat_grace_s=5.0)
    host = _hello(h, "host")
    t, ann = _ann_entered(h, host)
    ann.drop()  # before her first game could begin
    h.advance(4.0)
    assert not t.live and not t.t.results  # she may be back in a moment
    h.advance(1.5)  # her grace is over: the fallback plays her games, at once
    assert t.t.status == "finished" and len(t.t.results) == 4
    assert all(r.fallback_moves[r.game.seats.index(0)] > 0 for r in t.t.results.values())


def test_watchers_come_and_go_without_cutting_a_game_short() -> None:
    h = Harness(bot_think_ms=5)
    host = _hello(h, "host")
    t = _tournament(h, _create(host))
    h.advance(0.01)
    (live,) = [lv for lv in t.live.values() if lv.game.number == 0]
    for leaving in ("drop", "leave"):
        fan = _hello(h, f"fan-{leaving}")
        snap = fan.request(M.Spectate(id=fan.rid(), table_id=live.table.id))
        assert isinstance(snap, M.Snapshot) and snap.your_seat is None
        if leaving == "drop":
            fan.drop()
        else:
            fan.request(M.Leave(id=fan.rid()))
        assert not live.table.closed  # the bots play the game out
    _run(h, t)
    assert sorted(t.t.results) == [0, 1, 2, 3]
    assert t.t.results[0].record_id is not None


def test_fallback_moves_made_before_a_crash_still_count(tmp_path: Path) -> None:
    path = tmp_path / "leekha.sqlite3"
    opts: dict[str, Any] = {"bot_think_ms": 0, "afk_timeouts_before_bot": 1000, "seat_grace_s": 2}
    h = Harness(store=Store(path), **opts)
    host = _hello(h, "host")
    entrants = [{"name": "mute"}] + [{"strategy": "random"}] * 3
    t = _tournament(h, _create(host, entrants=entrants, move_timer_s=1))
    mute = _hello(h, "mute")
    mute.request(P.EnterTournament(id=mute.rid(), tournament_id=t.id))
    h.advance(5.5, step=0.5)  # the timer plays five times for the silent entrant
    (live,) = t.live.values()
    assert live.moves[live.game.seats.index(0)] >= 4
    h.lobby.outbox.flush()
    for table in h.lobby.tables.values():
        table.shutdown()
    h.store.close()

    h2 = Harness(store=Store(path), **opts)
    t2 = h2.lobby.tournaments.tournaments[t.id]
    _run(h2, t2)
    for result in t2.t.results.values():
        data = h2.store.game_record(result.record_id or 0)
        assert data is not None
        seat = result.game.seats.index(0)
        made = sum(1 for a in data["actions"] if a["seat"] == seat and a["kind"] != "double")
        assert result.fallback_moves[seat] == made


def test_a_finished_tournament_takes_no_entrant_and_frees_its_slot() -> None:
    h = Harness(bot_think_ms=0, max_tournaments=1)
    host = _hello(h, "host")
    t, ann = _ann_entered(h, host)
    _run(h, t, (ann,))
    reply = ann.request(P.EnterTournament(id=ann.rid(), tournament_id=t.id))
    assert isinstance(reply, M.Error) and reply.code == "tournament_over"
    followed = host.request(P.GetTournament(id=host.rid(), tournament_id=t.id))
    assert isinstance(followed, P.TournamentState) and followed.tournament["status"] == "finished"
    assert isinstance(_create(host), P.TournamentState)  # the finished one no longer counts


ENTRANT = st.fixed_dictionaries(
    {},
    optional={
        "name": st.none() | st.text(max_size=70).filter(bool),
        "strategy": st.none() | st.sampled_from(["random", "heuristic", "nope", "x:Y", "basic"]),
    },
)
CREATE = st.fixed_dictionaries(
    {
        "name": st.text(min_size=1, max_size=64),
        "entrants": st.lists(ENTRANT, max_size=70),
        "deals": st.integers(-(2**63), 2**64 - 1) | st.integers(-2, 600),
    },
    optional={
        "format": st.sampled_from(["round_robin", "swiss", "Swiss", "x"]),
        "stages": st.none() | st.integers(-3, 60) | st.integers(2**40, 2**64 - 1),
        "preset": st.sampled_from(["classic", "levant", "nope"]),
        "overrides": st.dictionaries(
            st.sampled_from(["target", "doubling", "bogus"]),
            st.integers(-5, 10**6) | st.booleans() | st.text(max_size=5),
            max_size=3,
        ),
        "move_timer_s": st.none() | st.integers(0, 3600),
    },
)
KNOWN = {"bad_tournament", "bad_rules", "bad_name", "name_too_long", "too_many_tournaments"}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields=CREATE)
def test_any_create_is_a_tournament_or_a_refusal_in_words(fields: dict[str, Any]) -> None:
    h = Harness()
    host = _hello(h, "host")
    reply = host.request(P.CreateTournament(id=host.rid(), **fields))
    if isinstance(reply, M.Error):
        assert reply.code in KNOWN and reply.message, reply
        assert not h.lobby.tournaments.tournaments
    else:
        assert isinstance(reply, P.TournamentState)
        assert 4 <= len(reply.tournament["entrants"]) <= 67
    assert not host.closed
