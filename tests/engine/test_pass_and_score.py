"""The pass phase, doubling, round scoring and the end of the game."""

from __future__ import annotations

import pytest
from helpers.engine import cards, hand
from hypothesis import given
from hypothesis import strategies as st

from leekha.common import cards as C
from leekha.common.actions import Play
from leekha.common.config import CLASSIC, GOLDEN, IDLIB, LEVANT, RulesConfig
from leekha.common.errors import RuleError
from leekha.common.events import Event, GameOver, RoundScored, TrickTaken
from leekha.common.game import OVER, PASS, PLAY, Game, deal
from leekha.common.legality import pass_error, pass_legal
from leekha.common.outcome import GOLDEN_GOAL, TARGET, Outcome
from leekha.common.view import seat_view


def test_pass_ban_last_card_of_suit() -> None:
    h = hand("5C 2D 3D 4D 2H 3H 4H 5H 6H QS 2S 3S 4S")
    err = pass_error(CLASSIC, h, cards("5C 2H 3H"))
    assert err is not None and err.code == "pass_last_of_suit" and "clubs" in err.message
    assert pass_error(RulesConfig(pass_ban=False), h, cards("5C 2H 3H")) is None
    assert pass_error(CLASSIC, h, cards("2H 3H 4H")) is None


def test_pass_ban_leekha_exemptions() -> None:
    # Singletons Q♠ and 10♦ and their higher cards may always go.
    h = hand("QS 10D 2C 3C 4C 5C 6C 7C 8C 2H 3H 4H 5H")
    assert pass_error(CLASSIC, h, cards("QS 10D 2C")) is None
    assert pass_error(CLASSIC, hand("AS KS 2C 3C AD"), cards("AS KS AD")) is None
    err = pass_error(CLASSIC, hand("JS 2C 3C 4C"), cards("JS 2C 3C"))
    assert err is not None and err.code == "pass_last_of_suit"
    # 9♦ is below the red Leekha: not exempt.
    err = pass_error(CLASSIC, hand("9D 2C 3C 4C"), cards("9D 2C 3C"))
    assert err is not None and err.code == "pass_last_of_suit"
    # K♣ and A♣ are exempt only when K♣ is a Leekha (Idlib).
    h2 = hand("KC 2D 3D 4D")
    assert pass_error(IDLIB, h2, cards("KC 2D 3D")) is None
    assert pass_error(CLASSIC, h2, cards("KC 2D 3D")) is not None


@pytest.mark.parametrize(
    ("picked", "code"),
    [("2H 3H", "bad_pass"), ("2H 2H 3H", "bad_pass"), ("2H 3H AS", "not_in_hand")],
)
def test_bad_passes(picked: str, code: str) -> None:
    h = hand("2H 3H 4H 5H 2C 3C")
    err = pass_error(CLASSIC, h, cards(picked))
    assert err is not None and err.code == code


def _pass_all(g: Game, order: list[int]) -> None:
    for seat in order:
        g.pass_cards(seat, list(next(g.legal_passes(seat))))


def test_all_commit_before_anyone_receives() -> None:
    g = Game(CLASSIC, 7)
    before = list(g.hands)
    _pass_all(g, [0, 1, 2])
    assert g.phase == PASS
    assert all(seat_view(g, s).received is None for s in range(4))
    assert g.hands[1] == before[1]  # nothing moved yet
    with pytest.raises(RuleError) as info:
        g.pass_cards(0, [0, 1, 2])
    assert info.value.code == "already_passed"
    _pass_all(g, [3])
    assert g.phase == PLAY
    for s in range(4):
        assert g.received[(s + 1) % 4] == g.passed[s]  # to the right = next seat
    assert g.turn == (g.dealer + 1) % 4


def test_alternating_pass_direction() -> None:
    g = Game(RulesConfig(pass_direction="alternate"), 3)
    assert [g.pass_target(s) for s in range(4)] == [1, 2, 3, 0]
    g.round_no = 1
    assert [g.pass_target(s) for s in range(4)] == [3, 0, 1, 2]


def test_doubling_rules() -> None:
    g = Game(LEVANT, 11)
    qs_holder = next(s for s in range(4) if g.hands[s] & hand("QS"))
    other = (qs_holder + 1) % 4
    with pytest.raises(RuleError) as info:
        g.double(other, cards("QS")[0])
    assert info.value.code == "not_in_hand"
    with pytest.raises(RuleError) as info:
        g.double(qs_holder, cards("2C")[0])
    assert info.value.code == "cannot_double"
    g.double(qs_holder, cards("QS")[0])
    with pytest.raises(RuleError):
        g.double(qs_holder, cards("QS")[0])
    assert all(seat_view(g, s).doubled == [[cards("QS")[0], qs_holder]] for s in range(4))
    assert seat_view(g, None).doubled == [[cards("QS")[0], qs_holder]]
    no_double = Game(CLASSIC, 11)
    with pytest.raises(RuleError) as info:
        no_double.double(qs_holder, cards("QS")[0])
    assert info.value.code == "cannot_double"


def _at_last_trick(config: RulesConfig, totals: list[int], hands: list[str], **kw: object) -> Game:
    """The round's 13th trick, seat 0 to lead, each seat holding its one card."""
    return Game.position(
        config,
        [hand(h) for h in hands],
        dealer=3,
        leader=0,
        tricks_done=12,
        totals=totals,
        **kw,  # type: ignore[arg-type]
    )


def _last_trick(config: RulesConfig, totals: list[int], hands: list[str], **kw: object) -> Game:
    g = _at_last_trick(config, totals, hands, **kw)
    for seat in range(4):
        g.play(seat, g.legal_moves(seat)[0])
    return g


def test_game_ends_at_target_lowest_wins() -> None:
    g = _last_trick(CLASSIC, [90, 10, 20, 30], ["QS", "3S", "2S", "4S"])
    assert g.phase == OVER
    assert g.outcome == Outcome((1,), (0,), (103, 10, 20, 30), TARGET, tie_extended=False)


def test_tie_for_lowest_plays_on() -> None:
    g = _last_trick(CLASSIC, [90, 10, 10, 30], ["QS", "3S", "2S", "4S"])
    assert g.phase == PASS and g.outcome is None and g.round_no == 1


def test_dealer_rotates_or_biggest_eater_deals() -> None:
    g = _last_trick(CLASSIC, [0, 0, 0, 0], ["2S", "3S", "QS", "4S"])
    assert g.dealer == 0  # 3 -> 0, to the right
    g2 = _last_trick(RulesConfig(dealer_rule="biggest_eater"), [0] * 4, ["2S", "3S", "QS", "4S"])
    assert g2.dealer == 2


def test_partnership_combined() -> None:
    p = RulesConfig(partnership="combined")
    g = _last_trick(p, [50, 10, 40, 20], ["2S", "3S", "QS", "4S"])
    assert g.phase == OVER and g.outcome is not None
    assert g.outcome.losers == (0, 2) and g.outcome.winners == (1, 3)


def test_partnership_individual_bust() -> None:
    p = RulesConfig(partnership="individual_bust")
    g = _last_trick(p, [10, 95, 0, 0], ["2S", "QS", "3S", "4S"])
    assert g.outcome is not None and g.outcome.losers == (1, 3)
    # Combined totals under the target do not matter: only an individual crossing does.
    g2 = _last_trick(p, [60, 0, 30, 0], ["2S", "QS", "3S", "4S"])
    assert g2.phase == PASS


def _queen_taken_before_last_trick(config: RulesConfig) -> tuple[Game, list[Event]]:
    """Seat 2 (95 points) takes the Q♠ in the 12th trick; one trick is still to play."""
    g = Game.position(
        config,
        [hand("2S 2C"), hand("3S 3C"), hand("QS 4C"), hand("4S 5C")],
        dealer=3,
        leader=0,
        tricks_done=11,
        totals=[5, 10, 95, 20],
    )
    events: list[Event] = []
    for seat, c in [(0, "2S"), (1, "3S"), (2, "QS"), (3, "4S")]:
        events += g.apply(Play(seat, cards(c)[0]))
    return g, events


def test_golden_goal_ends_mid_round() -> None:
    g, events = _queen_taken_before_last_trick(GOLDEN)
    assert g.phase == OVER and g.outcome is not None and g.outcome.losers == (2,)
    scored, over = events[-2:]
    assert isinstance(scored, RoundScored) and scored.stopped and scored.moon is None
    assert scored.points == (0, 0, 13, 0) and scored.totals == (5, 10, 108, 20)
    assert isinstance(over, GameOver)
    assert over.outcome == Outcome((0,), (2,), (5, 10, 108, 20), GOLDEN_GOAL)
    # the statistics count what this game's events said: one trick, the Q♠, 13 points
    assert [s["rounds"] for s in over.stats] == [[0], [0], [13], [0]]
    assert over.stats[2]["tricks"] == 1 and over.stats[2]["leekhas"] == 1
    g, events = _queen_taken_before_last_trick(LEVANT)
    assert g.phase == PLAY and isinstance(events[-1], TrickTaken)


def test_moon_penalty() -> None:
    moon = RulesConfig(moon_penalty=37)
    g = _last_trick(moon, [0] * 4, ["2S", "3S", "QS", "4S"], round_points=[0, 0, 23, 0])
    assert g.history[-1] == [0, 0, 36, 0]  # seat 2 lacks the earlier cards: no moon
    g2 = _at_last_trick(moon, [0] * 4, ["2S", "3S", "QS", "4S"], round_points=[0, 0, 23, 0])
    g2.taken[2] = hand("10D") | hand("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    events: list[Event] = []
    for seat in range(4):
        events += g2.apply(Play(seat, g2.legal_moves(seat)[0]))
    assert g2.history[-1] == [0, 0, 37, 0]
    scored = next(e for e in events if isinstance(e, RoundScored))
    assert scored.moon == 2 and scored.points == (0, 0, 37, 0)
    assert scored.taken[2] == moon.penalty_mask


@given(
    st.sampled_from([CLASSIC, LEVANT, IDLIB, GOLDEN, RulesConfig(pass_ban=False)]),
    st.integers(min_value=0, max_value=2**20),
    st.lists(st.integers(min_value=0, max_value=51), min_size=3, max_size=3, unique=True),
)
def test_pass_legal_agrees_with_pass_error(
    config: RulesConfig, seed: int, picked: list[int]
) -> None:
    """The yes-or-no check the bots use answers as the refusal does, for passes from the
    hand or not, every rule set's ban and exemptions."""
    hand = deal(seed, 0)[seed % 4]
    mask = C.mask_of(picked)
    assert pass_legal(config, hand, mask) == (pass_error(config, hand, picked) is None)
    own = C.cards_of(hand)[seed % 11 : seed % 11 + 3]
    assert pass_legal(config, hand, C.mask_of(own)) == (pass_error(config, hand, own) is None)
