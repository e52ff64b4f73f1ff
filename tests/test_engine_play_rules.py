"""Each play rule on hand-built positions."""

from __future__ import annotations

import pytest
from enginehelp import cards, position

from leekha.common.actions import Play
from leekha.common.config import CLASSIC, IDLIB, LEVANT, PRESETS, RulesConfig
from leekha.common.errors import RuleError
from leekha.common.events import CardPlayed, TrickTaken
from leekha.common.game import PLAY, Game

FREE = RulesConfig(void_rule="free")
TALYEEKH = PRESETS["idlib_talyeekh"]


def legal(game, seat: int) -> list[int]:  # type: ignore[no-untyped-def]
    return sorted(game.legal_moves(seat))


def refused(game: Game, seat: int, card: str, code: str) -> None:
    """Playing `card` for `seat` raises the engine's error `code`."""
    with pytest.raises(RuleError) as info:
        game.play(seat, cards(card)[0])
    assert info.value.code == code


def test_lead_is_free_and_must_follow_suit() -> None:
    g = position(CLASSIC, ["2C QS 5H", "3C 4C AH", "", ""], leader=0)
    assert legal(g, 0) == sorted(cards("2C QS 5H"))
    g.play(0, cards("2C")[0])
    assert legal(g, 1) == sorted(cards("3C 4C"))
    refused(g, 1, "AH", "must_follow_suit")


def test_void_any_leekha_forces_either_leekha() -> None:
    g = position(CLASSIC, ["2C", "10D 5H QS", "", ""], trick="2C")
    assert legal(g, 1) == sorted(cards("10D QS"))
    refused(g, 1, "5H", "must_play_leekha")
    g2 = position(CLASSIC, ["2C", "5H 9D", "", ""], trick="2C")
    assert legal(g2, 1) == sorted(cards("5H 9D"))


def test_void_queen_only() -> None:
    g = position(LEVANT, ["2C", "10D 5H", "", ""], trick="2C")
    assert legal(g, 1) == sorted(cards("10D 5H"))
    g2 = position(LEVANT, ["2C", "10D QS 5H", "", ""], trick="2C")
    assert legal(g2, 1) == cards("QS")


def test_void_free_discard() -> None:
    g = position(FREE, ["2C", "10D QS 5H", "", ""], trick="2C")
    assert legal(g, 1) == sorted(cards("10D QS 5H"))


def test_talbees_spades() -> None:
    talbees = RulesConfig(talbees=True)
    g = position(talbees, ["KS", "QS 2S 3H", "", ""], trick="KS")
    assert legal(g, 1) == cards("QS")
    refused(g, 1, "2S", "must_play_forced")
    # A higher spade from a later player also forces it.
    g2 = position(talbees, ["3S", "AS", "QS 4S", ""], trick="3S AS")
    assert legal(g2, 2) == cards("QS")
    # No higher spade yet: free among spades.
    g3 = position(talbees, ["3S", "QS 2S", "", ""], trick="3S")
    assert legal(g3, 1) == sorted(cards("QS 2S"))
    # Off: no forcing.
    g4 = position(CLASSIC, ["KS", "QS 2S", "", ""], trick="KS")
    assert legal(g4, 1) == sorted(cards("QS 2S"))


def test_talbees_diamonds_and_clubs() -> None:
    talbees = RulesConfig(talbees=True, club_leekha=True)
    g = position(talbees, ["JD", "10D 2D", "", ""], trick="JD")
    assert legal(g, 1) == cards("10D")
    g2 = position(talbees, ["AC", "KC 2C", "", ""], trick="AC")
    assert legal(g2, 1) == cards("KC")
    g3 = position(RulesConfig(talbees=True), ["AC", "KC 2C", "", ""], trick="AC")
    assert legal(g3, 1) == sorted(cards("KC 2C"))


def test_undercut() -> None:
    g = position(IDLIB, ["5D", "10D", "JD 3D 9D", ""], trick="5D 10D")
    assert legal(g, 2) == sorted(cards("3D 9D"))
    refused(g, 2, "JD", "must_play_forced")
    # Only higher cards left: any of them.
    g2 = position(IDLIB, ["5D", "10D", "JD QD", ""], trick="5D 10D")
    assert legal(g2, 2) == sorted(cards("JD QD"))
    # A Leekha discarded off-suit also arms the rule.
    g3 = position(IDLIB, ["5H", "QS", "2H AH", ""], trick="5H QS")
    assert legal(g3, 2) == cards("2H")
    # No Leekha on the trick: free.
    g4 = position(IDLIB, ["5D", "6D", "JD 3D", ""], trick="5D 6D")
    assert legal(g4, 2) == sorted(cards("JD 3D"))


def test_undercut_by_leekha_rank_compares_ranks_across_suits() -> None:
    # Q♠ dumped on a heart trick: followers duck below a queen, not below the 9♥.
    hands = ["9H", "QS 2C", "5H 10H KH", ""]
    assert legal(position(TALYEEKH, hands, trick="9H QS"), 2) == cards("5H 10H")
    assert legal(position(IDLIB, hands, trick="9H QS"), 2) == cards("5H")
    # Nothing below the queen: the constraint lifts.
    assert legal(position(TALYEEKH, ["9H", "QS", "KH AH", ""], trick="9H QS"), 2) == cards("KH AH")


def test_undercut_by_leekha_rank_binds_a_forced_leekha_discard() -> None:
    # Seat 3 is void in hearts and must discard a Leekha; with the Q♠ down, the 10♦.
    hands = ["2H", "QS 3C", "3H", "10D KC 4S"]
    assert legal(position(TALYEEKH, hands, trick="2H QS 3H"), 3) == cards("10D")
    assert legal(position(IDLIB, hands, trick="2H QS 3H"), 3) == cards("KC 10D")
    g = position(TALYEEKH, hands, trick="2H QS 3H")
    refused(g, 3, "KC", "must_play_leekha")
    # Only a higher Leekha: it must still go. No Leekha at all: a free discard, unbound.
    assert legal(position(TALYEEKH, ["2H", "QS", "3H", "KC 4S"], trick="2H QS 3H"), 3) == cards(
        "KC"
    )
    free = position(TALYEEKH, ["2H", "QS", "3H", "4S AS"], trick="2H QS 3H")
    assert legal(free, 3) == cards("4S AS")


def test_talbees_still_comes_before_undercut_by_rank() -> None:
    # A♠ led, the K♣ dumped: the Q♠ holder must play the Q♠, though the 2♠ is lower.
    g = position(TALYEEKH, ["AS", "KC", "QS 2S", ""], trick="AS KC")
    assert legal(g, 2) == cards("QS")


def test_turn_and_hand_errors() -> None:
    g = position(CLASSIC, ["2C 3C", "4C", "5C", "6C"], leader=0)
    refused(g, 1, "4C", "not_your_turn")
    refused(g, 0, "AS", "not_in_hand")
    with pytest.raises(RuleError) as info:
        g.play(0, 99)
    assert info.value.code == "bad_card"
    with pytest.raises(RuleError) as info:
        g.play(7, 0)
    assert info.value.code == "bad_seat"
    with pytest.raises(RuleError) as info:
        g.pass_cards(0, [0, 1, 2])
    assert info.value.code == "wrong_phase"
    before = (list(g.hands), list(g.trick), g.turn)
    with pytest.raises(RuleError):
        g.play(0, cards("KH")[0])
    assert (list(g.hands), list(g.trick), g.turn) == before


def test_trick_winner_points_and_next_lead() -> None:
    g = position(CLASSIC, ["5S 2C", "QS 3C", "KS 4C", "AH 5C"], leader=0)
    for seat, c in [(0, "5S"), (1, "QS"), (2, "KS"), (3, "AH")]:
        g.play(seat, cards(c)[0])
    assert g.tricks[-1]["winner"] == 2
    assert g.round_points == [0, 0, 14, 0]
    assert g.turn == 2 and g.leader == 2 and g.phase == PLAY


def test_doubled_card_scores_twice() -> None:
    ten = cards("10D")[0]
    g = position(CLASSIC, ["5D 2C", "10D 3C", "KD 4C", "6D 5C"], leader=0, doubled={ten: 1})
    for seat, c in [(0, "5D"), (1, "10D"), (2, "KD")]:
        g.play(seat, cards(c)[0])
    events = g.apply(Play(3, cards("6D")[0]))
    assert g.round_points[2] == 20
    trick = tuple(zip(range(4), cards("5D 10D KD 6D"), strict=True))
    assert events == [CardPlayed(3, cards("6D")[0]), TrickTaken(0, 0, 2, trick, 20, (ten,), (ten,))]
