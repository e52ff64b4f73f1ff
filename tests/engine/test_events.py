"""What `Game.apply` says happened, against hand-computed facts and an independent fold.

The server's messages, the clients' views and the replay viewer are all built from these
events, so each is checked against an expectation worked out here, not by the engine.
"""

from __future__ import annotations

import random

import pytest
from helpers.engine import cards, configs, hand, random_action
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leekha.common import cards as C
from leekha.common import errors as E
from leekha.common import events as ev
from leekha.common.actions import Double, Pass, Play, from_dict
from leekha.common.config import CLASSIC, LEVANT, RulesConfig
from leekha.common.errors import RuleError
from leekha.common.game import OVER, Game, deal, replay
from leekha.common.outcome import TARGET, Outcome

QS, TD = C.QUEEN_SPADES, C.TEN_DIAMONDS


# ---- actions -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("data", "action"),
    [
        ({"kind": "play", "seat": 2, "card": 36}, Play(2, 36)),
        ({"kind": "double", "seat": 0, "card": QS}, Double(0, QS)),
        ({"kind": "pass", "seat": 3, "cards": [9, 1, 5]}, Pass(3, (1, 5, 9))),
        ({"kind": "play", "seat": 1, "card": 0, "id": 7, "type": "action"}, Play(1, 0)),
    ],
)
def test_action_dicts_read_and_write(data: dict[str, object], action: object) -> None:
    assert from_dict(data) == action
    out = action.to_dict()  # type: ignore[attr-defined]
    assert from_dict(out) == action and out["kind"] == data["kind"]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ("play", E.BAD_ACTION),
        ({"kind": "play", "seat": "1", "card": 3}, E.BAD_SEAT),
        ({"kind": "play", "seat": True, "card": 3}, E.BAD_SEAT),
        ({"kind": "fold", "seat": 1}, E.BAD_ACTION),
        ({"kind": "play", "seat": 4, "card": 3}, E.BAD_SEAT),
        ({"kind": "play", "seat": 1, "card": 52}, E.BAD_CARD),
        ({"kind": "play", "seat": 1}, E.BAD_CARD),
        ({"kind": "double", "seat": 1, "card": "QS"}, E.BAD_CARD),
        ({"kind": "pass", "seat": 1, "cards": [1, 2]}, E.BAD_PASS),
        ({"kind": "pass", "seat": 1, "cards": "123"}, E.BAD_PASS),
        ({"kind": "pass", "seat": 1, "cards": [1, 2, 2]}, E.BAD_PASS),
        ({"kind": "pass", "seat": 1, "cards": [1, 2, -1]}, E.BAD_CARD),
        ({"kind": "pass", "seat": -1, "cards": [1, 2, 3]}, E.BAD_SEAT),
    ],
)
def test_malformed_action_dicts_are_refused_with_stable_codes(data: object, code: str) -> None:
    with pytest.raises(RuleError) as err:
        from_dict(data)
    assert err.value.code == code
    game = Game(CLASSIC, 1)
    with pytest.raises(RuleError) as err:
        game.apply(data)  # type: ignore[arg-type]
    assert err.value.code == code and game.actions == []


# ---- one event at a time -------------------------------------------------------------
def test_the_first_deal_and_the_pass_exchange() -> None:
    game = Game(LEVANT.with_overrides({"pass_direction": "alternate"}), 5, first_dealer=2)
    hands = deal(5, 0)
    assert game.dealt == ev.Dealt(0, 2, tuple(hands), (1, 2, 3, 0))
    assert game.dealt.hand(3) == C.cards_of(hands[3])
    picks = [list(next(game.legal_passes(s))) for s in range(4)]
    seen: list[ev.Event] = []
    queen_holder = next(s for s in range(4) if hands[s] & C.BIT[QS])
    seen += game.apply(Double(queen_holder, QS))
    for seat in (3, 1, 0, 2):
        seen += game.apply(Pass(seat, tuple(picks[seat])))
    # Round 0 passes to the right (seat s to s + 1); the dealer's right (3) leads.
    exchanged = ev.PassesExchanged(
        received=tuple(C.mask_of(picks[(s + 3) % 4]) for s in range(4)),
        senders=(3, 0, 1, 2),
        leader=3,
    )
    passed = [ev.Passed(3), ev.Passed(1), ev.Passed(0), ev.Passed(2)]
    assert seen == [ev.Doubled(queen_holder, QS), *passed, exchanged]
    assert exchanged.for_seat(1) == (sorted(picks[0]), 0)


def _last_trick(
    config: RulesConfig, totals: list[int], hands: list[str]
) -> tuple[Game, list[ev.Event]]:
    """The 13th trick of a round played through `apply`, seat 0 leading."""
    game = Game.position(
        config, [hand(h) for h in hands], dealer=3, leader=0, tricks_done=12, totals=totals
    )
    events: list[ev.Event] = []
    for seat in range(4):
        events += game.apply(Play(seat, game.legal_moves(seat)[0]))
    return game, events


def test_a_round_end_scores_and_deals_the_next_round() -> None:
    game, events = _last_trick(CLASSIC, [10, 20, 30, 40], ["2S", "QS", "KS", "2H"])
    trick = ((0, cards("2S")[0]), (1, QS), (2, cards("KS")[0]), (3, cards("2H")[0]))
    assert events[:4] == [ev.CardPlayed(s, c) for s, c in trick]
    assert events[4] == ev.TrickTaken(12, 0, 2, trick, 14, (QS,), ())
    assert events[5] == ev.RoundScored(
        round=0,
        points=(0, 0, 14, 0),
        totals=(10, 20, 44, 40),
        taken=(0, 0, hand("QS 2H"), 0),
        doubled=(),
        moon=None,
        stopped=False,
        tie=False,
    )
    assert events[6] == game.dealt and game.dealt.round == 1 and game.dealt.dealer == 0
    assert len(events) == 7


def test_the_game_ends_with_an_outcome() -> None:
    game, events = _last_trick(CLASSIC, [90, 10, 20, 30], ["QS", "3S", "2S", "4S"])
    outcome = Outcome((1,), (0,), (103, 10, 20, 30), TARGET, tie_extended=False)
    over = events[-1]
    assert game.outcome == outcome and isinstance(over, ev.GameOver) and over.outcome == outcome
    # the game's statistics as its events said them: the one trick played, the Q♠ in it
    assert [s["tricks"] for s in over.stats] == [1, 0, 0, 0]
    assert [s["rounds"] for s in over.stats] == [[13], [0], [0], [0]]
    assert outcome.to_dict() == {"winners": [1], "losers": [0], "totals": [103, 10, 20, 30]}
    assert isinstance(events[-2], ev.RoundScored) and game.phase == OVER


def test_a_tie_plays_on_and_the_outcome_says_so() -> None:
    game, events = _last_trick(CLASSIC, [90, 10, 10, 30], ["QS", "3S", "2S", "4S"])
    scored = next(e for e in events if isinstance(e, ev.RoundScored))
    assert scored.tie and game.outcome is None and isinstance(events[-1], ev.Dealt)
    # Play the next round out: whatever ends the game now, a tie once kept it going.
    rng = random.Random(3)
    while game.phase != OVER:
        game.apply(random_action(game, rng))
    assert game.outcome is not None and game.outcome.tie_extended
    _, events = _last_trick(CLASSIC, [90, 10, 20, 30], ["QS", "3S", "2S", "4S"])
    assert not next(e for e in events if isinstance(e, ev.RoundScored)).tie


# ---- every event of random games -----------------------------------------------------
def _fold(config: RulesConfig, events: list[ev.Event], first: ev.Dealt) -> None:
    """Rebuild a game's facts from its events alone and check each against the rules."""
    points = config.card_points()
    hands = list(first.hands)
    round_points = [0] * 4
    totals = [0] * 4
    doubled: dict[int, int] = {}
    trick: list[tuple[int, int]] = []
    tricks = 0
    for e in events:
        if isinstance(e, ev.Dealt):
            assert sum(h.bit_count() for h in e.hands) == 52
            hands, round_points, doubled, tricks = list(e.hands), [0] * 4, {}, 0
        elif isinstance(e, ev.Doubled):
            assert hands[e.seat] & C.BIT[e.card]
            doubled[e.card] = e.seat
        elif isinstance(e, ev.CardPlayed):
            assert hands[e.seat] & C.BIT[e.card]
            hands[e.seat] &= ~C.BIT[e.card]
            trick.append((e.seat, e.card))
        elif isinstance(e, ev.TrickTaken):
            led = trick[0][1] // 13
            best = max(c for _, c in trick if c // 13 == led)
            worth = sum(points[c] * (2 if c in doubled else 1) for _, c in trick)
            assert e.cards == tuple(trick) and e.number == tricks
            assert e.winner == dict((c, s) for s, c in trick)[best] and e.points == worth
            assert e.doubled == tuple(sorted(c for _, c in trick if c in doubled))
            round_points[e.winner] += worth
            trick, tricks = [], tricks + 1
        elif isinstance(e, ev.PassesExchanged):
            for s in range(4):
                hands[e.senders[s]] &= ~e.received[s]
            for s in range(4):
                hands[s] |= e.received[s]
        elif isinstance(e, ev.RoundScored):
            assert e.stopped == (tricks < 13)
            expected = list(round_points)
            if e.moon is not None:
                expected[e.moon] = max(config.moon_penalty, expected[e.moon])
            assert list(e.points) == expected
            totals = [t + p for t, p in zip(totals, e.points, strict=True)]
            assert list(e.totals) == totals
        elif isinstance(e, ev.GameOver):
            assert list(e.outcome.totals) == totals


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs, st.integers(0, 2**32))
def test_events_of_random_games_fold_to_the_rules(config: RulesConfig, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(config, seed)
    first = game.dealt
    events: list[ev.Event] = []
    while game.phase != OVER and game.round_no < 8:
        events += game.apply(random_action(game, rng))
    _fold(config, events, first)
    # Replaying the record's dicts tells the same story, step by step.
    seen: list[ev.Event] = []
    again = replay(config, seed, game.actions, watch=lambda _g, _a, ev: seen.extend(ev))
    assert seen == events and again.outcome == game.outcome and again.hands == game.hands


def test_a_built_position_describes_its_own_deal() -> None:
    alternate = CLASSIC.with_overrides({"pass_direction": "alternate"})
    hands = [hand("2C"), hand("3C"), hand("4C"), hand("5C")]
    game = Game.position(alternate, hands, dealer=1, leader=2, round_no=1)
    # Round 1 of an alternating game passes left: seat s gives to s - 1.
    assert game.dealt == ev.Dealt(1, 1, tuple(hands), (3, 0, 1, 2))
