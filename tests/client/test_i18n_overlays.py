"""Every overlay box in every language, painted at 80x24: each text stays inside its box.

A translation longer than the English would run over the box's right border (or be cut at
the screen's edge); a box whose borders are intact on every row held all its text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from helpers.model import PLAYERS, at_table, play_phase, seat_info, table, welcomed
from helpers.tournament import opened, state

from leekha import protocol as P
from leekha.client import i18n, rtl
from leekha.client.tui import model as M
from leekha.client.tui.layout import Options, paint
from leekha.common import cards as C
from leekha.protocol.views import PlayerInfo


@pytest.fixture(params=[("en", False), ("it", False), ("ar", False), ("ar", True)])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    lang, bidi = request.param
    i18n.set_language(lang)
    rtl.set_enabled(bidi)
    yield lang
    i18n.set_language("en")
    rtl.set_enabled(False)


def with_help() -> M.ClientModel:
    m = play_phase()
    m.toggle_help()
    return m


def with_scores() -> M.ClientModel:
    m = play_phase()
    m.apply(P.RoundScored(round=0, round_points=[0, 13, 10, 2], totals=[0, 13, 10, 2], taken=TAKEN))
    m.enter()
    m.toggle_scores()
    return m


def with_summary() -> M.ClientModel:
    m = play_phase()
    m.apply(P.RoundScored(round=0, round_points=[0, 13, 10, 2], totals=[0, 13, 10, 2], taken=TAKEN))
    return m


def with_game_over() -> M.ClientModel:
    m = with_summary()
    m.enter()
    m.apply(P.GameOver(winners=[0], losers=[1], totals=[0, 113, 10, 2]))
    return m


def with_form() -> M.ClientModel:
    m = welcomed()
    m.in_lobby.open_form()
    return m


def with_bot_level() -> M.ClientModel:
    m = welcomed()
    hard: PlayerInfo = {**seat_info("hard bot 1", bot=True), "strategy": "hard"}
    players = [seat_info("ann", host=True), hard, seat_info(None), seat_info(None)]
    m.apply(P.Snapshot(re=None, table=table(), view=None, your_seat=0, players=players))
    m.at_table.open_bot_level("medium")
    assert m.overlay == M.BOT_LEVEL
    return m


def with_lobby_stats() -> M.ClientModel:
    m = welcomed()
    m.apply(P.TableList(re=None, tables=[table()]))
    return m


def with_tournament() -> M.ClientModel:
    """The tournament screen following one tournament: standings and live tables."""
    m, _get = opened(7)
    m.apply(P.TournamentState(re=None, tournament=state(done=6)))
    return m


TAKEN = [[], [C.QUEEN_SPADES], [C.TEN_DIAMONDS], C.parse_cards("2H 3H")]
SCREENS: dict[str, Callable[[], M.ClientModel]] = {
    "help": with_help,
    "scores": with_scores,
    "summary": with_summary,
    "game over": with_game_over,
    "doubling": lambda: at_table("levant"),
    "new table": with_form,
    "lobby": with_lobby_stats,
    "bot level": with_bot_level,
    "tournament": with_tournament,
}


def boxes_intact(rows: list[str]) -> list[str]:
    """Rows of a box whose left or right border is missing."""
    broken = []
    for top, row in enumerate(rows):
        left, right = row.find("┌"), row.rfind("┐")
        if left < 0 or right < 0:
            continue
        for y in range(top + 1, len(rows)):
            inner = rows[y]
            if inner[left : left + 1] == "└":
                break
            if inner[left : left + 1] != "│" or inner[right : right + 1] != "│":
                broken.append(inner)
    return broken


@pytest.mark.parametrize("screen", list(SCREENS))
def test_texts_stay_inside_their_boxes(language: str, screen: str) -> None:
    m = SCREENS[screen]()
    assert PLAYERS  # the seats of the builders' table
    rows = ["".join(ch for _s, ch in row).ljust(80) for row in paint(m, Options(), 80, 24).cells]
    assert len(rows) == 24
    assert boxes_intact(rows) == [], "\n".join(rows)


@pytest.mark.parametrize("lang", ["en", "it", "ar"])
def test_arabic_chat_reads_right_in_every_language(lang: str) -> None:
    """An Arabic line in the chat pane, with bidi on: the sender's name, then the text, each
    drawn right to left, in the English and Italian interfaces as in the Arabic one."""
    import unicodedata

    i18n.set_language(lang)
    rtl.set_enabled(True)
    try:
        m = play_phase()
        m.apply(P.ChatMessage(sender="سامي", text="مرحبا", table_id=7))
        rows = ["".join(ch for _s, ch in row) for row in paint(m, Options(), 80, 24).cells]
    finally:
        i18n.set_language("en")
        rtl.set_enabled(False)
    line = next(r[r.index("│") + 1 :].strip() for r in rows if "ﺎﺒﺣﺮﻣ" in r)
    # Visual "ﺎﺒﺣﺮﻣ :ﻲﻣﺎﺳ": read from the right it is the sender, a colon, the text.
    assert unicodedata.normalize("NFKC", line[::-1]) == "سامي: مرحبا"
