"""The second-generation search: its rollouts, values and sampler checked against the engine."""

from __future__ import annotations

import random

from helpers.bots import configs
from helpers.views import reachable
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leekha.common import cards as C
from leekha.common.bots.base import Strategy, decide, play_out
from leekha.common.bots.heuristic import HeuristicStrategy
from leekha.common.bots.policy import PlayPolicy
from leekha.common.bots.rollout import golden_stop, play_round
from leekha.common.bots.search import SearchStrategy
from leekha.common.bots.simulate import Rules
from leekha.common.bots.tracker import Tracker
from leekha.common.bots.values import game_winners, in_reach, utility, win_chance
from leekha.common.bots.worlds import WorldWeights, play_events
from leekha.common.config import GOLDEN, PARTNERSHIP, PRESETS, RulesConfig
from leekha.common.game import OVER, PASS, PLAY, Game
from leekha.common.view import SeatView, seat_view

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def midround(config: RulesConfig, seed: int, plays: int) -> Game:
    """A game `plays` cards into a round (heuristic seats), possibly in a later round."""
    game = Game(config, seed)
    bots: list[Strategy] = [HeuristicStrategy(seed + s) for s in range(4)]
    rng = random.Random(seed)
    play_out(game, bots, rounds=rng.randrange(2))
    if game.phase == OVER:
        game = Game(config, seed)
    while game.phase == PASS:
        for seat in range(4):
            for action in decide(bots[seat], seat_view(game, seat)):
                game.apply(action)
    for _ in range(plays):
        if game.phase != PLAY or game.turn is None:
            break
        turn = game.turn
        for action in decide(bots[turn], seat_view(game, turn)):
            game.apply(action)
    return game


def round_start_hands(view: SeatView, world: list[int]) -> list[int]:
    """Each seat's hand when this round's play began, in a sampled world."""
    hands = list(world)
    for cards in [*(t["cards"] for t in view.tricks), view.trick]:
        for s, c in cards:
            hands[s] |= C.BIT[c]
    return hands


@SETTINGS
@given(config=configs, seed=st.integers(0, 2**31), plays=st.integers(0, 45))
def test_every_sampled_world_replays_through_the_engine(
    config: RulesConfig, seed: int, plays: int
) -> None:
    game = midround(config, seed, plays)
    if game.phase != PLAY:
        return
    rng = random.Random(seed)
    for seat in range(4):
        view = seat_view(game, seat)
        tracker = Tracker(view)
        rules = Rules(config, game.doubled_mask)
        weigh = WorldWeights(view, tracker, rules, PlayPolicy(rules, partners=False))
        for _ in range(5):
            world = tracker.deal(rng) if _ % 2 else tracker.sample(rng)
            assert world[seat] == game.hands[seat]
            assert [h.bit_count() for h in world] == [h.bit_count() for h in game.hands]
            assert 0 < weigh(world) <= 1
            # The engine accepts the round's every play from the world's starting hands,
            # and every card the seat knows the place of is where it knows.
            start = round_start_hands(view, world)
            first = view.tricks[0]["leader"] if view.tricks else view.leader
            assert first is not None
            replay = Game.position(
                config, start, dealer=game.dealer, leader=first, doubled=game.doubled
            )
            for cards in [*(t["cards"] for t in view.tricks), view.trick]:
                for s, c in cards:
                    replay.play(s, c)
            assert replay.hands == world
            # Cards whose holder the seat knows (its pass, the doubles) are where the engine
            # has them, in every world.
            for s in range(4):
                assert tracker.known[s] & game.hands[s] == tracker.known[s]
                assert tracker.known[s] & world[s] == tracker.known[s]
            if view.passed is not None and view.pass_to is not None:
                still = C.mask_of(view.passed) & ~tracker.played
                assert world[view.pass_to] & still == still


def test_the_play_weights_prefer_the_world_that_explains_a_play() -> None:
    # Seat 1 followed the 2S lead with the 5S. Second hand, the policy stays low: with the
    # 3S in hand it would have played the 3S, so the world where seat 1 still holds the
    # 3S (the real one) is less likely than one where seat 2 holds it instead.
    game = Game.position(
        PRESETS["classic"],
        [
            C.mask_of(C.parse_cards("2S 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2C")),
            C.mask_of(C.parse_cards("3S 5S 2D 3D 4D 5D 6D 7D 8D 9D JD QD KD")),
            C.mask_of(C.parse_cards("4S 6S 7S 8S 9S 10S JS QS KS AS AD 2H 3H")),
            C.mask_of(C.parse_cards("4H 5H 6H 7H 8H 9H 10H JH QH KH AH 10D 3C")),
        ],
        dealer=3,
        leader=0,
        trick=[(0, C.parse_card("2S")), (1, C.parse_card("5S"))],
    )
    view = seat_view(game, 0)
    tracker = Tracker(view)
    rules = Rules(view.config)
    weigh = WorldWeights(view, tracker, rules, PlayPolicy(rules, partners=False))
    assert len(play_events(view, rules)) == 1
    real = list(game.hands)
    swapped = list(game.hands)
    moved = C.BIT[C.parse_card("3S")] | C.BIT[C.parse_card("2H")]
    swapped[1] ^= moved
    swapped[2] ^= moved
    assert weigh(swapped) == 1.0
    assert weigh(real) < 1.0


@SETTINGS
@given(config=configs, seed=st.integers(0, 2**31), plays=st.integers(0, 50))
def test_rollouts_score_as_the_engine_does(config: RulesConfig, seed: int, plays: int) -> None:
    game = midround(config, seed, plays)
    if game.phase != PLAY or game.turn is None:
        return
    rules = Rules(config, game.doubled_mask)
    chosen: list[int] = []
    policy = PlayPolicy(rules, partners=config.partnership != "off")

    def recording(
        seat: int, hand: int, legal: int, trick: list[tuple[int, int]], high: int, played: int
    ) -> int:
        c = policy(seat, hand, legal, trick, high, played)
        chosen.append(c)
        return c

    played = 0
    for t in game.tricks:
        for _, c in t["cards"]:
            played |= C.BIT[c]
    for _, c in game.trick:
        played |= C.BIT[c]
    totals = list(game.totals)
    scores = play_round(
        rules,
        recording,
        list(game.hands),
        game.turn,
        list(game.trick),
        played,
        list(game.round_points),
        list(game.taken),
        golden_stop(config, totals),
    )
    # The engine, fed the same choices (forced cards are the only legal ones).
    round_no = game.round_no
    picks = iter(chosen)
    while game.phase == PLAY and game.round_no == round_no:
        seat = game.turn
        assert seat is not None
        legal = game.legal_moves(seat)
        # Past the rollout's early stop (no card that scores left) any card will do.
        game.play(seat, legal[0] if len(legal) == 1 else next(picks, legal[0]))
    assert scores == game.history[-1]
    assert [totals[s] + scores[s] for s in range(4)] == game.totals


@settings(max_examples=25, deadline=None)
@given(config=configs, seed=st.integers(0, 2**31))
def test_game_winners_agrees_with_the_engine(config: RulesConfig, seed: int) -> None:
    game = Game(config, seed)
    play_out(game, [HeuristicStrategy(seed + s) for s in range(4)], rounds=60)
    totals = game.totals
    if game.phase == OVER:
        assert game.outcome is not None
        assert game_winners(config, totals) == list(game.outcome.winners)
        assert win_chance(config, totals, game.outcome.winners[0]) == 1.0
    else:
        assert game_winners(config, totals) is None


def test_values_push_the_leader_and_count_the_team() -> None:
    # Near the target, the same 10 points are worth more on the leader than on the last.
    assert win_chance(GOLDEN, [20, 30, 95, 40], 0) > win_chance(GOLDEN, [20, 30, 85, 50], 0)
    assert win_chance(GOLDEN, [20, 30, 85, 50], 0) > 0.25
    # Partnership: a partner's points count as one's own, the opponents' against.
    base = [10, 10, 10, 10]
    assert utility(PARTNERSHIP, base, [0, 0, 13, 0], 0) < utility(
        PARTNERSHIP, base, [0, 13, 0, 0], 0
    )
    assert utility(PARTNERSHIP, base, [0, 0, 13, 0], 0) == utility(
        PARTNERSHIP, base, [13, 0, 0, 0], 0
    )
    # Far from the end, fewer own points is better and nothing else is certain.
    assert 0 < win_chance(PRESETS["classic"], base, 1) < 1


def test_the_game_counts_only_once_a_round_could_end_it() -> None:
    classic = PRESETS["classic"]
    assert not in_reach(classic, [40, 64, 10, 0], 36)
    assert in_reach(classic, [40, 65, 10, 0], 36)
    # Partners reach the target together.
    assert in_reach(PARTNERSHIP, [30, 0, 40, 0], PARTNERSHIP.target - 70)
    assert not in_reach(PARTNERSHIP, [30, 0, 40, 0], PARTNERSHIP.target - 71)
    bot = SearchStrategy(1, think_ms=None)
    far = bot._value(classic, [0, 0, 0, 0], [13, 0, 10, 13], 0, near=False)
    assert far == -13.0  # the round's points, nothing else
    # Near the end, putting the points on the leader is worth taking a few.
    totals = [60, 90, 30, 70]
    assert bot._value(classic, totals, [3, 0, 13, 0], 0, near=True) > bot._value(
        classic, totals, [0, 0, 0, 16], 0, near=True
    )
    team = bot._value(PARTNERSHIP, [0, 0, 0, 0], [5, 0, 8, 0], 0, near=False)
    assert team == -13.0


def test_search_reaches_no_game_and_repeats_itself() -> None:
    game = midround(PRESETS["levant"], 3, 9)
    assert game.turn is not None
    view = seat_view(game, game.turn)
    bot = SearchStrategy(5, think_ms=None, max_samples=12)
    first = bot.choose_play(view)
    assert not any(isinstance(o, Game) for o in reachable(bot))
    assert SearchStrategy(5, think_ms=None, max_samples=12).choose_play(view) == first
    assert first in view.legal


def test_pass_search_is_legal_repeatable_and_keeps_its_doubles() -> None:
    for seed in range(4):
        game = Game(PRESETS["levant"], seed)
        for seat in range(4):
            view = seat_view(game, seat)
            a = SearchStrategy(seed, think_ms=None, max_samples=6)
            b = SearchStrategy(seed, think_ms=None, max_samples=6)
            doubles = a.choose_doubles(view)
            assert doubles == b.choose_doubles(view)
            assert set(doubles) <= set(view.can_double)
            passed = a.choose_pass(view)
            assert passed == b.choose_pass(view)
            assert not set(doubles) & set(passed)
            assert game.check_pass(seat, passed)
