"""Tournaments in the server's SQLite database: what was asked, who entered, what was played.

Three tables beside the game records: the tournament itself, its entrants (with the
session token of a client entrant that entered), and its planned games, each with the
table it is being played at and, once finished, its result and the id of its game record.
A result is written in the same group commit as the game record it points to, so after a
crash a game is either finished in both or in neither; on restore the runner keeps the
finished games, re-attaches the live ones to their restored tables and plays the rest.
`leekha tournament status|export` read the same rows through `load`. A start time
(`starts_at`, on the server's clock) is a column added to databases of older servers
when this store opens them, so a restart before the start keeps it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from leekha.common.config import Rules
from leekha.protocol.views import TournamentMeta
from leekha.server.domain.persistence import Store
from leekha.server.domain.tournament.plan import Entrant, PlannedGame, total_games
from leekha.server.domain.tournament.standings import GameResult

__all__ = ["SCHEMA", "Stored", "TournamentStore"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    format TEXT NOT NULL,
    preset TEXT NOT NULL,
    rules TEXT NOT NULL,
    deals INTEGER NOT NULL,
    stages INTEGER,
    move_timer_s REAL,
    seed INTEGER NOT NULL,
    status TEXT NOT NULL,
    created REAL NOT NULL,
    starts_at REAL
);
CREATE TABLE IF NOT EXISTS tournament_entrants (
    tournament_id INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    name TEXT,
    strategy TEXT,
    house INTEGER NOT NULL,
    token TEXT,
    PRIMARY KEY (tournament_id, idx)
);
CREATE TABLE IF NOT EXISTS tournament_games (
    tournament_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    stage INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    seats TEXT NOT NULL,
    seed INTEGER NOT NULL,
    table_id INTEGER,
    moves TEXT,
    record_id INTEGER,
    result TEXT,
    PRIMARY KEY (tournament_id, number)
);
"""


@dataclass
class Stored:
    """One tournament as the database holds it. `entrants` is the whole field (house bots
    of a Swiss field included); `tables` maps a game being played to its table id, and
    `done_tables` lists the tables of finished games (closed unless someone watched)."""

    id: int
    name: str
    format: str
    preset: str
    rules: Rules
    deals: int
    stages: int | None
    move_timer_s: float | None
    seed: int
    status: str
    entrants: list[Entrant]
    tokens: dict[int, str] = field(default_factory=dict)
    games: list[PlannedGame] = field(default_factory=list)
    tables: dict[int, int] = field(default_factory=dict)
    results: dict[int, GameResult] = field(default_factory=dict)
    done_tables: list[int] = field(default_factory=list)
    #: Fallback moves per seat so far of each game being played.
    moves: dict[int, list[int]] = field(default_factory=dict)
    #: When the games begin, on the server's clock (None: once every client entrant is in).
    starts_at: float | None = None
    #: Who created it (`creator_of`: a claimed name's key, or a guest's name) and from
    #: which address: the per-creator limit counts them, and that creator may cancel it.
    creator: str | None = None
    address: str | None = None

    @property
    def games_total(self) -> int:
        ranked = sum(1 for e in self.entrants if not e.house)
        return total_games(self.format, ranked, self.deals, self.stages)

    def meta(self) -> TournamentMeta:
        """The tournament's own facts, as the export's `tournament` entry."""
        return {
            "id": self.id, "name": self.name, "format": self.format, "status": self.status,
            "preset": self.preset, "deals": self.deals, "stages": self.stages,
            "move_timer_s": self.move_timer_s, "seed": self.seed, "starts_at": self.starts_at,
            "rules": dict(self.rules), "games_done": len(self.results),
            "games_total": self.games_total,
        }  # fmt: skip


class TournamentStore:
    """The tournament rows of one server database (`Store`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        store.add_schema(SCHEMA)
        columns = {str(r[1]) for r in store.read("PRAGMA table_info(tournaments)")}
        if "starts_at" not in columns:  # a database of a server before start times
            store.add_schema("ALTER TABLE tournaments ADD COLUMN starts_at REAL")
        for column in ("creator", "address"):  # before creators were kept
            if column not in columns:
                store.add_schema(f"ALTER TABLE tournaments ADD COLUMN {column} TEXT")

    def create(self, t: Stored) -> int:
        """Store a new tournament with its entrants and the games planned so far."""
        with self.store.write() as db:
            cur = db.execute(
                "INSERT INTO tournaments (name, format, preset, rules, deals, stages,"
                " move_timer_s, seed, status, created, starts_at, creator, address)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    t.name,
                    t.format,
                    t.preset,
                    json.dumps(t.rules),
                    t.deals,
                    t.stages,
                    t.move_timer_s,
                    t.seed,
                    t.status,
                    time.time(),
                    t.starts_at,
                    t.creator,
                    t.address,
                ),
            )
            t.id = int(cur.lastrowid or 0)
            db.executemany(
                "INSERT INTO tournament_entrants (tournament_id, idx, name, strategy, house)"
                " VALUES (?, ?, ?, ?, ?)",
                [(t.id, e.index, e.name, e.strategy, int(e.house)) for e in t.entrants],
            )
        self.add_games(t.id, t.games)
        return t.id

    def add_games(self, tournament_id: int, games: Iterable[PlannedGame]) -> None:
        """Planned games (a Swiss tournament plans each stage when the last one ends)."""
        with self.store.write() as db:
            db.executemany(
                "INSERT INTO tournament_games (tournament_id, number, stage, deal, rotation,"
                " seats, seed) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (tournament_id, g.number, g.stage, g.deal, g.rotation, json.dumps(g.seats),
                     g.seed)
                    for g in games
                ],
            )  # fmt: skip

    def set_status(self, tournament_id: int, status: str) -> None:
        with self.store.write() as db:
            db.execute("UPDATE tournaments SET status = ? WHERE id = ?", (status, tournament_id))

    def bind(self, tournament_id: int, index: int, token: str | None) -> None:
        """The session that plays a client entrant now."""
        with self.store.write() as db:
            db.execute(
                "UPDATE tournament_entrants SET token = ? WHERE tournament_id = ? AND idx = ?",
                (token, tournament_id, index),
            )

    def started(self, tournament_id: int, number: int, table_id: int | None) -> None:
        """Game `number` is being played at `table_id` (None: it is to be played again)."""
        with self.store.write() as db:
            db.execute(
                "UPDATE tournament_games SET table_id = ? WHERE tournament_id = ? AND number = ?",
                (table_id, tournament_id, number),
            )

    def moved(self, tournament_id: int, number: int, moves: list[int]) -> None:
        """The fallback moves per seat so far of a game being played (kept across a
        restart, committed with the moves themselves)."""
        with self.store.write() as db:
            db.execute(
                "UPDATE tournament_games SET moves = ? WHERE tournament_id = ? AND number = ?",
                (json.dumps(moves), tournament_id, number),
            )

    def finished(self, tournament_id: int, result: GameResult) -> None:
        with self.store.write() as db:
            db.execute(
                "UPDATE tournament_games SET record_id = ?, result = ?"
                " WHERE tournament_id = ? AND number = ?",
                (result.record_id, json.dumps(result.to_dict()), tournament_id, result.game.number),
            )

    def ids(self) -> list[int]:
        return [int(r[0]) for r in self.store.read("SELECT id FROM tournaments ORDER BY id")]

    def load_all(self) -> list[Stored]:
        return [t for t in map(self.load, self.ids()) if t is not None]

    def load(self, tournament_id: int) -> Stored | None:
        """A tournament with its entrants, games and results, or None if there is none."""
        rows = self.store.read(
            "SELECT id, name, format, preset, rules, deals, stages, move_timer_s, seed, status,"
            " starts_at, creator, address FROM tournaments WHERE id = ?",
            (tournament_id,),
        )
        if not rows:
            return None
        r = rows[0]
        t = Stored(
            id=int(r[0]),
            name=str(r[1]),
            format=str(r[2]),
            preset=str(r[3]),
            rules=json.loads(r[4]),
            deals=int(r[5]),
            stages=None if r[6] is None else int(r[6]),
            move_timer_s=None if r[7] is None else float(r[7]),
            seed=int(r[8]),
            status=str(r[9]),
            entrants=[],
            starts_at=None if r[10] is None else float(r[10]),
            creator=None if r[11] is None else str(r[11]),
            address=None if r[12] is None else str(r[12]),
        )
        for idx, name, strategy, house, token in self.store.read(
            "SELECT idx, name, strategy, house, token FROM tournament_entrants"
            " WHERE tournament_id = ? ORDER BY idx",
            (tournament_id,),
        ):
            t.entrants.append(Entrant(int(idx), name=name, strategy=strategy, house=bool(house)))
            if token is not None:
                t.tokens[int(idx)] = str(token)
        for number, stage, deal, rotation, seats, seed, table_id, moves, result in self.store.read(
            "SELECT number, stage, deal, rotation, seats, seed, table_id, moves, result"
            " FROM tournament_games WHERE tournament_id = ? ORDER BY number",
            (tournament_id,),
        ):
            a, b, c, d = (int(e) for e in json.loads(seats))
            t.games.append(PlannedGame(number, stage, deal, rotation, (a, b, c, d), int(seed)))
            if result is not None:
                t.results[int(number)] = GameResult.from_dict(json.loads(result))
                if table_id is not None:
                    t.done_tables.append(int(table_id))
            elif table_id is not None:
                t.tables[int(number)] = int(table_id)
                if moves is not None:
                    t.moves[int(number)] = [int(m) for m in json.loads(moves)]
        return t
