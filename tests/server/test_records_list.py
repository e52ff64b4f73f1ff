"""`leekha records list`: the stored games, newest first, with id, date, table, players
with their totals and winners, filtered by player, as text and as JSON."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from helpers.server import Harness, answer_prompts

from leekha.protocol import catalogue as M
from leekha.server import records_cli
from leekha.server.domain.persistence import Store

GAMES = [
    (3, "Friday", [("ann", False, True, 20, 4), ("b1", True, False, 60, 4),
                   ("bob", False, False, 55, 4), ("b2", True, False, 70, 4)]),
    (5, "quick play 1", [("carl", False, False, 80, 6), ("b1", True, True, 10, 6),
                         ("b2", True, False, 30, 6), ("b3", True, False, 40, 6)]),
]  # fmt: skip


def _records(tmp_path: Path) -> list[int]:
    store = Store.in_dir(tmp_path)
    ids = [store.finish_game(table, name, {"version": 1}, seats) for table, name, seats in GAMES]
    store.close()
    return ids


def _run(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    records_cli.add_arguments(parser)
    return records_cli.run(parser.parse_args(list(argv)))


def test_list_as_json_newest_first_with_players_totals_and_winners(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = _records(tmp_path)
    assert _run("list", "--data", str(tmp_path), "--format", "json") == 0
    games = json.loads(capsys.readouterr().out)
    assert [g["game_id"] for g in games] == [second, first]
    older = games[1]
    assert (older["table_id"], older["table"], older["winners"]) == (3, "Friday", ["ann"])
    assert [(p["seat"], p["name"], p["bot"], p["points"]) for p in older["players"]] == [
        (0, "ann", False, 20), (1, "b1", True, 60), (2, "bob", False, 55), (3, "b2", True, 70)
    ]  # fmt: skip
    assert isinstance(older["finished"], float)
    assert _run("list", "--data", str(tmp_path), "--format", "json", "--player", "bob") == 0
    assert [g["game_id"] for g in json.loads(capsys.readouterr().out)] == [first]
    assert _run("list", "--data", str(tmp_path), "--format", "json", "--limit", "1") == 0
    assert [g["game_id"] for g in json.loads(capsys.readouterr().out)] == [second]


def test_list_as_text_one_line_a_game_seats_from_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _first, second = _records(tmp_path)
    assert _run("list", "--data", str(tmp_path)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"game {second}  ")
    assert lines[1].endswith(
        "table 3 'Friday'  1 ann 20, 2 b1 [bot] 60, 3 bob 55, 4 b2 [bot] 70  won: ann"
    )
    assert _run("list", "--data", str(tmp_path), "--player", "nobody") == 0
    assert capsys.readouterr().out == "no finished games with nobody\n"
    with pytest.raises(SystemExit):
        _run("list", "--data", str(tmp_path), "--limit", "0")


def test_game_over_names_the_stored_game_that_records_list_shows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    h = Harness(store=Store.in_dir(tmp_path), bot_think_ms=0)
    carol = h.player("carol")
    watcher = h.player("wat")
    tid = h.table_with_bots(carol, overrides={"target": 1})
    watcher.request(M.Spectate(id=watcher.rid(), table_id=tid))
    assert isinstance(carol.request(M.Start(id=carol.rid())), M.Ok)
    table = h.lobby.tables[tid]
    for _ in range(20_000):
        if table.status == "finished":
            break
        answer_prompts(h, carol, tid)
        h.advance(0.05, step=0.05)
    (stored,) = h.store.game_ids()
    for c in (carol, watcher):
        (over,) = c.of(M.GameOver)
        assert over.game_id == stored
    h.stop()
    assert _run("list", "--data", str(tmp_path), "--format", "json", "--player", "carol") == 0
    assert [g["game_id"] for g in json.loads(capsys.readouterr().out)] == [stored]


def test_export_to_a_place_it_cannot_write_says_so_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`-o` naming a folder, or a file in a folder that is not there: status 1 and one line
    (README's exit codes), not a traceback; nothing half-written."""
    first, _second = _records(tmp_path)
    for out in (tmp_path, tmp_path / "nowhere" / "game.json"):
        argv = ("export", "--data", str(tmp_path), "--game", str(first), "-o", str(out))
        assert _run(*argv) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"leekha records: cannot write {out}: ") and err.count("\n") == 1
    assert not (tmp_path / "nowhere").exists()
