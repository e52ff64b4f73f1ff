"""What the terminal client does about each change the core reports: the one place where a
server message, folded once by `ClientCore.receive` (client/core/core.py), becomes what the
screen does about it.

Nothing here folds a message: the core keeps the link, the lobby, the table, the chats and
the tournaments, and these reactions only read them. What they change is the terminal's
own: the status line's words, the boxes over the screen, the timeline of moments just
past, our alarm, the choices of the hand, and the requests that follow (the lobby after
leaving, a table to watch again). The session's and the lobby's changes, and the answers
to our requests, are handled here; the game's events (`ViewChanged`, `RoundScored`,
`OurClock`) in client/tui/game_replies.py. A refusal comes as the `Answered` of its
request, so it is worded as what it refused, and a refused request changes nothing but the
choice it came from.
"""

from __future__ import annotations

from collections.abc import Callable

from leekha import protocol as P
from leekha.client import systemlines
from leekha.client.core import intents as I
from leekha.client.core.changes import (
    Answered,
    Change,
    ChatAdded,
    LeftTable,
    LobbyChanged,
    SeatsChanged,
    ServerError,
    TableChanged,
    TournamentChanged,
    TournamentsListed,
    Welcomed,
)
from leekha.client.i18n import _, ngettext
from leekha.client.refusals import explain
from leekha.client.tui.alarm import Alarm
from leekha.client.tui.autosetup import AutoSetup
from leekha.client.tui.choices import Choices
from leekha.client.tui.forms import PasswordPrompt
from leekha.client.tui.game_replies import GameReplies
from leekha.client.tui.lobby_intents import LobbyActions
from leekha.client.tui.overlays import StatsBox
from leekha.client.tui.shared import Shared
from leekha.client.tui.social import phrase_words
from leekha.client.tui.social_intents import Social
from leekha.client.tui.table_intents import TableActions
from leekha.client.tui.timeline import Timeline
from leekha.client.tui.tournament import TournamentScreen
from leekha.client.tui.words import refused

#: The `from` of the server's own lines in a table's chat (docs/protocol.md, chat_message).
SYSTEM_SENDER = "*"  # the server's own lines


def chat_words(msg: P.ChatMessage | P.PhraseSaid, card: Callable[[int], str]) -> str:
    """A chat line as this screen keeps it (the core keeps what this says, once): the
    server's own lines and the quick phrases worded in the reader's language."""
    if isinstance(msg, P.PhraseSaid):
        return phrase_words(msg.code)
    if msg.sender == SYSTEM_SENDER:
        return systemlines.chat_line(msg, card)
    return msg.text


class Replies:
    def __init__(
        self,
        shared: Shared,
        *,
        game: GameReplies,
        choices: Choices,
        table: TableActions,
        lobby: LobbyActions,
        social: Social,
        alarm: Alarm,
        timeline: Timeline,
        auto: AutoSetup | None,
    ) -> None:
        self.s = shared
        self.game_events = game
        self.choices = choices
        self.table = table
        self.lobby = lobby
        self.social = social
        self.alarm = alarm
        self.timeline = timeline
        self.auto = auto

    def apply(self, msg: P.Message) -> list[Change]:
        """Hand `msg` to the core, once, and react to what it says changed, in order."""
        changes = self.s.core.receive(msg)
        for change in changes:
            self.react(change)
        return changes

    def react(self, change: Change) -> None:
        """What the screen does about one change (the state is the core's, already)."""
        if self.game_events.react(change):
            return
        match change:
            case Welcomed():
                self._welcomed(change)
            case LeftTable():
                self.left_table()
            case Answered():
                self._answered(change)
            case ServerError(error):
                words = explain(error.code, error.message, error.rule, error.args, self._card)
                self.s.say(_("Server: {words}").format(words=words), error=True)
            case LobbyChanged():
                self.table.rules_changed()  # a host may turn the counting aid off (1.2)
            case TableChanged():
                self._table(change)
            case SeatsChanged():
                self._seats(change)
            case ChatAdded(message):
                self._chat(message)
            case TournamentChanged(tournament):
                if self.s.boxes.tournaments is not None:
                    self.s.boxes.tournaments.changed(int(tournament["id"]))
            case TournamentsListed():
                if self.s.boxes.tournaments is not None:
                    self.s.boxes.tournaments.listed()

    def _card(self, card: int) -> str:
        return self.s.names.card(card)

    def _welcomed(self, change: Welcomed) -> None:
        s = self.s
        w = change.welcome
        s.name = w.name  # the name the screen shows and the quick-play table is asked for
        if change.rewatch is not None:
            # A restarted server forgets who watched: watch the same table again.
            s.request(I.Spectate(*change.rewatch))
            s.say(_("reconnected: watching the table again"))
            return
        if change.lost == "seat":
            # The server says we are in the lobby: no snapshot will come to replace the
            # table on screen, so the core left it.
            s.say(_("reconnected, but your seat was given up while you were away"), error=True)
        elif w.resumed and (change.again or w.table_id is not None):
            # Not on a first welcome in the lobby: a new `leekha join` resumes the session
            # its token names, and "reconnected" there told a newcomer of a drop that
            # never happened. Back at a table from an earlier run, it is news.
            s.say(_("reconnected"))
        elif change.lost == "session":
            # A fresh session after the old one expired: the seat is gone.
            s.say(_("reconnected, but the old session had expired"), error=True)
        creating = self.auto is not None and not w.resumed and self.auto.welcomed(s.request)
        if not creating and (not w.resumed or s.game.table is None):
            s.request(I.ListTables())
        lobby = self.lobby
        if lobby.quick_now and s.game.table is None:
            lobby.quick_now = False
            lobby.start_quick()
        if lobby.invited is not None and s.game.table is None:
            table_id, password = lobby.invited
            lobby.invited = None
            lobby.join(table_id, password, False)

    # ---- answers to our requests ---------------------------------------------------------
    def _answered(self, change: Answered) -> None:
        req, reply = change.answer.request, change.answer.reply
        if change.refusal is not None:
            self._refused(req, change.refusal)
            return
        match reply:
            case P.Ok():
                self._ok(req)
            case P.Snapshot():
                self._joined(req, reply)
            case P.Profile():
                self.social.profile(reply)
            case P.Stats():
                box = self.s.boxes.get(StatsBox)
                if box is not None:  # (else closed, or reopened since)
                    box.rows = [dict(p) for p in reply.players]
            case P.TournamentState() if isinstance(req, P.EnterTournament):
                self.lobby.entered = req.tournament_id
                self.s.say(_("you are in {name}: your games begin by themselves").format(
                    name=reply.tournament.get("name", "")))  # fmt: skip

    def _refused(self, req: P.Message, error: P.Error) -> None:
        s = self.s
        words = explain(error.code, error.message, error.rule, error.args, self._card)
        if isinstance(req, P.PlayCard | P.PassCards) and error.rule is not None:
            s.say(words, error=True, transient=True)  # the rule says it all
        elif isinstance(req, P.JoinSeat | P.Spectate) and error.code == "bad_password":
            # The table wants a password we did not give (an invitation without it) or
            # gave wrong: ask for it, and the next Enter tries again.
            why = (
                _("This table has a password.")
                if req.password is None
                else _("Wrong password: try again.")
            )
            spectate = isinstance(req, P.Spectate)
            s.boxes.open(PasswordPrompt(req.table_id, spectate=spectate, why=why))
        else:
            s.say(refused(req.TYPE, words), error=True)
        self.choices.refused(req)
        if isinstance(req, P.GetStats):
            s.boxes.shut(StatsBox)
        if isinstance(req, P.ListTournaments):
            s.boxes.shut(TournamentScreen)
        elif isinstance(req, P.GetTournament) and s.boxes.tournaments is not None:
            s.boxes.tournaments.refused()
        if self.auto is not None:
            self.auto.refused()

    def _ok(self, req: P.Message) -> None:
        s = self.s
        if isinstance(req, P.PassCards):
            self.choices.pass_taken()  # (the core took the cards from the hand)
            self.alarm.stop()
        elif isinstance(req, P.Leave):
            s.request(I.ListTables())  # (the core left the table: `LeftTable` came first)
        elif isinstance(req, P.AddBot | P.Start) and self.auto is not None:
            self.auto.answered(req, s.request)
        elif isinstance(req, P.Rematch):
            # Transient: the deal of the new game replaces it.
            s.say(_("rematch vote sent; waiting for the others"), transient=True)

    def _joined(self, req: P.Message, snap: P.Snapshot) -> None:
        """The table we asked for (its `TableChanged` came first)."""
        s = self.s
        if isinstance(req, P.CreateTable | P.JoinSeat | P.Spectate):
            self.social.table_password = req.password
        t = snap.table
        if isinstance(req, P.QuickPlay) and t["status"] == "waiting" and t["host"] == s.name:
            # A table quick play opened for us: its bots come after the wait we asked for
            # (None: the server's own, which it does not say).
            wait = req.wait_s
            self.lobby.quick_until = None if wait is None else s.clock() + wait
        if isinstance(req, P.CreateTable) and self.auto is not None:
            g = s.game
            me = g.your_seat
            empty = [seat for seat, p in enumerate(g.players) if not p.get("name") and seat != me]
            self.auto.created(empty, s.request)

    # ---- the table -------------------------------------------------------------------------
    def _table(self, change: TableChanged) -> None:
        s = self.s
        if change.other:
            self.timeline.clear()  # another table: nothing of the last one is left to show
        else:
            self.timeline.snapshot()  # the position is stated whole: held tricks are stale
        self.choices.snapshot()
        self.table.snapshot()
        if not self.choices.my_turn:
            self.alarm.stop()
        s.line.position_moved()
        self.lobby.quick_until = None
        if change.unasked and change.arrived and self.lobby.entered is not None:
            # Unasked, from the lobby, having entered a tournament: its next game seats us.
            s.boxes.shut(TournamentScreen)
            self.alarm.ring = True
            name = s.game.table["name"] if s.game.table is not None else ""
            s.say(_("your tournament game is ready: {table}").format(table=name))

    def _seats(self, change: SeatsChanged) -> None:
        s = self.s
        if s.line.error and s.game.status_word == "waiting":
            # A refusal in the waiting room is about its seats ("seats 2, 3 and 4 are
            # empty"): once someone sits down or leaves, it no longer says what is true.
            s.line.clear()
        if change.freed:
            s.say(_("the game is over and your seat is freed: L goes back to the lobby"))
        players = s.game.players
        sat = 0 <= change.seat < len(players) and players[change.seat].get("name")
        if self.auto is not None and sat:
            self.auto.seat_taken(change.seat)

    # ---- chat ------------------------------------------------------------------------------
    def _chat(self, msg: P.ChatMessage | P.PhraseSaid) -> None:
        if isinstance(msg, P.PhraseSaid):
            self.social.phrase_said(msg)  # beside the seat (the core keeps the chat line)
            return
        if msg.sender != SYSTEM_SENDER or msg.table_id != self.s.here:
            return
        # The server's own line (drops, returns, timers), worded from its code.
        self.s.say(self._mine(msg) or systemlines.chat_line(msg, self._card))

    def _mine(self, msg: P.ChatMessage) -> str | None:
        """A notice about our own seat, said to us (how to take the seat back)."""
        seat = self.s.game.your_seat
        if seat is None or msg.args.get("seat") != seat:
            return None
        if msg.code == "timeouts_bot":
            count = msg.args.get("count")
            n = count if isinstance(count, int) else 2
            return ngettext(
                "a bot plays for you after {count} timeout: press Enter or a card key to "
                "take your seat back",
                "a bot plays for you after {count} timeouts: press Enter or a card key to "
                "take your seat back",
                n,
            ).format(count=n)
        if msg.code == "took_back":
            return _("your seat is yours again")
        return None

    def left_table(self) -> None:
        """Back in the lobby (the core has left the table and forgotten its chat): what the
        screen kept of it goes too, everything said or chosen at it."""
        self.lobby.quick_until = None
        self.s.boxes.left_table()
        self.choices.left()
        self.table.left()
        self.social.left()
        self.alarm.stop()
        self.timeline.clear()
