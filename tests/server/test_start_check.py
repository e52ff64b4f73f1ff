"""Damage the server does not read at start (a finished game's pages) is named at start:
SQLite's quick check, bounded, in the log and in `leekha serve`'s start lines; the server
still starts, as the damage policy says for pages it can do without."""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
import pytest_twisted
from helpers.loopback import serve_process
from helpers.server import Harness, answer_prompts
from helpers.wire import serving

from leekha.protocol import catalogue as M
from leekha.server.dbhealth import quick_check
from leekha.server.domain.persistence import Store, db_path

reactor_test = pytest_twisted.ensureDeferred


def finished_game(folder: Path) -> None:
    """carol plays one short game with three bots to its end: a finished game's rows."""
    h = Harness(store=Store.in_dir(folder), bot_think_ms=0)
    carol = h.player("carol")
    tid = h.table_with_bots(carol, overrides={"target": 1})
    assert isinstance(carol.request(M.Start(id=carol.rid())), M.Ok)
    table = h.lobby.tables[tid]
    for _ in range(20_000):
        if table.status == "finished":
            break
        answer_prompts(h, carol, tid)
        h.advance(0.05, step=0.05)
    assert table.status == "finished"
    h.stop()
    with closing(sqlite3.connect(db_path(folder))) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def garbage_over(folder: Path, name: str) -> None:
    """Noise over every page of table `name` (found with the dbstat virtual table)."""
    path = db_path(folder)
    with closing(sqlite3.connect(path)) as db:
        size = int(db.execute("PRAGMA page_size").fetchone()[0])
        pages = [int(r[0]) for r in db.execute("SELECT pageno FROM dbstat WHERE name = ?", (name,))]
    assert pages, name
    noise = random.Random(name)
    with path.open("r+b") as f:
        for page in pages:
            f.seek((page - 1) * size)
            f.write(bytes(noise.randrange(256) for _ in range(size)))


def test_the_quick_check_is_quiet_on_a_sound_database_and_names_damage(tmp_path: Path) -> None:
    finished_game(tmp_path)
    assert quick_check(db_path(tmp_path)) == []
    garbage_over(tmp_path, "game_players")
    found = quick_check(db_path(tmp_path), limit=3)
    assert found and len(found) <= 3 and "malformed" in " ".join(found), found
    assert quick_check(db_path(tmp_path), max_bytes=1) == []  # too big to read at start


@reactor_test
async def test_the_server_starts_and_names_damage_it_does_not_read(tmp_path: Path) -> None:
    finished_game(tmp_path)
    garbage_over(tmp_path, "game_players")
    async with serving(tmp_path) as server:
        assert server.health and "malformed" in " ".join(server.health), server.health
        assert server.lobby.damaged == {}  # nothing the restore reads is hurt


@pytest.mark.slow
def test_leekha_serve_says_so_in_its_start_lines(tmp_path: Path) -> None:
    finished_game(tmp_path)
    garbage_over(tmp_path, "game_players")
    proc, _port = serve_process(tmp_path)
    try:
        assert proc.stdout is not None
        # After "listening on": the table page's address, then the warning.
        assert proc.stdout.readline().startswith("table page: http://")
        line = proc.stdout.readline()
        assert line.startswith("warning: the database") and "is damaged" in line
        assert f"leekha records check --data {tmp_path}" in line
    finally:
        proc.kill()
        proc.wait(timeout=30)
