"""The NumPy batch engine against the scalar engine, step by step, on random configs and deals."""

from __future__ import annotations

import random
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from leekha.common import cards as C

# The batch engine is a benchmark tool (bench/batch.py), not part of the package.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from batch import BatchRounds, random_cards, random_rounds

from leekha.common.config import (
    PASS_DIRECTIONS,
    PRESETS,
    VOID_RULES,
    RulesConfig,
)
from leekha.common.game import Game, deal, legal_passes, pass_error, passable_mask
from leekha.common.scoring import points_table, round_scores


def random_config(rng: random.Random) -> RulesConfig:
    base = PRESETS[rng.choice(sorted(PRESETS))]
    return replace(
        base,
        pass_direction=rng.choice(PASS_DIRECTIONS),
        pass_ban=rng.random() < 0.7,
        void_rule=rng.choice(VOID_RULES),
        talbees=rng.random() < 0.5,
        doubling=rng.random() < 0.5,
        club_leekha=rng.random() < 0.5,
        undercut=rng.random() < 0.5,
        moon_penalty=rng.choice([0, 0, 37]),
        # Golden goal may stop a scalar round early; the batch engine only plays whole rounds.
        game_end="round_end",
        undercut_ceiling="led_high",
    )


def random_pass(config: RulesConfig, hand: int, rng: random.Random) -> list[int]:
    cards = C.cards_of(hand)
    while True:
        pick = rng.sample(cards, 3)
        if pass_error(config, hand, pick) is None:
            return pick


def lockstep(
    config: RulesConfig,
    hands: list[list[int]],
    dealers: list[int],
    round_no: int,
    rng: random.Random,
    passes: list[list[list[int]]] | None = None,
    double_rate: float = 0.5,
    prefer: tuple[int, ...] = (),
) -> tuple[BatchRounds, list[Game]]:
    """Play the same rounds in both engines, the scalar one choosing; compare every step.

    A legal card from `prefer` is played when there is one, to steer hand-built positions.
    """
    games = []
    for h, d in zip(hands, dealers):
        g = Game(config, 0, first_dealer=d)
        g.hands = list(h)
        g.round_no = round_no
        games.append(g)
    for g in games:
        for seat in range(4):
            for c in g.can_double(seat):
                if rng.random() < double_rate:
                    g.double(seat, c)
    batch = BatchRounds(
        config,
        np.array(hands, dtype=np.uint64),
        dealer=np.array(dealers),
        doubled=np.array([g.doubled_mask for g in games], dtype=np.uint64),
        round_no=round_no,
    )
    for seat in range(4):
        expect = [passable_mask(config, g.hands[seat]) for g in games]
        assert batch.passable(seat).tolist() == expect
    masks = np.zeros((len(games), 4), dtype=np.uint64)
    for i, g in enumerate(games):
        for seat in range(4):
            cards = passes[i][seat] if passes else random_pass(config, g.hands[seat], rng)
            masks[i, seat] = C.mask_of(cards)
            g.pass_cards(seat, cards)
    batch.pass_cards(masks)
    assert batch.hands.tolist() == [g.hands for g in games]
    for step in range(52):
        legal = batch.legal_masks().tolist()
        assert batch.turn.tolist() == [g.turn for g in games]
        chosen = []
        for i, g in enumerate(games):
            turn = g.turn
            assert turn is not None
            assert legal[i] == g.legal_mask(turn), (config, step, i)
            moves = g.legal_moves(turn)
            steer = [c for c in prefer if c in moves]
            card = steer[0] if steer else rng.choice(moves)
            g.play(turn, card)
            chosen.append(card)
        batch.play(np.array(chosen))
    assert batch.done
    assert batch.round_points.tolist() == [g.history[-1] for g in games]
    return batch, games


def test_lockstep_with_scalar_engine_on_random_configs() -> None:
    rng = random.Random(2024)
    for trial in range(40):
        config = random_config(rng)
        n = 6
        hands = [deal(trial * 100 + i, 0) for i in range(n)]
        dealers = [rng.randrange(4) for _ in range(n)]
        batch, _ = lockstep(config, hands, dealers, rng.randrange(2), rng)
        taken = np.bitwise_or.reduce(batch.taken, axis=1)
        assert (taken == np.uint64(C.FULL_DECK)).all()
        assert (batch.hands == 0).all()


@pytest.mark.parametrize("moon", [0, 100])
def test_moon_shot_matches_scalar(moon: int) -> None:
    """Seat 0 wins every trick, so it takes every penalty card."""
    config = replace(PRESETS["classic"], pass_ban=False, moon_penalty=moon)
    spades = C.SUIT_MASK[C.SPADES]
    hands = [spades, C.SUIT_MASK[C.HEARTS], C.SUIT_MASK[C.DIAMONDS], C.SUIT_MASK[C.CLUBS]]
    low_spades = C.parse_cards("2S 3S 4S")
    passes = [low_spades, C.parse_cards("2H 3H 4H"), C.parse_cards("2D 3D 4D")]
    passes.append(C.parse_cards("AC KC QC"))
    batch, _ = lockstep(config, [hands], [3], 0, random.Random(5), passes=[passes])
    assert batch.round_points.tolist() == [[max(moon, 36), 0, 0, 0]]


def test_talbees_outranks_undercut() -> None:
    """J♦ led, Q♠ discarded, then 10♦ + 2♦: talbees forces 10♦ though undercut allows 2♦."""
    config = replace(PRESETS["classic"], talbees=True, undercut=True, pass_ban=False)
    p = C.parse_cards
    seat0 = p("JD 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    seat1 = p("QS AH 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC")
    seat2 = p("10D 2D 2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS")
    seat3 = C.cards_of(C.FULL_DECK & ~C.mask_of(seat0 + seat1 + seat2))
    hands = [[C.mask_of(h) for h in (seat0, seat1, seat2, seat3)]]
    passes = [[p("2H 3H 4H"), p("2C 3C 4C"), p("2S 3S 4S"), seat3[:3]]]
    _, games = lockstep(
        config, hands, [3], 0, random.Random(1), passes=passes, prefer=(p("JD")[0],)
    )
    plays = [(a["seat"], a["card"]) for a in games[0].actions if a["kind"] == "play"]
    assert plays[:3] == [(0, p("JD")[0]), (1, p("QS")[0]), (2, p("10D")[0])]


def test_random_pass_is_legal_and_exchanged() -> None:
    gen = np.random.default_rng(7)
    rng = random.Random(7)
    for _ in range(10):
        config = random_config(rng)
        round_no = rng.randrange(2)
        batch = BatchRounds.deal(config, 200, gen, round_no=round_no)
        before = batch.hands.copy()
        passed = batch.random_pass(gen)
        for g in range(batch.n):
            for seat in range(4):
                cards = C.cards_of(int(passed[g, seat]))
                assert pass_error(config, int(before[g, seat]), cards) is None
        game = Game(config, 0)
        game.round_no = round_no
        for seat in range(4):
            to = game.pass_target(seat)
            got = batch.hands[:, to] & passed[:, seat]
            assert (got == passed[:, seat]).all()
        assert (np.bitwise_count(batch.hands) == 13).all()


def test_random_pass_is_uniform_over_legal_passes() -> None:
    config = PRESETS["classic"]
    # Singletons and doubletons make the pass ban bite: many 3-subsets are illegal.
    hand = C.mask_of(C.parse_cards("2C 5D 9D 2H 3H 4H 5H 6H 7H 8H 9H JS QS"))
    others = C.FULL_DECK & ~hand
    rest = C.cards_of(others)
    hands = [hand, C.mask_of(rest[0:13]), C.mask_of(rest[13:26]), C.mask_of(rest[26:39])]
    n = 30_000
    batch = BatchRounds(config, np.array([hands] * n, dtype=np.uint64))
    passed = batch.random_pass(np.random.default_rng(11))[:, 0]
    legal = {C.mask_of(p) for p in legal_passes(config, hand)}
    counts = Counter(passed.tolist())
    assert set(counts) == legal
    mean = n / len(legal)
    assert all(abs(k - mean) < 6 * mean**0.5 for k in counts.values())


def test_random_cards_is_uniform() -> None:
    mask = C.mask_of(C.parse_cards("2C 9D 10D AH 3S QS KS"))
    n = 70_000
    picks = random_cards(np.full(n, mask, dtype=np.uint64), np.random.default_rng(3).random(n))
    counts = Counter(picks.tolist())
    assert set(counts) == set(C.cards_of(mask))
    assert all(abs(k - n / 7) < 6 * (n / 7) ** 0.5 for k in counts.values())
    assert random_cards(np.zeros(1, dtype=np.uint64), np.zeros(1)).tolist() == [-1]


def test_random_play_is_legal_in_the_scalar_engine() -> None:
    gen = np.random.default_rng(9)
    rng = random.Random(9)
    for _ in range(15):
        config = random_config(rng)
        batch = BatchRounds.deal(config, 8, gen, dealer=gen.integers(0, 4, 8))
        games = []
        for g in range(batch.n):
            game = Game(config, 0, first_dealer=int(batch.dealer[g]))
            game.hands = [int(h) for h in batch.hands[g]]
            games.append(game)
        passed = batch.random_pass(gen)
        for g, game in enumerate(games):
            for seat in range(4):
                game.pass_cards(seat, C.cards_of(int(passed[g, seat])))
        for _ in range(52):
            cards = batch.random_play(gen)
            for g, game in enumerate(games):
                assert game.turn is not None
                game.play(game.turn, int(cards[g]))  # raises RuleError if illegal
        assert batch.round_points.tolist() == [game.history[-1] for game in games]


def test_play_rejects_illegal_cards_and_keeps_state() -> None:
    config = PRESETS["levant"]
    gen = np.random.default_rng(1)
    batch = BatchRounds.deal(config, 16, gen)
    with pytest.raises(ValueError):
        batch.legal_masks()  # still the pass phase
    batch.random_pass(gen)
    batch.random_play(gen)
    legal = batch.legal_masks()
    ok = random_cards(legal, gen.random(16))
    hands = batch.hands.copy()
    for bad in range(52):
        if legal[5] >> np.uint64(bad) & np.uint64(1):
            continue
        cards = ok.copy()
        cards[5] = bad
        with pytest.raises(ValueError, match=r"games \[5\]"):
            batch.play(cards)
        assert (batch.hands == hands).all()
    with pytest.raises(ValueError):
        batch.play(np.full(16, 52))
    with pytest.raises(ValueError):
        batch.play(ok[:3])
    batch.play(ok)
    assert batch.plays == 2


def test_pass_cards_rejects_an_emptied_suit() -> None:
    config = PRESETS["classic"]
    hand = C.mask_of(C.parse_cards("2C 5D 9D 2H 3H 4H 5H 6H 7H 8H 9H JS QS"))
    rest = C.cards_of(C.FULL_DECK & ~hand)
    hands = [hand, C.mask_of(rest[0:13]), C.mask_of(rest[13:26]), C.mask_of(rest[26:39])]
    batch = BatchRounds(config, np.array([hands], dtype=np.uint64))
    fine = [C.mask_of(rest[i * 13 + 2 : i * 13 + 5]) for i in range(3)]
    for bad in ("2C 2H 3H", "5D 9D 2H", "2H 3H 3S"):
        with pytest.raises(ValueError):
            batch.pass_cards(np.array([[C.mask_of(C.parse_cards(bad)), *fine]], dtype=np.uint64))
    # Q♠ is exempt (a Leekha) but J♠, below it, is not: passing both empties spades.
    with pytest.raises(ValueError):
        batch.pass_cards(np.array([[C.mask_of(C.parse_cards("JS QS 2H")), *fine]], dtype=np.uint64))
    batch.pass_cards(np.array([[C.mask_of(C.parse_cards("QS 2H 3H")), *fine]], dtype=np.uint64))
    assert batch.phase == "play"


def test_random_rounds_sum_to_the_round_total() -> None:
    gen = np.random.default_rng(4)
    for name in ("classic", "idlib"):
        config = PRESETS[name]
        pts = random_rounds(config, 500, gen)
        assert pts.shape == (500, 4)
        assert (pts.sum(axis=1) == config.round_total).all()
        assert (pts >= 0).all()


def test_bad_hands_are_refused() -> None:
    hands = deal(1, 0)
    with pytest.raises(ValueError):
        BatchRounds(PRESETS["classic"], np.array([[hands[0], hands[0], hands[2], hands[3]]]))
    with pytest.raises(ValueError):
        BatchRounds(PRESETS["classic"], np.array([hands[:3]], dtype=np.uint64))


def test_batch_round_points_agree_with_scoring() -> None:
    """The batch engine restates trick points and the moon in NumPy; check it against
    `leekha.common.scoring` over many random rounds with doubles and a moon penalty."""
    rng = random.Random(11)
    gen = np.random.default_rng(11)
    for _ in range(6):
        config = replace(random_config(rng), moon_penalty=rng.choice([0, 20, 37]), doubling=True)
        n = 300
        doubled = np.array(
            [C.mask_of(c for c in config.leekha_cards if rng.random() < 0.5) for _ in range(n)],
            dtype=np.uint64,
        )
        batch = BatchRounds.deal(config, n, gen, doubled=doubled)
        batch.random_pass(gen)
        while not batch.done:
            batch.random_play(gen)
        for g in range(n):
            table = points_table(config, int(doubled[g]))
            taken = [int(t) for t in batch.taken[g]]
            points = [sum(table[c] for c in C.cards_of(t)) for t in taken]
            expected = round_scores(
                points, taken, moon=config.moon_penalty, penalty_mask=config.penalty_mask
            )
            assert list(batch.round_points[g]) == expected


def test_an_undercut_it_does_not_restate_is_refused() -> None:
    hands = np.array([deal(1, 0)], dtype=np.uint64)
    with pytest.raises(ValueError, match="undercut_ceiling"):
        BatchRounds(PRESETS["idlib_talyeekh"], hands)
    BatchRounds(replace(PRESETS["idlib_talyeekh"], undercut=False), hands)
