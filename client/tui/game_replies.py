"""What each game event does to the terminal client: the table folds it (client/core/table.py),
and the parts around the table follow: the choices, the trick's note, the round's summary,
our clock.

Every fact comes from the server (the trick's winner and points, the round's note, the
statistics); the words for them are the client's. client/tui/replies.py hands these events
here in the order they arrive, each folded at once; what the screen still shows of the moments
before (a finished trick, a round's summary) is the timeline's (client/tui/timeline.py).
"""

from __future__ import annotations

from leekha import protocol as P
from leekha.client.i18n import _
from leekha.client.tui.alarm import Alarm
from leekha.client.tui.autosetup import AutoSetup
from leekha.client.tui.choices import Choices
from leekha.client.tui.overlays import RoundSummary
from leekha.client.tui.shared import Shared
from leekha.client.tui.table_intents import TableActions
from leekha.client.tui.timeline import Timeline
from leekha.client.tui.words import round_note


class GameReplies:
    def __init__(
        self,
        shared: Shared,
        *,
        choices: Choices,
        table: TableActions,
        alarm: Alarm,
        timeline: Timeline,
        auto: AutoSetup | None,
    ) -> None:
        self.s = shared
        self.choices = choices
        self.table = table
        self.alarm = alarm
        self.timeline = timeline
        self.auto = auto

    def apply(self, msg: P.Message) -> bool:
        """Fold `msg` when it is a game event; False when it is not one."""
        match msg:
            case P.Dealt():
                self._dealt(msg)
            case P.PassDone():
                if self.s.game.fold(msg) and msg.seat == self.s.game.your_seat:
                    self.choices.double_offer = []
            case P.PassedReceived():
                self._passed_received(msg)
            case P.DoubleRevealed():
                self._double(msg)
            case P.CardPlayed():
                self._card_played(msg)
            case P.TrickTaken():
                self._trick_taken(msg)
            case P.RoundScored():
                self._round_scored(msg)
            case P.GameOver():
                self.s.game.game_over(msg)
                self.choices.double_offer = []  # a golden goal can end the game in a pass
                self.alarm.stop()
                self.table.rematch_voted = False
            case P.SeatUpdate():
                self._seat_update(msg)
            case P.YourTurn():
                self._your_turn(msg)
            case P.Turn():
                self._turn(msg)
            case _:
                return False
        return True

    def _dealt(self, msg: P.Dealt) -> None:
        if not self.s.game.dealt(msg):
            return
        self.timeline.dealt()  # the new round needs the player: the summary goes
        self.choices.dealt()
        self.table.dealt()
        self.s.line.position_moved()

    def _passed_received(self, msg: P.PassedReceived) -> None:
        if not self.s.game.fold(msg):
            return
        self.choices.double_offer = []
        self.choices.pass_sel.clear()
        self.s.line.position_moved()
        names = self.s.names
        self.s.say(
            _("received {cards} from {name} (marked + until you play)").format(
                cards=names.cards(msg.cards), name=names.player(msg.from_seat)
            ),
            transient=True,
        )
        self.choices.clamp_cursor()

    def _double(self, msg: P.DoubleRevealed) -> None:
        if not self.s.game.fold(msg):
            return
        if msg.seat == self.s.game.your_seat:
            text = _("You doubled {card}: it now scores double")
        else:
            text = _("{name} doubled {card}: it now scores double")
        names = self.s.names
        self.s.say(
            text.format(name=names.player(msg.seat), card=names.card(msg.card)), transient=True
        )
        self.choices.offer_doubles()

    def _card_played(self, msg: P.CardPlayed) -> None:
        if not self.s.game.fold(msg):
            return
        if msg.seat == self.s.game.your_seat:
            self.choices.lifted = None
            self.choices.played_since_pass = True
            self.alarm.stop()
        self.table.show_last = False
        self.s.line.position_moved()
        self.choices.clamp_cursor()

    def _trick_taken(self, msg: P.TrickTaken) -> None:
        if not self.s.game.fold(msg):
            return
        leekhas = [c for _s, c in msg.cards if c in self.s.game.rules.leekha_cards]
        who = self.s.names.player(msg.winner)
        if leekhas:
            note = _("{name} takes {cards}! (+{points})").format(
                name=who, cards=self.s.names.cards(leekhas), points=msg.points
            )
            self.s.say(note, transient=True)
        else:
            note = _("{name} takes it (+{points})").format(name=who, points=msg.points)
        self.table.trick_note = note
        self.timeline.taken(msg.cards, msg.winner, note)

    def _round_scored(self, msg: P.RoundScored) -> None:
        g = self.s.game
        doubled = g.doubled_cards()
        summary = RoundSummary(msg.round, msg.round_points, msg.totals, msg.taken, doubled)
        summary.note = round_note(msg, g.rules, self.s.names.player)
        summary.tie = msg.tie
        self.s.boxes.open(summary)
        self.timeline.scored(summary)
        g.fold(msg)
        self.alarm.stop()

    def _seat_update(self, msg: P.SeatUpdate) -> None:
        seated = self.s.game.seated
        if not self.s.game.seat_update(msg):
            return
        if self.s.line.error and self.s.game.status_word == "waiting":
            # A refusal in the waiting room is about its seats ("seats 2, 3 and 4 are
            # empty"): once someone sits down or leaves, it no longer says what is true.
            self.s.line.clear()
        if seated and self.s.game.released:
            self.s.say(_("the game is over and your seat is freed: L goes back to the lobby"))
        if self.auto is not None and msg.player.get("name"):
            self.auto.seat_taken(msg.seat)

    def _your_turn(self, msg: P.YourTurn) -> None:
        if not self.s.game.prompted(msg):
            return
        at = self.s.clock()
        self.alarm.deadline_at = at + msg.deadline if msg.deadline is not None else None
        self.s.line.position_moved()
        self.choices.your_turn(msg)
        self.alarm.your_turn()

    def _turn(self, msg: P.Turn) -> None:
        """(1.4) Whose decision the table waits for and the server's time left: the turn
        marker and countdown of every seat on every screen, spectators' too."""
        mine = self.s.game.turn(msg, self.s.clock())
        if mine is not None:
            self.alarm.deadline_at = mine  # a resumed client counts down from the server's
