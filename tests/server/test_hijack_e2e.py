"""Issue 25's hijack, step by step on a real server over loopback, with a restart: a key
that proves itself under a seated guest's name is refused, claims nothing, and after the
restart still gets neither the name nor the seat; the guest's token brings her back."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest_twisted
from helpers.wire import V12, ask, dial, key_hello, serving

from leekha.client.identity import Identity
from leekha.protocol import catalogue as M
from leekha.server.domain.persistence import db_path

reactor_test = pytest_twisted.ensureDeferred


def claims(data: Path) -> list[tuple[str, str]]:
    with closing(sqlite3.connect(db_path(data))) as db:
        return [
            (str(r[0]), str(r[1])) for r in db.execute("SELECT name, public_key FROM identities")
        ]


@reactor_test
async def test_a_key_never_takes_a_guests_seat_across_a_restart(tmp_path: Path) -> None:
    thief = Identity.generate()
    async with serving(tmp_path) as server:
        carol = await dial(server.port)
        welcome = await ask(carol, M.Hello(id=1, versions=V12, name="carol"), 1)
        assert isinstance(welcome, M.Welcome) and not welcome.verified
        token = welcome.token
        snap = await ask(carol, M.CreateTable(id=2, name="carol's"), 2)
        assert isinstance(snap, M.Snapshot)
        for rid, seat in ((3, 1), (4, 2), (5, 3)):
            assert isinstance(await ask(carol, M.AddBot(id=rid, seat=seat), rid), M.Ok)
        assert isinstance(await ask(carol, M.Start(id=6), 6), M.Ok)
        dealt = carol.wait_for(lambda m: isinstance(m, M.Dealt))
        await dealt

        refused = await key_hello(server.port, thief, "carol")
        assert isinstance(refused, M.Error) and refused.code == "bad_name"
        assert claims(tmp_path) == [], "a refused hello stored a claim"

    async with serving(tmp_path) as server:  # the same data folder
        again = await key_hello(server.port, thief, "carol")
        assert isinstance(again, M.Error) and again.code == "bad_name"
        assert claims(tmp_path) == []
        back = await dial(server.port)
        resumed = await ask(back, M.Resume(id=1, versions=V12, token=token), 1)
        assert isinstance(resumed, M.Welcome)
        assert resumed.resumed and resumed.seat == 0 and not resumed.verified
        assert resumed.table_id == snap.table["id"]
        snapshot = await back.wait_for(lambda m: isinstance(m, M.Snapshot))
        assert isinstance(snapshot, M.Snapshot) and snapshot.your_seat == 0
        # With carol online too, the key still gets nothing.
        third = await key_hello(server.port, thief, "carol")
        assert isinstance(third, M.Error) and third.code == "bad_name"
