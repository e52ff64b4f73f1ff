"""A snapshot the server pushes while a finished trick is held waits behind the held events.

The server sends a person a snapshot after it passed for their seat; when a bot plays that
seat, the snapshot of the next round can arrive while the screen still holds a trick of
this one. Found end to end (tests/client/test_facts_e2e.py): the held round's end, its
summary and its moon note were thrown away with the queue.
"""

from __future__ import annotations

from helpers.model import HAND, PLAYERS, table

from leekha import protocol as P
from leekha.client.tui import model as M
from leekha.client.tui.hold import SUMMARY_HOLD_S
from leekha.client.tui.layout import render_text
from leekha.common import cards as C

TRICK = [[0, C.parse_card("2C")], [1, C.parse_card("9C")], [2, C.parse_card("KC")],
         [3, C.parse_card("3C")]]  # fmt: skip


def _playing(m: M.ClientModel, tricks: list[list[list[int]]], moon_penalty: int = 0) -> None:
    """Welcome, seat 0 at a playing table, the deal, then `tricks` played and taken by 2."""
    m.apply(P.Welcome(re=1, version=[1, 4], server="srv", token="t" * 16, name="ann"))
    info = table("playing", moon_penalty=moon_penalty)
    m.apply(P.Snapshot(re=None, table=info, view=None, your_seat=0, players=PLAYERS))
    m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    for plays in tricks:
        for seat, card in plays:
            m.apply(P.CardPlayed(seat=seat, card=card))
        m.apply(P.TrickTaken(winner=2, cards=plays, points=0))


def test_a_pushed_snapshot_waits_so_the_round_summary_and_its_note_still_show() -> None:
    now = [100.0]
    m = M.ClientModel("ann", clock=lambda: now[0], trick_hold=1.0)
    _playing(m, [TRICK], moon_penalty=50)
    moon_table = table("playing", moon_penalty=50)
    assert m.holding
    taken = [[], C.cards_of(C.mask_of(range(52)) & m.game.rules.penalty_mask), [], []]
    m.apply(P.RoundScored(round=0, round_points=[0, 50, 0, 0], totals=[0, 50, 0, 0],
                          taken=taken, moon=1))  # fmt: skip
    m.apply(P.Dealt(round=1, dealer=0, hand=HAND, pass_to=1))
    m.apply(P.Snapshot(re=None, table=moon_table, view=None, your_seat=0, players=PLAYERS))
    assert m.holding  # the snapshot waits its turn
    now[0] += 1.1
    assert m.tick()
    assert m.overlay == M.SUMMARY and "b1 shot the moon!" in render_text(m)
    now[0] += SUMMARY_HOLD_S + 0.1
    assert m.tick() and m.boxes.summary is None and not m.holding


def test_a_snapshot_that_answers_a_request_still_jumps_at_once() -> None:
    m = M.ClientModel("ann", clock=lambda: 100.0, trick_hold=5.0)
    _playing(m, [TRICK])
    assert m.holding
    req = m.sender.request(P.JoinSeat, table_id=7)
    assert isinstance(req, P.JoinSeat)
    m.apply(P.Snapshot(re=req.id, table=table("playing"), view=None, your_seat=0,
                       players=PLAYERS))  # fmt: skip
    assert not m.holding


def test_tricks_queued_before_a_pushed_snapshot_play_out_without_holding_each() -> None:
    """The server seated us (a bot's seat) while tricks were held: the tricks queued ahead of
    its snapshot play out at once, or every held trick would leave the client further
    behind while the seat is ours to play."""
    now = [100.0]
    m = M.ClientModel("ann", clock=lambda: now[0], trick_hold=1.0)
    second = [[seat, C.parse_card(name)] for seat, name in enumerate(["4C", "5C", "6C", "7C"])]
    _playing(m, [TRICK, second])
    m.apply(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=0, players=PLAYERS))
    assert m.holding  # the first trick is on screen; the second and the snapshot wait
    now[0] += 1.1
    m.tick()
    assert not m.holding  # the second trick did not hold: the snapshot is applied


def test_the_servers_notices_wait_in_order_with_the_play_they_tell_of() -> None:
    """A timed-out player's pane: the server's "Time ran out" line arrives after the card
    it played for them; while a trick is held that card waits, so the line must too, or it
    shows before the play (and a status line of the next trick) it tells of."""
    now = [100.0]
    m = M.ClientModel("ann", clock=lambda: now[0], trick_hold=1.0)
    _playing(m, [TRICK])
    assert m.holding
    played = C.parse_card("5C")
    m.apply(P.CardPlayed(seat=0, card=played))  # the server played for ann
    m.apply(P.ChatMessage(sender="*", text="Time ran out", table_id=7, code="timeout_passed",
                          args={"seat": 0, "cards": [played]}))  # fmt: skip
    assert all(sender != "*" for sender, _text in m.chat)  # waits with the card
    now[0] += 1.1
    assert m.tick()
    assert [text for sender, text in m.chat if sender == "*"] == [
        "Time ran out: the server passed 5♣ for you"
    ]
    assert m.game.view is not None and [list(p) for p in m.game.view.trick] == [[0, played]]
