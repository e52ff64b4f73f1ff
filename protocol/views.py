"""Static types of the shared structures (records.py checks them at run time).

Messages carry these records as plain dicts, so code that reads `snapshot.table["seats"]`
or a folded seat view gets key names checked by mypy rather than by a crash at a LAN
party. tests/protocol/test_views.py keeps each TypedDict's keys equal to its record's.
A seat view's static type is the engine's `leekha.common.view.SeatView` (`seatview.of_snapshot`);
on the wire it is that view's map, `SeatViewDict`, whose keys the test holds equal to
SEAT_VIEW's; the records a seat view holds (a trick, a result, a seat's figures) are the
engine's TypedDicts too. Past them, the tournament export's document (`leekha tournament
export`, server/domain/tournament/export.py) has its TypedDicts here too: no wire record
checks those, the export builds them and the text tables read them.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from leekha.common.config import Rules
from leekha.common.errors import Facts
from leekha.common.events import SeatStats
from leekha.common.view import Result, SeatViewDict, TrickRecord

__all__ = [
    "Control",
    "Entrant",
    "EntrantRequest",
    "ExportDoc",
    "ExportEntrant",
    "ExportGame",
    "ExportStanding",
    "Facts",
    "GameEntry",
    "LabelledEntrant",
    "PlayerInfo",
    "PlayerStats",
    "RecentGame",
    "Result",
    "Rules",
    "SeatInfo",
    "SeatStats",
    "SeatViewDict",
    "Standing",
    "StartTime",
    "TableStatus",
    "TableSummary",
    "Timers",
    "Tournament",
    "TournamentMeta",
    "TournamentNote",
    "TournamentSummary",
    "TournamentTable",
    "TrickRecord",
]

TableStatus = Literal["waiting", "playing", "finished"]
Control = Literal["human", "away", "bot", "autopilot"]


class SeatInfo(TypedDict):
    name: str | None
    is_bot: bool
    connected: bool


class Timers(TypedDict):
    pass_s: int | None
    turn_s: int | None


class TableSummary(TypedDict):
    id: int
    name: str
    host: str | None
    preset: str
    rules: Rules
    seats: list[SeatInfo]
    spectators: int
    status: TableStatus
    has_password: bool
    timers: Timers
    counting_aid: bool  # (1.2) false: the host forbids the card-counting aid


class PlayerInfo(TypedDict):
    name: str | None
    is_bot: bool
    connected: bool
    strategy: str | None
    is_host: bool
    control: Control | None  # (1.4) who plays the seat now; null from an older server
    control_reason: str | None  # (1.4) why (docs/protocol.md, "Seat control")


def empty_seat() -> PlayerInfo:
    """The record of a seat nobody holds, fresh each time (the caller may fill it in)."""
    return {
        "name": None,
        "is_bot": False,
        "connected": False,
        "strategy": None,
        "is_host": False,
        "control": None,
        "control_reason": None,
    }


class PlayerStats(TypedDict):
    name: str
    games: int
    wins: int
    avg_points_per_round: float
    rating: float | None  # (1.2) null = a guest's name
    rating_sigma: float | None
    leekhas: int
    moons: int


class RecentGame(TypedDict):
    """(1.4) One finished game in a `profile`."""

    game_id: int
    table: str
    finished: float
    seat: int
    points: int
    won: bool
    players: list[str]


class EntrantRequest(TypedDict):
    """A `create_tournament` entrant: a client by `name` or a server bot by `strategy`."""

    name: str | None
    strategy: str | None


class Entrant(TypedDict):
    index: int
    name: str
    strategy: str | None
    kind: str  # "server", "client" or "house" (tournaments.KINDS)
    present: bool


class Standing(TypedDict):
    entrant: int
    rank: int | None
    games: int
    wins: int
    rounds: int
    points: int
    mean: float
    low: float | None
    high: float | None
    fallback_games: int
    fallback_moves: int


class TournamentTable(TypedDict):
    table_id: int
    game: int
    deal: int
    rotation: int
    seats: list[int]


class StartTime(TypedDict):
    """(1.4) When a tournament starts: on the server's clock, and seconds until then."""

    starts_at: float | None
    starts_in_s: int | None


class TournamentSummary(TypedDict):
    id: int
    name: str
    format: str  # "round_robin" or "swiss" (tournaments.FORMATS)
    status: str  # "waiting", "running" or "finished" (tournaments.STATUSES)
    entrants: int
    games_done: int
    games_total: int
    starts_at: NotRequired[float | None]  # (1.4) the start time on the server's clock
    starts_in_s: NotRequired[int | None]  # (1.4) seconds until then when sent


class Tournament(TypedDict):
    id: int
    name: str
    format: str
    status: str
    preset: str
    rules: Rules
    deals: int
    stages: int | None
    move_timer_s: int | None
    entrants: list[Entrant]
    standings: list[Standing]
    tables: list[TournamentTable]
    games_done: int
    games_total: int
    notes: list[str]
    starts_at: NotRequired[float | None]  # (1.4; a decoded message always has both)
    starts_in_s: NotRequired[int | None]
    #: (1.4) The notes as codes with their facts, one for each of `notes`.
    note_codes: NotRequired[list[TournamentNote]]


class TournamentNote(TypedDict):
    """(1.4) One of a tournament's notes: its code (leekha.protocol.notices) and facts."""

    code: str
    args: Facts


# The export document (JSON, not on the wire): a superset of the wire's maps.


class TournamentMeta(TypedDict):
    """The export's `tournament` entry: the tournament's own facts, as the store has them."""

    id: int
    name: str
    format: str
    status: str
    preset: str
    deals: int
    stages: int | None
    move_timer_s: float | None
    seed: int
    starts_at: float | None
    rules: Rules
    games_done: int
    games_total: int


class LabelledEntrant(TypedDict):
    """An entrant as the standings tables show it: its index and its label."""

    index: int
    label: str


class ExportEntrant(TypedDict):
    index: int
    name: str | None
    strategy: str | None
    kind: str  # "server", "client" or "house" (tournaments.KINDS)
    label: str


class ExportStanding(Standing):
    """A standing of the export: the wire's, with the entrant's label and deals played."""

    label: str
    deals: int


class GameEntry(TypedDict):
    """A finished game as the store keeps it (`GameResult.to_dict`): numbers from 0."""

    game: int
    stage: int
    deal: int
    rotation: int
    seed: int
    seats: list[int]
    record_id: int | None
    rounds: list[list[int]]
    points: list[int]
    winners: list[int]
    fallback_moves: list[int]


class ExportGame(GameEntry):
    """A game of the export: the store's, with its seats' labels and winning entrants."""

    players: list[str]
    winner_entrants: list[int]


class ExportDoc(TypedDict):
    version: int
    tournament: TournamentMeta
    entrants: list[ExportEntrant]
    standings: list[ExportStanding]
    games: list[ExportGame]
