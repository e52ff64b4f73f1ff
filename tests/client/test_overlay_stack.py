"""The boxes over the screen are a stack (client/tui/overlays.py): the last opened is on top,
Esc closes it and shows the one under it, a box stays on its own screen, and under every
open box the table's state shows the doubling prompt or the game's end.

The expectations are what a player sees, stated here, not read back from `top`'s code.
"""

from __future__ import annotations

from helpers.model import PLAYERS, at_table, table, welcomed

from leekha import protocol as P
from leekha.client.core import intents as I
from leekha.client.tui import model as M
from leekha.client.tui.forms import CreateForm, PasswordPrompt
from leekha.client.tui.layout import render_text
from leekha.client.tui.overlays import (
    GAME_OVER,
    HELP,
    SCORES,
    SUMMARY,
    TABLE,
    HelpBox,
    Overlays,
    RoundSummary,
    ScoresBox,
)
from leekha.common import cards as C


def _summary() -> RoundSummary:
    return RoundSummary(0, [0, 13, 0, 0], [0, 13, 0, 0], [[], [C.QUEEN_SPADES], [], []])


def test_the_last_box_opened_is_on_top_and_esc_shows_the_one_under_it() -> None:
    m = at_table()
    m.toggle_scores()
    assert m.overlay == M.SCORES
    m.apply(P.RoundScored(round=0, round_points=[0, 13, 0, 0], totals=[0, 13, 0, 0],
                          taken=[[], [C.QUEEN_SPADES], [], []]))  # fmt: skip
    assert m.overlay == M.SUMMARY  # it came last: it is on top of the score sheet
    m.toggle_help()
    assert m.overlay == M.HELP and m.under_help == M.SUMMARY
    m.escape()
    assert m.overlay == M.SUMMARY
    m.escape()
    assert m.overlay == M.SCORES and "score sheet" in render_text(m)
    m.escape()
    assert m.overlay is None


def test_opening_a_box_of_a_kind_already_open_keeps_its_place_with_the_new_contents() -> None:
    boxes = Overlays()
    first, second = _summary(), _summary()
    boxes.open(first)
    boxes.open(ScoresBox())
    boxes.open(second)  # the next round's summary, while the score sheet is on top
    assert boxes.summary is second
    assert boxes.top(TABLE, waiting=False, doubling=False, over=False) == SCORES
    boxes.shut_box(first)  # no longer open: nothing closes
    assert boxes.summary is second
    boxes.shut_box(second)
    assert boxes.summary is None and boxes.show_scores


def test_a_lobby_box_is_not_shown_at_a_table_and_comes_back_in_the_lobby() -> None:
    m = welcomed()
    m.in_lobby.open_form()
    assert m.overlay == M.FORM and isinstance(m.boxes.form, CreateForm)
    m.apply(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=0, players=PLAYERS))
    assert m.screen == M.TABLE and m.overlay is None  # the form is the lobby's
    # (Leaving is the core's fold of the server's ok: the screen only reacts to it.)
    leave = m.shared.request(I.Leave())
    assert isinstance(leave, P.Leave)
    m.apply(P.Ok(re=leave.id))
    assert m.screen == M.LOBBY and m.overlay == M.FORM


def test_under_the_open_boxes_the_game_over_box_shows_and_the_table_boxes_go_with_it() -> None:
    boxes = Overlays()
    boxes.open(HelpBox())
    boxes.open(_summary())
    over = {"waiting": False, "doubling": False, "over": True}
    assert boxes.top(TABLE, **over) == SUMMARY
    assert boxes.top(TABLE, **over, trick_held=True) == HELP  # the summary waits
    boxes.left_table()
    assert boxes.top(TABLE, **over) == HELP and boxes.summary is None
    boxes.toggle(HelpBox())
    assert boxes.top(TABLE, **over) == GAME_OVER
    assert boxes.top(TABLE, **over, trick_held=True) is None


def test_a_refused_password_opens_the_prompt_on_top_of_the_help_box() -> None:
    m = welcomed()
    m.toggle_help()
    m.in_lobby.join(9, None, spectate=False)
    (join,) = [x for x in m.take_outbox() if isinstance(x, P.JoinSeat)]
    m.apply(P.Error(re=join.id, code="bad_password", message="wrong or missing password"))
    assert m.overlay == M.PASSWORD and m.boxes.password_prompt == PasswordPrompt(
        9, why="This table has a password."
    )
    m.escape()
    assert m.overlay == M.HELP  # the help box was under it
