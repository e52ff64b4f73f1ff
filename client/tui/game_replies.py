"""What each game event does to the terminal client: the core has folded it into the table
(client/core), and the parts around the table follow its change: the choices, the trick's
note, the round's summary, our clock.

Every fact comes from the server (the trick's winner and points, the round's note, the
statistics) through the core's changes (`ViewChanged` with the event, `RoundScored` with the
cards doubled in the round, `OurClock`); the words for them are the client's.
client/tui/replies.py hands the changes here in the order they come; what the screen still
shows of the moments before (a finished trick, a round's summary) is the timeline's
(client/tui/timeline.py).
"""

from __future__ import annotations

from leekha import protocol as P
from leekha.client.core.changes import Change, OurClock, RoundScored, ViewChanged
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

    def react(self, change: Change) -> bool:
        """React to `change` when it is the game's; False when it is not."""
        match change:
            case ViewChanged(event):
                self._event(event)
            case RoundScored():
                self._round_scored(change)
            case OurClock(deadline_at):
                self.alarm.deadline_at = deadline_at  # a resumed client counts down from it
            case _:
                return False
        return True

    def _event(self, msg: P.Message) -> None:
        """A game event the core folded into the table: what the parts around it do."""
        match msg:
            case P.Dealt():
                self._dealt(msg)
            case P.PassDone():
                if msg.seat == self.s.game.your_seat:
                    self.choices.double_offer = []
            case P.PassedReceived():
                self._passed_received(msg)
            case P.DoubleRevealed():
                self._double(msg)
            case P.CardPlayed():
                self._card_played(msg)
            case P.TrickTaken():
                self._trick_taken(msg)
            case P.GameOver():
                self.choices.double_offer = []  # a golden goal can end the game in a pass
                self.alarm.stop()
                self.table.rematch_voted = False
            case P.YourTurn():
                self._your_turn(msg)

    def _dealt(self, msg: P.Dealt) -> None:
        self.timeline.dealt()  # the new round needs the player: the summary goes
        self.choices.dealt()
        self.table.dealt()
        self.s.line.position_moved()

    def _passed_received(self, msg: P.PassedReceived) -> None:
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
        if msg.seat == self.s.game.your_seat:
            self.choices.lifted = None
            self.choices.played_since_pass = True
            self.alarm.stop()
        self.table.show_last = False
        self.s.line.position_moved()
        self.choices.clamp_cursor()

    def _trick_taken(self, msg: P.TrickTaken) -> None:
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

    def _round_scored(self, change: RoundScored) -> None:
        msg = change.event
        doubled = list(change.doubled)  # as they were before the fold forgot them
        summary = RoundSummary(msg.round, msg.round_points, msg.totals, msg.taken, doubled)
        summary.note = round_note(msg, self.s.game.rules, self.s.names.player)
        summary.tie = msg.tie
        self.s.boxes.open(summary)
        self.timeline.scored(summary)
        self.alarm.stop()

    def _your_turn(self, msg: P.YourTurn) -> None:
        at = self.s.clock()
        self.alarm.deadline_at = at + msg.deadline if msg.deadline is not None else None
        self.s.line.position_moved()
        self.choices.your_turn(msg)
        self.alarm.your_turn()
