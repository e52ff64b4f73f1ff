"""Every tier only ever answers with legal moves, under any rule configuration."""

from __future__ import annotations

import pytest
from helpers.bots import configs, play_checked, think_ms
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


@SETTINGS
@given(config=configs, seed=st.integers(0, 2**31))
def test_learned_tiers_play_legally(config: RulesConfig, seed: int) -> None:
    strategies = [
        make_strategy("net", seed),
        make_strategy("search-eg@0", seed + 1),
        make_strategy("search-net@0", seed + 2),
        make_strategy("search-prior@0", seed + 3),
    ]
    for s in strategies[1:]:
        s.max_samples = 2  # type: ignore[attr-defined]
    assert play_checked(Game(config, seed), strategies, rounds=2)


@settings(max_examples=20, deadline=None)
@given(config=configs, seed=st.integers(0, 2**31))
def test_heuristic_whole_game_is_legal(config: RulesConfig, seed: int) -> None:
    game = Game(config, seed)
    play_checked(game, [HeuristicStrategy(seed + s) for s in range(4)], rounds=30)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs, seed=st.integers(0, 2**31))
def test_every_level_plays_legally(config: RulesConfig, seed: int) -> None:
    strategies = [
        make_strategy("easy", seed),
        make_strategy("medium", seed + 1),
        make_strategy("hard@0", seed + 2),
        make_strategy("search1@0", seed + 3),
    ]
    for s in strategies[2:]:
        s.max_samples = 2  # type: ignore[attr-defined]
    assert play_checked(Game(config, seed), strategies, rounds=2)


def test_builtin_names_are_registered() -> None:
    names = set(strategy_names())
    assert {"random", "heuristic", "search", "search1", "easy", "medium", "hard"} <= names
    assert {"net", "search-eg", "search-net", "search-prior"} <= names
    assert make_strategy("search1", 3).name == "search1"
    assert think_ms("hard") == 50.0
    assert think_ms("search@7") == 7.0
    assert think_ms("search@0") is None
    for bad in ("search@x", "search@-1", "heuristic@5"):
        with pytest.raises(ValueError):
            make_strategy(bad)
    assert make_strategy("search", 3).name == "search"
    assert make_strategy("leekha.common.bots.heuristic:HeuristicStrategy", 3).name == "heuristic"
    with pytest.raises(ValueError):
        make_strategy("no-such-tier")


def test_play_out_finishes_a_game() -> None:
    game = play_out(Game(PRESETS["levant"], 5), [HeuristicStrategy(s) for s in range(4)])
    assert game.phase == OVER
