"""SQLite storage: live tables action by action, finished games, sessions and statistics.

Each action is one row, committed before anyone is told about it, so a crash (even kill -9)
never loses an action a client has seen. WAL mode with synchronous=NORMAL keeps that cheap:
a commit appends to the log without an fsync, which is durable against a process crash
(bench/db_latency.py measures the cost).

Group commit: when `on_begin` is set, writes join one open transaction (each write in its
own savepoint, so a failed write undoes only itself) and `commit()` ends it; the server's
outbox commits once per reactor turn and only then sends what those writes caused.
Without `on_begin` every write commits at once.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from twisted.logger import Logger

from leekha.server.errors import StoreFailed
from leekha.server.limits import skeleton
from leekha.server.session import token_id

log = Logger()

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
    created REAL NOT NULL
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
    text TEXT NOT NULL
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


@dataclass(frozen=True)
class SessionRow:
    """A stored session: its name, the key it proved (None: a guest) and the digest of
    the token that resumes it (leekha.server.session)."""

    name: str
    key: str | None
    secret: str


@dataclass
class SeatRow:
    name: str
    token: str | None
    strategy: str | None


@dataclass
class TableRow:
    id: int
    name: str
    host_token: str | None
    host_name: str | None
    preset: str
    rules: dict[str, Any]
    password: str | None
    pass_s: float | None
    turn_s: float | None
    status: str
    game_no: int = 0
    seed: int | None = None
    seats: list[SeatRow | None] = field(default_factory=lambda: [None] * 4)
    actions: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class PlayerStats:
    name: str
    games: int
    wins: int
    rounds: int
    points: int

    @property
    def avg_points_per_round(self) -> float:
        return self.points / self.rounds if self.rounds else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The stats line of the wire and `leekha records stats`: the mean, not the sum."""
        line = asdict(self)
        del line["points"]
        return line | {"avg_points_per_round": round(self.avg_points_per_round, 3)}


def db_path(data_dir: Path) -> Path:
    return Path(data_dir) / DB_NAME


class Store:
    """One SQLite database; `":memory:"` gives a throwaway store for tests and benches."""

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
    def in_dir(cls, data_dir: Path) -> Store:
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
        leekha.server.outbox), and `on_failure` hears it once."""
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

    # ---- for the stores of other modules (leekha.server.tournament.store) --------------
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

    # ---- sessions ---------------------------------------------------------------------
    def save_session(self, token: str, name: str, key: str | None, secret: str) -> None:
        """A session by its id (leekha.server.session): the digests only, never a token."""
        with self._tx() as db:
            db.execute(
                "INSERT OR REPLACE INTO sessions (token, name, created, public_key, secret)"
                " VALUES (?, ?, ?, ?, ?)",
                (token, name, time.time(), key, secret),
            )

    def set_secret(self, token: str, secret: str) -> None:
        """The session resumes with another token now (its digest)."""
        with self._tx() as db:
            db.execute("UPDATE sessions SET secret = ? WHERE token = ?", (secret, token))

    def load_sessions(self) -> dict[str, SessionRow]:
        rows = self._db.execute("SELECT token, name, public_key, secret FROM sessions")
        return {
            str(token): SessionRow(str(name), key, str(secret or token))
            for token, name, key, secret in rows.fetchall()
        }

    def forget_sessions(self, keep: Sequence[str]) -> None:
        """Drop sessions that hold no seat and host no table (called at startup)."""
        with self._tx() as db:
            db.execute("CREATE TEMP TABLE IF NOT EXISTS keep_tokens (token TEXT PRIMARY KEY)")
            db.execute("DELETE FROM keep_tokens")
            db.executemany("INSERT OR IGNORE INTO keep_tokens VALUES (?)", [(t,) for t in keep])
            db.execute("DELETE FROM sessions WHERE token NOT IN (SELECT token FROM keep_tokens)")

    # ---- live tables ------------------------------------------------------------------
    def save_table(self, row: TableRow) -> None:
        """Insert or update a table's settings and status (not its seats or actions)."""
        with self._tx() as db:
            db.execute(
                "INSERT OR REPLACE INTO tables (id, name, host_token, host_name, preset, rules,"
                " password, pass_s, turn_s, status, game_no, seed, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.id,
                    row.name,
                    row.host_token,
                    row.host_name,
                    row.preset,
                    json.dumps(row.rules),
                    row.password,
                    row.pass_s,
                    row.turn_s,
                    row.status,
                    row.game_no,
                    row.seed,
                    time.time(),
                ),
            )

    def set_status(self, table_id: int, status: str) -> None:
        with self._tx() as db:
            db.execute("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))

    def start_game(self, table_id: int, game_no: int, seed: int) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE tables SET game_no = ?, seed = ?, status = 'playing' WHERE id = ?",
                (game_no, seed, table_id),
            )
            db.execute(
                "DELETE FROM actions WHERE table_id = ? AND game_no < ?", (table_id, game_no)
            )

    def save_seat(self, table_id: int, seat: int, row: SeatRow | None) -> None:
        with self._tx() as db:
            if row is None:
                db.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat))
            else:
                db.execute(
                    "INSERT OR REPLACE INTO seats (table_id, seat, name, token, strategy)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (table_id, seat, row.name, row.token, row.strategy),
                )

    def append_action(
        self, table_id: int, game_no: int, idx: int, action: Mapping[str, Any]
    ) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO actions (table_id, game_no, idx, action) VALUES (?, ?, ?, ?)",
                (table_id, game_no, idx, json.dumps(dict(action))),
            )

    def delete_table(self, table_id: int) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM tables WHERE id = ?", (table_id,))
            db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            db.execute("DELETE FROM actions WHERE table_id = ?", (table_id,))
            db.execute("DELETE FROM chat WHERE table_id = ?", (table_id,))

    def add_chat(self, table_id: int, sender: str, text: str, keep: int) -> None:
        """One line of a table's chat; only the last `keep` lines are kept. Not once the
        chat was found damaged (`load_chat`): a write into damaged pages would poison the
        turn's transaction and stop the server, and chat is not worth that."""
        if self._chat_lost:
            return
        with self._tx() as db:
            db.execute(
                "INSERT INTO chat (table_id, sender, text) VALUES (?, ?, ?)",
                (table_id, sender, text),
            )
            db.execute(
                "DELETE FROM chat WHERE table_id = ? AND id <= ("
                "SELECT id FROM chat WHERE table_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
                (table_id, table_id, keep),
            )

    def load_chat(self, table_id: int) -> list[tuple[str, str]]:
        """A table's kept chat lines, oldest first, as (sender, text). Chat is the least
        of what is stored: lines that cannot be read are logged and left out, and the
        table comes back without them."""
        try:
            rows = self._db.execute(
                "SELECT sender, text FROM chat WHERE table_id = ? ORDER BY id", (table_id,)
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            log.warn(
                "table {table}: its chat in {path} cannot be read ({error}); the table"
                " comes back without it, and no chat is kept until the file is repaired."
                " Run `leekha records check`",
                table=table_id,
                path=self.path,
                error=str(exc),
            )
            self._chat_lost = True
            return []
        return [(str(r[0]), str(r[1])) for r in rows]

    def forget_live_tables(self) -> None:
        """Drop every table still being played, and the sessions: a fresh start that keeps
        the finished games (`leekha play`, whose seats nobody could resume anyway)."""
        with self._tx() as db:
            for name in ("tables", "seats", "actions", "chat", "sessions"):
                db.execute(f"DELETE FROM {name}")  # fixed names, no input

    def next_table_id(self) -> int:
        row = self._db.execute(
            "SELECT MAX(m) FROM (SELECT MAX(id) AS m FROM tables"
            " UNION ALL SELECT MAX(table_id) FROM games)"
        ).fetchone()
        return int(row[0] or 0) + 1

    def load_tables(self) -> list[TableRow]:
        """Every live table that can be read (see `load_live`)."""
        return self.load_live()[0]

    def load_live(self) -> tuple[list[TableRow], dict[int, str]]:
        """Every live table with its seats and moves, and the tables whose seats or moves
        cannot be read (id -> what went wrong, SQLite's words): those are left out here
        and never deleted, so a repaired database has them back."""
        out: list[TableRow] = []
        damaged: dict[int, str] = {}
        for r in self._db.execute(
            "SELECT id, name, host_token, host_name, preset, rules, password, pass_s, turn_s,"
            " status, game_no, seed FROM tables ORDER BY id"
        ).fetchall():
            try:
                out.append(self._live_row(r))
            except (sqlite3.DatabaseError, ValueError) as exc:  # ValueError: bad JSON
                damaged[int(r[0])] = str(exc)
        return out, damaged

    def _live_row(self, r: Sequence[Any]) -> TableRow:
        row = TableRow(
            id=r[0],
            name=r[1],
            host_token=r[2],
            host_name=r[3],
            preset=r[4],
            rules=json.loads(r[5]),
            password=r[6],
            pass_s=r[7],
            turn_s=r[8],
            status=r[9],
            game_no=r[10],
            seed=r[11],
        )
        for seat, name, token, strategy in self._db.execute(
            "SELECT seat, name, token, strategy FROM seats WHERE table_id = ?", (row.id,)
        ).fetchall():
            if 0 <= seat < 4:
                row.seats[seat] = SeatRow(name, token, strategy)
        row.actions = [
            json.loads(a)
            for (a,) in self._db.execute(
                "SELECT action FROM actions WHERE table_id = ? AND game_no = ? ORDER BY idx",
                (row.id, row.game_no),
            ).fetchall()
        ]
        return row

    # ---- finished games ---------------------------------------------------------------
    def finish_game(
        self,
        table_id: int,
        table_name: str,
        record: Mapping[str, Any],
        players: Sequence[tuple[str, bool, bool, int, int]],
    ) -> int:
        """Store a finished game; players are (name, is_bot, won, points, rounds) per seat."""
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO games (table_id, table_name, finished, record) VALUES (?, ?, ?, ?)",
                (table_id, table_name, time.time(), json.dumps(dict(record))),
            )
            game_id = int(cur.lastrowid or 0)
            db.executemany(
                "INSERT INTO game_players (game_id, seat, name, is_bot, won, points, rounds)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (game_id, seat, name, int(bot), int(won), points, rounds)
                    for seat, (name, bot, won, points, rounds) in enumerate(players)
                ],
            )
            db.execute("UPDATE tables SET status = 'finished' WHERE id = ?", (table_id,))
        return game_id

    def game_ids(self) -> list[int]:
        return [r[0] for r in self._db.execute("SELECT id FROM games ORDER BY id")]

    def game_record(self, game_id: int) -> dict[str, Any] | None:
        row = self._db.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        record: dict[str, Any] = json.loads(row[0])
        record.setdefault("meta", {})["game_id"] = game_id
        return record

    def stats(self, name: str | None = None, *, include_bots: bool = False) -> list[PlayerStats]:
        """Games, wins and points per round for each player name, most games first."""
        where = []
        args: list[Any] = []
        if name is not None:
            where.append("name = ?")
            args.append(name)
        if not include_bots:
            where.append("is_bot = 0")
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = self._db.execute(
            "SELECT name, COUNT(*), SUM(won), SUM(rounds), SUM(points) FROM game_players"
            f" {clause} GROUP BY name ORDER BY COUNT(*) DESC, name",
            args,
        ).fetchall()
        return [PlayerStats(r[0], r[1], r[2] or 0, r[3] or 0, r[4] or 0) for r in rows]

    # ---- identities and ratings ---------------------------------------------------------
    def server_id(self) -> str:
        """This server's lasting id (made once), which key holders sign challenges for."""
        row = self._db.execute("SELECT value FROM meta WHERE key = 'server_id'").fetchone()
        if row is not None:
            return str(row[0])
        made = secrets.token_urlsafe(12)
        with self._tx() as db:
            db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('server_id', ?)", (made,))
        row = self._db.execute("SELECT value FROM meta WHERE key = 'server_id'").fetchone()
        return str(row[0])

    def claimed_key(self, name_key: str) -> str | None:
        """The public key that claimed a name (by its comparison key), or None."""
        row = self._db.execute(
            "SELECT public_key FROM identities WHERE name_key = ?", (name_key,)
        ).fetchone()
        return None if row is None else str(row[0])

    def claim_name(self, name_key: str, name: str, public_key: str) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT OR IGNORE INTO identities (name_key, name, public_key, claimed)"
                " VALUES (?, ?, ?, ?)",
                (name_key, name, public_key, time.time()),
            )

    def ratings(self, names: Sequence[str]) -> dict[str, tuple[float, float, int]]:
        """(mu, sigma, games) of each rated name among `names`."""
        out: dict[str, tuple[float, float, int]] = {}
        for name in names:
            row = self._db.execute(
                "SELECT mu, sigma, games FROM ratings WHERE name = ?", (name,)
            ).fetchone()
            if row is not None:
                out[name] = (float(row[0]), float(row[1]), int(row[2]))
        return out

    def save_ratings(self, game_id: int, new: Mapping[str, tuple[float, float]]) -> None:
        now = time.time()
        with self._tx() as db:
            for name, (mu, sigma) in new.items():
                db.execute(
                    "INSERT INTO ratings (name, mu, sigma, games) VALUES (?, ?, ?, 1)"
                    " ON CONFLICT(name) DO UPDATE SET mu = excluded.mu,"
                    " sigma = excluded.sigma, games = games + 1",
                    (name, mu, sigma),
                )
                db.execute(
                    "INSERT OR REPLACE INTO rating_history (name, game_id, mu, sigma, at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (name, game_id, mu, sigma, now),
                )

    def leaderboard(self, limit: int = 50) -> list[tuple[str, float, float, int]]:
        """(name, mu, sigma, games), best conservative rating (mu - 3 sigma) first."""
        rows = self._db.execute(
            "SELECT name, mu, sigma, games FROM ratings ORDER BY mu - 3 * sigma DESC, name LIMIT ?",
            (limit,),
        ).fetchall()
        return [(str(r[0]), float(r[1]), float(r[2]), int(r[3])) for r in rows]

    def rating_history(self, name: str) -> list[tuple[int, float, float]]:
        """(game id, mu, sigma) after each rated game of `name`, oldest first."""
        rows = self._db.execute(
            "SELECT game_id, mu, sigma FROM rating_history WHERE name = ? ORDER BY game_id",
            (name,),
        ).fetchall()
        return [(int(r[0]), float(r[1]), float(r[2])) for r in rows]

    def save_game_facts(self, game_id: int, facts: Sequence[tuple[int, int, int]]) -> None:
        """(tricks, Leekha cards eaten, moons) of each seat of a finished game."""
        with self._tx() as db:
            db.executemany(
                "INSERT OR REPLACE INTO game_facts (game_id, seat, tricks, leekhas, moons)"
                " VALUES (?, ?, ?, ?, ?)",
                [(game_id, seat, *f) for seat, f in enumerate(facts)],
            )

    def facts_by_name(self) -> dict[str, tuple[int, int, int]]:
        """Summed (tricks, Leekha cards eaten, moons) per player name over finished games."""
        rows = self._db.execute(
            "SELECT p.name, SUM(f.tricks), SUM(f.leekhas), SUM(f.moons) FROM game_facts f"
            " JOIN game_players p ON p.game_id = f.game_id AND p.seat = f.seat"
            " GROUP BY p.name"
        ).fetchall()
        return {str(r[0]): (int(r[1]), int(r[2]), int(r[3])) for r in rows}
