"""Levels for people: registered like tiers, accepted per bot seat, easy's mistakes."""

from __future__ import annotations

from helpers.bots import think_ms

from leekha.common import cards as C
from leekha.common.bots.base import make_strategy
from leekha.common.bots.levels import impulse
from leekha.common.config import CLASSIC
from leekha.server.domain.seats import bot_strategy_name

POINTS = CLASSIC.card_points()


def mask(text: str) -> int:
    return C.mask_of(C.parse_cards(text))


def test_levels_are_strategy_names_the_lobby_accepts() -> None:
    for level, tier_name in (("easy", "easy"), ("medium", "medium"), ("hard", "hard")):
        assert bot_strategy_name(level) == level
        assert make_strategy(level, 1).name == tier_name
    assert think_ms("hard") == 50.0


def test_easy_runs_its_longest_suit_from_the_top() -> None:
    hand = mask("2C 9C KC 3D 4D 5D JD 2S")
    assert impulse(hand, hand, [], -1, POINTS) == C.parse_card("JD")


def test_easy_drops_a_high_card_on_a_clean_trick_and_ducks_a_dirty_one() -> None:
    spades = mask("4S 8S AS")
    led = [(0, C.parse_card("6S"))]
    assert impulse(spades, spades, led, C.parse_card("6S"), POINTS) == C.parse_card("AS")
    hearts = mask("3H 9H KH")
    led = [(0, C.parse_card("10H"))]  # a heart on the trick: not clean, duck under it
    assert impulse(hearts, hearts, led, C.parse_card("10H"), POINTS) == C.parse_card("9H")


def test_easy_saves_its_point_cards_when_void() -> None:
    hand = mask("QS 10D 9C JC")
    led = [(0, C.parse_card("2H"))]
    assert impulse(hand, hand, led, C.parse_card("2H"), POINTS) == C.parse_card("JC")
