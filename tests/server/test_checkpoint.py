"""WAL checkpoints run beside the writer, not inside its commits."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from leekha.server.checkpoint import checkpoint
from leekha.server.domain.persistence import Store, TableRow


def wal_pages(path: str) -> int:
    wal = Path(f"{path}-wal")
    return wal.stat().st_size // 4096 if wal.exists() else 0


def row(i: int) -> TableRow:
    return TableRow(
        id=i,
        name=f"t{i}",
        host_token="h",
        host_name="h",
        preset="classic",
        rules={"padding": "x" * 10_000},  # a few pages a row: the WAL grows fast
        password=None,
        pass_s=None,
        turn_s=None,
        status="waiting",
    )


def test_commits_leave_the_wal_alone_and_a_checkpoint_copies_it(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path)
    store.checkpoint_elsewhere()
    for batch in range(40):
        for i in range(10):
            store.save_table(row(1 + batch * 10 + i))
        store.commit()
    assert wal_pages(store.path) > 1000  # past SQLite's own trigger: no commit checkpointed
    busy, log, done = checkpoint(store.path)
    assert busy == 0 and log > 1000 and done == log  # all of it, with the writer open
    store.save_table(row(999))
    store.commit()
    store.close()
    db = sqlite3.connect(Path(tmp_path) / "leekha.sqlite3")
    assert db.execute("SELECT count(*) FROM tables").fetchone()[0] == 401
    db.close()
