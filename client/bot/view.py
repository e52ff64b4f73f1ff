"""A bot's running picture of its own seat, rebuilt from snapshots and game events.

The server sends a full seat view only in snapshots (joining, game start, resume); between
them it sends events. Strategies decide from a SeatView, so the bot client folds the events
into one (protocol/seatview.py) exactly as the engine would show it. Pure: no I/O, no
Twisted, so the bookkeeping is tested message by message. Whatever this gets wrong is
caught downstream: the `legal` list of each `your_turn` prompt is authoritative and moves
outside it are never sent.
"""

from __future__ import annotations

from dataclasses import replace

from leekha import protocol as P
from leekha.common.config import RulesConfig
from leekha.common.view import Rules, SeatView
from leekha.protocol import seatview
from leekha.protocol.seatview import doublable, empty_view, fold_event, new_round
from leekha.protocol.version import CAN_DOUBLE, speaks

PASS = "pass"
PLAY = "play"
OVER = "game_over"

#: Names one decision of a game: round, phase, tricks done, cards on the trick.
DecisionKey = tuple[int, str, int, int]


class ViewTracker:
    """One seat's view, kept current by `apply(message)`."""

    def __init__(self) -> None:
        self.rules: Rules = {}
        self.config = RulesConfig()
        self.view: SeatView = empty_view(None)
        self._points = self.config.card_points()
        #: A 1.1 server lists the doublable cards itself; set from welcome's version.
        self.server_lists_doubles = False

    @property
    def seat(self) -> int | None:
        return self.view.seat

    def decision_key(self) -> DecisionKey:
        """Names the decision in front of the seat, so one prompt is answered only once."""
        v = self.view
        return (v.round, v.phase, len(v.tricks), len(v.trick))

    def my_move(self) -> bool:
        v, seat = self.view, self.seat
        if seat is None or not v.legal:
            return False
        if v.phase == PASS:
            return not v.passes_done[seat] and bool(v.hand)
        return v.phase == PLAY and v.turn == seat

    def seat_view(self) -> SeatView:
        """The strategy's input: the tracked view plus the rules it needs. The view is
        frozen and every fold builds new lists, so the strategy cannot change ours."""
        can_double = doublable(
            self.view, self.config, self.seat, server_lists=self.server_lists_doubles
        )
        return replace(self.view, rules=dict(self.rules), can_double=can_double)

    # ---- updates -----------------------------------------------------------------------
    def apply(self, msg: P.Message) -> None:
        handler = getattr(self, "_on_" + msg.TYPE, None)
        if handler is not None:
            handler(msg)
        else:
            self.view = fold_event(self.view, msg, self.seat, self._points)

    def own_pass(self, cards: list[int]) -> None:
        """Our pass was accepted; the cards leave the hand when everyone has passed."""
        self.view = seatview.own_pass(self.view, cards, self.seat)

    def _on_welcome(self, msg: P.Welcome) -> None:
        self.server_lists_doubles = speaks(msg.version, CAN_DOUBLE)

    def _on_snapshot(self, msg: P.Snapshot) -> None:
        rules = msg.table.get("rules", {})
        self.rules = dict(rules)
        try:
            self.config = RulesConfig.from_dict(self.rules)
        except Exception:
            # Unknown future rules keys: keep deciding with the classic defaults.
            self.config = RulesConfig()
        self._points = self.config.card_points()
        self.view = replace(seatview.of_snapshot(msg) or empty_view(None), seat=msg.your_seat)

    def _on_dealt(self, msg: P.Dealt) -> None:
        self.view = new_round(self.view, self.seat, msg)

    def _on_your_turn(self, msg: P.YourTurn) -> None:
        self.view = seatview.prompted(self.view, msg, self.seat)
