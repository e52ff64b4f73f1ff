"""Helpers shared by the bot tests: random rule configs and a legality-checking driver."""

from __future__ import annotations

from hypothesis import strategies as st

from leekha.common.bots.base import Strategy
from leekha.common.config import (
    DEALER_RULES,
    GAME_ENDS,
    PARTNERSHIPS,
    PASS_DIRECTIONS,
    VOID_RULES,
    RulesConfig,
)
from leekha.common.game import OVER, PASS, Game, pass_error
from leekha.common.view import SeatView, seat_view

configs = st.builds(
    RulesConfig,
    target=st.integers(20, 160),
    pass_direction=st.sampled_from(PASS_DIRECTIONS),
    pass_ban=st.booleans(),
    void_rule=st.sampled_from(VOID_RULES),
    talbees=st.booleans(),
    doubling=st.booleans(),
    partnership=st.sampled_from(PARTNERSHIPS),
    game_end=st.sampled_from(GAME_ENDS),
    club_leekha=st.booleans(),
    undercut=st.booleans(),
    dealer_rule=st.sampled_from(DEALER_RULES),
    moon_penalty=st.sampled_from([0, 37]),
)


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
            seat = game.turn
            assert seat is not None
            view = seat_view(game, seat)
            shown.append(view)
            c = strategies[seat].choose_play(view)
            assert c in view.legal, (c, view.legal)
            game.play(seat, c)
    return shown
