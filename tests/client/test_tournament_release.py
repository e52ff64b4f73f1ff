"""After a person's tournament game the server takes its players back to the lobby (an
empty `seat_update` for their own seat): the client shows the finished table, no longer
theirs, says how to go back, and the next game seats them with the bell. Issue 27: the
seat read "(empty) (you)" until L, and L was refused ("you are not at a table")."""

from __future__ import annotations

from helpers.model import HAND, PLAYERS, at_table, seat_info, table, welcomed

from leekha import protocol as P
from leekha.client.tui import model as M
from leekha.client.tui.hints import hint_items
from leekha.client.tui.layout import render_text
from leekha.common import cards as C
from leekha.protocol.views import TableSummary


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
    nxt: TableSummary = {**table("playing"), "id": 9, "name": "evening #2"}
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


def test_the_freeing_is_folded_at_once_under_the_held_trick_and_the_table_keeps_its_place() -> None:
    """In a real tournament the server frees the seat right after `game_over`, while the
    last trick may still be on screen: the server's order is kept (the trick is folded
    while the seat is ours, then the freeing), the finished trick stays on screen for its
    time, and the finished table does not turn round: our old seat stays at the bottom."""
    m = welcomed(trick_hold=1.0)
    players = [seat_info("b1", bot=True), seat_info("b2", bot=True), seat_info("ann"),
               seat_info("b3", bot=True)]  # fmt: skip
    m.apply(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=2, players=players))
    m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=3))
    north = render_text(m).splitlines()[1]
    assert "b1" in north
    m.apply(P.PassDone(seat=2))
    m.apply(P.PassedReceived(cards=C.parse_cards("3C 4C 6C"), from_seat=1))
    plays = [[0, C.parse_card("9C")], [1, C.parse_card("8C")], [2, C.parse_card("2C")],
             [3, C.parse_card("7C")]]  # fmt: skip
    for seat, card in plays:
        m.apply(P.CardPlayed(seat=seat, card=card))
    m.apply(P.TrickTaken(winner=0, cards=plays, points=0))
    assert C.parse_card("2C") not in m.hand  # folded as ours: the card left the hand
    m.apply(P.GameOver(winners=[0], losers=[2], totals=[10, 20, 140, 30]))
    m.apply(P.SeatUpdate(table_id=7, seat=2, player=seat_info(None)))
    assert not m.game.seated and m.game.released  # at once: nothing waits
    assert m.holding and m.at_table.display_trick() == plays  # the trick still shows
    assert "b1" in render_text(m).splitlines()[1]  # still north: the table kept its place


def test_only_a_seated_player_is_offered_a_rematch() -> None:
    """A spectator's game-over hints offered "r rematch" (found in issue 24's run by hand),
    and so did a person's whose seat the server had freed: neither has a vote."""
    m = finished_tournament_game()
    assert "r" in [key for key, _words in hint_items(m)]
    m.apply(P.SeatUpdate(table_id=7, seat=0, player=seat_info(None)))
    assert "r" not in [key for key, _words in hint_items(m)]
