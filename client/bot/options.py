"""What a bot seat is told (`BotOptions`) and what its policy asks of the bot's glue: the
effects besides intents (a named timer set or cleared, seated, stop, fail).

Values only, so the policy (client/bot/policy.py, client/bot/moves.py) is tested by the
lists it returns, and the glue (client/bot/client.py) carries them out in one `match`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from leekha.client.core.intents import Intent
from leekha.client.identity import Identity
from leekha.common.view import Rules

__all__ = ["BotOptions", "Cancel", "Effect", "EntryRefused", "Fail", "Later", "Seated", "Stop"]


class EntryRefused(Exception):
    """The server will not let this bot play in the tournament, or at the table; the
    message says why."""


@dataclass
class BotOptions:
    host: str
    port: int
    name: str = "bot"
    strategy: str = "random"
    table: str | None = None  # join by name, create when absent
    create: str | None = None  # always create
    tournament: int | None = None  # enter this tournament and play wherever it seats us
    preset: str = "classic"
    overrides: Rules = field(default_factory=dict)  # rules options over the preset
    password: str | None = None
    think_s: float = 0.0
    games: int = 1  # 0 = keep voting for rematches until stopped
    seed: int = 0
    connect_timeout: float = 5.0
    backoff_first: float = 0.25
    backoff_cap: float = 8.0
    max_retries: int = 12
    lonely_s: float = 5.0  # a creator alone this long rejoins by name (see the policy)
    create_jitter_s: float = 0.5
    tls: bool = False
    #: With an identity the bot proves its name (protocol 1.2); None = a guest.
    identity: Identity | None = None


@dataclass(frozen=True)
class Later:
    """Call the policy's `fired(timer)` after `delay` seconds, replacing a timer of that
    name."""

    timer: str
    delay: float


@dataclass(frozen=True)
class Cancel:
    timer: str


@dataclass(frozen=True)
class Seated:
    """The bot sits at its table, or is entered in its tournament: the next may start."""


@dataclass(frozen=True)
class Stop:
    """The bot's games are done: hang up."""


@dataclass(frozen=True)
class Fail:
    error: Exception


Effect = Intent | Later | Cancel | Seated | Stop | Fail
