"""`ClientCore`: every server message folded once, at once, into what a client knows, and
every request it makes built and tracked in one place. Sans-IO, in the shape of h11.

`receive(message) -> list[Change]` folds a message into the link, the lobby, the table
(its seat view with protocol/seatview.py), the chats and the tournaments, and says what
changed; `request
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
from dataclasses import replace

from leekha import protocol as P
from leekha.client.core.changes import (
    Answered,
    Change,
    ChatAdded,
    DecisionDue,
    GameEnded,
    LeftTable,
    LinkLost,
    LobbyChanged,
    OurClock,
    RoundScored,
    SeatsChanged,
    ServerError,
    TableChanged,
    TournamentChanged,
    TournamentsListed,
    ViewChanged,
    Welcomed,
)
from leekha.client.core.chat import Chats
from leekha.client.core.intents import DecisionKey, Intent, Leave, Pass, message_of
from leekha.client.core.link import Link
from leekha.client.core.lobby import Lobby
from leekha.client.core.requests import Answer, Asked, RequestTracker
from leekha.client.core.table import TableState
from leekha.client.core.tournaments import Tournaments
from leekha.common.config import RulesConfig
from leekha.common.view import SeatView
from leekha.protocol.connection import Pending
from leekha.protocol.seatview import doublable
from leekha.protocol.version import CAN_DOUBLE, WELCOME_SAYS_SEAT

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
    "OurClock",
    "RoundScored",
    "SeatsChanged",
    "ServerError",
    "TableChanged",
    "TournamentChanged",
    "TournamentsListed",
    "ViewChanged",
    "Welcomed",
]


#: The game events folded into the seat view as they come.
_EVENTS = (P.PassDone, P.PassedReceived, P.DoubleRevealed, P.CardPlayed, P.TrickTaken,
           P.RoundScored)  # fmt: skip


def _plain_line(msg: P.ChatMessage | P.PhraseSaid) -> str:
    """A chat line as the wire says it (a role with no words of its own: the bot)."""
    return msg.text if isinstance(msg, P.ChatMessage) else msg.code


class ClientCore:
    """What one client role knows of its server. `send` hands a request to the session
    (False: the link is down); `answered` is the session's `Connection.answered`; `new_id`
    numbers requests (the session's counter); `clock` counts the turn clocks; `chat_line`
    words a chat line as the role shows it (the terminal words the server's own lines and
    the quick phrases in its reader's language), once, as it is kept. A role made before
    its session (the terminal's model, which tests drive with no session) hands the
    session's three in later, with `attach`: nothing outside the core sets its parts."""

    def __init__(
        self,
        send: Callable[[P.Message], bool],
        new_id: Callable[[], int],
        *,
        answered: Callable[[P.Message], Pending | None] | None = None,
        clock: Callable[[], float] = lambda: 0.0,
        chat_line: Callable[[P.ChatMessage | P.PhraseSaid], str] = _plain_line,
    ) -> None:
        self.link = Link()
        self.lobby = Lobby()
        self.table = TableState(clock)
        self.chats = Chats()
        self.tournaments = Tournaments()
        self.requests: RequestTracker[Intent] = RequestTracker(send, answered)
        self.name = ""
        self._new_id = new_id
        self._due: DecisionKey | None = None  # the last decision said due
        self._chat_line = chat_line

    # ---- requests ----------------------------------------------------------------------
    def attach(
        self,
        send: Callable[[P.Message], bool],
        new_id: Callable[[], int],
        answered: Callable[[P.Message], Pending | None],
    ) -> None:
        """The session this core's requests go to from now on: `send`, `new_id` and
        `answered` as the constructor's. The same tracker keeps the requests in flight."""
        self._new_id = new_id
        self.requests.attach(send, answered)

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

    def released(self) -> list[Change]:
        """Back to the lobby from a table whose game has let us go (`released`): the
        server holds us nowhere, so no request is needed and the table is forgotten here."""
        t = self.table
        if t.table is None or not t.released:
            return []
        gone = t.table_id
        if gone is not None:
            self.chats.forget(gone)
        t.left()
        return [LeftTable(gone)]

    def failed(self, why: str) -> None:
        """The session gave up reconnecting."""
        self.link.failed(why)

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
                return self._welcome(msg)
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
                seated = t.seated
                if not t.seat_update(msg):
                    return []
                return [SeatsChanged(msg.table_id, msg.seat, freed=seated and t.released)]
            case P.Dealt():
                return [ViewChanged(msg)] if t.dealt(msg) else []
            case P.YourTurn():
                return [ViewChanged(msg)] if t.prompted(msg) else []
            case P.Turn():
                mine = t.turn(msg, t.clock())
                turned: list[Change] = [ViewChanged(msg)]
                return turned if mine is None else [*turned, OurClock(mine)]
            case P.GameOver():
                if t.table is None:
                    return []
                t.game_over(msg)
                return [ViewChanged(msg), GameEnded(msg.game_id)]
            case P.ChatMessage():
                self.chats.at(msg.table_id).append((msg.sender, self._chat_line(msg)))
                return [ChatAdded(msg)]
            case P.PhraseSaid():
                if msg.table_id != t.table_id:
                    return []  # said at a table we have left
                self.chats.at(msg.table_id).append((msg.sender, self._chat_line(msg)))
                return [ChatAdded(msg)]
            case P.Error() if answer is None:
                return [ServerError(msg)]
            case P.RoundScored():
                doubled = tuple(t.doubled_cards())
                return [ViewChanged(msg), RoundScored(msg, doubled)] if t.fold(msg) else []
            case P.TournamentList() if answer is not None:
                # Only as the answer to our asking: a late list after the request was
                # dropped is no news.
                self.tournaments.listed(msg.tournaments)
                return [TournamentsListed()]
            case P.TournamentState():
                self.tournaments.stated(msg.tournament)
                return [TournamentChanged(msg.tournament, pushed=msg.re is None)]
            case _ if isinstance(msg, _EVENTS):
                return [ViewChanged(msg)] if t.fold(msg) else []
        return []

    def _welcome(self, msg: P.Welcome) -> list[Change]:
        """A welcome, and what it says of the table we were at: gone when the server
        forgot the table we watched, gave our seat up, or starts a fresh session."""
        t = self.table
        watched = t.watching if t.table is not None and t.your_seat is None else None
        again = self.link.welcome(msg)
        self.name = msg.name
        self.chats.only_lobby()
        lost: str | None = None
        if watched is not None and msg.table_id is None:
            lost = "watch"
        elif (
            msg.resumed
            and msg.table_id is None
            and t.table is not None
            and self.link.speaks(WELCOME_SAYS_SEAT)
        ):
            # A 1.0 server does not say where we are: the stale table stays.
            lost = "seat"
        elif again and not msg.resumed:
            lost = "session"
        changes: list[Change] = []
        if lost is not None:
            gone = t.table_id
            if gone is not None:
                self.chats.forget(gone)
            t.left()
            changes.append(LeftTable(gone))
        rewatch = watched if lost == "watch" else None
        return [*changes, Welcomed(msg, again, lost, rewatch)]

    def _snapshot(self, msg: P.Snapshot, answer: Answer[Intent] | None) -> list[Change]:
        t = self.table
        before = t.view
        arrived = t.table is None or t.released
        playing = t.status_word == "playing" and before is not None
        playing = playing and before is not None and before.phase != "game_over"
        asked = answer.request if answer is not None else None
        watch = (asked.table_id, asked.password) if isinstance(asked, P.Spectate) else None
        other = t.snapshot(msg, watch)
        if other:
            self.chats.forget(t.table_id)
        changes: list[Change] = [
            TableChanged(int(msg.table["id"]), other, arrived, unasked=msg.re is None)
        ]
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
                if gone is not None:
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
