"""`ClientCore`: every server message folded once, at once, into what a client knows, and
every request it makes built and tracked in one place. Sans-IO, in the shape of h11.

`receive(message) -> list[Change]` folds a message into the link, the lobby, the table
(its seat view with protocol/seatview.py) and the chats, and says what changed; `request
(intent) -> message` builds the protocol request for a typed intent (client/core/
intents.py), hands it to the session's `send` and keeps the intent as its note, so its
answer comes back as `Answered` with the intent that asked. The facts a role would
otherwise work out for itself are stated here once: the rules as a `RulesConfig`, which
decision is due (`DecisionDue`), the strategy's `SeatView`, which table of a name to join
(`Lobby.choose`). A role (the bot's policy, later the terminal client) reads changes and
the state, and answers with intents; it never folds a message itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from leekha import protocol as P
from leekha.client.core.chat import Chats
from leekha.client.core.intents import DecisionKey, Intent, Leave, Pass, message_of
from leekha.client.core.link import Link
from leekha.client.core.lobby import Lobby
from leekha.client.core.requests import Answer, Asked, RequestTracker
from leekha.client.core.table import TableState
from leekha.common.config import RulesConfig
from leekha.common.view import SeatView
from leekha.protocol.connection import Pending
from leekha.protocol.seatview import doublable
from leekha.protocol.version import CAN_DOUBLE
from leekha.protocol.views import Tournament

__all__ = [
    "Answered",
    "Change",
    "ChatAdded",
    "ClientCore",
    "DecisionDue",
    "GameEnded",
    "LeftTable",
    "LinkLost",
    "LobbyChanged",
    "SeatsChanged",
    "TableChanged",
    "TournamentChanged",
    "ViewChanged",
    "Welcomed",
]


# ---- changes ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Welcomed:
    """The server welcomed us; `again`: this session had been welcomed before."""

    welcome: P.Welcome
    again: bool


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
    """A snapshot: the whole table again; `other` when it is not the one we were at."""

    table_id: int
    other: bool


@dataclass(frozen=True)
class SeatsChanged:
    """Someone sat down in, or left, a seat of our table."""

    table_id: int
    seat: int


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
class ChatAdded:
    message: P.ChatMessage


@dataclass(frozen=True)
class TournamentChanged:
    """A tournament's state: `pushed` by the server as it moved on, or a reply of ours."""

    tournament: Tournament
    pushed: bool


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
    | GameEnded | DecisionDue | ChatAdded | TournamentChanged | Answered
)  # fmt: skip

#: The game events folded into the seat view as they come.
_EVENTS = (P.PassDone, P.PassedReceived, P.DoubleRevealed, P.CardPlayed, P.TrickTaken,
           P.RoundScored)  # fmt: skip


class ClientCore:
    """What one client role knows of its server. `send` hands a request to the session
    (False: the link is down); `answered` is the session's `Connection.answered`; `new_id`
    numbers requests (the session's counter); `clock` counts the turn clocks."""

    def __init__(
        self,
        send: Callable[[P.Message], bool],
        new_id: Callable[[], int],
        *,
        answered: Callable[[P.Message], Pending | None] | None = None,
        clock: Callable[[], float] = lambda: 0.0,
    ) -> None:
        self.link = Link()
        self.lobby = Lobby()
        self.table = TableState(clock)
        self.chats = Chats()
        self.requests: RequestTracker[Intent] = RequestTracker(send, answered)
        self.name = ""
        self._new_id = new_id
        self._due: DecisionKey | None = None  # the last decision said due

    # ---- requests ----------------------------------------------------------------------
    def request(self, intent: Intent) -> P.Message | None:
        """Send the request for `intent` and track it; None when the link is down."""
        msg = message_of(intent, self._new_id())
        return msg if self.requests.send(msg, intent) else None

    def in_flight(self) -> Iterator[Asked[Intent]]:
        return iter(self.requests)

    # ---- the link ----------------------------------------------------------------------
    def lost(self, why: str) -> list[Change]:
        """The connection dropped: its requests go with it, and the decision in front of
        us is said due again when the server next asks (a move in flight may be lost)."""
        self.link.lost(why)
        self._due = None
        return [LinkLost(why, tuple(self.requests.lost()))]

    # ---- what it knows -----------------------------------------------------------------
    @property
    def rules(self) -> RulesConfig:
        """Our table's rules (the preset's, or classic, for rules this client does not
        know: a newer server's)."""
        return self.table.rules

    def decision(self) -> DecisionKey | None:
        """The decision our seat must make now, named; None when none is ours."""
        v, seat = self.table.view, self.table.your_seat
        if v is None or seat is None or not v.legal:
            return None
        if v.phase == "pass":
            due = not v.passes_done[seat] and bool(v.hand)
        else:
            due = v.phase == "play" and v.turn == seat
        return (v.round, v.phase, len(v.tricks), len(v.trick)) if due else None

    def seat_view(self) -> SeatView | None:
        """A strategy's input: our seat's view with the rules and the cards we may still
        double. The view is frozen and every fold builds new lists: a strategy cannot
        change ours."""
        v, seat = self.table.view, self.table.your_seat
        if v is None:
            return None
        rules = self.rules
        can_double = doublable(v, rules, seat, server_lists=self.link.speaks(CAN_DOUBLE))
        return replace(v, seat=seat, rules=rules.to_dict(), can_double=can_double)

    # ---- folding -----------------------------------------------------------------------
    def receive(self, msg: P.Message) -> list[Change]:
        """Fold `msg` into the state; what changed, in order (an answer after its fold,
        a decision due last)."""
        answer = self.requests.reply(msg)
        changes = self._fold(msg, answer)
        if answer is not None:
            changes += self._answered(answer)
        # A resumed session's table is stale until its snapshot comes: nothing is due on
        # the welcome alone.
        if not isinstance(msg, P.Welcome):
            changes += self._decision(prompted=isinstance(msg, P.YourTurn | P.Snapshot))
        return changes

    def _fold(self, msg: P.Message, answer: Answer[Intent] | None) -> list[Change]:
        t = self.table
        match msg:
            case P.Welcome():
                again = self.link.welcome(msg)
                self.name = msg.name
                self.chats.only_lobby()
                return [Welcomed(msg, again)]
            case P.TableList():
                self.lobby.listed(msg)
                return [LobbyChanged()]
            case P.TableUpdate():
                self.lobby.updated(msg)
                t.table_update(msg)
                return [LobbyChanged()]
            case P.Snapshot():
                return self._snapshot(msg, answer)
            case P.SeatUpdate():
                return [SeatsChanged(msg.table_id, msg.seat)] if t.seat_update(msg) else []
            case P.Dealt():
                return [ViewChanged(msg)] if t.dealt(msg) else []
            case P.YourTurn():
                return [ViewChanged(msg)] if t.prompted(msg) else []
            case P.Turn():
                t.turn(msg, t.clock())
                return [ViewChanged(msg)]
            case P.GameOver():
                if t.table is None:
                    return []
                t.game_over(msg)
                return [ViewChanged(msg), GameEnded(msg.game_id)]
            case P.ChatMessage():
                self.chats.at(msg.table_id).append((msg.sender, msg.text))
                return [ChatAdded(msg)]
            case P.TournamentState():
                return [TournamentChanged(msg.tournament, pushed=msg.re is None)]
            case _ if isinstance(msg, _EVENTS):
                return [ViewChanged(msg)] if t.fold(msg) else []
        return []

    def _snapshot(self, msg: P.Snapshot, answer: Answer[Intent] | None) -> list[Change]:
        t = self.table
        before = t.view
        playing = t.status_word == "playing" and before is not None
        playing = playing and before is not None and before.phase != "game_over"
        asked = answer.request if answer is not None else None
        watch = (asked.table_id, asked.password) if isinstance(asked, P.Spectate) else None
        other = t.snapshot(msg, watch)
        if other:
            self.chats.forget(t.table_id)
        changes: list[Change] = [TableChanged(int(msg.table["id"]), other)]
        if playing and not other and t.view is not None and t.view.phase == "game_over":
            changes.append(GameEnded(missed=True))  # it ended while we were away
        return changes

    def _answered(self, answer: Answer[Intent]) -> list[Change]:
        """An answer's own fold: what the server's `ok` to our request means for the state."""
        changes: list[Change] = []
        if answer.refusal is None:
            intent = answer.note
            if isinstance(intent, Pass):
                self.table.own_pass(intent.cards)
            elif isinstance(intent, Leave):
                gone = self.table.table_id
                self.chats.forget(gone)
                self.table.left()
                changes.append(LeftTable(gone))
        return [*changes, Answered(answer)]

    def _decision(self, *, prompted: bool) -> list[Change]:
        key = self.decision()
        said, self._due = self._due, key
        if key is None or (key == said and not prompted):
            return []
        return [DecisionDue(key[1], key)]
