"""The scoring module on hand-worked tricks and rounds."""

from __future__ import annotations

from helpers.engine import cards, hand

from leekha.common import cards as C
from leekha.common.config import CLASSIC, IDLIB, RulesConfig
from leekha.common.scoring import (
    led_high,
    moon_seat,
    points_table,
    round_scores,
    take_trick,
    trick_points,
    trick_winner,
)


def _trick(text: str, leader: int = 0) -> list[tuple[int, int]]:
    return [((leader + i) % 4, c) for i, c in enumerate(cards(text))]


def test_the_highest_card_of_the_led_suit_takes_the_trick() -> None:
    assert trick_winner(_trick("5H AS 9H 2H", leader=1)) == 3  # A♠ is off-suit
    assert led_high(_trick("5H AS 9H 2H")) == cards("9H")[0]
    assert trick_winner(_trick("2C KC AC 3D", leader=2)) == 0


def test_points_with_and_without_doubling() -> None:
    trick = _trick("QS 10D 5H KC")
    assert trick_points(trick, points_table(CLASSIC)) == 13 + 10 + 1
    assert trick_points(trick, points_table(IDLIB)) == 13 + 10 + 1 + 14
    doubled = points_table(IDLIB, hand("QS KC"))
    assert trick_points(trick, doubled) == 26 + 10 + 1 + 28
    assert take_trick(trick, C.QUEEN_SPADES, doubled) == (0, hand("QS 10D 5H KC"), 65)


def test_moon_takes_the_larger_of_penalty_and_points() -> None:
    every = CLASSIC.penalty_mask
    taken = [0, every, 0, 0]
    assert moon_seat(taken, every) == 1 and moon_seat([every & ~1 << 30, 0, 0, 0], every) is None
    assert round_scores([0, 36, 0, 0], taken, moon=37, penalty_mask=every) == [0, 37, 0, 0]
    # Doubling lifts the haul above the penalty; the larger stands.
    assert round_scores([0, 59, 0, 0], taken, moon=37, penalty_mask=every) == [0, 59, 0, 0]
    assert round_scores([0, 36, 0, 0], taken, moon=0, penalty_mask=every) == [0, 36, 0, 0]
    # With the K♣ a full haul is 50: a penalty of 37 never applies.
    club = RulesConfig(club_leekha=True, moon_penalty=37)
    full = [0, 0, club.round_total, 0]
    got = [0, 0, club.penalty_mask, 0]
    assert round_scores(full, got, moon=37, penalty_mask=club.penalty_mask) == full
