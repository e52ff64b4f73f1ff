"""What each server message does to the terminal client: the one dispatch from a message to
the parts it changes.

The session's and the lobby's messages are handled here (welcome, the answers to our
requests, the table's snapshot, chat, statistics, tournaments); the game's events go to
client/tui/game_replies.py. A reply is matched to its request by the sender's tracker
(`Connection.answered` when the app wires a session), so a refusal is reported as what it
refused, and a refused request changes nothing but the choice it came from.
"""

from __future__ import annotations

from leekha import protocol as P
from leekha.client import systemlines
from leekha.client.core.chat import Chats
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
from leekha.client.tui.social_intents import Social
from leekha.client.tui.table_intents import TableActions
from leekha.client.tui.timeline import Timeline
from leekha.client.tui.tournament import TournamentScreen
from leekha.client.tui.words import refused
from leekha.protocol import version as V

#: The `from` of the server's own lines in a table's chat (docs/protocol.md, chat_message).
SYSTEM_SENDER = "*"  # the server's own lines


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
        chats: Chats,
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
        self.chats = chats
        self.auto = auto

    def apply(self, msg: P.Message) -> None:
        """Fold one server message into the parts it changes."""
        if self.game_events.apply(msg):
            return
        match msg:
            case P.Welcome():
                self._welcome(msg)
            case P.Error():
                self._error(msg)
            case P.Ok():
                self._ok(msg)
            case P.TableList():
                self.s.sender.answers(msg)
                self.lobby.lobby.listed(msg)
            case P.TableUpdate():
                self.lobby.lobby.updated(msg)
                self.s.game.table_update(msg)
                self.table.rules_changed()
            case P.Snapshot():
                self._snapshot(msg)
            case P.ChatMessage():
                self._chat(msg)
            case P.Profile():
                self.social.profile(msg)
            case P.PhraseSaid():
                self.social.phrase_said(msg)
            case P.Stats():
                box = self.s.boxes.get(StatsBox)
                if self.s.sender.answers(msg) is not None and box is not None:  # else not ours
                    box.rows = [dict(p) for p in msg.players]  # (or reopened since)
            case P.TournamentList() | P.TournamentState():
                self._tournament(msg)
            case _:
                pass

    def _welcome(self, msg: P.Welcome) -> None:
        s = self.s
        was = s.link.welcome(msg)
        s.name = msg.name
        self.chats.only_lobby()
        g = s.game
        watched = g.watching if g.table is not None and g.your_seat is None else None
        if watched is not None and msg.table_id is None:
            # A restarted server forgets who watched: watch the same table again.
            self.leave_table()
            s.sender.request(P.Spectate, table_id=watched[0], password=watched[1])
            s.say(_("reconnected: watching the table again"))
            return
        if (
            msg.resumed
            and msg.table_id is None
            and g.table is not None
            and s.link.speaks(V.WELCOME_SAYS_SEAT)
        ):
            # The server says we are in the lobby: no snapshot will come to replace the
            # table on screen. (A 1.0 server does not say; the stale table stays.)
            self.leave_table()
            s.say(_("reconnected, but your seat was given up while you were away"), error=True)
        elif msg.resumed:
            s.say(_("reconnected"))
        elif was:
            # A fresh session after the old one expired: the seat is gone.
            self.leave_table()
            s.say(_("reconnected, but the old session had expired"), error=True)
        creating = (
            self.auto is not None and not msg.resumed and self.auto.welcomed(s.sender.request)
        )
        if not creating and (not msg.resumed or g.table is None):
            s.sender.request(P.ListTables)
        lobby = self.lobby
        if lobby.quick_now and g.table is None:
            lobby.quick_now = False
            lobby.start_quick()
        if lobby.invited is not None and g.table is None:
            table_id, password = lobby.invited
            lobby.invited = None
            lobby.join(table_id, password, False)

    def _error(self, msg: P.Error) -> None:
        s = self.s
        req = s.sender.answers(msg)
        words = explain(msg.code, msg.message, msg.rule, msg.args, s.names.card)
        if req is None:
            s.say(_("Server: {words}").format(words=words), error=True)
            return
        if isinstance(req, P.PlayCard | P.PassCards) and msg.rule is not None:
            s.say(words, error=True, transient=True)  # the rule says it all
        elif isinstance(req, P.JoinSeat | P.Spectate) and msg.code == "bad_password":
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

    def _ok(self, msg: P.Ok) -> None:
        s = self.s
        req = s.sender.answers(msg)
        if req is None:
            return
        if isinstance(req, P.PassCards) and s.game.view is not None:
            s.game.own_pass(req.cards)
            self.choices.pass_taken()
            self.alarm.stop()
        elif isinstance(req, P.Leave):
            self.leave_table()
            s.sender.request(P.ListTables)
        elif isinstance(req, P.AddBot | P.Start) and self.auto is not None:
            self.auto.answered(req, s.sender.request)
        elif isinstance(req, P.Rematch):
            # Transient: the deal of the new game replaces it.
            s.say(_("rematch vote sent; waiting for the others"), transient=True)

    def _snapshot(self, msg: P.Snapshot) -> None:
        s = self.s
        g = s.game
        req = s.sender.answers(msg)
        if isinstance(req, P.CreateTable | P.JoinSeat | P.Spectate):
            self.social.table_password = req.password
        # Unasked, from the lobby, having entered a tournament: its next game seats us.
        here = g.table is not None and not g.released
        ready = msg.re is None and not here and self.lobby.entered is not None
        watch = (req.table_id, req.password) if isinstance(req, P.Spectate) else None
        if g.snapshot(msg, watch):
            self.chats.forget(g.table_id)  # its own history follows from the server
            self.timeline.clear()  # another table: nothing of the last one is left to show
        else:
            self.timeline.snapshot()  # the position is stated whole: held tricks are stale
        self.choices.snapshot()
        self.table.snapshot()
        if not self.choices.my_turn:
            self.alarm.stop()
        s.line.position_moved()
        self.lobby.quick_until = None
        t = msg.table
        if isinstance(req, P.QuickPlay) and t["status"] == "waiting" and t["host"] == s.name:
            # A table quick play opened for us: its bots come after the wait we asked for
            # (None: the server's own, which it does not say).
            wait = req.wait_s
            self.lobby.quick_until = None if wait is None else s.clock() + wait
        if isinstance(req, P.CreateTable) and self.auto is not None:
            me = g.your_seat
            empty = [seat for seat, p in enumerate(g.players) if not p.get("name") and seat != me]
            self.auto.created(empty, s.sender.request)
        if ready:
            s.boxes.shut(TournamentScreen)
            self.alarm.ring = True
            s.say(_("your tournament game is ready: {table}").format(table=msg.table["name"]))

    def _chat(self, msg: P.ChatMessage) -> None:
        lines = self.chats.at(msg.table_id)
        if msg.sender != SYSTEM_SENDER:
            lines.append((msg.sender, msg.text))
            return
        # The server's own line (drops, returns, timers), worded from its code.
        text = systemlines.chat_line(msg, self.s.names.card)
        lines.append((msg.sender, text))
        if msg.table_id == self.s.here:
            self.s.say(self._mine(msg) or text)

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

    def _tournament(self, msg: P.TournamentList | P.TournamentState) -> None:
        req = self.s.sender.answers(msg)
        if isinstance(req, P.EnterTournament) and isinstance(msg, P.TournamentState):
            self.lobby.entered = req.tournament_id
            self.s.say(_("you are in {name}: your games begin by themselves").format(
                name=msg.tournament.get("name", "")))  # fmt: skip
        if self.s.boxes.tournaments is not None:
            self.s.boxes.tournaments.apply(msg)

    def leave_table(self) -> None:
        """Back in the lobby: the table and everything said or chosen at it go."""
        g = self.s.game
        self.lobby.quick_until = None
        if g.table is not None:
            self.chats.forget(g.table_id)
        g.left()
        self.s.boxes.left_table()
        self.choices.left()
        self.table.left()
        self.social.left()
        self.alarm.stop()
        self.timeline.clear()
