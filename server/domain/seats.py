"""Who is at a table: four seats, the spectators, and what the wire says about each seat.

A seat is keyed by its session token; a bot seat has none. Membership never decides game
facts and never sends anything: the table does that after asking here who is present.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

from leekha.common.bots import BUILTIN
from leekha.common.bots.base import strategy_names
from leekha.protocol.views import Control, PlayerInfo, SeatInfo, empty_seat
from leekha.server.domain.clock import Timer
from leekha.server.domain.errors import Refused
from leekha.server.domain.persistence import SeatRow

#: Strategy a server bot uses when none is named, and the stand-in for absent players.
DEFAULT_BOT = "heuristic"
#: The protocol's hard cap on names (leekha.protocol.records.NAME); server limits stay below.
WIRE_NAME_MAX = 64
#: Wire names accepted for add_bot besides the registered tiers.
BOT_ALIASES = {"basic": DEFAULT_BOT, "default": DEFAULT_BOT}
#: What a stand-in bot's name adds to the player's.
STAND_IN_SUFFIX = " (bot)"


def bot_strategy_name(requested: str) -> str:
    """Validate a client's bot name: only registered tiers, never `module:Class` imports."""
    name = BOT_ALIASES.get(requested, requested)
    if name not in BUILTIN and name not in (*strategy_names(), DEFAULT_BOT):
        known = ", ".join(strategy_names())  # the aliases still work, but are not offered
        raise Refused("no_such_bot", f"unknown bot strategy {requested!r}; use one of {known}")
    return name


def hash_password(password: str) -> str:
    salt = secrets.token_hex(8)
    digest = hashlib.sha256((salt + password).encode()).hexdigest()
    return f"{salt}${digest}"


def password_matches(stored: str | None, given: str | None) -> bool:
    if stored is None:
        return True
    if given is None:
        return False
    salt, _, digest = stored.partition("$")
    return hmac.compare_digest(digest, hashlib.sha256((salt + given).encode()).hexdigest())


def stand_in_name(name: str) -> str:
    return name[: WIRE_NAME_MAX - len(STAND_IN_SUFFIX)] + STAND_IN_SUFFIX


@dataclass
class Seat:
    """Who sits in a seat. A bot seat has no token; a human seat's token is its key.

    A person who drops keeps the seat (and its token) while a server bot plays it
    (`away`); only leaving gives it up, to a stand-in bot with no token.
    """

    name: str
    token: str | None
    strategy: str = DEFAULT_BOT
    connected: bool = False
    away: bool = False  # disconnected longer than the grace period
    afk: bool = False  # timed out too often in a row
    timeouts: int = 0
    grace: Timer | None = field(default=None, repr=False)

    @property
    def is_bot(self) -> bool:
        return self.token is None

    @property
    def stand_in(self) -> bool:
        """A bot playing out the game of a person who left (named for them, so a restored
        table still knows it)."""
        return self.is_bot and self.name.endswith(STAND_IN_SUFFIX)

    @property
    def autopilot(self) -> bool:
        """True while a server bot makes this seat's decisions."""
        return self.is_bot or self.away or self.afk

    def control(self) -> tuple[Control, str | None]:
        """(1.4) Who plays the seat and why (docs/protocol.md, "Seat control")."""
        if self.is_bot:
            return "bot", "left" if self.stand_in else "added"
        if self.afk:
            return "autopilot", "timeouts"
        if self.away:
            return "autopilot", "away"
        if not self.connected:
            return "away", "dropped"
        return "human", None

    def row(self) -> SeatRow:
        return SeatRow(self.name, self.token, self.strategy if self.is_bot else None)

    def cancel_grace(self) -> None:
        if self.grace is not None and self.grace.active():
            self.grace.cancel()
        self.grace = None


class Room:
    """The seats and spectators of one table."""

    def __init__(self) -> None:
        self.seats: list[Seat | None] = [None] * 4
        self.spectators: set[str] = set()

    def seat_of(self, token: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s is not None and s.token == token:
                return i
        return None

    def members(self) -> list[tuple[str, int | None]]:
        """Every token that hears the table, with its seat (None for spectators)."""
        out: list[tuple[str, int | None]] = [
            (s.token, i) for i, s in enumerate(self.seats) if s is not None and s.token
        ]
        out.extend((t, None) for t in sorted(self.spectators))
        return out

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is not None and not s.is_bot]

    def empty(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is None]

    def deserted(self) -> bool:
        """Nobody left to play or watch: the table may close."""
        return not self.humans() and not self.spectators

    def free_seat(self, wanted: int | None, playing: bool) -> int:
        """The seat a newcomer takes: the one asked for, or the first open one. Outside a
        game a stand-in's seat is open: the game it played out is over, and a table of
        bots and spectators must still take a person."""
        open_seats = [
            i for i, s in enumerate(self.seats) if s is None or (s.stand_in and not playing)
        ]
        if wanted is None:
            if not open_seats:
                raise Refused("table_full", "all four seats are taken; spectate instead")
            return open_seats[0]
        if wanted not in open_seats:
            raise Refused("seat_taken", f"seat {wanted} is taken")
        return wanted

    def seat_info(self, i: int) -> SeatInfo:
        s = self.seats[i]
        if s is None:
            return {"name": None, "is_bot": False, "connected": False}
        return {"name": s.name, "is_bot": s.is_bot, "connected": s.is_bot or s.connected}

    def player_info(self, i: int, host_token: str | None) -> PlayerInfo:
        s = self.seats[i]
        if s is None:
            return empty_seat()
        control, reason = s.control()
        return {
            "name": s.name,
            "is_bot": s.is_bot,
            "connected": s.is_bot or s.connected,
            "strategy": s.strategy if s.autopilot else None,
            "is_host": s.token is not None and s.token == host_token,
            "control": control,
            "control_reason": reason,
        }
