"""What a table looks like from outside: its summary for the lobby and a member's snapshot.

Pure functions of the table's state (`Shown`), so every summary and snapshot is built
the same way, whoever asks: the lobby's list, a join, a resume, a new game. A member
who did not play the finished game in their seat (they sat down after it) sees it as a
spectator, so a hand never reaches anyone but the one who held it.
"""

from __future__ import annotations

from typing import Protocol

from leekha.common.config import RulesConfig
from leekha.common.game import Game
from leekha.common.view import SeatViewDict, seat_view
from leekha.protocol import catalogue as M
from leekha.protocol.views import TableSummary
from leekha.server.domain.lifecycle import FINISHED, Status
from leekha.server.domain.seats import Room


class Shown(Protocol):
    """The table's facts a summary and a snapshot show."""

    id: int
    name: str
    host_name: str | None
    host_token: str | None
    preset: str
    config: RulesConfig
    password: str | None
    pass_s: float | None
    turn_s: float | None
    counting_aid: bool
    status: Status
    room: Room
    game: Game | None
    finishers: list[str | None]


def summary(t: Shown) -> TableSummary:
    """The table as the lobby's list and every snapshot describe it."""
    return {
        "id": t.id,
        "name": t.name,
        "host": t.host_name,
        "preset": t.preset,
        "rules": t.config.to_dict(),
        "seats": [t.room.seat_info(i) for i in range(4)],
        "spectators": len(t.room.spectators),
        "status": t.status,
        "has_password": t.password is not None,
        "timers": {"pass_s": _timer_value(t.pass_s), "turn_s": _timer_value(t.turn_s)},
        "counting_aid": t.counting_aid,
    }


def view(t: Shown, seat: int | None) -> SeatViewDict | None:
    """The member's seat view, or None before the first deal."""
    return seat_view(t.game, seat).to_dict() if t.game is not None else None


def snapshot(t: Shown, token: str, re: int | None = None) -> M.Snapshot:
    """Everything `token` sees of the table now: summary, seats and their own view."""
    seat = t.room.seat_of(token)
    played = seat is not None and (t.status != FINISHED or t.finishers[seat] == token)
    return M.Snapshot(
        re=re,
        table=summary(t),
        view=view(t, seat if played else None),
        your_seat=seat,
        players=[t.room.player_info(i, t.host_token) for i in range(4)],
    )


def _timer_value(seconds: float | None) -> int | None:
    """A timer as the wire shows it: whole seconds, 1..3600, None for no timer."""
    if not seconds:
        return None
    return max(1, min(3600, round(seconds)))
