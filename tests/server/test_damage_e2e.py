"""Damage is named, not hidden (issue 25): garbage written into one page of each table of
a real server's database, an emptied database file, and what the server, `leekha records
check` and `leekha records backup` then do."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
import pytest_twisted
from helpers.server import Harness
from helpers.wire import V12, ask, dial, get_reactor, serving
from twisted.internet.defer import Deferred

from leekha.protocol import catalogue as M
from leekha.server.app import local_settings, start_server
from leekha.server.dbhealth import DatabaseProblem, check
from leekha.server.domain.persistence import Store, db_path

reactor_test = pytest_twisted.ensureDeferred
RECORDS = [sys.executable, "-m", "leekha.client.cli", "records"]
SERVE = [sys.executable, "-m", "leekha.client.cli", "serve", "--host", "127.0.0.1"]
SERVE += ["--port", "0", "--no-announce"]


def build(folder: Path) -> tuple[str, int, int]:
    """carol plays at table A (three bots, a chat line); dave waits alone at table B.
    Returns carol's token and the two table ids, with everything in the main file."""
    h = Harness(store=Store.in_dir(folder))
    carol = h.player("carol")
    a = h.table_with_bots(carol)
    assert isinstance(carol.request(M.Start(id=carol.rid())), M.Ok)
    assert isinstance(carol.request(M.Chat(id=carol.rid(), text="good luck")), M.Ok)
    h.advance(1.0)
    dave = h.player("dave")
    snap = dave.request(M.CreateTable(id=dave.rid(), name="B"))
    assert isinstance(snap, M.Snapshot)
    h.stop()
    with closing(sqlite3.connect(db_path(folder))) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert carol.token is not None
    return carol.token, a, int(snap.table["id"])


def damage(folder: Path, table: str) -> None:
    """Garbage over every page of `table` (found with the dbstat virtual table)."""
    path = db_path(folder)
    with closing(sqlite3.connect(path)) as db:
        size = int(db.execute("PRAGMA page_size").fetchone()[0])
        pages = [
            int(r[0]) for r in db.execute("SELECT pageno FROM dbstat WHERE name = ?", (table,))
        ]
    assert pages, table
    noise = random.Random(table)
    with path.open("r+b") as f:
        for page in pages:
            f.seek((page - 1) * size)
            f.write(bytes(noise.randrange(256) for _ in range(size)))


def sessions_stored(folder: Path) -> int:
    with closing(sqlite3.connect(db_path(folder))) as db:
        return int(db.execute("SELECT count(*) FROM sessions").fetchone()[0])


def tables_stored(folder: Path) -> list[int]:
    with closing(sqlite3.connect(db_path(folder))) as db:
        return [int(r[0]) for r in db.execute("SELECT id FROM tables ORDER BY id")]


@reactor_test
async def test_damaged_chat_costs_the_chat_only(tmp_path: Path) -> None:
    token, a, b = build(tmp_path)
    damage(tmp_path, "chat")
    async with serving(tmp_path) as server:
        assert sorted(server.lobby.tables) == [a, b] and server.lobby.damaged == {}
        back = await dial(server.port)
        welcome = await ask(back, M.Resume(id=1, versions=V12, token=token), 1)
        assert isinstance(welcome, M.Welcome) and welcome.table_id == a and welcome.seat == 0
    assert sessions_stored(tmp_path) == 2


@reactor_test
@pytest.mark.parametrize("part", ["actions", "seats"])
async def test_a_table_that_cannot_be_read_is_kept_reported_and_its_sessions_kept(
    tmp_path: Path, part: str
) -> None:
    token, a, b = build(tmp_path)
    damage(tmp_path, part)
    async with serving(tmp_path) as server:
        assert a in server.lobby.damaged and "malformed" in server.lobby.damaged[a]
        assert a not in server.lobby.tables
        if part == "actions":  # B has no moves: it comes back
            assert list(server.lobby.tables) == [b]
        # carol's token still works (she lands in the lobby), and nothing was deleted.
        back = await dial(server.port)
        welcome = await ask(back, M.Resume(id=1, versions=V12, token=token), 1)
        assert isinstance(welcome, M.Welcome) and welcome.table_id is None
    assert tables_stored(tmp_path) == [a, b] and sessions_stored(tmp_path) == 2
    report = check(tmp_path)
    assert any(f"table {a}" in p for p in report.problems)
    assert any(p.startswith("SQLite:") for p in report.problems)


@reactor_test
async def test_damaged_tables_or_an_empty_file_are_refused_in_words(tmp_path: Path) -> None:
    build(tmp_path / "torn")
    damage(tmp_path / "torn", "tables")
    empty = tmp_path / "empty"
    empty.mkdir()
    db_path(empty).write_bytes(b"")
    for folder, said in ((tmp_path / "torn", "malformed"), (empty, "empty (0 bytes)")):
        with pytest.raises(DatabaseProblem) as info:
            await Deferred.fromCoroutine(start_server(get_reactor(), local_settings(folder)))
        text = str(info.value)
        assert str(db_path(folder)) in text and said in text
        assert "leekha records check" in text or "backup" in text
    assert db_path(empty).stat().st_size == 0, "the empty file is left as it was"


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
def test_leekha_serve_refuses_damaged_tables_in_one_line(tmp_path: Path) -> None:
    """`leekha serve` says what the server says, in one line, without a traceback."""
    build(tmp_path / "torn")
    damage(tmp_path / "torn", "tables")
    serve = subprocess.run(
        [*SERVE, "--data", str(tmp_path / "torn")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert serve.returncode == 1 and "Traceback" not in serve.stderr
    assert str(db_path(tmp_path / "torn")) in serve.stderr and "malformed" in serve.stderr
    assert "leekha records check" in serve.stderr


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
def test_records_check_and_backup(tmp_path: Path) -> None:
    build(tmp_path / "data")
    ok = subprocess.run(
        [*RECORDS, "check", "--data", str(tmp_path / "data")], capture_output=True, text=True
    )
    assert ok.returncode == 0 and "ok" in ok.stdout and "2 live tables" in ok.stdout
    copy = tmp_path / "copy" / "leekha.sqlite3"
    made = subprocess.run(
        [*RECORDS, "backup", "--data", str(tmp_path / "data"), str(copy)],
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0 and str(copy) in made.stdout
    assert check(copy.parent).problems == [] and tables_stored(copy.parent) == [1, 2]
    again = subprocess.run(
        [*RECORDS, "backup", "--data", str(tmp_path / "data"), str(copy)],
        capture_output=True,
        text=True,
    )
    assert again.returncode == 1 and "exists" in again.stderr
    damage(tmp_path / "data", "chat")
    bad = subprocess.run(
        [*RECORDS, "check", "--data", str(tmp_path / "data")], capture_output=True, text=True
    )
    assert bad.returncode == 1 and "SQLite" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.slow  # starts leekha serve
def test_records_check_of_an_empty_file_gives_the_step_the_server_would(tmp_path: Path) -> None:
    """An empty file: `records check` must not advise starting the server, which refuses
    it; it gives the server's own next step, and counts "1 problem" in the singular."""
    db_path(tmp_path).write_bytes(b"")
    said = subprocess.run(
        [*RECORDS, "check", "--data", str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert said.returncode == 1
    assert f"{db_path(tmp_path)}: 1 problem\n" in said.stderr
    assert "start it as it is" not in said.stderr
    assert f"to start afresh, delete {db_path(tmp_path)}" in said.stderr
