"""The seat-view dict helpers both clients share: a new round, and what may be doubled."""

from __future__ import annotations

from leekha import protocol as P
from leekha.common import cards as C
from leekha.common.config import preset
from leekha.protocol.seatview import doublable, empty_view, new_round

QS, TD = C.QUEEN_SPADES, C.TEN_DIAMONDS
HAND = C.parse_cards("2C 5C KC 3D 10D QD 2H 7H QH AH 4S QS AS")


def test_new_round_keeps_only_the_game_scores() -> None:
    old = empty_view(2) | {
        "round": 3, "totals": [1, 2, 3, 4], "history": [[1, 2, 3, 4]], "tricks": [{"x": 1}],
        "doubled": [[QS, 1]], "passes_done": [True] * 4, "result": {"winners": [0]},
        "phase": "game_over", "can_double": [QS],
    }  # fmt: skip
    view = new_round(old, 2, P.Dealt(round=4, dealer=1, hand=[9, 3, 5], pass_to=3))
    assert view["totals"] == [1, 2, 3, 4] and view["history"] == [[1, 2, 3, 4]]
    assert view["round"] == 4 and view["dealer"] == 1 and view["pass_to"] == 3
    assert view["hand"] == [3, 5, 9] and view["seat"] == 2 and view["phase"] == "pass"
    assert view["tricks"] == [] and view["doubled"] == [] and view["result"] is None
    assert view["passes_done"] == [False] * 4 and view["can_double"] == []
    assert set(view) == set(empty_view(None))
    view["history"].append([0, 0, 0, 0])
    assert old["history"] == [[1, 2, 3, 4]]  # a copy, not the old round's list


def test_new_round_without_a_view_starts_from_zero() -> None:
    view = new_round(None, 0, P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    assert view["totals"] == [0] * 4 and view["history"] == [] and view["seat"] == 0


def test_derived_doubles_follow_the_engine_rule() -> None:
    levant = preset("levant")  # doubling on
    view = new_round(None, 0, P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    assert sorted(doublable(view, levant, 0, server_lists=False)) == sorted([QS, TD])
    assert doublable(view, preset("classic"), 0, server_lists=False) == []
    view["doubled"] = [[QS, 0]]
    assert doublable(view, levant, 0, server_lists=False) == [TD]
    view["passes_done"][0] = True
    assert doublable(view, levant, 0, server_lists=False) == []


def test_the_servers_list_wins_when_it_sends_one() -> None:
    levant = preset("levant")
    view = new_round(None, 0, P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    view["can_double"] = [QS]  # the server knows better (e.g. a rule we do not model)
    assert doublable(view, levant, 0, server_lists=True) == [QS]
    view["can_double"] = []
    assert doublable(view, levant, 0, server_lists=True) == []
    view["can_double"] = [QS, TD]
    view["doubled"] = [[TD, 0]]  # revealed since the list came
    assert doublable(view, levant, 0, server_lists=True) == [QS]
    view["phase"] = "play"
    assert doublable(view, levant, 0, server_lists=True) == []
    assert doublable(None, levant, 0, server_lists=True) == []
    assert doublable(view, levant, None, server_lists=True) == []
