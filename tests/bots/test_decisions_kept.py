"""The bots' speed work must not change a single decision.

The digests below are of whole seeded games' action logs, recorded from the code before
the incremental views, the incremental tracker and the faster pass ranking went in; any
changed choice anywhere in a game changes its digest.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import FrozenInstanceError, fields
from typing import Any

import pytest

from leekha.common import cards as C
from leekha.common.bots.base import Strategy, decide, make_strategy, play_out
from leekha.common.bots.heuristic import HeuristicStrategy, card_danger, ranked_passes
from leekha.common.bots.search import SearchStrategy
from leekha.common.bots.search1 import Search1Strategy
from leekha.common.bots.tracker import Tracker
from leekha.common.config import PRESETS, RulesConfig
from leekha.common.game import OVER, PLAY, Game
from leekha.common.legality import legal_passes
from leekha.common.view import SeatView, SeatViews, seat_view

# preset: (heuristic x4, 12 games; easy x4, 4 games; search1 x4, one round; search x4,
# one round). search1 is the baseline and must never change. search's digest is of its
# second generation as tuned on 30 Nov (six pass candidates, one standard error to switch,
# round points until the game is in reach): re-record it only with a measured reason.
REFERENCE = {
    "classic": ("2aaed83def45efed", "80492838aeb93f4c", "bea26fdc15278c72", "dc8e5a9cf09965ca"),
    "levant": ("976de4ebe90d5d3a", "8c000fce48bfb351", "73fc18c95fe6ed35", "6569ee64bb55d612"),
    "golden": ("ec8428c52318b002", "a9002ea81216b992", "73fc18c95fe6ed35", "6569ee64bb55d612"),
    "partnership": (
        "ecf6b29f9cef5761",
        "37e5d8137d28b858",
        "6f1712cb73b4aa5e",
        "7edeab3ba434cb08",
    ),
    "idlib": ("ca52f9dc970cf9da", "62d373afcfe79098", "1c53e4766641dd60", "bb2d3394237ea92c"),
    "idlib_talyeekh": (
        "ccc1bd2061985352",
        "fc4916324ef3f3b3",
        "3cfbc77badfcfe5f",
        "8de75f5febd088f6",
    ),
}


def digest(games: list[Game]) -> str:
    h = hashlib.sha256()
    for game in games:
        h.update(json.dumps(game.actions).encode())
    return h.hexdigest()[:16]


def level_games(spec: str, preset: str, count: int, slow: bool = False) -> list[Game]:
    """`slow`: every view from scratch and the heuristic's tracker rebuilt each decision."""
    games = []
    for g in range(count):
        game = Game(PRESETS[preset], 7919 * g + 11)
        bots: list[Strategy] = [
            HeuristicStrategy(4 * g + s, carry_on=False) if slow else make_strategy(spec, 4 * g + s)
            for s in range(4)
        ]
        games.append(play_out(game, bots, fresh_views=slow))
    return games


@pytest.mark.parametrize("preset", sorted(REFERENCE))
def test_heuristic_and_easy_games_are_unchanged(preset: str) -> None:
    heuristic, easy, *_ = REFERENCE[preset]
    assert digest(level_games("heuristic", preset, 12)) == heuristic
    assert digest(level_games("heuristic", preset, 3, slow=True)) == digest(
        level_games("heuristic", preset, 3)
    )
    assert digest(level_games("easy", preset, 4)) == easy


@pytest.mark.parametrize("preset", sorted(REFERENCE))
def test_search_rounds_are_unchanged(preset: str) -> None:
    search1: list[Strategy] = [Search1Strategy(s, think_ms=None, max_samples=8) for s in range(4)]
    search: list[Strategy] = [SearchStrategy(s, think_ms=None, max_samples=12) for s in range(4)]
    games = [play_out(Game(PRESETS[preset], 5), bots, rounds=1) for bots in (search1, search)]
    assert [digest([game]) for game in games] == list(REFERENCE[preset][2:])


def states(preset: str, seed: int) -> Iterator[Game]:
    """Every state of a heuristic game (the same game object, moved on between yields)."""
    game = Game(PRESETS[preset], seed)
    bots = [make_strategy("heuristic", seed + s) for s in range(4)]
    while game.phase != OVER:
        yield game
        seat = game.turn if game.phase == PLAY else game.passed.index(None)
        assert seat is not None
        for action in decide(bots[seat], seat_view(game, seat)):
            game.apply(action)
    yield game


@pytest.mark.parametrize("preset", ["classic", "golden", "idlib_talyeekh"])
def test_incremental_views_equal_fresh_ones(preset: str) -> None:
    views = None
    for game in states(preset, 3):
        views = views or SeatViews(game)
        for seat in (0, 1, 2, 3, None):
            assert views.view(seat) == seat_view(game, seat)


def test_built_views_hold_every_declared_field_and_stay_frozen() -> None:
    # Views are built without the dataclass constructor (SeatView._of), so nothing but
    # this checks that they hold exactly the declared fields, in order.
    declared = [f.name for f in fields(SeatView)]
    for game in states("partnership", 8):
        for seat in (0, 2, None):
            view = seat_view(game, seat)
            assert list(vars(view)) == declared
            assert view == SeatView(**view.to_dict())
    with pytest.raises(FrozenInstanceError):
        view.turn = 0  # type: ignore[misc]


@pytest.mark.parametrize("preset", ["classic", "levant", "idlib_talyeekh"])
def test_a_carried_on_tracker_equals_a_fresh_one(preset: str) -> None:
    # Carried on from this seat's previous view, from another seat's and from another
    # game's: only a tracker of the same seat, rules and tricks so far may be used.
    stale = Tracker(seat_view(next(iter(states(preset, 99))), 0))
    last: dict[int, Tracker] = {}
    for game in states(preset, 5):
        if game.phase != PLAY:
            continue
        for seat in range(4):
            view = seat_view(game, seat)
            fresh = Tracker(view)
            for since in (last.get(seat), last.get((seat + 1) % 4), stale):
                carried = Tracker(view, since=since)
                for name in ("absent", "known", "played", "unseen", "hand_sizes"):
                    assert getattr(carried, name) == getattr(fresh, name), name
            last[seat] = fresh


def exhaustive_passes(config: RulesConfig, hand: int, keep: int, count: int) -> list[Any]:
    """The definition `ranked_passes` keeps: every legal pass scored, best first."""
    scored = []
    for i, combo in enumerate(legal_passes(config, hand)):
        rest = hand & ~C.mask_of(combo)
        emptied = sum(1 for suit in C.SUIT_MASK if hand & suit and not rest & suit)
        total = sum(card_danger(c, hand, config, keep) for c in combo) + 25 * emptied
        scored.append((-total, i, tuple(combo)))
    return [combo for _, _, combo in sorted(scored)[:count]]


def test_ranked_passes_are_the_exhaustive_ranking() -> None:
    rng = random.Random(4)
    for _ in range(300):
        config = rng.choice(list(PRESETS.values()))
        deck = rng.sample(range(52), 13)
        keep = C.mask_of(deck[: rng.choice([0, 0, 1, 2])])
        hand = C.mask_of(deck)
        for count in (1, 3):
            assert ranked_passes(config, hand, keep, count) == exhaustive_passes(
                config, hand, keep, count
            )
