"""The endgame solver against plain minimax through the engine's rules, on every preset."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from leekha.common import cards as C
from leekha.common.bots.base import decide
from leekha.common.bots.endgame import Solver
from leekha.common.bots.heuristic import HeuristicStrategy
from leekha.common.bots.simulate import Round, Rules
from leekha.common.config import PRESETS, RulesConfig
from leekha.common.game import PLAY, Game
from leekha.common.view import seat_view


def brute(rnd: Round, side: int, value: Callable[[list[int]], float]) -> float:
    """Plain minimax over every legal card: the side maximises `value(scores)`."""
    seat = rnd.turn
    if rnd.tricks_left == 0 or not rnd.hands[seat]:
        return value(rnd.scores())
    results = []
    for c in C.cards_of(rnd.legal(seat)):
        child = rnd.copy()
        child.play(seat, c)
        results.append(brute(child, side, value))
    return max(results) if side >> seat & 1 else min(results)


def minus_side(side: int) -> Callable[[list[int]], float]:
    return lambda scores: -float(sum(scores[i] for i in range(4) if side >> i & 1))


def positions(config: RulesConfig, tricks_left: int, count: int, seed: int) -> list[Game]:
    """Games of heuristic play stopped with `tricks_left` tricks to go (mid-trick too)."""
    rng = random.Random(seed)
    out: list[Game] = []
    while len(out) < count:
        game = Game(config, rng.randrange(1 << 20))
        bots = [HeuristicStrategy(s) for s in range(4)]
        stop_at = 52 - 4 * tricks_left + rng.randrange(4)
        played = 0
        while played < stop_at and game.round_no == 0:
            seat = game.turn if game.phase == PLAY else game.passed.index(None)
            assert seat is not None
            for action in decide(bots[seat], seat_view(game, seat)):
                game.apply(action)
                played += action["kind"] == "play"
        if game.round_no == 0 and game.phase == PLAY:
            out.append(game)
    return out


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("tricks_left", [2, 3])
def test_solver_equals_minimax(preset: str, tricks_left: int) -> None:
    config = PRESETS[preset].with_overrides({"moon_penalty": 26} if preset == "levant" else {})
    for game in positions(config, tricks_left, 6, hash((preset, tricks_left)) & 0xFFFF):
        seat, leader = game.turn, game.leader
        assert seat is not None and leader is not None
        doubled = C.mask_of(game.doubled)
        rules = Rules(config, doubled)
        partners = config.partnership != "off"
        solver = Solver(rules, seat, partners=partners)
        side = solver.side
        trick = list(game.trick)
        moves = C.cards_of(game.legal_mask(seat))
        got = solver.values(game.hands, seat, trick, game.round_points, game.taken, moves)
        leaf_values = Solver(rules, seat, partners=partners).values(
            game.hands,
            seat,
            trick,
            game.round_points,
            game.taken,
            moves,
            leaf=minus_side(side),
        )
        for c, v, w in zip(moves, got, leaf_values):
            rnd = Round(
                rules,
                game.hands,
                leader=leader,
                trick=trick,
                played=C.FULL_DECK
                & ~(game.hands[0] | game.hands[1] | game.hands[2] | game.hands[3]),
                points=game.round_points,
                taken=game.taken,
            )
            rnd.play(seat, c)
            want = brute(rnd, side, minus_side(side))
            assert v == want, (preset, c)
            assert w == want, (preset, c)


def brute_maxn(rnd: Round, me: int) -> list[int]:
    """Max-n by plain recursion: each seat takes its fewest points, ties against `me`."""
    seat = rnd.turn
    if rnd.tricks_left == 0 or not rnd.hands[seat]:
        return rnd.scores()
    best: list[int] | None = None
    for c in C.cards_of(rnd.legal(seat)):
        child = rnd.copy()
        child.play(seat, c)
        v = brute_maxn(child, me)
        if best is None or (v[seat], -v[me]) < (best[seat], -best[me]):
            best = v
    assert best is not None
    return best


@pytest.mark.parametrize("preset", ["classic", "levant", "idlib", "idlib_talyeekh"])
def test_max_n_equals_plain_max_n(preset: str) -> None:
    config = PRESETS[preset]
    for game in positions(config, 3, 5, 11):
        seat, leader = game.turn, game.leader
        assert seat is not None and leader is not None
        rules = Rules(config, C.mask_of(game.doubled))
        moves = C.cards_of(game.legal_mask(seat))
        solver = Solver(rules, seat, partners=False, maxn=True)
        got = solver.values(
            game.hands, seat, list(game.trick), game.round_points, game.taken, moves
        )
        held = game.hands[0] | game.hands[1] | game.hands[2] | game.hands[3]
        for c, v in zip(moves, got):
            rnd = Round(
                rules,
                game.hands,
                leader=leader,
                trick=list(game.trick),
                played=C.FULL_DECK & ~held,
                points=game.round_points,
                taken=game.taken,
            )
            rnd.play(seat, c)
            assert v == -brute_maxn(rnd, seat)[seat]
