"""The seat view every client folds: typed at the codec's edge, a new round, what may be
doubled, and events in, view out (no socket, no terminal)."""

from __future__ import annotations

import dataclasses

import pytest
from helpers import records as R

from leekha import protocol as P
from leekha.common import cards as C
from leekha.common.config import preset
from leekha.common.game import Game
from leekha.common.view import SeatView, TrickRecord, seat_view
from leekha.protocol.seatview import (
    doublable,
    empty_view,
    fold_event,
    new_round,
    of_snapshot,
    own_pass,
    prompted,
)
from leekha.protocol.views import TableSummary

QS, TD = C.QUEEN_SPADES, C.TEN_DIAMONDS
HAND = C.parse_cards("2C 5C KC 3D 10D QD 2H 7H QH AH 4S QS AS")
TRICK: TrickRecord = {"leader": 1, "cards": [[1, 2], [2, 3], [3, 4], [0, 5]], "winner": 0,
                      "points": 0}  # fmt: skip
PLAYERS = [R.player("x")] * 4


def _summary() -> TableSummary:
    return R.summary(seats=[R.seat("x")] * 4, status="playing")


def _dealt(round: int = 0) -> P.Dealt:
    return P.Dealt(round=round, dealer=3, hand=HAND, pass_to=1)


def test_new_round_keeps_only_the_game_scores() -> None:
    old = dataclasses.replace(
        empty_view(2), round=3, totals=[1, 2, 3, 4], history=[[1, 2, 3, 4]], tricks=[TRICK],
        doubled=[[QS, 1]], passes_done=[True] * 4, phase="game_over", can_double=[QS],
        result={"winners": [0], "losers": [1], "totals": [1, 2, 3, 4], "reason": "target",
                "tie_extended": False, "stats": None},
    )  # fmt: skip
    view = new_round(old, 2, P.Dealt(round=4, dealer=1, hand=[9, 3, 5], pass_to=3))
    assert view.totals == [1, 2, 3, 4] and view.history == [[1, 2, 3, 4]]
    assert view.round == 4 and view.dealer == 1 and view.pass_to == 3
    assert view.hand == [3, 5, 9] and view.seat == 2 and view.phase == "pass"
    assert view.tricks == [] and view.doubled == [] and view.result is None
    assert view.passes_done == [False] * 4 and view.can_double == []
    view.history.append([0, 0, 0, 0])
    assert old.history == [[1, 2, 3, 4]]  # a copy, not the old round's list


def test_a_rematch_keeps_nothing_but_the_seat() -> None:
    old = dataclasses.replace(empty_view(1), totals=[9, 9, 9, 9], history=[[9, 9, 9, 9]])
    view = new_round(old, 1, _dealt(0))
    assert view.totals == [0] * 4 and view.history == [] and view.seat == 1


def test_new_round_without_a_view_starts_from_zero() -> None:
    view = new_round(None, 0, _dealt())
    assert view.totals == [0] * 4 and view.history == [] and view.seat == 0


def test_the_view_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        empty_view(0).phase = "play"  # type: ignore[misc]


def test_a_snapshot_becomes_the_engines_view_for_its_seat() -> None:
    game = Game(preset("levant"), 4)
    wire = seat_view(game, 2).to_dict()
    snap = P.Snapshot(table=_summary(), view=wire, your_seat=2, players=PLAYERS)
    view = of_snapshot(snap)
    assert view == seat_view(game, 2)
    assert isinstance(view, SeatView)
    spectator = P.Snapshot(table=_summary(), view=seat_view(game, None).to_dict(),
                           your_seat=None, players=PLAYERS)  # fmt: skip
    assert of_snapshot(spectator) == seat_view(game, None)
    # The server's seat stays: null when the game shown was not this seat's to finish.
    theirs = P.Snapshot(table=_summary(), view=seat_view(game, None).to_dict(),
                        your_seat=3, players=PLAYERS)  # fmt: skip
    assert of_snapshot(theirs) == seat_view(game, None)
    empty = P.Snapshot(table=_summary(), view=None, your_seat=1, players=PLAYERS)
    assert of_snapshot(empty) is None


def test_a_prompt_and_our_own_pass() -> None:
    view = new_round(None, 0, _dealt())
    asked = prompted(view, P.YourTurn(phase="pass", legal=HAND, can_double=[QS]), 0)
    assert asked.legal == sorted(HAND) and asked.can_double == [QS] and view.legal == []
    passed = own_pass(asked, [HAND[2], HAND[0], HAND[1]], 0)
    assert passed.passed == sorted(HAND[:3]) and passed.passes_done == [True, False, False, False]
    assert passed.legal == [] and passed.hand == asked.hand  # the cards go at the exchange
    back = fold_event(passed, P.PassedReceived(cards=[40, 41, 42], from_seat=3), 0, [0] * 52)
    assert back.hand == sorted(set(HAND[3:]) | {40, 41, 42}) and back.received == [40, 41, 42]
    assert back.phase == "play" and back.turn == back.leader == 0  # dealer 3: seat 0 leads
    play = prompted(back, P.YourTurn(phase="play", legal=[40]), 0)
    assert play.legal == [40] and play.turn == 0


def test_a_trick_folds_into_the_round() -> None:
    points = preset("classic").card_points()
    view = dataclasses.replace(new_round(None, 0, _dealt()), phase="play", turn=1)
    qs_trick = [[1, C.parse_card("2S")], [2, C.parse_card("KS")], [3, QS], [0, C.parse_card("AS")]]
    for seat, card in qs_trick:
        view = fold_event(view, P.CardPlayed(seat=seat, card=card), 0, points)
    assert view.turn is None and view.leader == 1 and len(view.trick) == 4
    assert C.parse_card("AS") not in view.hand
    view = fold_event(view, P.TrickTaken(winner=0, points=13, cards=qs_trick), 0, points)
    assert view.trick == [] and view.turn == view.leader == 0
    assert view.tricks == [{"leader": 1, "cards": qs_trick, "winner": 0, "points": 13}]
    assert view.taken == [[QS], [], [], []] and view.round_points == [13, 0, 0, 0]
    assert fold_event(view, P.Ok(re=1), 0, points) is view


def test_derived_doubles_follow_the_engine_rule() -> None:
    levant = preset("levant")  # doubling on
    view = new_round(None, 0, _dealt())
    assert sorted(doublable(view, levant, 0, server_lists=False)) == sorted([QS, TD])
    assert doublable(view, preset("classic"), 0, server_lists=False) == []
    view = dataclasses.replace(view, doubled=[[QS, 0]])
    assert doublable(view, levant, 0, server_lists=False) == [TD]
    view = dataclasses.replace(view, passes_done=[True, False, False, False])
    assert doublable(view, levant, 0, server_lists=False) == []


def test_the_servers_list_wins_when_it_sends_one() -> None:
    levant = preset("levant")
    view = new_round(None, 0, _dealt())
    # the server knows better (e.g. a rule we do not model)
    view = dataclasses.replace(view, can_double=[QS])
    assert doublable(view, levant, 0, server_lists=True) == [QS]
    view = dataclasses.replace(view, can_double=[])
    assert doublable(view, levant, 0, server_lists=True) == []
    view = dataclasses.replace(view, can_double=[QS, TD], doubled=[[TD, 0]])  # revealed since
    assert doublable(view, levant, 0, server_lists=True) == [QS]
    view = dataclasses.replace(view, phase="play")
    assert doublable(view, levant, 0, server_lists=True) == []
    assert doublable(None, levant, 0, server_lists=True) == []
    assert doublable(view, levant, None, server_lists=True) == []
