"""Every tier only ever answers with legal moves, under any rule configuration."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_bots_support import configs, play_checked

from leekha.common.bots.base import Strategy, make_strategy, play_out, strategy_names
from leekha.common.bots.heuristic import HeuristicStrategy
from leekha.common.bots.search import SearchStrategy
from leekha.common.config import PRESETS, RulesConfig
from leekha.common.game import OVER, Game

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(config=configs, seed=st.integers(0, 2**31))
def test_all_tiers_play_legally(config: RulesConfig, seed: int) -> None:
    strategies: list[Strategy] = [
        SearchStrategy(seed, think_ms=None, max_samples=2),
        HeuristicStrategy(seed + 1),
        make_strategy("random", seed + 2),
        HeuristicStrategy(seed + 3, doubling=False),
    ]
    shown = play_checked(Game(config, seed), strategies, rounds=2)
    assert shown


@settings(max_examples=20, deadline=None)
@given(config=configs, seed=st.integers(0, 2**31))
def test_heuristic_whole_game_is_legal(config: RulesConfig, seed: int) -> None:
    game = Game(config, seed)
    play_checked(game, [HeuristicStrategy(seed + s) for s in range(4)], rounds=30)


def test_builtin_names_are_registered() -> None:
    assert {"random", "heuristic", "search"} <= set(strategy_names())
    assert make_strategy("search", 3).name == "search"
    assert make_strategy("leekha.common.bots.heuristic:HeuristicStrategy", 3).name == "heuristic"
    with pytest.raises(ValueError):
        make_strategy("no-such-tier")


def test_play_out_finishes_a_game() -> None:
    game = play_out(Game(PRESETS["levant"], 5), [HeuristicStrategy(s) for s in range(4)])
    assert game.phase == OVER
