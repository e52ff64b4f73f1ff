"""A lean, mask-only simulator of the rest of one round, for search rollouts.

`Game` records actions and trick dicts for replay and the wire; a rollout needs none of
that and runs tens of thousands of times per decision, so this keeps only the four hands,
the trick in progress and the points taken. Legality comes from the same
`leekha.common.legality.PlayRules` that `Game` uses, and trick and round scores from the
same `leekha.common.scoring`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from leekha.common import cards as C
from leekha.common.config import RulesConfig
from leekha.common.legality import PlayRules
from leekha.common.scoring import points_table, round_scores, take_trick

_BIT: Final = C.BIT
_SUIT_OF: Final = C.SUIT_OF
_SUIT_MASK: Final = C.SUIT_MASK
_BELOW: Final = C.BELOW
_QS_BIT: Final = C.BIT[C.QUEEN_SPADES]


class Rules(PlayRules):
    """The play rules plus what a rollout scores: points with doubling folded in."""

    __slots__ = ("moon", "most", "penalty_mask", "points")

    def __init__(self, config: RulesConfig, doubled_mask: int = 0) -> None:
        super().__init__(config)
        self.points = points_table(config, doubled_mask)
        self.penalty_mask = config.penalty_mask
        self.moon = config.moon_penalty
        # The most one seat can score in a round: every penalty card, or the moon.
        self.most = max(self.moon, sum(self.points))


# (seat, hand, legal, trick, high, played) -> card; `played` holds every card gone this round.
Policy = Callable[[int, int, int, list[tuple[int, int]], int, int], int]


class Round:
    """The remainder of a round from a play-phase position."""

    __slots__ = (
        "hands",
        "high",
        "leader",
        "lk_on",
        "played",
        "points",
        "rules",
        "taken",
        "trick",
        "tricks_left",
        "turn",
    )

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[int],
        *,
        leader: int,
        trick: Sequence[tuple[int, int]] = (),
        played: int = 0,
        points: Sequence[int] = (0, 0, 0, 0),
        taken: Sequence[int] = (0, 0, 0, 0),
    ) -> None:
        self.rules = rules
        self.hands = list(hands)
        self.leader = leader
        self.trick: list[tuple[int, int]] = []
        self.high = -1
        self.lk_on = False
        self.played = played
        self.points = list(points)
        self.taken = list(taken)
        self.turn = leader
        for seat, c in trick:
            self.hands[seat] |= _BIT[c]
            self.played &= ~_BIT[c]
        self.tricks_left = max(hand.bit_count() for hand in self.hands)
        for seat, c in trick:
            self.play(seat, c)

    def copy(self) -> Round:
        other = Round.__new__(Round)
        other.rules = self.rules
        other.hands = list(self.hands)
        other.leader = self.leader
        other.trick = list(self.trick)
        other.high = self.high
        other.lk_on = self.lk_on
        other.played = self.played
        other.points = list(self.points)
        other.taken = list(self.taken)
        other.turn = self.turn
        other.tricks_left = self.tricks_left
        return other

    def legal(self, seat: int) -> int:
        return self.rules.legal(self.hands[seat], self.trick, self.high, self.lk_on)

    def play(self, seat: int, c: int) -> None:
        bit = _BIT[c]
        self.hands[seat] ^= bit
        self.played |= bit
        trick = self.trick
        if not trick or (_SUIT_OF[c] == _SUIT_OF[trick[0][1]] and c > self.high):
            self.high = c
        if self.rules.leekha_mask & bit:
            self.lk_on = True
        trick.append((seat, c))
        if len(trick) < 4:
            self.turn = (seat + 1) & 3
            return
        winner, won, pts = take_trick(trick, self.high, self.rules.points)
        self.taken[winner] |= won
        self.points[winner] += pts
        self.trick = []
        self.high = -1
        self.lk_on = False
        self.leader = winner
        self.turn = winner
        self.tricks_left -= 1

    def finish(self, policy: Policy) -> list[int]:
        """Play to the end of the round with `policy` at every seat; the round's scores."""
        legal_of = self.rules.legal
        hands = self.hands
        while self.tricks_left > 0 and hands[self.turn]:
            seat = self.turn
            hand = hands[seat]
            legal = legal_of(hand, self.trick, self.high, self.lk_on)
            if legal & (legal - 1):
                c = policy(seat, hand, legal, self.trick, self.high, self.played)
            else:
                c = legal.bit_length() - 1
            self.play(seat, c)
        return self.scores()

    def scores(self) -> list[int]:
        rules = self.rules
        return round_scores(
            self.points, self.taken, moon=rules.moon, penalty_mask=rules.penalty_mask
        )
