"""The store's lasting side: finished games, player statistics, claimed names and
ratings, what `leekha records` and the leaderboard read."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from leekha.server.domain.database import Database


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

    def to_dict(self) -> dict[str, object]:
        """The stats line of the wire and `leekha records stats`: the mean, not the sum."""
        line = asdict(self)
        del line["points"]
        return line | {"avg_points_per_round": round(self.avg_points_per_round, 3)}


@dataclass(frozen=True)
class GameLine:
    """One stored game as `leekha records list` shows it. Seats count from 0 here and in
    the JSON, as on the wire; the text counts from 1."""

    game_id: int
    finished: float  # Unix seconds
    table_id: int | None
    table: str | None
    players: list[dict[str, Any]]

    @property
    def winners(self) -> list[str]:
        return [p["name"] for p in self.players if p["won"]]

    def to_dict(self) -> dict[str, object]:
        return {
            "game_id": self.game_id,
            "finished": self.finished,
            "table_id": self.table_id,
            "table": self.table,
            "players": self.players,
            "winners": self.winners,
        }


class FinishedGames(Database):
    """Finished games, statistics, identities and ratings (a part of
    leekha.server.domain.persistence.Store)."""

    # ---- finished games ---------------------------------------------------------------
    def finish_game(
        self,
        table_id: int,
        table_name: str,
        record: Mapping[str, object],
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

    def game_list(self, player: str | None = None, limit: int | None = None) -> list[GameLine]:
        """The stored games, newest first: id, when, table, who sat where with their
        totals and who won; `player`: only the games that name played in."""
        where, args = "", []
        if player is not None:
            where = "WHERE g.id IN (SELECT game_id FROM game_players WHERE name = ?)"
            args.append(player)
        rows = self._db.execute(
            f"SELECT g.id, g.finished, g.table_id, g.table_name FROM games g {where}"
            " ORDER BY g.id DESC" + (" LIMIT ?" if limit is not None else ""),
            [*args, *([limit] if limit is not None else [])],
        ).fetchall()
        lines = []
        for game_id, finished, table_id, table_name in rows:
            seats = self._db.execute(
                "SELECT seat, name, is_bot, won, points FROM game_players WHERE game_id = ?"
                " ORDER BY seat",
                (game_id,),
            ).fetchall()
            lines.append(
                GameLine(
                    int(game_id),
                    float(finished),
                    None if table_id is None else int(table_id),
                    table_name,
                    [
                        {"seat": int(r[0]), "name": str(r[1]), "bot": bool(r[2]),
                         "points": int(r[4]), "won": bool(r[3])}
                        for r in seats
                    ],
                )
            )  # fmt: skip
        return lines

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
        args: list[object] = []
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
