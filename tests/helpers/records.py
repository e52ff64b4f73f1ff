"""Whole wire records for tests that build messages by hand.

A message's record fields are typed with the TypedDicts of leekha.protocol.views, so a
test names every key; these builders fill the keys a test does not care about with the
defaults the record specs give them (leekha.protocol.records), which is what the codec
would have filled in anyway.
"""

from __future__ import annotations

from leekha.common.config import Rules
from leekha.protocol.views import (
    Control,
    PlayerInfo,
    PlayerStats,
    SeatInfo,
    TableStatus,
    TableSummary,
    Timers,
)


def seat(name: str | None = None, *, bot: bool = False, connected: bool | None = None) -> SeatInfo:
    """A seat of a table summary: connected when someone holds it, unless told."""
    return {
        "name": name,
        "is_bot": bot,
        "connected": name is not None if connected is None else connected,
    }


def player(
    name: str | None = None,
    *,
    bot: bool = False,
    connected: bool | None = None,
    strategy: str | None = None,
    host: bool = False,
    control: Control | None = None,
    reason: str | None = None,
) -> PlayerInfo:
    """A seat of a snapshot's `players`."""
    return {
        "name": name,
        "is_bot": bot,
        "connected": name is not None if connected is None else connected,
        "strategy": strategy,
        "is_host": host,
        "control": control,
        "control_reason": reason,
    }


def summary(
    *,
    id: int = 1,
    name: str = "t",
    host: str | None = None,
    preset: str = "classic",
    rules: Rules | None = None,
    seats: list[SeatInfo] | None = None,
    spectators: int = 0,
    status: TableStatus = "waiting",
    has_password: bool = False,
    timers: Timers | None = None,
    counting_aid: bool = True,
) -> TableSummary:
    """A table summary; four empty seats and no timers unless told."""
    return {
        "id": id,
        "name": name,
        "host": host,
        "preset": preset,
        "rules": {} if rules is None else rules,
        "seats": [seat() for _ in range(4)] if seats is None else seats,
        "spectators": spectators,
        "status": status,
        "has_password": has_password,
        "timers": {"pass_s": None, "turn_s": None} if timers is None else timers,
        "counting_aid": counting_aid,
    }


def stats_line(
    name: str,
    games: int = 0,
    wins: int = 0,
    avg_points_per_round: float = 0.0,
    *,
    rating: float | None = None,
    rating_sigma: float | None = None,
    leekhas: int = 0,
    moons: int = 0,
) -> PlayerStats:
    """One player's line of a `stats` reply."""
    return {
        "name": name,
        "games": games,
        "wins": wins,
        "avg_points_per_round": avg_points_per_round,
        "rating": rating,
        "rating_sigma": rating_sigma,
        "leekhas": leekhas,
        "moons": moons,
    }
