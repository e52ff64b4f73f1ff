"""The table's own lines and the server's reasons, as the player sees them on screen."""

from __future__ import annotations

import os
from pathlib import Path
from typing import cast

from helpers.model import play_phase

from leekha import protocol as P
from leekha.client.core import intents as I
from leekha.client.tui.layout import render_text
from leekha.protocol.views import TableSummary


def test_a_timeout_line_shows_in_the_chat_and_on_the_status_line() -> None:
    m = play_phase()
    text = "Time ran out: the server played 8♣ for you"
    line = P.ChatMessage(sender="*", text="x", table_id=7, code="timeout_played", args={"card": 6})
    m.apply(line)
    screen = render_text(m)
    assert screen.splitlines()[-1].strip() == text  # the status line
    assert "*: Time ran out" in screen  # and the chat pane
    keep("timeout", screen)
    # a line said at another table is not this table's
    m.apply(P.ChatMessage(sender="*", text="elsewhere", table_id=8))
    assert "elsewhere" not in render_text(m)


def test_a_refusal_shows_the_servers_reason() -> None:
    m = play_phase()
    req = m.shared.request(I.Rematch())
    assert isinstance(req, P.Rematch)
    reason = "seat 2 is empty: someone must sit there or the host adds a bot"
    m.apply(
        P.Error(code="not_ready", message="x", re=req.id, rule="seats_empty", args={"seats": [1]})
    )
    assert reason in m.status


def keep(name: str, screen: str) -> None:
    folder = os.environ.get("LEEKHA_SCREENS")
    if folder:
        Path(folder, f"{name}.txt").write_text(screen + "\n")


def test_quit_keeps_the_seat_and_leave_mid_game_asks_first() -> None:
    m = play_phase()
    m.game.table = cast(TableSummary, {**(m.game.table or {}), "status": "playing"})
    assert not m.ask_quit()
    assert "your seat stays yours" in m.status
    m.escape()
    m.at_table.leave()
    assert m.take_outbox() == [] and "a bot takes your seat for good" in m.status
    m.escape()
    assert not m.at_table.leave_confirm
    m.at_table.leave()
    m.at_table.leave()
    assert [type(r) for r in m.take_outbox()] == [P.Leave]
