"""The hand and what the player chooses from it: the cursor, the three cards of a pass, the
card lifted to play, and the Leekha cards offered for doubling.

The engine is the one source of legality. Which cards may go comes from the server's
`your_turn` (play) or from common/legality.py (pass, the pass ban), and a refusal is worded
from the engine's rule code; nothing here restates a rule. The server still decides: what
it refuses is reported, and the choice goes back to where the server left it.
"""

from __future__ import annotations

from leekha import protocol as P
from leekha.client import systemlines
from leekha.client.core import intents as I
from leekha.client.i18n import _
from leekha.client.refusals import explain
from leekha.client.tui.shared import Shared
from leekha.client.tui.words import suit_word
from leekha.common import cards as C
from leekha.common.legality import legal_passes, pass_error, passable_mask, play_refusal
from leekha.protocol import version as V
from leekha.protocol.seatview import doublable


class Choices:
    def __init__(self, shared: Shared) -> None:
        self.s = shared
        self.cursor = 0
        self.lifted: int | None = None
        self.pass_sel: set[int] = set()
        self.pass_confirm = False
        self.pass_sent = False
        self.double_offer: list[int] = []
        self.double_declined: set[int] = set()
        self.played_since_pass = False  # received cards stay marked until the first play
        self._passes: list[tuple[int, ...]] = []
        self._passes_hand = -1

    # ---- what may be chosen ------------------------------------------------------------
    @property
    def hand(self) -> list[int]:
        """The own hand in display order (what the cursor indexes)."""
        v = self.s.game.view
        return [] if v is None else C.display_order(v.hand)

    @property
    def received(self) -> set[int]:
        """Cards passed to us this round, marked until our first play."""
        v = self.s.game.view
        if v is None or self.played_since_pass:
            return set()
        return set(v.received or [])

    @property
    def my_turn(self) -> bool:
        g = self.s.game
        v = g.view
        if v is None or g.your_seat is None:
            return False
        if v.phase == "pass":
            return not v.passes_done[g.your_seat] and not self.pass_sent
        return v.phase == "play" and v.turn == g.your_seat

    def legal_plays(self) -> set[int]:
        v = self.s.game.view
        if v is None or v.phase != "play" or not self.my_turn:
            return set()
        return set(v.legal)

    def _legal_passes(self) -> list[tuple[int, ...]]:
        v = self.s.game.view
        hand = C.mask_of(v.hand) if v else 0
        if hand != self._passes_hand:
            rules = self.s.game.rules
            self._passes = list(legal_passes(rules, hand)) if hand.bit_count() >= 3 else []
            self._passes_hand = hand
        return self._passes

    def pass_choosable(self) -> set[int]:
        """Cards that can still join the current selection in some legal pass.

        This is how the pass ban shows: a card that would empty a suit dims as soon as it
        can no longer be part of a legal pass with what is already chosen.
        """
        if self.s.game.phase != "pass" or not self.my_turn:
            return set()
        out: set[int] = set()
        for combo in self._legal_passes():
            if self.pass_sel.issubset(combo):
                out.update(combo)
        return out

    def pass_problem(self) -> str | None:
        """Why the current selection is not a legal pass (None when it is)."""
        if len(self.pass_sel) != 3:
            return _("choose 3 cards to pass ({n} chosen)").format(n=len(self.pass_sel))
        v = self.s.game.view
        hand = C.mask_of(v.hand) if v else 0
        err = pass_error(self.s.game.rules, hand, sorted(self.pass_sel))
        if err is None:
            return None
        fmt = self.s.names.card
        return systemlines.rule(err.rule, err.facts, fmt) or explain(err.code, err.message)

    def choosable(self) -> set[int]:
        """The cards of the hand that can be chosen now (pass or play)."""
        return self.pass_choosable() if self.s.game.phase == "pass" else self.legal_plays()

    def can_double(self) -> list[int]:
        """Leekha cards this seat may still reveal: the server's list (1.1) or, from a
        1.0 server, the engine's rule applied to our view."""
        if self.pass_sent:
            return []
        g = self.s.game
        lists = self.s.link.speaks(V.CAN_DOUBLE)
        return doublable(g.view, g.rules, g.your_seat, server_lists=lists)

    def play_refusal(self, card: int) -> str:
        """Why `card` may not be played now: the engine's reason (common/legality), in
        words by its rule code, as a server refusal would be worded."""
        fmt = self.s.names.card
        v = self.s.game.view
        if v is None or not self.my_turn:
            return _("{card}: it is not your turn").format(card=fmt(card))
        trick = [(s, c) for s, c in v.trick]
        err = play_refusal(self.s.game.rules, C.mask_of(v.hand), trick, card)
        said = None if err is None else systemlines.rule(err.rule, err.facts, fmt)
        return said or _("{card} is not playable now").format(card=fmt(card))

    # ---- keys ----------------------------------------------------------------------------
    def move(self, step: int) -> None:
        n = len(self.hand)
        if n:
            self.cursor = (self.cursor + step) % n
        self.lifted = None
        self.pass_confirm = False

    def toggle(self) -> None:
        """Space in the pass phase: add or remove the card under the cursor."""
        hand = self.hand
        if self.s.game.phase != "pass" or not hand or not self.s.game.seated:
            return
        if not self.my_turn:
            self.s.say(_("your pass is already in"))
            return
        card = hand[self.cursor]
        self.pass_confirm = False
        if card in self.pass_sel:
            self.pass_sel.discard(card)
            self.s.say("")
        elif len(self.pass_sel) >= 3:
            self.s.say(_("three cards are chosen: space on one to put it back"), error=True)
        elif card not in self.pass_choosable():
            self.s.say(self._ban_reason(card), error=True, transient=True)
        else:
            self.pass_sel.add(card)
            self.s.say("")

    def _ban_reason(self, card: int) -> str:
        v = self.s.game.view
        hand = C.mask_of(v.hand if v else [])
        suit = suit_word(C.suit_of(card))
        if not passable_mask(self.s.game.rules, hand) & C.BIT[card]:
            text = _("{card} cannot go: your last of {suit} (pass ban)")
        else:
            text = _("{card} cannot go: it would empty your {suit} (pass ban)")
        return text.format(card=self.s.names.card(card), suit=suit)

    def enter_pass(self) -> None:
        """Enter in the pass phase: the first press stages the pass, the second sends it."""
        if not self.my_turn:
            self.s.say(_("your pass is in; waiting for the others"))
            return
        problem = self.pass_problem()
        if problem is not None:
            self.s.say(problem, error=len(self.pass_sel) == 3, transient=True)
            return
        if not self.pass_confirm:
            self.pass_confirm = True
            to = self.s.game.view.pass_to if self.s.game.view else None
            dest = self.s.names.player(to) if to is not None else _("the next seat")
            self.s.say(
                _("pass {cards} to {name}? Enter to confirm, Esc to change").format(
                    cards=self.s.names.cards(self.pass_sel), name=dest
                ),
                transient=True,
            )
            return
        self.pass_confirm = False
        self.pass_sent = True
        self.s.request(I.Pass(tuple(sorted(self.pass_sel)), self.s.decision()))
        self.s.say(_("pass sent"), transient=True)

    def confirm_text(self, card: int) -> str:
        return _("play {card}? Enter again to play, Esc to cancel").format(
            card=self.s.names.card(card)
        )

    def enter_play(self) -> None:
        """Enter in the play phase: the first press lifts the card, the second plays it."""
        hand = self.hand
        if not hand:
            return
        card = hand[self.cursor]
        legal = self.legal_plays()
        now = bool(legal)  # our turn, and the server has said what may go
        if now and card not in legal:
            self.s.say(self.play_refusal(card), error=True, transient=True)
            self.lifted = None
            return
        if self.lifted != card:
            self.lifted = card
            if now:
                self.s.say(self.confirm_text(card), transient=True)
            else:
                self.s.say(
                    _("{card} ready: Enter on your turn to play it").format(
                        card=self.s.names.card(card)
                    ),
                    transient=True,
                )
            return
        if not now:
            self.s.say(_("not your turn yet"), transient=True)
            return
        self.s.request(I.Play(card, self.s.decision()))
        self.s.say("")

    def escape(self) -> bool:
        """Esc backs out of the current choice; False when there was none."""
        if self.pass_confirm:
            self.pass_confirm = False
        elif self.lifted is not None:
            self.lifted = None
        elif self.pass_sel or self.s.line.transient:
            self.pass_sel.clear()
        else:
            return False
        self.s.say("")
        return True

    def answer_double(self, yes: bool) -> None:
        if not self.double_offer:
            return
        card = self.double_offer[0]
        if yes:
            self.s.request(I.Double(card))
        self.double_declined.add(card)
        self.double_offer = self.double_offer[1:]

    # ---- what the server's messages do to the choices -------------------------------------
    def offer_doubles(self) -> None:
        self.double_offer = [c for c in self.can_double() if c not in self.double_declined]

    def clamp_cursor(self) -> None:
        v = self.s.game.view
        n = len(v.hand) if v else 0
        self.cursor = max(0, min(self.cursor, n - 1))

    def dealt(self) -> None:
        """A new round: nothing chosen, the cursor on the first card."""
        self.pass_sel.clear()
        self.pass_confirm = False
        self.pass_sent = False
        self.lifted = None
        self.double_declined.clear()
        self.played_since_pass = False
        self.cursor = 0
        self.offer_doubles()

    def snapshot(self) -> None:
        """The whole table again: keep only the choices the new position still allows."""
        g = self.s.game
        v = g.view
        self.lifted = None
        self.pass_confirm = False
        self.pass_sent = False
        if v is not None:
            self.pass_sel &= set(v.hand)
            self.played_since_pass = v.phase != "play" or any(
                s == g.your_seat for t in v.tricks for s, _c in t["cards"]
            )
        else:
            self.pass_sel.clear()
        self.offer_doubles()
        self.clamp_cursor()

    def pass_taken(self) -> None:
        """The server took our pass."""
        self.pass_sel.clear()
        self.pass_confirm = False
        self.clamp_cursor()

    def refused(self, req: P.Message) -> None:
        """The server refused our pass or card: the choice is open again."""
        if isinstance(req, P.PassCards):
            self.pass_sent = False
            self.pass_confirm = False
        if isinstance(req, P.PlayCard):
            self.lifted = None

    def your_turn(self, msg: P.YourTurn) -> None:
        """Our turn: the doubling offer (pass), or a card lifted early said playable or not."""
        if msg.phase == "pass":
            self.offer_doubles()
        if msg.phase == "play" and self.lifted is not None:
            if self.lifted in self.legal_plays():
                self.s.say(self.confirm_text(self.lifted), transient=True)
            else:
                self.s.say(self.play_refusal(self.lifted), error=True, transient=True)
                self.lifted = None

    def left(self) -> None:
        self.lifted = None
        self.pass_sel.clear()
