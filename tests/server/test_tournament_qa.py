"""Outside QA of tournaments: what a newcomer typed wrong gets a clear error, not a crash."""

from __future__ import annotations

import pytest
from helpers.server import FakeClient, Harness
from helpers.tournaments import _create, _hello, _run, _tournament

from leekha import protocol as P
from leekha.client import cli
from leekha.client.tournament import text
from leekha.client.tui import tournament as tui_tournament
from leekha.protocol.views import Standing, Tournament

HOUSE = [x for _ in range(3) for x in ("--entrant", "server:heuristic")]


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        (["--deals", "99999999999999999999"], "--deals"),  # these three: the parser's range
        (["--move-timer", "-1"], "--move-timer"),
        (["--move-timer", "99999"], "--move-timer"),
        (["--entrant", "a" * 300], "name"),
        (["--name", "t" * 5000], "name"),
    ],
)
def test_a_request_the_wire_cannot_carry_is_refused_before_connecting(
    extra: list[str], field: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Port 1 on loopback: nothing listens, so reaching the network would say "cannot connect".
    argv = ["tournament", "create", "127.0.0.1:1", *HOUSE, "--entrant", "me", *extra]
    code: object
    try:
        code = cli.main(argv)
    except SystemExit as exc:  # a number out of range: a usage error as the line is read
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "cannot connect" not in err
    assert err.startswith("leekha tournament") and field in err


def test_an_entrant_that_never_enters_holds_neither_the_tournament_nor_its_slot() -> None:
    """A client entrant named at create but never seen: the tournament says whom it
    waits for, then begins anyway (the fallback plays for the absent) and finishes, so
    a few such tournaments cannot lock tournaments out of a server for good."""
    h = Harness(
        bot_think_ms=0, max_tournaments=1, max_waiting_tournaments=1, tournament_entry_wait_s=60.0
    )
    host = _hello(h, "host")
    ghost = [{"name": "ghost"}] + [{"strategy": "random"}] * 3
    t = _tournament(h, _create(host, entrants=ghost))
    h.advance(59.0)
    assert t.t.status == "waiting" and not t.live and not t.t.results
    refused = _create(host, entrants=ghost)
    assert isinstance(refused, P.Error) and refused.code == "too_many_tournaments"
    h.advance(2.0)
    assert t.t.status != "waiting"
    assert any("ghost" in n and "did not enter" in n for n in t.note_texts()), t.notes
    _run(h, t)
    assert len(t.t.results) == 4
    assert all(r.fallback_moves[r.game.seats.index(0)] > 0 for r in t.t.results.values())
    assert isinstance(_create(host), P.TournamentState)  # the slot is free again


@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "status", "127.0.0.1:1", "--", "-1"],
        ["tournament", "status", "127.0.0.1:1", "99999999999999999999"],
        ["tournament", "export", "--", "-1"],
        ["bot", "127.0.0.1:1", "--tournament", "-1", "--name", "me"],
    ],
)
def test_a_tournament_id_the_wire_cannot_carry_is_a_usage_error(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "a tournament id is a whole number from 0 up" in err and "Traceback" not in err


def test_status_shows_the_servers_notes_as_a_log_under_their_own_heading() -> None:
    """A running tournament's notes still hold "waiting for the client entrants to enter";
    printed bare after the live tables it read as the tables' state."""
    h = Harness(bot_think_ms=50)
    host = _hello(h, "host")
    reply = _create(host, entrants=[{"name": "ann"}] + [{"strategy": "random"}] * 3)
    ann = _hello(h, "ann")
    ann.request(P.EnterTournament(id=ann.rid(), tournament_id=_tournament(h, reply).id))
    h.advance(0.1)
    state = host.request(P.GetTournament(id=host.rid(), tournament_id=1))
    assert isinstance(state, P.TournamentState) and state.tournament["status"] == "running"
    lines = text.state_lines(state.tournament)
    log = lines.index("what happened, latest last:")
    assert lines[log + 1 :] == [
        "  waiting for the client entrants to enter",
        "  ann entered",
        "  every client entrant is here: the games begin",
    ]
    assert lines.index("live tables:") < log


def _table_names(client: FakeClient) -> dict[int, str]:
    reply = client.request(P.ListTables(id=client.rid()))
    assert isinstance(reply, P.TableList)
    return {int(table["id"]): str(table["name"]) for table in reply.tables}


def test_status_and_the_screen_number_games_as_the_table_names_do() -> None:
    """QA: `status` said "game 0" of the table the lobby lists as "cup #1"."""
    h = Harness(bot_think_ms=50)
    host = _hello(h, "host")
    _create(host, name="cup")
    h.advance(0.1)
    state = host.request(P.GetTournament(id=host.rid(), tournament_id=1))
    assert isinstance(state, P.TournamentState) and state.tournament["tables"]
    names = _table_names(host)
    t = state.tournament
    for table in t["tables"]:
        number = names[table["table_id"]].removeprefix("cup #")
        assert f"game {number}, " in text.table_line(t, table)
        assert f"game {number} " in tui_tournament._table_row(text.labels(t), table)


def test_no_rank_before_an_entrants_first_finished_game() -> None:
    """QA: "rank 1" for everyone before a single game was played. The rank column shows
    "-" for an entrant without a finished game, and the export's JSON keeps the rank."""
    fresh: Tournament = {
        "id": 1, "name": "cup", "format": "round_robin", "status": "running",
        "preset": "classic", "rules": {}, "deals": 1, "stages": None, "move_timer_s": None,
        "games_done": 0, "games_total": 4,
        "entrants": [{"index": i, "name": f"b{i}", "strategy": "random", "kind": "server",
                      "present": True} for i in range(4)],
        "standings": [{"entrant": i, "rank": 1, "games": 0, "wins": 0, "rounds": 0,
                       "points": 0, "mean": 0.0, "low": None, "high": None,
                       "fallback_games": 0, "fallback_moves": 0} for i in range(4)],
        "tables": [], "notes": [],
    }  # fmt: skip
    rows = [line.split() for line in text.state_lines(fresh)[3:8]]
    assert rows[0][:2] == ["entrant", "rank"]
    assert [row[:3] for row in rows[1:]] == [[f"b{i}", "-", "0"] for i in range(4)]
    one_each: list[Standing] = [{**s, "games": 1, "rounds": 1} for s in fresh["standings"]]
    played: Tournament = {**fresh, "standings": one_each}
    assert [line.split()[1] for line in text.state_lines(played)[4:8]] == ["1"] * 4


def test_create_help_lists_every_strategy_the_server_accepts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """QA: the help offered search, heuristic and random; the server also takes the
    levels and search1. Every name listed must be one the server's tournaments take."""
    with pytest.raises(SystemExit):
        cli.main(["tournament", "create", "--help"])
    helped = " ".join(capsys.readouterr().out.split())
    listed = helped.split("a bot strategy: ", 1)[1].split(")", 1)[0].split(", ")
    assert {"easy", "medium", "hard", "search1", "search", "heuristic", "random"} <= set(listed)
    h = Harness(
        bot_think_ms=0, max_tournaments=len(listed), max_tournaments_per_creator=len(listed)
    )
    host = _hello(h, "host")
    for name in listed:
        reply = _create(host, entrants=[{"strategy": name}] * 4)
        assert isinstance(reply, P.TournamentState), (name, reply)
