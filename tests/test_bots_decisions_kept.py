"""The bots' speed work must not change a single decision.

The digests below are of whole seeded games' action logs, recorded from the code before
the incremental views, the incremental tracker and the faster pass ranking went in; any
changed choice anywhere in a game changes its digest.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from leekha.common.bots.base import Strategy, make_strategy, play_out
from leekha.common.bots.search import SearchStrategy
from leekha.common.bots.search1 import Search1Strategy
from leekha.common.config import PRESETS
from leekha.common.game import Game

# preset: (heuristic x4, 12 games; easy x4, 4 games; search/search1, one round)
REFERENCE = {
    "classic": ("2aaed83def45efed", "80492838aeb93f4c", "219e811c1b21761b"),
    "levant": ("976de4ebe90d5d3a", "8c000fce48bfb351", "5127facac6d5f1f4"),
    "golden": ("ec8428c52318b002", "a9002ea81216b992", "5127facac6d5f1f4"),
    "partnership": ("ecf6b29f9cef5761", "37e5d8137d28b858", "7e0e966b8dfb13df"),
    "idlib": ("ca52f9dc970cf9da", "62d373afcfe79098", "248e6eb00594b416"),
    "idlib_talyeekh": ("ccc1bd2061985352", "fc4916324ef3f3b3", "7eb8ef48b8b032b4"),
}


def digest(games: list[Game]) -> str:
    h = hashlib.sha256()
    for game in games:
        h.update(json.dumps(game.actions).encode())
    return h.hexdigest()[:16]


def level_games(spec: str, preset: str, count: int) -> list[Game]:
    games = []
    for g in range(count):
        game = Game(PRESETS[preset], 7919 * g + 11)
        games.append(play_out(game, [make_strategy(spec, 4 * g + s) for s in range(4)]))
    return games


@pytest.mark.parametrize("preset", sorted(REFERENCE))
def test_heuristic_and_easy_games_are_unchanged(preset: str) -> None:
    heuristic, easy, _ = REFERENCE[preset]
    assert digest(level_games("heuristic", preset, 12)) == heuristic
    assert digest(level_games("easy", preset, 4)) == easy


@pytest.mark.parametrize("preset", sorted(REFERENCE))
def test_search_rounds_are_unchanged(preset: str) -> None:
    bots: list[Strategy] = [
        SearchStrategy(1, think_ms=None, max_samples=12),
        Search1Strategy(2, think_ms=None, max_samples=8),
    ]
    game = play_out(Game(PRESETS[preset], 5), bots * 2, rounds=1)
    assert digest([game]) == REFERENCE[preset][2]
