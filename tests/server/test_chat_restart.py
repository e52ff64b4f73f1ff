"""A table's chat after a server restart: the server's notices keep their code and facts.

Before, only the English text was stored, so after a restart every client showed the
table's notices in English whatever its language (issue 24).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from helpers.server import Harness

from leekha.protocol import catalogue as M
from leekha.server.domain.persistence import Store, db_path


def test_notices_come_back_after_a_restart_with_their_code_and_facts(tmp_path: Path) -> None:
    old = Harness(store=Store.in_dir(tmp_path), bot_think_ms=10)
    ann = old.player("ann")
    tid = old.table_with_bots(ann)
    table = old.lobby.tables[tid]
    table.notice("timeouts_bot", name="ann", seat=0, count=2)
    table.say("ann", "hello")
    old.lobby.outbox.flush()
    table.shutdown()  # abandoned, as a killed server leaves it
    h = Harness(store=Store.in_dir(tmp_path), bot_think_ms=10)
    cat = h.player("cat")
    cat.request(M.Spectate(id=cat.rid(), table_id=tid))
    h.advance(0.1)
    heard = [m for m in cat.drain() if isinstance(m, M.ChatMessage)]
    notice = next(m for m in heard if m.sender == "*" and m.code == "timeouts_bot")
    assert notice.args == {"name": "ann", "seat": 0, "count": 2}
    assert notice.text.startswith("ann let the clock run out")  # English, for older clients
    line = next(m for m in heard if m.sender == "ann")
    assert (line.text, line.code, line.args) == ("hello", None, {})


def test_a_database_of_an_older_server_gets_the_columns_and_keeps_its_chat(
    tmp_path: Path,
) -> None:
    Store.in_dir(tmp_path).close()
    with closing(sqlite3.connect(db_path(tmp_path))) as db, db:
        db.execute("DROP TABLE chat")
        db.execute(
            "CREATE TABLE chat (id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL,"
            " sender TEXT NOT NULL, text TEXT NOT NULL)"
        )
        db.execute("INSERT INTO chat (table_id, sender, text) VALUES (7, '*', 'bob is back')")
    store = Store.in_dir(tmp_path)
    try:
        (row,) = store.load_chat(7)
        assert (row.sender, row.text, row.code, row.args) == ("*", "bob is back", None, None)
        store.add_chat(7, "*", "bob is back", 50, code="back", args={"name": "bob", "seat": 1})
        assert store.load_chat(7)[-1].args == {"name": "bob", "seat": 1}
    finally:
        store.close()
