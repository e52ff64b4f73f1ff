"""The store's live side: sessions, the tables being played (settings, seats, moves) and
their chat, as a server needs them to come back after a restart."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from twisted.logger import Logger

from leekha.common.config import Rules
from leekha.server.domain.database import Database
from leekha.server.domain.lifecycle import Status, status_of

log = Logger()

#: The stored text of each card play and double seen, by (kind, seat, card): there are
#: at most 416 of them, and one is stored with every card played.
_ONE_CARD: dict[tuple[object, ...], str] = {}


def _action_json(action: Mapping[str, object]) -> str:
    """An action as its `actions` row stores it (`json.dumps` of the engine's map)."""
    kind, seat, card = action.get("kind"), action.get("seat"), action.get("card")
    if len(action) == 3 and kind in ("play", "double") and type(seat) is type(card) is int:
        key = (kind, seat, card)  # the engine's map, whose text is always the same
        text = _ONE_CARD.get(key)
        if text is None:
            text = json.dumps(dict(action))
            if len(_ONE_CARD) < 1024:
                _ONE_CARD[key] = text
        return text
    return json.dumps(dict(action))


@dataclass(frozen=True)
class SessionRow:
    """A stored session: its name, the key it proved (None: a guest) and the digest of
    the token that resumes it (leekha.server.domain.session)."""

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
    rules: Rules
    password: str | None
    pass_s: float | None
    turn_s: float | None
    status: Status
    game_no: int = 0
    seed: int | None = None
    #: (1.2) false: the host forbids the clients' card-counting aid.
    counting_aid: bool = True
    seats: list[SeatRow | None] = field(default_factory=lambda: [None] * 4)
    actions: list[dict[str, object]] = field(default_factory=list)


@dataclass(frozen=True)
class ChatRow:
    """A kept line of a table's chat; a server notice has its code and facts too
    (leekha.protocol.notices), so that each client words it in its own language."""

    sender: str
    text: str
    code: str | None = None
    args: dict[str, Any] | None = None


def _facts(stored: object) -> dict[str, Any] | None:
    """A notice's stored facts; None for a person's line, or facts that do not read."""
    if not isinstance(stored, str):
        return None
    try:
        facts = json.loads(stored)
    except ValueError:
        return None
    return facts if isinstance(facts, dict) else None


class LiveTables(Database):
    """Sessions and live tables (a part of leekha.server.domain.persistence.Store)."""

    # ---- sessions ---------------------------------------------------------------------
    def save_session(self, token: str, name: str, key: str | None, secret: str) -> None:
        """A session by its id (leekha.server.domain.session): the digests only, never a token."""
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
                " password, pass_s, turn_s, status, game_no, seed, created, counting_aid)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    int(row.counting_aid),
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
        self, table_id: int, game_no: int, idx: int, action: Mapping[str, object]
    ) -> None:
        self._write_one(
            "INSERT INTO actions (table_id, game_no, idx, action) VALUES (?, ?, ?, ?)",
            (table_id, game_no, idx, _action_json(action)),
        )

    def delete_table(self, table_id: int) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM tables WHERE id = ?", (table_id,))
            db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            db.execute("DELETE FROM actions WHERE table_id = ?", (table_id,))
            db.execute("DELETE FROM chat WHERE table_id = ?", (table_id,))

    def add_chat(
        self,
        table_id: int,
        sender: str,
        text: str,
        keep: int,
        code: str | None = None,
        args: Mapping[str, object] | None = None,
    ) -> None:
        """One line of a table's chat (a server notice with its code and facts); only the
        last `keep` lines are kept. Not once the chat was found damaged (`load_chat`): a
        write into damaged pages would poison the turn's transaction and stop the server,
        and chat is not worth that."""
        if self._chat_lost:
            return
        facts = json.dumps(dict(args), separators=(",", ":")) if args else None
        with self._tx() as db:
            db.execute(
                "INSERT INTO chat (table_id, sender, text, code, args) VALUES (?, ?, ?, ?, ?)",
                (table_id, sender, text, code, facts),
            )
            db.execute(
                "DELETE FROM chat WHERE table_id = ? AND id <= ("
                "SELECT id FROM chat WHERE table_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
                (table_id, table_id, keep),
            )

    def load_chat(self, table_id: int) -> list[ChatRow]:
        """A table's kept chat lines, oldest first. Chat is the least of what is stored:
        lines that cannot be read are logged and left out, and the table comes back
        without them."""
        try:
            rows = self._db.execute(
                "SELECT sender, text, code, args FROM chat WHERE table_id = ? ORDER BY id",
                (table_id,),
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
        return [ChatRow(str(r[0]), str(r[1]), r[2], _facts(r[3])) for r in rows]

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
            " status, game_no, seed, counting_aid FROM tables ORDER BY id"
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
            status=status_of(r[9]),
            game_no=r[10],
            seed=r[11],
            counting_aid=bool(r[12]),
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
