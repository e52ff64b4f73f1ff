"""Strategies decide from a seat's view alone: no path to the Game, no hidden-card leak."""

from __future__ import annotations

from typing import Any

import pytest
from helpers.views import reachable

from leekha.common import cards as C
from leekha.common.bots.base import Strategy, decide, play_out
from leekha.common.bots.heuristic import HeuristicStrategy
from leekha.common.bots.learned import EndgameSearch
from leekha.common.bots.levels import EasyStrategy
from leekha.common.bots.net import NetStrategy
from leekha.common.bots.search import SearchStrategy
from leekha.common.bots.search1 import Search1Strategy
from leekha.common.config import CLASSIC, LEVANT
from leekha.common.game import Game
from leekha.common.view import SeatView, seat_view


def test_no_game_is_reachable_from_a_view() -> None:
    game = Game(LEVANT, 7)
    bots: list[Strategy] = [HeuristicStrategy(s) for s in range(4)]
    play_out(game, bots, rounds=1)  # stops at the next round's pass phase
    for seat in range(4):
        for action in decide(bots[seat], seat_view(game, seat)):
            game.apply(action)
    for _ in range(6):  # a few plays into the second round
        turn = game.turn
        assert turn is not None
        for action in decide(bots[turn], seat_view(game, turn)):
            game.apply(action)
    view = seat_view(game, 0)
    objs = reachable(view)
    assert len(objs) > 20  # the walk did descend into the view
    assert not any(isinstance(o, Game) for o in objs)
    # No other seat's hand is present as a card list.
    for seat in (1, 2, 3):
        assert C.cards_of(game.hands[seat]) not in [o for o in objs if isinstance(o, list)]


class Spy:
    name = "spy"

    def __init__(self, inner: Strategy) -> None:
        self.inner = inner
        self.args: list[Any] = []

    def choose_doubles(self, view: SeatView) -> list[int]:
        self.args.append(view)
        return self.inner.choose_doubles(view)

    def choose_pass(self, view: SeatView) -> list[int]:
        self.args.append(view)
        return self.inner.choose_pass(view)

    def choose_play(self, view: SeatView) -> int:
        self.args.append(view)
        return self.inner.choose_play(view)


def test_strategies_are_only_ever_handed_seat_views() -> None:
    spies = [Spy(HeuristicStrategy(s)) for s in range(4)]
    play_out(Game(CLASSIC, 3), list(spies), rounds=1)
    for seat, spy in enumerate(spies):
        assert spy.args and all(type(a) is SeatView and a.seat == seat for a in spy.args)


def _two_positions() -> tuple[Game, Game]:
    """Same view for seat 0 (own hand, trick), different hidden hands for seats 1-3."""
    mine = C.mask_of(C.parse_cards("2C 5C 9C KC 3D 7D 10D 4H 8H QH 2S 6S JS"))
    rest = [c for c in range(52) if not mine >> c & 1]
    a = [mine, C.mask_of(rest[0:13]), C.mask_of(rest[13:26]), C.mask_of(rest[26:39])]
    b = [mine, C.mask_of(rest[26:39]), C.mask_of(rest[0:13]), C.mask_of(rest[13:26])]
    # Seat 3 leads a card both deals give it... pick the lowest spade it holds in each,
    # so build the trick from a card moved into seat 3's hand in both deals.
    lead = C.parse_card("3S")
    for hands in (a, b):
        holder = next(s for s in range(4) if hands[s] >> lead & 1)
        if holder != 3:
            swap = C.lowest(hands[3] & ~C.SUIT_MASK[C.SPADES])
            hands[holder] ^= (1 << lead) | (1 << swap)
            hands[3] ^= (1 << lead) | (1 << swap)
    ga = Game.position(CLASSIC, a, dealer=2, leader=3, trick=[(3, lead)])
    gb = Game.position(CLASSIC, b, dealer=2, leader=3, trick=[(3, lead)])
    return ga, gb


@pytest.mark.parametrize(
    "make",
    [
        lambda: HeuristicStrategy(11),
        lambda: SearchStrategy(11, think_ms=None, max_samples=6),
        lambda: Search1Strategy(11, think_ms=None, max_samples=6),
        lambda: EasyStrategy(11),
        lambda: NetStrategy(11),
        lambda: EndgameSearch(11, think_ms=None, max_samples=6),
    ],
)
def test_identical_views_give_identical_decisions(make: Any) -> None:
    ga, gb = _two_positions()
    assert ga.hands[1:] != gb.hands[1:]
    va, vb = seat_view(ga, 0), seat_view(gb, 0)
    assert va == vb
    assert make().choose_play(va) == make().choose_play(vb)
