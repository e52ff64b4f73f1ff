"""The one statement of who takes a trick and what tricks and rounds are worth.

`Game`, the rollout simulator and the server's messages all take these facts from here.
The hot paths keep the highest led card as they go (legality needs it anyway) and hand it
in, so taking a trick is one call per trick, not per card. The NumPy batch engine cannot
call Python per game; tests/engine/test_batch.py checks it against these functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from leekha.common.cards import BIT, SUIT_OF
from leekha.common.config import RulesConfig

Trick = Sequence[tuple[int, int]]  # (seat, card) in the order played

_ZERO: Final = (0,) * 52


def points_table(config: RulesConfig, doubled_mask: int = 0) -> tuple[int, ...]:
    """Points of each of the 52 cards this round: a doubled card counts twice."""
    base = config.card_points()
    if not doubled_mask:
        return base
    return tuple(p * 2 if doubled_mask & BIT[c] else p for c, p in enumerate(base))


def led_high(trick: Trick) -> int:
    """The card that takes the trick: the highest card of the suit that was led."""
    # A loop rather than max() over a generator: the heuristic bot asks on every card it
    # follows with, and the generator cost more than the comparison.
    led = SUIT_OF[trick[0][1]]
    high = -1
    for _, c in trick:
        if c > high and SUIT_OF[c] == led:
            high = c
    return high


def take_trick(trick: Trick, high: int, table: Sequence[int]) -> tuple[int, int, int]:
    """(winner, mask of the trick's cards, points) of a full trick whose high card is `high`.

    The winner is whoever played `high`; points come from `table` (see `points_table`).
    """
    winner = -1
    won = 0
    pts = 0
    for seat, c in trick:
        if c == high:
            winner = seat
        won |= BIT[c]
        pts += table[c]
    return winner, won, pts


def trick_winner(trick: Trick) -> int:
    """The seat that takes `trick`."""
    return take_trick(trick, led_high(trick), _ZERO)[0]


def trick_points(trick: Trick, table: Sequence[int]) -> int:
    return take_trick(trick, -1, table)[2]


def moon_seat(taken: Sequence[int], penalty_mask: int) -> int | None:
    """The seat that took every penalty card this round, if one did."""
    for seat, got in enumerate(taken):
        if got & penalty_mask == penalty_mask:
            return seat
    return None


def round_scores(
    points: Sequence[int], taken: Sequence[int], *, moon: int, penalty_mask: int
) -> list[int]:
    """Each seat's score for a finished round, from the points it took.

    With a moon penalty, the seat that took every penalty card scores max(penalty, points):
    the penalty replaces a smaller haul and never lowers one.
    """
    out = list(points)
    if moon:
        seat = moon_seat(taken, penalty_mask)
        if seat is not None:
            out[seat] = max(moon, out[seat])
    return out
