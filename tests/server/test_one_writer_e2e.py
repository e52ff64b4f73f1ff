"""One server per data folder, and a database that refuses a write stops the server once
and cleanly (issue 25): on real servers over loopback, in this process and as `leekha
serve` processes."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from helpers.loopback import serve_process
from helpers.wire import V12, ask, dial, get_reactor, serving
from twisted.internet.defer import Deferred
from twisted.internet.task import deferLater
from twisted.logger import ILogObserver, LogLevel, globalLogPublisher
from zope.interface import provider

from leekha.protocol import catalogue as M
from leekha.server.app import local_settings, start_server
from leekha.server.datalock import DataDirInUse
from leekha.server.domain.persistence import db_path

reactor_test = pytest_twisted.ensureDeferred
SERVE = [sys.executable, "-m", "leekha.client.cli", "serve", "--host", "127.0.0.1", "--port", "0"]
SERVE += ["--no-announce"]


@reactor_test
async def test_a_second_server_on_the_same_data_is_refused_mid_game(tmp_path: Path) -> None:
    async with serving(tmp_path, bot_think_ms=1) as first:
        carol = await dial(first.port)
        assert isinstance(await ask(carol, M.Hello(id=1, versions=V12, name="carol"), 1), M.Welcome)
        assert isinstance(await ask(carol, M.CreateTable(id=2, name="t"), 2), M.Snapshot)
        with pytest.raises(DataDirInUse) as info:
            await Deferred.fromCoroutine(start_server(get_reactor(), local_settings(tmp_path)))
        assert info.value.directory == tmp_path and info.value.pid == os.getpid()
        assert str(tmp_path) in str(info.value) and str(os.getpid()) in str(info.value)
        # The first goes on serving, and numbered alone.
        assert isinstance(await ask(carol, M.ListTables(id=3), 3), M.TableList)
    # Once it stopped, the folder is free again.
    async with serving(tmp_path) as again:
        assert list(again.lobby.tables) == [1]


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
def test_a_second_leekha_serve_names_the_folder_and_the_holder(tmp_path: Path) -> None:
    first, _port = serve_process(tmp_path)
    try:
        second = subprocess.run(
            [*SERVE, "--data", str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 1
        assert str(tmp_path) in second.stderr and f"process {first.pid}" in second.stderr
        assert "Traceback" not in second.stderr and "listening" not in second.stdout
    finally:
        first.kill()
        first.wait(timeout=30)
    # The lock of a killed server is the kernel's to drop: the next one simply starts.
    third, _port = serve_process(tmp_path)  # it printed "listening on": it started
    third.kill()
    third.wait(timeout=30)


@reactor_test
async def test_a_refused_write_stops_the_server_once_with_a_goodbye(tmp_path: Path) -> None:
    events: list[dict[str, Any]] = []

    @provider(ILogObserver)
    def observe(event: dict[str, Any]) -> None:
        events.append(event)

    globalLogPublisher.addObserver(observe)
    try:
        async with serving(tmp_path, bot_think_ms=1) as server:
            carol = await dial(server.port)
            await ask(carol, M.Hello(id=1, versions=V12, name="carol"), 1)
            snap = await ask(carol, M.CreateTable(id=2, name="t"), 2)
            assert isinstance(snap, M.Snapshot)
            tid = int(snap.table["id"])
            for rid, seat in ((3, 1), (4, 2), (5, 3)):
                await ask(carol, M.AddBot(id=rid, seat=seat), rid)
            await ask(carol, M.Start(id=6), 6)
            # Another writer (what a second server did) takes the next move's row: the
            # bots' passes can no longer be stored.
            with closing(sqlite3.connect(db_path(tmp_path), timeout=10)) as db, db:
                db.executemany(
                    "INSERT OR IGNORE INTO actions (table_id, game_no, idx, action)"
                    " VALUES (?, ?, ?, '{}')",
                    [(tid, g, i) for g in range(3) for i in range(200)],
                )
            goodbye = carol.wait_for(lambda m: isinstance(m, M.Error))
            err = await goodbye.addTimeout(15, get_reactor())
            assert isinstance(err, M.Error) and err.code == "server_shutdown"
            assert "cannot write its database" in err.message
            await carol.lost.addTimeout(15, get_reactor())
            await deferLater(get_reactor(), 0.5)  # no bot may retry meanwhile
            assert server.lobby.outbox.stopped and server.store.failed is not None
    finally:
        globalLogPublisher.removeObserver(observe)
    critical = [e for e in events if e.get("log_level") == LogLevel.critical]
    assert len(critical) == 1, [e.get("log_format") for e in critical]
    assert "UNIQUE constraint failed" in critical[0]["failure"]
    assert not [e for e in events if "log_failure" in e], "a traceback was logged"
    assert not [e for e in events if "rollback" in str(e.get("log_format", ""))]
