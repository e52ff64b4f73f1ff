"""Helpers shared by the bot tests: random rule configs and a legality-checking driver."""

from __future__ import annotations

from helpers.engine import configs
from leekha.common.bots.base import Strategy, decide, make_strategy
from leekha.common.bots.heuristic import HeuristicStrategy
from leekha.common.bots.search import SearchStrategy
from leekha.common.config import PRESETS
from leekha.common.game import OVER, PASS, Game, pass_error
from leekha.common.view import SeatView, seat_view

__all__ = ["choice_views", "configs", "play_checked", "think_ms"]


def think_ms(name: str) -> float | None:
    """The thinking budget of a search-based strategy made by name."""
    strategy = make_strategy(name, 3)
    assert isinstance(strategy, SearchStrategy), strategy
    return strategy.think_ms


def play_checked(game: Game, strategies: list[Strategy], rounds: int = 1) -> list[SeatView]:
    """Drive `game` calling the strategies directly and assert every answer is legal.

    Unlike `decide`, nothing is filtered, so an illegal double is caught too. Returns every
    view a strategy was shown (for further checks by the caller).
    """
    shown: list[SeatView] = []
    stop = game.round_no + rounds
    while game.phase != OVER and game.round_no < stop:
        if game.phase == PASS:
            for seat in range(4):
                view = seat_view(game, seat)
                shown.append(view)
                doubles = strategies[seat].choose_doubles(view)
                assert set(doubles) <= set(view.can_double), (doubles, view.can_double)
                for c in doubles:
                    game.double(seat, c)
                view = seat_view(game, seat)
                cards = list(strategies[seat].choose_pass(view))
                assert pass_error(game.config, view.hand_mask, cards) is None, cards
                game.pass_cards(seat, cards)
        else:
            turn = game.turn
            assert turn is not None
            view = seat_view(game, turn)
            shown.append(view)
            c = strategies[turn].choose_play(view)
            assert c in view.legal, (c, view.legal)
            game.play(turn, c)
    return shown


def choice_views(preset: str, seed: int) -> list[SeatView]:
    """The pass views and the play views with a choice of one heuristic round of `preset`
    dealt from `seed`: fixed positions to pin a strategy's decisions on."""
    game = Game(PRESETS[preset], seed)
    bots = [HeuristicStrategy(s) for s in range(4)]
    out: list[SeatView] = []
    while game.phase != OVER and game.round_no < 1:
        if game.phase == PASS:
            seats = [s for s in range(4) if game.passed[s] is None]
        else:
            assert game.turn is not None
            seats = [game.turn]
        for seat in seats:
            view = seat_view(game, seat)
            if game.phase == PASS or len(view.legal) > 1:
                out.append(view)
            for action in decide(bots[seat], view):
                game.apply(action)
    return out
