"""Each play rule on hand-built positions."""

from __future__ import annotations

import pytest
from helpers.engine import cards, position

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


TALBEES = RulesConfig(talbees=True)
TALBEES_CLUBS = RulesConfig(talbees=True, club_leekha=True)

#: One position a row: rules, the hands ("/" between seats), the trick so far, the seat to
#: play, its legal cards, and optionally a card it may not play with the engine's code.
LEGAL = {
    "void: any Leekha must go": (
        CLASSIC,
        "2C/10D 5H QS//",
        "2C",
        1,
        "10D QS",
        "5H must_play_leekha",
    ),
    "void, no Leekha: free": (CLASSIC, "2C/5H 9D//", "2C", 1, "5H 9D", ""),
    "void, queen only: no queen": (LEVANT, "2C/10D 5H//", "2C", 1, "10D 5H", ""),
    "void, queen only: the queen": (LEVANT, "2C/10D QS 5H//", "2C", 1, "QS", ""),
    "void rule free": (FREE, "2C/10D QS 5H//", "2C", 1, "10D QS 5H", ""),
    "talbees: Q♠ under the K♠": (TALBEES, "KS/QS 2S 3H//", "KS", 1, "QS", "2S must_play_forced"),
    "talbees: a later higher spade": (TALBEES, "3S/AS/QS 4S/", "3S AS", 2, "QS", ""),
    "talbees: no higher spade yet": (TALBEES, "3S/QS 2S//", "3S", 1, "QS 2S", ""),
    "talbees off": (CLASSIC, "KS/QS 2S//", "KS", 1, "QS 2S", ""),
    "talbees: 10♦ under the J♦": (TALBEES, "JD/10D 2D//", "JD", 1, "10D", ""),
    "talbees: K♣ with club Leekha": (TALBEES_CLUBS, "AC/KC 2C//", "AC", 1, "KC", ""),
    "talbees: K♣ without club Leekha": (TALBEES, "AC/KC 2C//", "AC", 1, "KC 2C", ""),
    "undercut: duck": (IDLIB, "5D/10D/JD 3D 9D/", "5D 10D", 2, "3D 9D", "JD must_play_forced"),
    "undercut: only higher cards": (IDLIB, "5D/10D/JD QD/", "5D 10D", 2, "JD QD", ""),
    "undercut: off-suit Leekha arms it": (IDLIB, "5H/QS/2H AH/", "5H QS", 2, "2H", ""),
    "undercut: no Leekha on the trick": (IDLIB, "5D/6D/JD 3D/", "5D 6D", 2, "JD 3D", ""),
}


@pytest.mark.parametrize("case", LEGAL.values(), ids=LEGAL.keys())
def test_legal_cards(case: tuple[RulesConfig, str, str, int, str, str]) -> None:
    rules, hands, trick, seat, allowed, refusal = case
    g = position(rules, hands.split("/"), trick=trick)
    assert legal(g, seat) == sorted(cards(allowed))
    if refusal:
        card, code = refusal.split()
        refused(g, seat, card, code)


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
