"""The lean rollout simulator agrees with the engine on legality and scores."""

from __future__ import annotations

import random

from helpers.bots import configs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leekha.common import cards as C
from leekha.common.bots.search1 import distinct_moves
from leekha.common.bots.simulate import Round, Rules
from leekha.common.config import CLASSIC, RulesConfig
from leekha.common.game import PLAY, Game, deal


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs, seed=st.integers(0, 2**31), cut=st.integers(0, 51))
def test_round_matches_the_engine(config: RulesConfig, seed: int, cut: int) -> None:
    rng = random.Random(seed)
    hands = deal(seed, 0)
    doubled = {c: rng.randrange(4) for c in config.leekha_cards if rng.random() < 0.5}
    game = Game.position(config, hands, dealer=0, leader=1, doubled=doubled)
    game.config = config.with_overrides({"game_end": "round_end"})
    sim: Round | None = None
    rules = Rules(config, C.mask_of(doubled))
    for i in range(52):
        if i == cut:  # start the simulator mid-round from the engine's position
            taken = list(game.taken)
            sim = Round(
                rules,
                game.hands,
                leader=game.leader or 0,
                trick=list(game.trick),
                played=C.FULL_DECK
                & ~(game.hands[0] | game.hands[1] | game.hands[2] | game.hands[3]),
                points=game.round_points,
                taken=taken,
            )
        seat = game.turn
        assert seat is not None and game.phase == PLAY
        legal = game.legal_mask(seat)
        if sim is not None:
            assert sim.turn == seat
            assert sim.legal(seat) == legal
        c = rng.choice(C.cards_of(legal))
        game.play(seat, c)
        if sim is not None:
            sim.play(seat, c)
    assert sim is not None
    assert sim.scores() == game.history[-1]


def test_distinct_moves_merges_touching_cards_only() -> None:
    points = CLASSIC.card_points()
    legal = C.mask_of(C.parse_cards("2C 3C 5C"))
    assert distinct_moves(legal, C.mask_of(C.parse_cards("4C")), points) == C.parse_cards("2C 5C")
    assert distinct_moves(legal, 0, points) == C.parse_cards("2C")
    spades = C.mask_of(C.parse_cards("JS QS KS"))
    assert distinct_moves(spades, 0, points) == C.parse_cards("JS QS KS")
