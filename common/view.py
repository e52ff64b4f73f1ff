"""What one seat (or a spectator) may know, and nothing more.

The server sends only these views to clients and bots decide only from them, so hidden
cards cannot leak through either path by construction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypedDict

from leekha.common import cards as C
from leekha.common.config import Rules, RulesConfig
from leekha.common.events import SeatStats
from leekha.common.game import PASS, SEATS, Game, PlayedTrick
from leekha.common.outcome import Reason

__all__ = [
    "Result",
    "Rules",
    "SeatStats",
    "SeatView",
    "SeatViewDict",
    "SeatViews",
    "TrickRecord",
    "seat_view",
]


class TrickRecord(TypedDict):
    """A finished trick of the round: who led, the cards in play order, who took it."""

    leader: int
    cards: list[list[int]]
    winner: int
    points: int


class Result(TypedDict):
    """A finished game (protocol 1.4 `Result`): the outcome, why it ended, the figures."""

    winners: list[int]
    losers: list[int]
    totals: list[int]
    reason: Reason
    tie_extended: bool
    stats: list[SeatStats] | None  # null from a server older than 1.4


class SeatViewDict(TypedDict):
    """A `SeatView` as a map, the way a snapshot carries it (records.SEAT_VIEW): the
    same keys in the same order (tests/protocol/test_views.py holds them equal)."""

    seat: int | None
    phase: str
    round: int
    dealer: int
    pass_to: int | None
    turn: int | None
    hand: list[int]
    passed: list[int] | None
    received: list[int] | None
    passes_done: list[bool]
    doubled: list[list[int]]
    trick: list[list[int]]
    leader: int | None
    tricks: list[TrickRecord]
    taken: list[list[int]]
    round_points: list[int]
    totals: list[int]
    legal: list[int]
    history: list[list[int]]
    result: Result | None
    can_double: list[int]
    rules: Rules


@dataclass(frozen=True)
class SeatView:
    """Frozen, so the server can hand a view to a bot's thread without copying it. No
    slots: `_of` sets every field in one step, which a bot match (a view per decision)
    needs, as the frozen constructor takes a third of the time of building a view."""

    seat: int | None
    phase: str
    round: int
    dealer: int
    pass_to: int | None
    turn: int | None
    hand: list[int]
    passed: list[int] | None
    received: list[int] | None
    passes_done: list[bool]
    doubled: list[list[int]]
    trick: list[list[int]]
    leader: int | None
    tricks: list[TrickRecord]
    taken: list[list[int]]
    round_points: list[int]
    totals: list[int]
    legal: list[int]
    history: list[list[int]]
    result: Result | None
    can_double: list[int] = field(default_factory=list)
    rules: Rules = field(default_factory=dict)

    def to_dict(self) -> SeatViewDict:
        return {
            "seat": self.seat,
            "phase": self.phase,
            "round": self.round,
            "dealer": self.dealer,
            "pass_to": self.pass_to,
            "turn": self.turn,
            "hand": self.hand,
            "passed": self.passed,
            "received": self.received,
            "passes_done": self.passes_done,
            "doubled": self.doubled,
            "trick": self.trick,
            "leader": self.leader,
            "tricks": self.tricks,
            "taken": self.taken,
            "round_points": self.round_points,
            "totals": self.totals,
            "legal": self.legal,
            "history": self.history,
            "result": self.result,
            "can_double": self.can_double,
            "rules": self.rules,
        }

    @classmethod
    def from_dict(cls, data: SeatViewDict) -> SeatView:
        """The view of a checked wire map (records.SEAT_VIEW), keys by field name."""
        return cls(**data)

    @classmethod
    def _of(cls, fields: dict[str, object]) -> SeatView:
        """The view holding `fields`, every field by name: for `_build` alone, whose
        views a test checks against the constructor's."""
        view = object.__new__(cls)
        object.__setattr__(view, "__dict__", fields)
        return view

    @property
    def config(self) -> RulesConfig:
        return RulesConfig.from_dict(self.rules)

    @property
    def hand_mask(self) -> int:
        return C.mask_of(self.hand)

    @property
    def legal_mask(self) -> int:
        return C.mask_of(self.legal)

    @property
    def my_turn(self) -> bool:
        if self.seat is None:
            return False
        if self.phase == PASS:
            return not self.passes_done[self.seat]
        return self.turn == self.seat


def result(game: Game) -> Result | None:
    """A finished game's result as views show it (protocol 1.4 `Result`): the outcome,
    why it ended, and every seat's statistics from the game's tally."""
    o = game.outcome
    if o is None:
        return None
    return {
        "winners": list(o.winners),
        "losers": list(o.losers),
        "totals": list(o.totals),
        "reason": o.reason,
        "tie_extended": o.tie_extended,
        "stats": game.tally.to_list(),
    }


def seat_view(game: Game, seat: int | None) -> SeatView:
    """The redacted view for `seat`, or the public view when `seat` is None."""
    tricks = _trick_records(game.tricks)
    return _build(game, seat, tricks, _rows(game.history), _taken(game), game.config.to_dict())


def _trick_records(tricks: list[PlayedTrick]) -> list[TrickRecord]:
    return [
        {
            "leader": t["leader"],
            "cards": [[s, c] for s, c in t["cards"]],
            "winner": t["winner"],
            "points": t["points"],
        }
        for t in tricks
    ]


def _rows(history: list[list[int]]) -> list[list[int]]:
    return [list(h) for h in history]


def _taken(game: Game) -> list[list[int]]:
    penalty = game.config.penalty_mask
    return [C.cards_of(game.taken[s] & penalty) for s in range(SEATS)]


class SeatViews:
    """The views of one game for a caller that asks for one after nearly every move.

    A bot match builds a view per decision, and rebuilding the round's finished tricks and
    the game's finished rounds each time was most of its cost. Here each finished trick and
    round is converted once (and the cards taken once a trick); a view gets lists of its
    own that share those records (which no one changes) with the views before it.
    `view(seat)` equals `seat_view(game, seat)`.
    """

    __slots__ = ("_game", "_history", "_passes", "_round", "_rules", "_taken", "_tricks")

    def __init__(self, game: Game) -> None:
        self._game = game
        self._round: list[PlayedTrick] | None = None  # the game's trick list they mirror
        self._tricks: list[TrickRecord] = []
        self._taken: list[list[int]] = []
        self._history: list[list[int]] = []
        self._passes: dict[int, list[int]] = {}  # this round's passes, as card lists
        self._rules = game.config.to_dict()

    def view(self, seat: int | None) -> SeatView:
        game = self._game
        if game.tricks is not self._round:
            self._round = game.tricks
            self._tricks = []
            self._taken = []
            self._passes = {}
        done = len(self._tricks)
        if done != len(game.tricks) or not self._taken:
            self._tricks += _trick_records(game.tricks[done:])
            self._taken = _taken(game)
        if len(self._history) > len(game.history):
            self._history = []
        if len(self._history) != len(game.history):
            self._history += _rows(game.history[len(self._history) :])
        tricks, history, taken = list(self._tricks), list(self._history), list(self._taken)
        return _build(game, seat, tricks, history, taken, dict(self._rules), self._pass_cards)

    def _pass_cards(self, mask: int) -> list[int]:
        cards = self._passes.get(mask)
        if cards is None:
            cards = self._passes[mask] = C.cards_of(mask)
        return list(cards)


def _build(
    game: Game,
    seat: int | None,
    tricks: list[TrickRecord],
    history: list[list[int]],
    taken: list[list[int]],
    rules: Rules,
    pass_cards: Callable[[int], list[int]] = C.cards_of,
) -> SeatView:
    # A bot match builds a view per decision (about 40 a round), so this reads the game's
    # fields once and skips what a phase cannot have (no doubling in play, no result
    # before the end) instead of going through the game's query methods, which would
    # check the phase and the turn again.
    phase = game.phase
    passed = game.passed
    if seat is None:
        hand: list[int] = []
        passed_cards = received_cards = pass_to = None
        legal: list[int] = []
        can_double: list[int] = []
    else:
        hand = C.cards_of(game.hands[seat])
        passed_mask = passed[seat]
        received_mask = game.received[seat]
        passed_cards = pass_cards(passed_mask) if passed_mask is not None else None
        received_cards = pass_cards(received_mask) if received_mask is not None else None
        pass_to = game.pass_target(seat)
        if phase == PASS:
            legal = C.cards_of(game.passable_mask(seat))
            can_double = game.can_double(seat)
        else:
            legal_mask = game.legal_mask(seat)
            # A lead or a free discard may play the whole hand: copy it, not list it again.
            legal = hand[:] if legal_mask == game.hands[seat] else C.cards_of(legal_mask)
            can_double = []
    doubled = game.doubled
    return SeatView._of(
        {
            "seat": seat,
            "phase": phase,
            "round": game.round_no,
            "dealer": game.dealer,
            "pass_to": pass_to,
            "turn": game.turn,
            "hand": hand,
            "passed": passed_cards,
            "received": received_cards,
            "passes_done": [
                passed[0] is not None,
                passed[1] is not None,
                passed[2] is not None,
                passed[3] is not None,
            ],
            "doubled": [[c, s] for c, s in sorted(doubled.items())] if doubled else [],
            "trick": list(map(list, game.trick)),
            "leader": game.leader,
            "tricks": tricks,
            "taken": taken,
            "round_points": game.round_points[:],
            "totals": game.totals[:],
            "legal": legal,
            "history": history,
            "result": result(game) if game.outcome is not None else None,
            "can_double": can_double,
            "rules": rules,
        }
    )
