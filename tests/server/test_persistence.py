"""SQLite persistence: crash recovery, finished games, statistics and `leekha records`."""

from __future__ import annotations

import argparse
import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from helpers.server import VERSIONS, Harness, answer_prompts, created_table, play_until

from leekha.common import cards as C
from leekha.common.record import GameRecord
from leekha.protocol import catalogue as M
from leekha.server import records_cli
from leekha.server.domain.persistence import Store, db_path
from leekha.server.domain.session import token_id


def crash_mid_trick(tmp_path: Path) -> tuple[Harness, int, str, list[dict[str, object]]]:
    """Play until a trick is half done, then return without any clean shutdown."""
    h = Harness(store=Store.in_dir(tmp_path), bot_think_ms=10)
    alice = h.player("alice")
    tid = h.table_with_bots(alice, strategy="random")
    alice.request(M.Start(id=alice.rid()))
    game = h.lobby.tables[tid].game
    assert game is not None
    for _ in range(5000):
        answer_prompts(h, alice, tid)
        if len(game.tricks) >= 2 and len(game.trick) == 2:
            break
        h.advance(0.01)
    assert len(game.trick) == 2
    assert alice.token is not None
    return h, tid, alice.token, [dict(a) for a in game.actions]


def test_restart_after_a_crash_restores_tables_seats_tokens_and_play(tmp_path: Path) -> None:
    old, tid, token, actions = crash_mid_trick(tmp_path)
    old_table = old.lobby.tables[tid]
    # The old server object is simply abandoned (its clocks stopped, nothing flushed).
    old_table.shutdown()
    h = Harness(store=Store.in_dir(tmp_path), bot_think_ms=10, seat_grace_s=30.0)
    table = h.lobby.tables[tid]
    assert table.game is not None and table.game.actions == actions
    assert [s.name if s else None for s in table.seats] == [
        s.name if s else None for s in old_table.seats
    ]
    seat0 = table.seats[0]
    # The database holds the token's digest, never the token.
    assert seat0 is not None and seat0.token == token_id(token) and not seat0.connected
    with closing(sqlite3.connect(db_path(tmp_path))) as db:
        stored = "\n".join(db.iterdump())
    assert token not in stored and token_id(token) in stored
    alice = h.connect()
    alice.send(M.Resume(id=1, versions=VERSIONS, token=token))
    alice.read()
    welcome, snap = alice.inbox.pop(0), alice.inbox.pop(0)
    assert isinstance(welcome, M.Welcome) and welcome.resumed
    assert isinstance(snap, M.Snapshot) and snap.view is not None
    assert snap.view["hand"] == C.cards_of(table.game.hands[0])
    assert len(snap.view["trick"]) == 2 and snap.your_seat == 0
    for _ in range(100_000):
        answer_prompts(h, alice, tid)
        if table.status != "playing":
            break
        h.advance(0.01)
    assert table.game.outcome is not None, (table.status, table.closed, len(table.game.actions))
    (gid,) = h.store.game_ids()
    record = h.store.game_record(gid)
    assert record is not None and record["actions"][: len(actions)] == actions


def test_timers_restart_after_a_restore(tmp_path: Path) -> None:
    old, tid, _token, _ = crash_mid_trick(tmp_path)
    old.lobby.tables[tid].shutdown()
    h = Harness(store=Store.in_dir(tmp_path), bot_think_ms=10, seat_grace_s=2.0)
    game = h.lobby.tables[tid].game
    assert game is not None
    moves = len(game.actions)
    h.advance(10, step=0.05)
    assert len(game.actions) > moves, "after the grace period a bot plays the absent seat"


def test_every_action_is_committed_before_it_is_broadcast(tmp_path: Path) -> None:
    _h, tid, _token, actions = crash_mid_trick(tmp_path)
    reader = Store.in_dir(tmp_path)  # a second connection sees only committed rows
    (row,) = [r for r in reader.load_tables() if r.id == tid]
    assert row.actions == actions and row.status == "playing"
    reader.close()


def test_a_failed_write_leaves_the_game_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = Harness(store=Store.in_dir(tmp_path), bot_think_ms=10_000)
    alice = h.player("alice")
    tid = h.table_with_bots(alice)
    alice.request(M.Start(id=alice.rid()))
    table = h.lobby.tables[tid]
    assert table.game is not None

    def broken(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(h.store, "append_action", broken)
    cards = list(next(table.game.legal_passes(0)))
    reply = alice.request(M.PassCards(id=alice.rid(), cards=cards))
    assert isinstance(reply, M.Error) and reply.code == "internal"
    assert table.game.passed[0] is None and table.game.actions == []


def test_every_table_setting_survives_a_restart(tmp_path: Path) -> None:
    """The settings a host chose come back with the table, the counting aid too."""
    h = Harness(store=Store.in_dir(tmp_path))
    host, other = h.player("host"), h.player("other")
    strict = created_table(
        host.request(
            M.CreateTable(
                id=host.rid(), name="Strict", preset="levant", counting_aid=False,
                password="pw", pass_timer_s=30, turn_timer_s=0,
            )
        )
    )  # fmt: skip
    plain = created_table(other.request(M.CreateTable(id=other.rid(), name="Plain")))
    before = {tid: h.lobby.tables[tid].to_row() for tid in (strict, plain)}
    h.stop()
    h = Harness(store=Store.in_dir(tmp_path))
    after = {tid: h.lobby.tables[tid].to_row() for tid in (strict, plain)}
    for tid in (strict, plain):
        before[tid].seats = after[tid].seats = []  # seats: restored by their own test
        assert after[tid] == before[tid]
    assert h.lobby.tables[strict].counting_aid is False
    assert (after[strict].pass_s, after[strict].turn_s) == (30.0, None)
    watcher = h.player("watcher")
    listed = watcher.request(M.ListTables(id=watcher.rid()))
    assert isinstance(listed, M.TableList)
    aid = {t["id"]: t["counting_aid"] for t in listed.tables}
    assert aid == {strict: False, plain: True}


def test_a_table_stored_by_an_older_server_allows_the_counting_aid(tmp_path: Path) -> None:
    Store.in_dir(tmp_path).close()
    with closing(sqlite3.connect(db_path(tmp_path))) as db, db:
        db.execute("DROP TABLE tables")
        db.execute(
            "CREATE TABLE tables (id INTEGER PRIMARY KEY, name TEXT NOT NULL, host_token TEXT,"
            " host_name TEXT, preset TEXT NOT NULL, rules TEXT NOT NULL, password TEXT,"
            " pass_s REAL, turn_s REAL, status TEXT NOT NULL,"
            " game_no INTEGER NOT NULL DEFAULT 0, seed INTEGER, created REAL NOT NULL)"
        )
        db.execute(
            "INSERT INTO tables (id, name, preset, rules, status, created)"
            " VALUES (4, 'old', 'classic', '{}', 'waiting', 0)"
        )
    store = Store.in_dir(tmp_path)
    (row,) = store.load_tables()
    assert (row.id, row.counting_aid) == (4, True)
    row.counting_aid = False
    store.save_table(row)
    assert store.load_tables()[0].counting_aid is False
    store.close()


def _finished_game_store(tmp_path: Path) -> tuple[Store, int]:
    h = Harness(store=Store.in_dir(tmp_path), bot_think_ms=5)
    alice = h.player("alice")
    tid = h.table_with_bots(alice, overrides={"target": 30})
    alice.request(M.Start(id=alice.rid()))
    table = h.lobby.tables[tid]
    play_until(h, [alice], tid, lambda: table.status == "finished", limit=1000, step=0.01)
    return h.store, tid


def test_records_export_and_stats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _finished_game_store(tmp_path)
    parser = argparse.ArgumentParser()
    records_cli.add_arguments(parser)
    assert records_cli.run(parser.parse_args(["export", "--data", str(tmp_path)])) == 0
    records = json.loads(capsys.readouterr().out)
    assert isinstance(records, list) and len(records) == 1
    record = GameRecord.from_dict(records[0])
    outcome = record.replay().outcome
    assert record.players[0] == "alice" and outcome is not None
    assert outcome.to_dict() == records[0]["result"]
    gid = records[0]["meta"]["game_id"]
    args = parser.parse_args(["export", "--data", str(tmp_path), "--game", str(gid)])
    assert records_cli.run(args) == 0
    assert json.loads(capsys.readouterr().out)["seed"] == record.seed
    args = parser.parse_args(["export", "--data", str(tmp_path), "--game", "999"])
    assert records_cli.run(args) == 1
    args = parser.parse_args(["stats", "--data", str(tmp_path), "--format", "json"])
    assert records_cli.run(args) == 0
    (alice,) = json.loads(capsys.readouterr().out)
    assert alice["name"] == "alice" and alice["games"] == 1
    rounds = len(records[0]["history"])
    points = sum(r[0] for r in records[0]["history"])
    assert alice["avg_points_per_round"] == round(points / rounds, 3)
    assert records_cli.run(parser.parse_args(["stats", "--data", str(tmp_path), "--bots"])) == 0
    assert "random bot 1" in capsys.readouterr().out


def test_records_without_a_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    records_cli.add_arguments(parser)
    assert records_cli.run(parser.parse_args(["stats", "--data", str(tmp_path / "none")])) == 1
    assert "no database" in capsys.readouterr().err
    assert not db_path(tmp_path / "none").exists()


def test_store_uses_wal(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path)
    mode = store._db.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    store.close()
