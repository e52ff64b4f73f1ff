"""Helpers shared by the engine tests: build positions from card text."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from hypothesis import strategies as st

from leekha.common.actions import Action, Double, Pass, Play
from leekha.common.bots.base import Strategy, decide
from leekha.common.cards import mask_of, parse_cards
from leekha.common.config import (
    DEALER_RULES,
    GAME_ENDS,
    PARTNERSHIPS,
    PASS_DIRECTIONS,
    UNDERCUT_CEILINGS,
    VOID_RULES,
    RulesConfig,
)
from leekha.common.game import OVER, PASS, Game
from leekha.common.view import seat_view

# Any valid rules config: the property tests range over every variant at once.
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
    undercut_ceiling=st.sampled_from(UNDERCUT_CEILINGS),
)


def hand(text: str) -> int:
    return mask_of(parse_cards(text))


def cards(text: str) -> list[int]:
    return parse_cards(text)


def position(
    config: RulesConfig,
    hands: list[str],
    *,
    leader: int = 0,
    trick: str = "",
    dealer: int = 3,
    doubled: dict[int, int] | None = None,
) -> Game:
    """A play-phase game: `trick` is the cards already played this trick, from `leader` on."""
    played = cards(trick)
    return Game.position(
        config,
        [hand(h) for h in hands],
        dealer=dealer,
        leader=leader,
        trick=[((leader + i) % 4, c) for i, c in enumerate(played)],
        doubled=doubled,
    )


def random_action(game: Game, rng: random.Random) -> Action:
    """A random legal action: in the pass phase a double now and then, else a pass."""
    if game.phase == PASS:
        seat = rng.choice([s for s in range(4) if game.passed[s] is None])
        doubles = game.can_double(seat)
        if doubles and rng.random() < 0.5:
            return Double(seat, rng.choice(doubles))
        return Pass(seat, rng.choice(list(game.legal_passes(seat))))
    turn = game.turn
    assert turn is not None
    return Play(turn, rng.choice(game.legal_moves(turn)))


def random_game(config: RulesConfig, seed: int, rng: random.Random, max_rounds: int = 50) -> Game:
    """A whole game with random legal actions, doubles included."""
    game = Game(config, seed)
    while game.phase != OVER and game.round_no < max_rounds:
        if game.phase == PASS:
            for seat in rng.sample(range(4), 4):
                for c in game.can_double(seat):
                    if rng.random() < 0.5:
                        game.double(seat, c)
                game.pass_cards(seat, list(rng.choice(list(game.legal_passes(seat)))))
        else:
            turn = game.turn
            assert turn is not None
            game.play(turn, rng.choice(game.legal_moves(turn)))
    return game


def bot_moves(
    game: Game, strategies: Sequence[Strategy], rng: random.Random
) -> Iterator[dict[str, object]]:
    """The actions of a whole game played by `strategies` (one a seat), a random seat moving
    when several may pass. The caller applies each action before asking for the next."""
    while game.phase != OVER:
        movers = (
            [s for s in range(4) if game.passed[s] is None] if game.phase == PASS else [game.turn]
        )
        seat = rng.choice(movers)
        assert seat is not None
        yield from decide(strategies[seat], seat_view(game, seat))
