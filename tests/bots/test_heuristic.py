"""The heuristic's rules of thumb and the search tier's determinism, on built positions."""

from __future__ import annotations

from helpers.engine import cards, hand, position

from leekha.common import cards as C
from leekha.common.bots.heuristic import HeuristicStrategy, choose_pass_cards, safe_doubles
from leekha.common.bots.search import SearchStrategy
from leekha.common.config import CLASSIC, PARTNERSHIP, RulesConfig
from leekha.common.game import pass_error
from leekha.common.view import seat_view

FREE = RulesConfig(void_rule="free")


def play(config: RulesConfig, hands: list[str], trick: str, seat: int, leader: int = 0) -> str:
    game = position(config, hands, leader=leader, trick=trick)
    view = seat_view(game, seat)
    return C.format_card(HeuristicStrategy(0).choose_play(view), ascii=True)


def test_ducks_with_the_highest_losing_card() -> None:
    hands = ["9H 2C", "3H 8H JH 2D", "", ""]
    assert play(CLASSIC, hands, "9H", 1) == "8H"


def test_dumps_the_queen_on_an_opponent_when_void() -> None:
    hands = ["5C 6D", "QS AH 2H", "", ""]
    assert play(FREE, hands, "5C", 1) == "QS"


def test_does_not_dump_points_on_a_winning_partner() -> None:
    # Seat 2 (partner of seat 0) plays last on a trick seat 0 is winning with the A♣.
    hands = ["AC 3D", "5C 4D", "QS 7S 2H", "2C 5D"]
    game = position(
        PARTNERSHIP.with_overrides({"void_rule": "free"}), hands, leader=3, trick="2C AC 5C"
    )
    card = HeuristicStrategy(0).choose_play(seat_view(game, 2))
    assert card == C.parse_card("7S")


def test_passes_an_unguarded_queen_and_the_spades_above_it() -> None:
    h = hand("QS KS AS 3S 2C 4C 6C 8C 3D 5D 7D 9D 2H")
    passed = choose_pass_cards(CLASSIC, h)
    assert set(passed) == set(cards("QS KS AS"))
    assert pass_error(CLASSIC, h, passed) is None


def test_keeps_a_well_guarded_queen() -> None:
    h = hand("QS 2S 3S 4S 5S 2C 4C 6C 8C 3D 5D 7D AH")
    assert C.QUEEN_SPADES not in choose_pass_cards(CLASSIC, h)
    assert safe_doubles(CLASSIC, h, [C.QUEEN_SPADES]) == []
    deep = hand("QS 2S 3S 4S 5S 6S 7S 2C 4C 6C 3D 5D AH")
    assert safe_doubles(CLASSIC, deep, [C.QUEEN_SPADES]) == [C.QUEEN_SPADES]


def test_pass_respects_the_pass_ban() -> None:
    # Only a lone A♥ would be worth passing but it is the last heart: the ban forbids it.
    h = hand("AH 2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D 7D")
    passed = choose_pass_cards(CLASSIC, h)
    assert C.parse_card("AH") not in passed
    assert pass_error(CLASSIC, h, passed) is None


DEAL = [
    "2S KS 2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D",
    "QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
    "AH 9C 10C JC QC KC AC 6D 7D 8D 9D 10D JD",
    "3S 4S 5S 6S 7S 8S 9S 10S JS AS QD KD AD",
]


def test_search_is_deterministic_for_a_seed_and_sample_count() -> None:
    view = seat_view(position(CLASSIC, DEAL, leader=0), 0)
    picks = [SearchStrategy(5, think_ms=None, max_samples=10).choose_play(view) for _ in range(3)]
    assert len(set(picks)) == 1


def test_search_avoids_taking_the_queen() -> None:
    # Seat 0 follows a low spade lead: the K♠ could win the Q♠, the 2♠ never can.
    view = seat_view(position(CLASSIC, DEAL, leader=3, trick="3S"), 0)
    card = SearchStrategy(1, think_ms=None, max_samples=20).choose_play(view)
    assert card == C.parse_card("2S")
