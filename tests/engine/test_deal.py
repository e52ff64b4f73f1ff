"""The deal is the standard library's shuffle, written out: every record replays only if
each (seed, round) keeps dealing the same hands, so the engine's own shuffle is checked
against `random.Random.shuffle` itself."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from leekha.common import cards as C
from leekha.common.game import deal


def library_deal(seed: int, round_no: int) -> list[int]:
    deck = list(range(52))
    random.Random(seed * 1_000_003 + round_no).shuffle(deck)
    return [C.mask_of(deck[i * 13 : (i + 1) * 13]) for i in range(4)]


@given(st.integers(min_value=-(2**63), max_value=2**63), st.integers(min_value=0, max_value=500))
def test_deal_is_the_library_shuffle(seed: int, round_no: int) -> None:
    assert deal(seed, round_no) == library_deal(seed, round_no)


def test_first_seeds_deal_as_the_library_does() -> None:
    for seed in range(300):
        for round_no in range(3):
            assert deal(seed, round_no) == library_deal(seed, round_no)


def test_a_deal_is_four_hands_of_thirteen_covering_the_deck() -> None:
    hands = deal(7, 0)
    assert [h.bit_count() for h in hands] == [13] * 4
    assert hands[0] | hands[1] | hands[2] | hands[3] == C.FULL_DECK
