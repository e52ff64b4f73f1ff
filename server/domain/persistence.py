"""SQLite storage: live tables action by action, finished games, sessions and statistics.

`Store` is the one object the server writes through; its jobs live in their own modules:
the database and its writes (leekha.server.domain.database: schema, upgrades, group commit,
fail-stop), sessions and live tables (leekha.server.domain.livestore), finished games, statistics
and ratings (leekha.server.domain.gamestore).
"""

from __future__ import annotations

from leekha.server.domain.database import DB_NAME, Database, db_path
from leekha.server.domain.gamestore import FinishedGames, PlayerStats
from leekha.server.domain.livestore import LiveTables, SeatRow, SessionRow, TableRow

__all__ = [
    "DB_NAME",
    "Database",
    "PlayerStats",
    "SeatRow",
    "SessionRow",
    "Store",
    "TableRow",
    "db_path",
]


class Store(LiveTables, FinishedGames):
    """One SQLite database; `":memory:"` gives a throwaway store for tests and benches."""
