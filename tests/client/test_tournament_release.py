"""After a person's tournament game the server takes its players back to the lobby (an
empty `seat_update` for their own seat): the client shows the finished table, no longer
theirs, says how to go back, and the next game seats them with the bell. Issue 27: the
seat read "(empty) (you)" until L, and L was refused ("you are not at a table")."""

from __future__ import annotations

from helpers.model import PLAYERS, at_table, seat_info, table

from leekha import protocol as P
from leekha.client.tui import model as M
from leekha.client.tui.layout import render_text


def finished_tournament_game() -> M.ClientModel:
    """ann at her tournament game (entered in tournament 3), its game just over."""
    m = at_table()
    m.in_lobby.entered = 3
    m.apply(P.GameOver(winners=[0], losers=[2], totals=[10, 20, 40, 30]))
    assert "game over" in render_text(m)
    return m


def test_a_seat_the_server_frees_is_no_longer_ours_and_l_goes_back_at_once() -> None:
    m = finished_tournament_game()
    assert "ann (you)" in render_text(m)
    m.apply(P.SeatUpdate(table_id=7, seat=0, player=seat_info(None)))
    screen = render_text(m)
    assert "(you)" not in screen, screen
    assert "game over" in screen  # the result stays to be read
    assert "your seat is freed: L goes back to the lobby" in m.status
    assert not m.game.seated
    m.at_table.leave()  # L: the server let us go already, so nothing is asked of it but the list
    assert [type(r) for r in m.take_outbox()] == [P.ListTables]
    assert m.screen == M.LOBBY and m.game.table is None


def test_the_next_tournament_game_seats_a_released_person_with_the_bell() -> None:
    m = finished_tournament_game()
    m.apply(P.SeatUpdate(table_id=7, seat=0, player=seat_info(None)))
    m.alarm.ring = False
    nxt = {**table("playing"), "id": 9, "name": "evening #2"}
    m.apply(P.Snapshot(re=None, table=nxt, view=None, your_seat=1, players=PLAYERS))
    assert m.alarm.ring
    assert "your tournament game is ready: evening #2" in m.status
    assert m.game.seated and not m.game.released


def test_another_seat_emptied_leaves_ours_alone() -> None:
    m = finished_tournament_game()
    m.apply(P.SeatUpdate(table_id=7, seat=2, player=seat_info(None)))
    assert m.game.seated and "ann (you)" in render_text(m)
    m.at_table.leave()
    assert [type(r) for r in m.take_outbox()] == [P.Leave]
