"""The tracker's deductions are sound (never contradict the real deal) and its samples fit."""

from __future__ import annotations

import random

from helpers.bots import configs
from helpers.engine import cards, hand, position
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leekha.common import cards as C
from leekha.common.bots.heuristic import HeuristicStrategy
from leekha.common.bots.tracker import Tracker
from leekha.common.config import CLASSIC, IDLIB, LEVANT, RulesConfig
from leekha.common.game import OVER, PASS, PLAY, Game
from leekha.common.view import seat_view

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(config=configs, seed=st.integers(0, 2**31), rng_seed=st.integers(0, 2**31))
def test_deductions_are_sound_and_samples_consistent(
    config: RulesConfig, seed: int, rng_seed: int
) -> None:
    rng = random.Random(rng_seed)
    game = Game(config, seed)
    bots = [HeuristicStrategy(seed + s) for s in range(4)]
    checked = 0
    while game.phase != OVER and game.round_no < 2:
        if game.phase == PASS:
            for seat in range(4):
                for c in bots[seat].choose_doubles(seat_view(game, seat)):
                    game.double(seat, c)
                game.pass_cards(seat, bots[seat].choose_pass(seat_view(game, seat)))
            continue
        assert game.phase == PLAY and game.turn is not None
        me = game.turn
        tracker = Tracker(seat_view(game, me))
        for s in range(4):
            assert tracker.absent[s] & game.hands[s] == 0, "proved absent a card it holds"
            assert tracker.known[s] & ~game.hands[s] == 0, "placed a card where it is not"
            assert tracker.hand_sizes[s] == game.hands[s].bit_count()
        sample = tracker.sample(rng)
        assert sample[me] == game.hands[me]
        assert sum(h.bit_count() for h in sample) == sum(tracker.hand_sizes)
        assert sample[0] | sample[1] | sample[2] | sample[3] == tracker.unseen | tracker.hand
        for s in range(4):
            assert sample[s].bit_count() == tracker.hand_sizes[s]
            assert sample[s] & tracker.absent[s] == 0 or s == me
        checked += 1
        move = bots[me].choose_play(seat_view(game, me))
        game.play(me, move)
    assert checked


def _tracker_after(config: RulesConfig, hands: list[str], trick: str, seat: int = 0) -> Tracker:
    game = position(config, hands, leader=0, trick=trick)
    return Tracker(seat_view(game, seat))


def test_plain_discard_proves_no_leekha_under_any_leekha() -> None:
    hands = ["2C 3C", "5H 6H", "QS 7C", "10D 8C"]
    t = _tracker_after(CLASSIC, hands, "2C 5H")
    assert t.void_suits(1) & (1 << C.CLUBS)
    assert t.lacks(1, C.QUEEN_SPADES) and t.lacks(1, C.TEN_DIAMONDS)
    assert not t.lacks(2, C.QUEEN_SPADES)


def test_queen_only_discard_proves_only_the_queen_absent() -> None:
    hands = ["2C 3C", "5H 6H", "QS 7C", "10D 8C"]
    t = _tracker_after(LEVANT, hands, "2C 5H")
    assert t.lacks(1, C.QUEEN_SPADES)
    assert not t.lacks(1, C.TEN_DIAMONDS)


def test_talbees_and_undercut_prove_absence() -> None:
    # Talbees: seat 2 follows a K♠ trick without the Q♠, so it has none.
    t = _tracker_after(LEVANT, ["KS 2C", "3S 2D", "4S 3D", "QS 4D"], "KS 3S 4S")
    assert t.lacks(2, C.QUEEN_SPADES) and t.lacks(1, C.QUEEN_SPADES)
    # Undercut: with K♣ on the trick, playing above it proves no lower club.
    t = _tracker_after(IDLIB, ["5C 2D", "KC 3D", "AC 4D", "2C 5D"], "5C KC AC")
    assert all(t.lacks(2, c) for c in cards("2C 3C 4C 6C QC"))
    assert not t.lacks(1, C.parse_card("2C"))


def test_own_pass_is_located_until_played() -> None:
    game = Game(CLASSIC, 4)
    bots = [HeuristicStrategy(s) for s in range(4)]
    for seat in range(4):
        game.pass_cards(seat, bots[seat].choose_pass(seat_view(game, seat)))
    view = seat_view(game, 0)
    assert view.passed is not None and view.pass_to == 1
    t = Tracker(view)
    assert t.known[1] == hand(" ".join(C.format_card(c, ascii=True) for c in view.passed))
    assert all(t.lacks(s, c) for s in (2, 3) for c in view.passed)
