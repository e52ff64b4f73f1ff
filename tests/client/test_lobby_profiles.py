"""Profiles from the lobby's tables: → and ← choose a person's name under the chosen
table (bots have no profile and are passed over), Enter shows that player's profile, and
← past the first name, or a move to another table, gives Enter back to joining."""

from __future__ import annotations

from helpers import records as R
from helpers.model import table

from leekha import protocol as P
from leekha.client.tui import model as M
from leekha.client.tui.hints import hint_items
from leekha.client.tui.layout import render_text
from leekha.protocol.views import TableSummary


def _lobby() -> M.ClientModel:
    m = M.ClientModel("eve", clock=lambda: 100.0)
    m.apply(P.Welcome(re=1, version=[1, 4], server="srv", token="t" * 16, name="eve"))
    m.take_outbox()
    first = table()
    first["seats"] = [R.seat("ann"), R.seat("b1", bot=True), R.seat("carla"), R.seat()]
    second: TableSummary = {**table(), "id": 8, "name": "Saturday"}
    m.apply(P.TableList(re=None, tables=[first, second], total=2, next=None))
    return m


def test_enter_on_a_name_under_a_table_shows_that_players_profile() -> None:
    m = _lobby()
    assert m.lobby.people() == ["ann", "carla"]
    m.lobby.move_person(1)
    m.lobby.move_person(1)  # the bot between them is passed over
    assert m.lobby.chosen_person() == "carla"
    assert [k for k, _ in hint_items(m)][:2] == ["←→", "Enter"]
    assert "carla" in render_text(m)
    m.lobby.move_person(1)  # the last name stays chosen
    assert m.lobby.chosen_person() == "carla"
    m.in_lobby.enter()
    (ask,) = m.take_outbox()
    assert isinstance(ask, P.GetProfile) and ask.name == "carla"
    assert m.overlay == M.PROFILE


def test_left_of_the_first_name_or_another_table_is_joining_again() -> None:
    m = _lobby()
    m.lobby.move_person(1)
    m.lobby.move_person(-1)
    assert m.lobby.chosen_person() is None
    m.in_lobby.enter()
    (join,) = m.take_outbox()
    assert isinstance(join, P.JoinSeat) and join.table_id == 7
    m = _lobby()
    m.lobby.move_person(1)
    m.lobby.move(1)  # Saturday: ann and three bots; no name chosen there yet
    assert m.lobby.chosen_person() is None and m.lobby.people() == ["ann"]
    m.lobby.move_person(1)
    m.in_lobby.enter()
    (ask,) = m.take_outbox()
    assert isinstance(ask, P.GetProfile) and ask.name == "ann"


def test_a_table_of_bots_has_no_name_to_choose() -> None:
    m = _lobby()
    m.apply(P.TableUpdate(table_id=8, table=None))
    bots: TableSummary = {**table(), "seats": [R.seat(f"b{i}", bot=True) for i in range(4)]}
    m.apply(P.TableUpdate(table_id=7, table=bots))
    m.lobby.move_person(1)
    assert m.lobby.chosen_person() is None
