"""A player's profile from the server's records: rating, games and wins (the leaderboard's
line for that name) and their latest finished games.

Read straight from the records the server keeps of every finished game, so a profile is
as true after a restart as before, and it shows people only: a bot plays under a name
that many tables share and has no profile of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from leekha.protocol.people import RECENT_MAX, Profile
from leekha.protocol.views import RecentGame

if TYPE_CHECKING:
    from leekha.server.domain.lobby import Lobby


def profile(lobby: Lobby, rid: int, name: str) -> Profile:
    """The `profile` reply for `name` (exact): null stats and no games when unknown."""
    stats = next((p for p in lobby.stats(name) if p["name"] == name), None)
    store = lobby.store
    games = store.read(
        "SELECT g.id, g.table_name, g.finished, p.seat, p.points, p.won"
        " FROM game_players p JOIN games g ON g.id = p.game_id"
        " WHERE p.name = ? AND p.is_bot = 0 ORDER BY g.id DESC LIMIT ?",
        (name, RECENT_MAX),
    )
    seated: dict[int, list[str]] = {int(g[0]): [""] * 4 for g in games}
    if seated:
        marks = ", ".join("?" * len(seated))
        for game_id, seat, who in store.read(
            f"SELECT game_id, seat, name FROM game_players WHERE game_id IN ({marks})",
            list(seated),
        ):
            if 0 <= seat < 4:
                seated[int(game_id)][seat] = str(who)[:64]
    recent: list[RecentGame] = [
        {
            "game_id": int(game_id),
            "table": str(table or "")[:64],
            "finished": float(finished),
            "seat": int(seat),
            "points": int(points),
            "won": bool(won),
            "players": seated[int(game_id)],
        }
        for game_id, table, finished, seat, points, won in games
    ]
    return Profile(re=rid, name=name, stats=stats, recent=recent)
