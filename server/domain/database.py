"""The SQLite database under the store: the connection, the schema and its upgrades, and
the one way to write (group commit with fail-stop).

Each action is one row, committed before anyone is told about it, so a crash (even kill -9)
never loses an action a client has seen. WAL mode with synchronous=NORMAL keeps that cheap:
a commit appends to the log without an fsync, which is durable against a process crash
(bench/db_latency.py measures the cost).

Group commit: when `on_begin` is set, writes join one open transaction (each write of
several statements in its own savepoint, so a failed write undoes only itself; a single
statement is atomic by itself) and `commit()` ends it; the server's
outbox commits once per reactor turn and only then sends what those writes caused.
Without `on_begin` every write commits at once. A write the database refuses raises
`StoreFailed`, and so does every write after it (leekha.server.domain.outbox stops the server).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

from leekha.server.domain.errors import StoreFailed
from leekha.server.domain.limits import skeleton
from leekha.server.domain.session import token_id

DB_NAME = "leekha.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    token TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created REAL NOT NULL,
    public_key TEXT,
    secret TEXT
);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    host_token TEXT,
    host_name TEXT,
    preset TEXT NOT NULL,
    rules TEXT NOT NULL,
    password TEXT,
    pass_s REAL,
    turn_s REAL,
    status TEXT NOT NULL,
    game_no INTEGER NOT NULL DEFAULT 0,
    seed INTEGER,
    created REAL NOT NULL,
    counting_aid INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS seats (
    table_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token TEXT,
    strategy TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id INTEGER NOT NULL,
    game_no INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, game_no, idx)
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    table_id INTEGER,
    table_name TEXT,
    finished REAL NOT NULL,
    record TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS game_players (
    game_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    is_bot INTEGER NOT NULL,
    won INTEGER NOT NULL,
    points INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS game_players_name ON game_players (name);
CREATE TABLE IF NOT EXISTS game_facts (
    game_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    tricks INTEGER NOT NULL,
    leekhas INTEGER NOT NULL,
    moons INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS identities (
    name_key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    public_key TEXT NOT NULL,
    claimed REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS chat (
    id INTEGER PRIMARY KEY,
    table_id INTEGER NOT NULL,
    sender TEXT NOT NULL,
    text TEXT NOT NULL,
    code TEXT,
    args TEXT
);
CREATE INDEX IF NOT EXISTS chat_table ON chat (table_id, id);
CREATE TABLE IF NOT EXISTS ratings (
    name TEXT PRIMARY KEY,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS rating_history (
    name TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (name, game_id)
);
"""


def db_path(data_dir: Path) -> Path:
    return Path(data_dir) / DB_NAME


class Database:
    """One SQLite database and its writes; the store's jobs build on it
    (leekha.server.domain.persistence)."""

    def __init__(self, path: Path | str) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = str(path)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(_SCHEMA)
        #: Set to group writes: called when a write opens a transaction that `commit` ends.
        self.on_begin: Callable[[], None] | None = None
        self._open = False
        #: Set once a write failed: the store then refuses every write (fail-stop).
        self.failed: StoreFailed | None = None
        #: The chat could not be read (damaged pages): no chat line is written.
        self._chat_lost = False
        #: Called once with the failure (the outbox stops the server).
        self.on_failure: Callable[[StoreFailed], None] | None = None
        self._migrate()

    def _migrate(self) -> None:
        """Bring a database of an older server up to date, once, in one transaction.

        Sessions gained `public_key` (the key a session proved; it used to be worked out
        from whether the name was claimed, which let a key that claimed a guest's name
        later take the guest's seat) and `secret`; tokens are stored as their digests.
        A stored session counts as the key's only if the claim came before the session
        was stored, which every session that really proved the key meets."""
        chat = {r[1] for r in self._db.execute("PRAGMA table_info(chat)")}
        if not {"code", "args"} <= chat:
            # (1.4) a server notice's code and facts, so that it is worded in each
            # client's language after a restart too, not in the English kept as text
            with self._tx() as db:
                for column in ("code", "args"):
                    if column not in chat:
                        db.execute(f"ALTER TABLE chat ADD COLUMN {column} TEXT")  # fixed names
        tables = {r[1] for r in self._db.execute("PRAGMA table_info(tables)")}
        if "counting_aid" not in tables:
            # (1.2) the host's counting aid setting, kept with the table's other settings
            with self._tx() as db:
                db.execute("ALTER TABLE tables ADD COLUMN counting_aid INTEGER NOT NULL DEFAULT 1")
        columns = {r[1] for r in self._db.execute("PRAGMA table_info(sessions)")}
        hashed = self._db.execute("SELECT 1 FROM meta WHERE key = 'token_hash'").fetchone()
        if hashed is not None and {"public_key", "secret"} <= columns:
            return
        self._db.create_function("token_id", 1, token_id, deterministic=True)
        with self._tx() as db:
            for column in ("public_key", "secret"):
                if column not in columns:
                    db.execute(f"ALTER TABLE sessions ADD COLUMN {column} TEXT")  # fixed names
            if hashed is None:
                db.execute("UPDATE sessions SET token = token_id(token)")
                db.execute("UPDATE seats SET token = token_id(token) WHERE token IS NOT NULL")
                db.execute(
                    "UPDATE tables SET host_token = token_id(host_token)"
                    " WHERE host_token IS NOT NULL"
                )
                entrants = db.execute(
                    "SELECT 1 FROM sqlite_master WHERE name = 'tournament_entrants'"
                ).fetchone()
                if entrants is not None:
                    db.execute(
                        "UPDATE tournament_entrants SET token = token_id(token)"
                        " WHERE token IS NOT NULL"
                    )
                claims = {
                    str(r[0]): (str(r[1]), float(r[2]))
                    for r in db.execute("SELECT name_key, public_key, claimed FROM identities")
                }
                for token, name, created in db.execute(
                    "SELECT token, name, created FROM sessions"
                ).fetchall():
                    claim = claims.get(skeleton(str(name)))
                    if claim is not None and claim[1] <= float(created):
                        db.execute(
                            "UPDATE sessions SET public_key = ? WHERE token = ?", (claim[0], token)
                        )
                db.execute("INSERT INTO meta (key, value) VALUES ('token_hash', 'sha256')")
            db.execute("UPDATE sessions SET secret = token WHERE secret IS NULL")

    @classmethod
    def in_dir(cls, data_dir: Path) -> Self:
        return cls(db_path(data_dir))

    def close(self) -> None:
        """Close; grouped writes not committed yet are dropped, as a crash would drop them."""
        self._db.close()

    def checkpoint_elsewhere(self) -> None:
        """Stop SQLite from checkpointing the WAL inside `commit` (it would copy up to
        1000 pages and fsync on the reactor thread); leekha.server.checkpoint does it from
        a thread with a connection of its own instead."""
        self._db.execute("PRAGMA wal_autocheckpoint=0")

    @property
    def pending(self) -> bool:
        """True while grouped writes wait for `commit`."""
        return self._open

    def commit(self) -> None:
        """Make every grouped write durable (no-op when nothing is pending); StoreFailed
        if the database refuses."""
        if self.failed is not None:
            raise self.failed
        if self._open:
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise self._fail(exc) from None
            self._open = False

    def rollback(self) -> None:
        """Drop every grouped write not committed yet."""
        self._open = False
        # A failed COMMIT (disk full, I/O error) may have rolled back already.
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    def _fail(self, exc: sqlite3.Error) -> StoreFailed:
        """The database refused a write: nothing is written any more (fail-stop, see
        leekha.server.domain.outbox), and `on_failure` hears it once."""
        if self.failed is None:
            self.failed = StoreFailed(self.path, exc)
            # If even that fails the connection is unusable: the pending writes are lost.
            with contextlib.suppress(sqlite3.Error):
                self.rollback()
            if self.on_failure is not None:
                self.on_failure(self.failed)
        return self.failed

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write: its own transaction, or (grouped) a savepoint of the open one. A
        write the database refuses raises StoreFailed, and so does every write after it."""
        if self.failed is not None:
            raise self.failed
        try:
            with self._write() as db:
                yield db
        except sqlite3.Error as exc:
            raise self._fail(exc) from None

    def _write_one(self, sql: str, args: Sequence[object]) -> None:
        """One write of one statement, the hottest (a move): SQLite makes a statement
        atomic by itself, so it needs no savepoint of its own, and a refused one fails
        the store like any other write."""
        if self.failed is not None:
            raise self.failed
        if self.on_begin is None:
            with self._tx() as db:
                db.execute(sql, args)
            return
        db = self._db
        try:
            if not self._open:
                db.execute("BEGIN IMMEDIATE")
                self._open = True
                self.on_begin()
            db.execute(sql, args)
        except sqlite3.Error as exc:
            raise self._fail(exc) from None

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        if self.on_begin is None:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return
        if not self._open:
            self._db.execute("BEGIN IMMEDIATE")
            self._open = True
            self.on_begin()
        self._db.execute("SAVEPOINT w")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK TO w")
            self._db.execute("RELEASE w")
            raise
        self._db.execute("RELEASE w")

    # ---- for the stores of other modules (leekha.server.domain.tournament.store) --------------
    def add_schema(self, script: str) -> None:
        """Create another module's tables (`CREATE ... IF NOT EXISTS` statements, `;`
        apart), inside whatever grouped write is open."""
        for statement in script.split(";"):
            if statement.strip():
                self._db.execute(statement)

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write of another module's rows, committed with this store's own (the same
        group commit), so it lands with the game or seat change that caused it."""
        with self._tx() as db:
            yield db

    def read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        """Rows of a query over any of this database's tables."""
        return self._db.execute(sql, args).fetchall()
