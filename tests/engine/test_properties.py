"""Properties over random games under random configs, and a perft count of the move generator."""

from __future__ import annotations

import copy
import random

import pytest
from helpers.engine import configs, random_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leekha.common import cards as C
from leekha.common.config import (
    PRESETS,
    RulesConfig,
)
from leekha.common.game import OVER, PASS, PLAY, Game, replay
from leekha.common.legality import PlayRules
from leekha.common.record import GameRecord
from leekha.common.view import seat_view

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _checked_random_game(config: RulesConfig, seed: int) -> Game:
    """Play a random game, checking the per-step invariants as it goes."""
    rng = random.Random(seed)
    game = Game(config, seed)
    rounds_checked = 0
    while game.phase != OVER and game.round_no < 30:
        in_hands = 0
        for h in game.hands:
            assert in_hands & h == 0
            in_hands |= h
        taken = 0
        for t in game.taken:
            taken |= t
        on_trick = C.mask_of(c for _, c in game.trick)
        assert in_hands | taken | on_trick == C.FULL_DECK  # all 52 cards conserved
        assert in_hands & (taken | on_trick) == 0
        if game.phase == PASS:
            seat = rng.choice([s for s in range(4) if game.passed[s] is None])
            for c in game.can_double(seat):
                if rng.random() < 0.5:
                    game.double(seat, c)
            passes = list(game.legal_passes(seat))
            assert passes, "a seat in the pass phase always has a legal pass"
            assert {c for p in passes for c in p} == set(C.cards_of(game.passable_mask(seat)))
            game.pass_cards(seat, list(rng.choice(passes)))
        else:
            turn = game.turn
            assert turn is not None
            moves = game.legal_moves(turn)
            assert moves, "the player to move always has a legal move"
            before = len(game.history)
            extra = sum(config.card_points()[c] for c in game.doubled)
            game.play(turn, rng.choice(moves))
            if len(game.history) > before:
                _check_round_points(game, game.history[-1], config, extra)
                rounds_checked += 1
    return game


def _check_round_points(game: Game, scored: list[int], config: RulesConfig, extra: int) -> None:
    """A round's points add up to the variant's total, doubled cards included."""
    if game.phase == OVER and config.game_end == "golden_goal":
        return  # a golden goal can end the round before every card is taken
    total = sum(scored)
    expected = config.round_total + extra
    if config.moon_penalty and max(scored) == total:
        expected = max(config.moon_penalty, expected)
    assert total == expected


@SETTINGS
@given(configs, st.integers(0, 2**32))
def test_random_games_hold_invariants(config: RulesConfig, seed: int) -> None:
    game = _checked_random_game(config, seed)
    rec = GameRecord.of(game).to_dict()
    again = GameRecord.from_dict(rec).replay()
    assert again.history == game.history and again.outcome == game.outcome
    assert again.hands == game.hands and again.phase == game.phase


@SETTINGS
@given(configs, st.integers(0, 2**32))
def test_round_points_add_up(config: RulesConfig, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(config, seed)
    while game.phase == PASS:
        seat = next(s for s in range(4) if game.passed[s] is None)
        for c in game.can_double(seat):
            game.double(seat, c)
        game.pass_cards(seat, list(rng.choice(list(game.legal_passes(seat)))))
    doubled_extra = sum(config.card_points()[c] for c in game.doubled)
    while game.round_no == 0 and game.phase != OVER:
        assert game.turn is not None
        game.play(game.turn, rng.choice(game.legal_moves(game.turn)))
    if game.phase == OVER and config.game_end == "golden_goal":
        return
    scored = game.history[0]
    total = sum(scored)
    if config.moon_penalty and max(scored) == total:
        assert total == max(config.moon_penalty, config.round_total + doubled_extra)
    else:
        assert total == config.round_total + doubled_extra


@SETTINGS
@given(configs, st.integers(0, 2**32))
def test_views_hold_no_hidden_cards(config: RulesConfig, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(config, seed)
    steps = 0
    while game.phase != OVER and steps < 120:
        steps += 1
        for seat in range(4):
            v = seat_view(game, seat)
            others = 0
            for s in range(4):
                if s != seat:
                    others |= game.hands[s]
            known = C.mask_of(v.received or []) if game.phase == PLAY else 0
            # The only other-hand cards a seat may know are the ones it passed on and
            # revealed doubles.
            allowed = C.mask_of(v.passed or []) | C.mask_of(c for c, _ in v.doubled) | known
            assert C.mask_of(v.hand) & others == 0
            for key in ("hand", "legal", "can_double", "received"):
                assert C.mask_of(getattr(v, key) or []) & others & ~allowed == 0
        public = seat_view(game, None)
        assert public.hand == [] and public.passed is None and public.legal == []
        if game.phase == PASS:
            seat = next(s for s in range(4) if game.passed[s] is None)
            game.pass_cards(seat, list(rng.choice(list(game.legal_passes(seat)))))
        else:
            assert game.turn is not None
            game.play(game.turn, rng.choice(game.legal_moves(game.turn)))


@SETTINGS
@given(configs, st.integers(0, 2**32))
def test_what_a_play_proves_absent_is_never_in_the_hand(config: RulesConfig, seed: int) -> None:
    """`absent_after` (what opponent models deduce) against the real hands: never wrong;
    and every move list against the naive statement of the rules, in every variant."""
    rng = random.Random(seed)
    rules = PlayRules(config)
    game = Game(config, seed)
    proofs = 0
    while game.phase != OVER and game.round_no < 3:
        if game.phase == PASS:
            seat = next(s for s in range(4) if game.passed[s] is None)
            game.pass_cards(seat, list(rng.choice(list(game.legal_passes(seat)))))
            continue
        turn = game.turn
        assert turn is not None
        moves = game.legal_moves(turn)
        trick = [c for _, c in game.trick]
        assert moves == _naive_legal(config, C.cards_of(game.hands[turn]), trick)
        card = rng.choice(moves)
        absent = rules.absent_after(game.trick, game.trick_high, game.trick_has_leekha, card)
        assert absent & game.hands[turn] == 0
        proofs += absent != 0
        game.play(turn, card)
    if game.round_no > 0:  # a whole round was played: it had discards that prove voids
        assert proofs > 0


def test_what_a_play_proves_on_hand_built_tricks() -> None:
    talyeekh = PlayRules(PRESETS["idlib_talyeekh"])
    idlib = PlayRules(PRESETS["idlib"])
    hearts = C.SUIT_MASK[C.HEARTS]
    trick = [(0, C.parse_card("9H")), (1, C.QUEEN_SPADES)]
    nine = C.parse_card("9H")
    # Playing the K♥ over a queen proves no heart below the queen (rank) / the 9♥ (led high).
    king = C.parse_card("KH")
    assert talyeekh.absent_after(trick, nine, True, king) == hearts & C.BELOW[C.parse_card("QH")]
    assert idlib.absent_after(trick, nine, True, king) == C.BELOW[nine]
    # A forced K♣ dump over the Q♠ proves no 10♦; a plain discard proves no Leekha at all.
    assert talyeekh.absent_after(trick, nine, True, C.KING_CLUBS) == hearts | C.BIT[C.TEN_DIAMONDS]
    assert idlib.absent_after(trick, nine, True, C.KING_CLUBS) == hearts
    two = C.parse_card("2S")
    assert talyeekh.absent_after(trick, nine, True, two) == hearts | PRESETS["idlib"].leekha_mask


def test_replay_rejects_tampered_log() -> None:
    game = random_game(PRESETS["levant"], 5, random.Random(5), max_rounds=1)
    record = GameRecord.of(game).to_dict()
    bad = copy.deepcopy(record)
    plays = [a for a in bad["actions"] if a["kind"] == "play"]
    plays[0]["card"] = (plays[0]["card"] + 1) % 52
    from leekha.common.errors import RuleError

    with pytest.raises(RuleError) as info:
        GameRecord.from_dict(bad)
    assert info.value.code == "bad_record"
    assert replay(game.config, game.seed, record["actions"]).history == game.history


# ---- perft --------------------------------------------------------------------------


def _naive_legal(config: RulesConfig, hand: list[int], trick: list[int]) -> list[int]:
    """An independent, deliberately simple statement of the play rules."""
    if not trick:
        return sorted(hand)
    led = trick[0] // 13
    follow = [c for c in hand if c // 13 == led]
    leekhas = [49, 21] + ([11] if config.club_leekha else [])
    down = [c for c in trick if c in leekhas]
    by_rank = config.undercut and config.undercut_ceiling == "leekha_rank" and down
    top_rank = max((c % 13 for c in down), default=-1)
    if follow:
        high = max(c for c in trick if c // 13 == led)
        forced = {3: 49, 1: 21, 0: 11 if config.club_leekha else None}.get(led)
        if config.talbees and forced in hand and high > forced:  # type: ignore[operator]
            return [forced]  # type: ignore[list-item]
        if config.undercut and down:
            lower = [c for c in follow if (c % 13 < top_rank if by_rank else c < high)]
            if lower:
                return sorted(lower)
        return sorted(follow)
    if config.void_rule == "any_leekha":
        held = [c for c in hand if c in leekhas]
        lower = [c for c in held if by_rank and c % 13 < top_rank]
        return sorted(lower or held or hand)
    if config.void_rule == "queen_only" and 49 in hand:
        return [49]
    return sorted(hand)


def _perft(game: Game, depth: int) -> int:
    if depth == 0 or game.phase != PLAY:
        return 1
    seat = game.turn
    assert seat is not None
    trick = [c for _, c in game.trick]
    moves = game.legal_moves(seat)
    assert moves == _naive_legal(game.config, C.cards_of(game.hands[seat]), trick)
    total = 0
    for move in moves:
        child = copy.deepcopy(game)
        child.play(seat, move)
        total += _perft(child, depth - 1)
    return total


def _dealt_and_passed(config: RulesConfig, seed: int) -> Game:
    game = Game(config, seed)
    for seat in range(4):
        game.pass_cards(seat, list(next(game.legal_passes(seat))))
    return game


@pytest.mark.parametrize(
    ("preset", "seed", "counts"),
    [
        ("classic", 2024, [13, 43, 127, 1144, 13728]),
        ("classic", 99, [13, 47, 105, 334]),
        ("levant", 2024, [13, 43, 118, 1027]),
        ("levant", 99, [13, 47, 89, 270]),
        ("idlib", 2024, [13, 43, 126, 273]),
        ("idlib", 99, [13, 47, 102, 313]),
        ("idlib_talyeekh", 2024, [13, 40, 114, 1011]),
        ("idlib_talyeekh", 99, [13, 46, 73, 227]),
    ],
)
def test_perft_from_fixed_deal(preset: str, seed: int, counts: list[int]) -> None:
    """Counts of play sequences 1..n plies deep, each move list checked against a naive oracle."""
    game = _dealt_and_passed(PRESETS[preset], seed)
    assert [_perft(game, d) for d in range(1, len(counts) + 1)] == counts
