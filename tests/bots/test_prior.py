"""The network inside the card-play search (`search-prior`), and the search's two options
it rests on: a prior in each move's mean, and stopping once the moves left are as good."""

from __future__ import annotations

import math
import random

from test_search import midround

from leekha.common import cards as C
from leekha.common.bots.base import view_config
from leekha.common.bots.features import position
from leekha.common.bots.heuristic import cached_rules
from leekha.common.bots.labels import Decisions, Labeller
from leekha.common.bots.learned import PriorSearch
from leekha.common.bots.net import scores
from leekha.common.bots.search import PRUNE_EVERY, Candidates, SearchStrategy
from leekha.common.bots.tracker import Tracker
from leekha.common.bots.values import in_reach
from leekha.common.config import PRESETS
from leekha.common.view import SeatView, seat_view


def test_the_prior_counts_as_worlds_of_average_weight() -> None:
    cands = Candidates(2, prior=[-5.0, 0.0], prior_worlds=2.0)
    cands.add(0, 0.0, 1.0)
    cands.add(0, -2.0, 1.0)
    # Two worlds of weight 1 and a prior of -5 worth two such worlds: (0 - 2 - 10) / 4.
    assert cands.mean(0) == -3.0
    assert cands.searched_mean(0) == -1.0
    # Weights halve: the prior's share stays two worlds' worth.
    half = Candidates(1, prior=[-5.0], prior_worlds=2.0)
    half.add(0, 0.0, 0.5)
    half.add(0, -2.0, 0.5)
    assert half.mean(0) == -3.0
    assert cands.mean(1) == -math.inf  # no world yet: never the best


def feed(cands: Candidates, rows: list[list[float]]) -> int:
    """Add one world a row (a value for each alive move) until settled; worlds used."""
    for n, row in enumerate(rows, 1):
        for i in list(cands.alive):
            cands.add(i, row[i], 1.0)
        cands.end_world()
        if cands.settled:
            return n
    return len(rows)


def test_a_settling_search_stops_only_when_the_rest_is_close() -> None:
    def rows(gap: float, noise: float) -> list[list[float]]:
        # Move 1 trails move 0 by `gap` on average, with +-noise alternating; move 2 is
        # hopeless.
        return [[float(k % 3), k % 3 - gap + (noise if k % 2 else -noise), -9.0] for k in range(64)]

    close = rows(0.01, 0.5)
    # Without a tolerance nothing settles; the hopeless move is pruned.
    plain = Candidates(3)
    assert feed(plain, close) == 64 and not plain.settled and plain.alive == [0, 1]
    # Within a point of each other: settled at the first pruning round.
    tolerant = Candidates(3, settle=1.0)
    assert feed(tolerant, close) == 2 * PRUNE_EVERY and tolerant.settled
    assert tolerant.alive == [0, 1]
    # A third of a point apart with noise of two: neither close nor pruned at first, so
    # the search goes on past the first pruning round.
    unsure = Candidates(3, settle=1.0)
    assert feed(unsure, rows(0.3, 2.0)) > 2 * PRUNE_EVERY
    # A point apart, little noise: the worse is pruned, the leader alone is settled.
    far = Candidates(3, settle=0.1)
    assert feed(far, rows(1.0, 0.2)) == 2 * PRUNE_EVERY and far.alive == [0]


def searched_views() -> list[SeatView]:
    views = []
    for seed in range(12):
        game = midround(PRESETS["classic"], seed, 5 + seed % 20)
        if game.turn is not None:
            views.append(seat_view(game, game.turn))
    return views


def test_without_weight_or_skips_it_decides_as_search_does() -> None:
    for k, view in enumerate(searched_views()):
        bot = PriorSearch(k, think_ms=None, max_samples=24)
        bot.prior_worlds = 0.0
        bot.prior_keep = math.inf
        ref = SearchStrategy(k, think_ms=None, max_samples=24)
        assert bot.choose_play(view) == ref.choose_play(view)
        assert bot.last_means == ref.last_means


def test_moves_the_network_rules_out_are_never_searched_or_played() -> None:
    seen = 0
    for k, view in enumerate(searched_views()):
        config = view_config(view)
        rules = cached_rules(config, C.mask_of(c for c, _ in view.doubled))
        if in_reach(config, view.totals, rules.most):
            continue
        bot = PriorSearch(k, think_ms=None, max_samples=24)
        bot.prior_keep = 0.5
        card = bot.choose_play(view)
        if not bot.last_moves:
            continue
        tracker = Tracker(view)
        points = list(
            scores(bot.net.network, position(view, tracker), [C.BIT[c] for c in bot.last_moves])
        )
        ranked = sorted(points)
        kept = [m for m, p in zip(bot.last_moves, points) if p <= ranked[0] + 0.5 or p <= ranked[1]]
        skipped = [i for i, m in enumerate(bot.last_moves) if m not in kept]
        assert card in kept
        assert all(bot.last_means[i] == -math.inf for i in skipped)
        seen += bool(skipped)
    assert seen  # the rule-out was exercised


def test_labelling_an_expert_with_the_network_keeps_the_moves_it_searched() -> None:
    out = Decisions()
    cut = 0
    for k, view in enumerate(searched_views()):
        expert = PriorSearch(k, think_ms=None, max_samples=24)
        expert.prior_keep = 0.5
        before = len(out)
        card = Labeller(expert, out, random.Random(k), 0.0).choose_play(view)
        if not expert.last_moves:
            continue
        searched = [m for m, v in zip(expert.last_moves, expert.last_means) if v > -math.inf]
        if len(searched) < 2:
            assert len(out) == before
            continue
        assert len(out) == before + 1
        got = out.cand_masks[-len(searched) :]
        assert got == [C.BIT[m] for m in searched]
        assert all(math.isfinite(v) for v in out.values[-len(searched) :])
        assert searched[out.choice[-1]] == card
        cut += len(searched) < len(expert.last_moves)
    assert cut  # some decisions had moves the network ruled out, and were still labelled
