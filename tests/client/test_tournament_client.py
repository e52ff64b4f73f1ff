"""The tournament command's words and the tournament screen, fed protocol 1.3 messages."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Coroutine
from pathlib import Path

import pytest
from helpers.tournament import lobby, opened, state

from leekha import protocol as P
from leekha.client import cli
from leekha.client.tournament import command, text
from leekha.client.tui import model as M
from leekha.client.tui.hints import hint_items
from leekha.client.tui.layout import render_text
from leekha.protocol.views import TournamentSummary
from leekha.server.domain.tournament import plan
from leekha.server.domain.tournament.standings import GameResult


def test_state_is_a_valid_wire_message() -> None:
    msg = P.TournamentState(re=None, tournament=state())
    assert P.Decoder().feed(P.encode(msg)) == [msg]


def test_entrant_specs_and_create_request() -> None:
    assert command.entrant_of("server:heuristic") == {"name": None, "strategy": "heuristic"}
    assert command.entrant_of(" mybot ") == {"name": "mybot", "strategy": None}
    with pytest.raises(ValueError):
        command.entrant_of("server:")
    parser = cli.build_parser(["tournament", "create"])
    args = parser.parse_args(
        ["tournament", "create", "h:9", "--entrant", "me", "--format", "swiss",
         "--rule", "target=51", *(x for _ in range(3) for x in ("--entrant", "server:random"))]
    )  # fmt: skip
    req = command._create_request(args)
    assert req.format == "swiss" and req.stages == 3 and req.deals == 8
    assert req.overrides == {"target": 51}
    assert req.entrants[0] == {"name": "me", "strategy": None}
    P.encode(req)  # the wire takes it as it is


def test_too_few_entrants_is_refused_before_connecting(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["tournament", "create", "127.0.0.1:1", "--entrant", "a"]) == 2
    assert "at least four entrants" in capsys.readouterr().err


def test_state_lines_show_standings_tables_and_who_is_waited_for() -> None:
    t = state()
    lines = text.state_lines(t)
    assert lines[0] == "#7 Friday: round robin, rules classic, 2 deals"
    assert lines[1] == "running: 3/8 games"
    head = lines[3].split()
    assert head[:3] == ["entrant", "rank", "games"]
    mybot = next(line for line in lines if line.startswith("mybot"))
    # mybot sits in seat 0, 3, 2 of rotations 0, 1, 2: 3 + 17 + 14 points in 6 rounds,
    # and wins rotation 0 (seat 0 wins every game); one deal, so no interval yet.
    assert mybot.split()[1:] == ["1", "3", "1", "6", "34", "5.667", "-", "0"]
    # The wire's game 3, deal 0, rotation 1 as people count them (the table is "Friday #4").
    assert "table 40: game 4, deal 1, rotation 2" in "\n".join(lines)
    waiting = state(status="waiting", tables=0, done=0)
    waiting["entrants"][0]["present"] = False
    assert text.state_lines(waiting)[-1] == "waiting for: mybot"


def test_tournament_screen_list_follow_watch() -> None:
    m = lobby()
    m.in_lobby.open_tournaments()
    (ask,) = m.take_outbox()
    assert isinstance(ask, P.ListTournaments) and m.overlay == M.TOURNAMENTS
    assert "asking the server" in render_text(m)
    summary: TournamentSummary = {"id": 7, "name": "Friday", "format": "round_robin",
                                  "status": "running", "entrants": 4, "games_done": 3,
                                  "games_total": 8}  # fmt: skip
    m.apply(P.TournamentList(re=ask.id, tournaments=[summary]))  # type: ignore[attr-defined]
    assert "#7 Friday: round robin, running, 3/8 games, 4 entrants" in render_text(m)
    m.in_lobby.tournament_enter()
    (get,) = m.take_outbox()
    assert isinstance(get, P.GetTournament) and get.tournament_id == 7
    m.apply(P.TournamentState(re=get.id, tournament=state()))
    screen = render_text(m)
    assert "#7 Friday" in screen and "95% CI" in screen
    assert "live tables (Enter to watch):" in screen
    assert [k for k, _ in hint_items(m)] == ["↑↓", "Enter", "e", "g", "Esc"]
    m.in_lobby.tournament_refresh()
    (again,) = m.take_outbox()
    assert isinstance(again, P.GetTournament) and again.tournament_id == 7
    # A push with one more game done and the tables moved on replaces what is shown.
    m.apply(P.TournamentState(re=None, tournament=state(done=4, tables=1)))
    assert "4/8 games" in render_text(m) and "  41  game" not in render_text(m)
    m.apply(P.TournamentState(re=None, tournament=state(done=4, tables=2)))
    m.in_lobby.tournament_move(1)
    m.in_lobby.tournament_enter()
    (watch,) = m.take_outbox()
    assert isinstance(watch, P.Spectate) and watch.table_id == 41
    assert m.boxes.tournaments is None


def test_tournament_screen_back_refusal_and_old_servers() -> None:
    m, get = opened()
    m.apply(P.Error(re=get.id, code="no_such_tournament", message="gone"))
    assert m.overlay == M.TOURNAMENTS and m.boxes.tournaments is not None
    assert not m.boxes.tournaments.following_one
    assert "that tournament does not exist" in render_text(m)
    assert isinstance(m.take_outbox()[0], P.ListTournaments)
    m.escape()
    assert m.overlay is None
    old = lobby((1, 2))
    old.in_lobby.open_tournaments()
    assert old.overlay is None and "1.3" in old.status


def test_export_and_status_read_the_servers_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from leekha.server.domain.persistence import Store, db_path
    from leekha.server.domain.tournament.store import Stored, TournamentStore

    entrants = [plan.Entrant(0, "mybot")]
    entrants += [plan.Entrant(i, strategy=s) for i, s in enumerate(("search", "random"), 1)]
    entrants.append(plan.Entrant(3, strategy="heuristic"))
    games = plan.round_robin(4, 2, 11)
    rng = random.Random(4)
    results = []
    for g in games[:6]:
        rounds = tuple(tuple(rng.randrange(14) for _ in range(4)) for _ in range(3))
        results.append(GameResult(g, rounds, (rng.randrange(4),), (0, 0, 0, g.number % 2),
                                  500 + g.number))  # fmt: skip
    store = Store(db_path(tmp_path))
    tournaments = TournamentStore(store)
    tid = tournaments.create(Stored(
        id=0, name="Cup", format="round_robin", preset="classic", rules={}, deals=2,
        stages=None, move_timer_s=None, seed=11, status="running", entrants=entrants,
        games=games,
    ))  # fmt: skip
    for r in results:
        tournaments.finished(tid, r)
    store.close()
    where = ["--data-dir", str(tmp_path)]

    assert cli.main(["tournament", "export", str(tid), *where]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [g["record_id"] for g in doc["games"]] == [500 + n for n in range(6)]
    # Each entrant's points are its seats' points over the games it played.
    for line in doc["standings"]:
        e = line["entrant"]
        mine = [(r, r.game.seats.index(e)) for r in results]
        assert line["points"] == sum(row[seat] for r, seat in mine for row in r.rounds)
        assert line["fallback_games"] == sum(r.fallback_moves[seat] > 0 for r, seat in mine)
    assert doc["tournament"]["games_done"] == 6 and doc["tournament"]["games_total"] == 8

    out = tmp_path / "cup.txt"
    assert cli.main(["tournament", "export", str(tid), *where, "--format", "table",
                     "-o", str(out)]) == 0  # fmt: skip
    table = out.read_text(encoding="utf-8").splitlines()
    assert table[0] == "Cup (round robin, rules classic, 2 deals)"
    # game 0's row (its table was "Cup #1"): number, deal and rotation counted from 1, as
    # the table names, then the record id and each seat with its points
    assert sum(1 for line in table if line.split()[:5] == ["1", "1", "1", "500", "mybot"]) == 1
    assert doc["games"][0]["game"] == 0  # the JSON keeps the stored number, for tools

    assert cli.main(["tournament", "status", str(tid), *where]) == 0
    status = capsys.readouterr().out.splitlines()
    assert status[1] == "running: 6/8 games"
    assert status[4].startswith(doc["entrants"][doc["standings"][0]["entrant"]]["label"])

    # -o naming a folder: a sentence and status 1, not a traceback
    assert cli.main(["tournament", "export", str(tid), *where, "-o", str(tmp_path)]) == 1
    assert capsys.readouterr().err.startswith(f"leekha tournament: cannot write {tmp_path}: ")

    assert cli.main(["tournament", "export", "99", *where]) == 1
    assert "no tournament 99" in capsys.readouterr().err
    assert cli.main(["tournament", "export", "1", "--data-dir", str(tmp_path / "none")]) == 1
    assert "no database at" in capsys.readouterr().err


def test_a_tournaments_line_says_the_rules_changed_from_its_preset() -> None:
    """`--rule target=21` on `tournament create`: its line says so, not only "classic"."""
    from leekha.common.config import preset

    t = state()
    t["rules"] = preset("classic", {"target": 21}).to_dict()
    assert text.state_lines(t)[0] == "#7 Friday: round robin, rules classic (to 21), 2 deals"
    t["rules"] = preset("classic", {"pass_ban": False}).to_dict()  # not in the summary
    assert text.state_lines(t)[0].endswith("rules classic (pass_ban=false), 2 deals")
    t["rules"] = preset("classic").to_dict()
    assert text.state_lines(t)[0] == "#7 Friday: round robin, rules classic, 2 deals"


def test_status_follow_without_a_host_follows_the_server_on_this_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/tournaments.md's first example follows with `leekha tournament status 1
    --follow`: a database cannot be followed (it printed the standings once and ended,
    games still running), so --follow asks the local server; without it, the database."""
    from leekha.client import eventloop
    from leekha.client.tournament import remote

    asked: list[tuple[str, int, bool]] = []

    async def fake_main(_reactor: object, host: str, port: int, args: object, _r: object) -> int:
        asked.append((host, port, bool(getattr(args, "follow", False))))
        return 0

    monkeypatch.setattr(remote, "main", fake_main)

    def run_on_reactor(start: Callable[[object], Coroutine[object, object, int]]) -> int:
        try:
            start(None).send(None)  # fake_main awaits nothing: it ends at once
        except StopIteration as done:
            return int(done.value)
        raise AssertionError("fake_main did not end")

    monkeypatch.setattr(eventloop, "run_on_reactor", run_on_reactor)
    assert cli.main(["tournament", "status", "1", "--follow"]) == 0
    assert asked == [("127.0.0.1", 7241, True)]
    # without --follow, the database (here none: told, not asked of a server)
    assert cli.main(["tournament", "status", "1", "--data-dir", str(tmp_path)]) == 1
    assert len(asked) == 1
