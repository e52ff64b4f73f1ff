"""What `ClientCore.receive` reports: each fact a server message changed, typed, in order.

A role (the bot's policy, the terminal client) reacts to these and reads the core's state;
it never looks at a message to learn what the state became. A change carries the message
where the role words it (a game event, a chat line, a reply) and the facts the fold itself
forgets (the cards doubled in a scored round, whether a seat that emptied was ours).
"""

from __future__ import annotations

from dataclasses import dataclass

from leekha import protocol as P
from leekha.client.core.intents import DecisionKey, Intent
from leekha.client.core.requests import Answer, Asked
from leekha.protocol.views import Tournament


@dataclass(frozen=True)
class Welcomed:
    """The server welcomed us; `again`: this session had been welcomed before.

    `lost` says why the table we were at is gone with this welcome (a `LeftTable` comes
    just before): "watch", a restarted server forgot the table we watched (`rewatch` names
    it, to ask again); "seat", a resumed session whose seat was given up (a 1.1 server
    says so); "session", a fresh session after the old one expired. None: nothing lost."""

    welcome: P.Welcome
    again: bool
    lost: str | None = None
    rewatch: tuple[int, str | None] | None = None


@dataclass(frozen=True)
class LinkLost:
    """The connection dropped; `requests` were in flight on it (no answer will come)."""

    why: str
    requests: tuple[Asked[Intent], ...]


@dataclass(frozen=True)
class LobbyChanged:
    pass


@dataclass(frozen=True)
class TableChanged:
    """A snapshot: the whole table again; `other` when it is not the one we were at;
    `arrived`: we were at no table (or at one whose game had let us go) before it;
    `unasked`: the server pushed it (a tournament's next game seating us)."""

    table_id: int
    other: bool
    arrived: bool = False
    unasked: bool = False


@dataclass(frozen=True)
class SeatsChanged:
    """Someone sat down in, or left, a seat of our table; `freed`: the seat was ours and
    the server let us go (the game is over)."""

    table_id: int
    seat: int
    freed: bool = False


@dataclass(frozen=True)
class LeftTable:
    """Our leaving was taken: we are in the lobby."""

    table_id: int | None


@dataclass(frozen=True)
class ViewChanged:
    """A game event was folded into the seat view."""

    event: P.Message


@dataclass(frozen=True)
class GameEnded:
    """The game at our table is over: by its `game_over` (`game_id`: where the server
    stored it, 1.4), or seen over in a snapshot while it was being played (`missed`)."""

    game_id: int | None = None
    missed: bool = False


@dataclass(frozen=True)
class DecisionDue:
    """Our seat must decide now: `kind` is "pass" or "play", `key` names the decision.

    Said at each prompt and snapshot that asks for it (a role answers a key once, and a
    second prompt for the same decision follows a refusal or a resumed session) and
    whenever the decision in front of us becomes another."""

    kind: str
    key: DecisionKey


@dataclass(frozen=True)
class RoundScored:
    """A round was scored (its `event` folded), with the facts its summary shows that
    the fold forgets: the cards doubled in it."""

    event: P.RoundScored
    doubled: tuple[int, ...]


@dataclass(frozen=True)
class OurClock:
    """(1.4) The server's time left for our own decision, as our clock reads it: when it
    runs out (a resumed client counts down from the server's)."""

    deadline_at: float


@dataclass(frozen=True)
class ServerError:
    """The server's `error` that answers no request of ours (a late one, or its own)."""

    error: P.Error


@dataclass(frozen=True)
class ChatAdded:
    """A line in a chat: said (`chat_message`) or a quick phrase (`phrase_said`)."""

    message: P.ChatMessage | P.PhraseSaid


@dataclass(frozen=True)
class TournamentChanged:
    """A tournament's state, folded (`ClientCore.tournaments`): `pushed` by the server as it
    moved on, or a reply of ours."""

    tournament: Tournament
    pushed: bool


@dataclass(frozen=True)
class TournamentsListed:
    """The server's list of tournaments answered our asking, folded (`ClientCore.
    tournaments.listing`); its `Answered` comes next."""


@dataclass(frozen=True)
class Answered:
    """A reply to one of our requests, with the intent that asked for it."""

    answer: Answer[Intent]

    @property
    def intent(self) -> Intent:
        return self.answer.note

    @property
    def refusal(self) -> P.Error | None:
        return self.answer.refusal


Change = (
    Welcomed | LinkLost | LobbyChanged | TableChanged | SeatsChanged | LeftTable | ViewChanged
    | GameEnded | DecisionDue | ChatAdded | TournamentChanged | TournamentsListed | Answered
    | RoundScored | OurClock | ServerError
)  # fmt: skip
